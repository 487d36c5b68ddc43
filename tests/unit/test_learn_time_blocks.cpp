// A partial model's input (learn/time_blocks.hpp): each rank's collectives over the whole world
// kept as calls, the rest folded into blocks of time, each its slowest rank's.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "app/app_program_json.hpp"
#include "learn/time_blocks.hpp"
#include "trace/trace.hpp"

using namespace augur;

namespace {

// A trace written by hand: each rank's states, with a collective record for each collective.
struct TraceBuilder {
  trace::Trace t;
  explicit TraceBuilder(int p) { t.ranks.resize(std::size_t(p)); }
  void compute(int rank, double begin, double end) { state(rank, begin, end, trace::StateKind::compute, "compute"); }
  void call(int rank, const std::string& name, double begin, double end) { state(rank, begin, end, trace::StateKind::mpi, name); }
  void collective(int rank, const std::string& name, double begin, double end, int comm, int root = -1,
                  std::uint64_t bytes = 8) {
    call(rank, name, begin, end);
    t.ranks[std::size_t(rank)].collectives.push_back({begin, end, t.intern(name), comm, root, bytes});
  }
  void state(int rank, double begin, double end, trace::StateKind kind, const std::string& name) {
    t.ranks[std::size_t(rank)].states.push_back({begin, end, t.intern(name), kind});
  }
};

std::string refusal(const trace::Trace& t) {
  try {
    learn::time_blocks(t, "tr");
  } catch (const learn::LearnError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(LearnTimeBlocks, WorldCollectivesAreKeptAndEachBlockIsItsSlowestRanks) {
  TraceBuilder b(2);
  // Rank 0 computes 3 s and sends; rank 1 computes 1 s and waits 2 s in its receive. Both reduce
  // over the world (comm 0), then reduce over a communicator of rank 0 alone (comm 5, folded), and
  // rank 1 computes 4 s more where rank 0 computes 1 s.
  b.compute(0, 0, 3), b.call(0, "send", 3, 3.5), b.collective(0, "allreduce", 3.5, 4, 0);
  b.collective(0, "bcast", 4, 4.25, 5, 0), b.compute(0, 4.25, 5.25);
  b.compute(1, 0, 1), b.call(1, "recv", 1, 3.5), b.collective(1, "allreduce", 3.5, 4, 0);
  b.compute(1, 4, 8);
  const auto blocks = learn::time_blocks(b.t, "tr");
  ASSERT_EQ(blocks.sequences.ops.size(), 2u);
  for (const auto& ops : blocks.sequences.ops) {
    ASSERT_EQ(ops.size(), 3u);
    EXPECT_DOUBLE_EQ(ops[0].value, 3.5);  // rank 0's: its compute and its send
    EXPECT_EQ(ops[1].kind, sim::OpKind::collective);
    EXPECT_EQ(blocks.sequences.names.at(ops[1].name), "allreduce");
    EXPECT_EQ(ops[1].comm, 0);
    EXPECT_DOUBLE_EQ(ops[1].value, 8);
    EXPECT_DOUBLE_EQ(ops[2].value, 4);  // rank 1's: its compute after the reduction
  }
  EXPECT_EQ(blocks.folded_calls, 3u);  // send, recv and the bcast over one rank
  EXPECT_EQ(blocks.folded.at("bcast"), 1u);
  EXPECT_DOUBLE_EQ(blocks.blocks, 7.5);
  EXPECT_DOUBLE_EQ(blocks.run, 8);
  EXPECT_DOUBLE_EQ(blocks.share(), 7.5 / 8);
}

TEST(LearnTimeBlocks, RanksThatCallTheWorldsCollectivesInDifferentOrdersAreRefused) {
  TraceBuilder b(3);
  for (int r = 0; r < 3; ++r) {
    b.collective(r, "allreduce", 0, 1, 0);
    b.collective(r, r == 2 ? "barrier" : "bcast", 1, 2, 0, r == 2 ? -1 : 0);
    b.collective(r, r == 2 ? "bcast" : "barrier", 2, 3, 0, r == 2 ? 0 : -1);
  }
  const auto why = refusal(b.t);
  EXPECT_NE(why.find("ranks 0 and 2 call the world's collectives in different orders: their collective 2 over the world "
                     "is MPI_Bcast rooted at 0 on rank 0 and MPI_Barrier on rank 2"),
            std::string::npos)
      << why;
}

TEST(LearnTimeBlocks, RanksWithoutACollectiveOverTheWorldHaveNothingToKeep) {
  TraceBuilder b(2);
  b.compute(0, 0, 1), b.call(0, "send", 1, 2);
  b.compute(1, 0, 1), b.call(1, "recv", 1, 2);
  EXPECT_NE(refusal(b.t).find("call no collective over the whole world"), std::string::npos) << refusal(b.t);
}

TEST(LearnTimeBlocks, CountsThatShareNoWorldCollectiveAreRefusedWithTheFirstOfEach) {
  std::vector<trace::Trace> traces;
  std::vector<learn::LearnRun> runs;
  for (const int p : {2, 4, 8}) {
    TraceBuilder b(p);
    for (int r = 0; r < p; ++r) {
      b.compute(r, 0, 1.0 / p);
      b.collective(r, p < 8 ? "allreduce" : "allgather", 1.0 / p, 1.0 / p + 0.1, 0);
    }
    runs.push_back({"tr-" + std::to_string(p), p, 0, {}});
    traces.push_back(std::move(b.t));
  }
  std::vector<learn::FoldedAt> folded;
  std::string why;
  try {
    learn::learn_time_blocks(traces, runs, "", folded);
  } catch (const learn::LearnError& e) {
    why = e.what();
  }
  EXPECT_NE(why.find("no collective over the whole world is called at every count (first MPI_Allreduce at tr-2, "
                     "first MPI_Allgather at tr-8)"),
            std::string::npos)
      << why;
}

// A broadcast only the runs at 2 and 8 make (a setting read at those counts): the two reductions
// every count makes are kept, and the broadcast's time joins the block it falls in. (The first
// count has the longer sequence, the third the shorter: both orders of the comparison.)
TEST(LearnTimeBlocks, AWorldCollectiveSomeCountsLackIsFoldedIntoItsBlock) {
  std::vector<trace::Trace> traces;
  std::vector<std::string> labels;
  std::vector<learn::LearnRun> runs;
  for (const int p : {2, 4, 8, 16}) {
    TraceBuilder b(p);
    const bool reads = p == 2 || p == 8;
    const double w = 1.0 / p, extra = reads ? 0.125 : 0;
    for (int r = 0; r < p; ++r) {
      b.compute(r, 0, w);
      b.collective(r, "allreduce", w, w + 0.25, 0);
      if (reads) b.collective(r, "bcast", w + 0.25, w + 0.25 + extra, 0, 0);
      b.compute(r, w + 0.25 + extra, 2 * w + 0.25 + extra);
      b.collective(r, "allreduce", 2 * w + 0.25 + extra, 2 * w + 0.5 + extra, 0);
    }
    labels.push_back("tr-" + std::to_string(p));
    runs.push_back({labels.back(), p, 0, {}});
    traces.push_back(std::move(b.t));
  }
  const auto blocks = learn::time_blocks(traces, labels);
  ASSERT_EQ(blocks.size(), 4u);
  for (std::size_t k = 0; k < blocks.size(); ++k) {
    const auto& ops = blocks[k].sequences.ops.front();
    ASSERT_EQ(ops.size(), 5u) << labels[k];  // block, allreduce, block, allreduce, block
    const double w = 1.0 / runs[k].p;
    const bool reads = runs[k].p == 2 || runs[k].p == 8;
    EXPECT_DOUBLE_EQ(ops[2].value, w + (reads ? 0.125 : 0)) << labels[k];
    EXPECT_EQ(blocks[k].unshared_world_calls, reads ? 1u : 0u) << labels[k];
  }
  std::vector<learn::FoldedAt> folded;
  const auto learned = learn::learn_time_blocks(traces, runs, "", folded);
  EXPECT_EQ(folded[2].by_call.at("bcast"), 8u);
  ASSERT_EQ(learned.notes.size(), 1u);
  EXPECT_NE(learned.notes[0].find("not every count calls are folded into the blocks too: 1 at p = 2, 1 at p = 8"), std::string::npos)
      << learned.notes[0];
  const auto text = app::program_to_json(learned.program).dump();
  EXPECT_EQ(text.find("bcast"), std::string::npos) << text;
}

TEST(LearnTimeBlocks, BlocksThatFollowALawAreLearnedAsOne) {
  std::vector<trace::Trace> traces;
  std::vector<learn::LearnRun> runs;
  for (const int p : {2, 4, 8, 16}) {
    TraceBuilder b(p);
    for (int r = 0; r < p; ++r) {  // rank 0 the slowest: 1/p s and a send of 0.25 s
      const double work = 1.0 / p - (r == 0 ? 0 : 0.125 / p);
      b.compute(r, 0, work);
      b.call(r, r == 0 ? "send" : "recv", work, 1.0 / p + 0.25);
      b.collective(r, "allreduce", 1.0 / p + 0.25, 1.0 / p + 0.5, 0);
    }
    runs.push_back({"tr-" + std::to_string(p), p, 0, {}});
    traces.push_back(std::move(b.t));
  }
  std::vector<learn::FoldedAt> folded;
  const auto learned = learn::learn_time_blocks(traces, runs, "", folded);
  ASSERT_EQ(folded.size(), 4u);
  EXPECT_EQ(folded[3].calls, 16u);
  EXPECT_DOUBLE_EQ(folded[3].share, (1.0 / 16 + 0.25) / (1.0 / 16 + 0.5));
  bool found = false;
  for (const auto& line : learned.laws)
    if (line.what == "compute seconds" && line.law.cv_error < 1e-9 && line.law.expr.find("/p") != std::string::npos)
      found = true;
  std::string laws;
  for (const auto& line : learned.laws) laws += line.what + ": " + line.law.expr + "\n";
  EXPECT_TRUE(found) << laws;
}

TEST(LearnTimeBlocks, ABroadcastWhoseRootFollowsNoRuleIsFoldedAndTheReductionsKept) {
  std::vector<trace::Trace> traces;
  std::vector<learn::LearnRun> runs;
  const std::map<int, int> roots = {{2, 1}, {4, 3}, {8, 2}, {16, 11}};  // a pivot's owner: the data's choice
  for (const auto& [p, root] : roots) {
    TraceBuilder b(p);
    for (int r = 0; r < p; ++r) {
      b.compute(r, 0, 1.0 / p);
      b.collective(r, "bcast", 1.0 / p, 1.0 / p + 0.25, 0, root);
      b.collective(r, "allreduce", 1.0 / p + 0.25, 1.0 / p + 0.5, 0);
    }
    runs.push_back({"tr-" + std::to_string(p), p, 0, {}});
    traces.push_back(std::move(b.t));
  }
  std::vector<learn::FoldedAt> folded;
  const auto learned = learn::learn_time_blocks(traces, runs, "", folded);
  ASSERT_EQ(learned.notes.size(), 1u);
  EXPECT_NE(learned.notes[0].find("with a root are folded into the blocks too"), std::string::npos) << learned.notes[0];
  EXPECT_NE(learned.notes[0].find("follows no rule"), std::string::npos) << learned.notes[0];
  EXPECT_EQ(folded[3].by_call.at("bcast"), 16u);
  const auto text = app::program_to_json(learned.program).dump();
  EXPECT_EQ(text.find("bcast"), std::string::npos) << text;
  EXPECT_NE(text.find(R"("op":"allreduce")"), std::string::npos) << text;
}
