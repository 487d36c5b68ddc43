// Loops whose count the run decided (learn/until_loops.hpp): a worker's receives of any tag from
// one rank, each followed by the same calls, until one takes another tag, found and grouped
// whatever their count; a server's answers marked as replies to the latest receive's source.
#include <gtest/gtest.h>

#include <vector>

#include "learn/rank_groups.hpp"
#include "learn/until_loops.hpp"

using namespace augur;
using namespace augur::learn;
using sim::kAny;

namespace {

// A worker in the rhythm of learn/rank_sequences.hpp (a compute between every two calls): it
// asks rank 0, takes `tasks` tasks (tag 3) each computed and returned, then the stop (tag 4).
void add_worker(RankSequences& s, int tasks, double seconds) {
  std::vector<sim::Op> ops{sim::compute_op(0), sim::send_op(0, 16, 1), sim::compute_op(0)};
  std::vector<std::int32_t> tags(3, kAny), from(3, kAny);
  const auto receive = [&](std::int32_t tag) {
    ops.push_back(sim::recv_op(0, kAny)), tags.push_back(tag), from.push_back(0);
  };
  for (int t = 0; t < tasks; ++t) {
    receive(3);
    ops.push_back(sim::compute_op(seconds)), tags.push_back(kAny), from.push_back(kAny);
    ops.push_back(sim::send_op(0, 16, 2)), tags.push_back(kAny), from.push_back(kAny);
    ops.push_back(sim::compute_op(0)), tags.push_back(kAny), from.push_back(kAny);
  }
  receive(4);
  ops.push_back(sim::compute_op(0)), tags.push_back(kAny), from.push_back(kAny);
  s.ops.push_back(ops), s.received_tag.push_back(tags), s.received_from.push_back(from);
  ++s.ranks;
}

std::vector<std::uint32_t> ids_of(const std::vector<sim::Op>& ops) {
  std::vector<std::uint32_t> ids;
  for (const auto& op : ops) ids.push_back(static_cast<std::uint32_t>(op.kind) * 100 + std::uint32_t(op.tag + 10));
  return ids;
}

}  // namespace

TEST(LearnUntilLoops, AWorkersTasksUntilTheStopAreOneRegion) {
  RankSequences s;
  add_worker(s, 3, 1e-3);
  const auto ids = ids_of(s.ops[0]);
  const auto regions = until_regions(s.ops[0], s.received_tag[0], ids);
  ASSERT_EQ(regions.size(), 1u);
  EXPECT_EQ(regions[0].first, 3u);
  EXPECT_EQ(regions[0].period, 4u);
  EXPECT_EQ(regions[0].times(), 3u);
  EXPECT_EQ(regions[0].exit, 15u);
  EXPECT_EQ(regions[0].tag, 4);
  // Receives that all took the same tag end no loop.
  auto same = s.received_tag[0];
  same[15] = 3;
  EXPECT_TRUE(until_regions(s.ops[0], same, ids).empty());
}

TEST(LearnUntilLoops, WorkersThatTookDifferentNumbersOfTasksFormOneGroup) {
  RankSequences s;
  add_worker(s, 1, 2e-3);  // ranks 0..2 here: the server is left out, the workers matter
  add_worker(s, 4, 1e-3);
  add_worker(s, 2, 1e-3);
  const auto groups = group_ranks(s, false);
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0].ranks, (std::vector<int>{0, 1, 2}));
  const auto loop = std::find_if(groups[0].body.begin(), groups[0].body.end(), [](const auto& n) { return n.is_loop(); });
  ASSERT_NE(loop, groups[0].body.end());
  EXPECT_EQ(loop->until_tag, 4);
  EXPECT_EQ(loop->counts, (std::vector<double>{1, 4, 2}));
  // The loop's first receive holds every iteration's and the stop's: 2, 5 and 3 occurrences.
  EXPECT_EQ(loop->body.front().values.at(1).size(), 5u);
  // With calls told apart by their peers (the first way of learning) nothing is folded.
  EXPECT_EQ(group_ranks(s, true).size(), 3u);
}

TEST(LearnUntilLoops, AServersAnswersAreRepliesToTheLatestReceive) {
  RankSequences s;
  s.ranks = 1;
  std::vector<sim::Op> ops{sim::compute_op(0)};
  std::vector<std::int32_t> from{kAny};
  for (const int client : {2, 1, 3, 1}) {
    sim::Op any = sim::recv_op(kAny, kAny);
    ops.push_back(any), from.push_back(client);
    ops.push_back(sim::compute_op(0)), from.push_back(kAny);
    ops.push_back(sim::send_op(client, 8, 3)), from.push_back(kAny);
    ops.push_back(sim::compute_op(0)), from.push_back(kAny);
  }
  s.ops.push_back(ops), s.received_from.push_back(from), s.received_tag.push_back(std::vector<std::int32_t>(ops.size(), 1));
  const auto groups = group_ranks(s, false);
  ASSERT_EQ(groups.size(), 1u);
  const auto& loop = groups[0].body.at(0);  // (compute, recv, compute, send) four times
  ASSERT_TRUE(loop.is_loop());
  EXPECT_EQ(loop.times, 4u);
  const auto& send = loop.body.at(3);
  EXPECT_EQ(send.op.kind, sim::OpKind::send);
  EXPECT_EQ(send.replies, (std::vector<char>{1}));
  EXPECT_EQ(send.peers.at(0), (std::vector<std::int32_t>{2, 1, 3, 1}));
}
