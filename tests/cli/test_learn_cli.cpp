// `augur learn`: a program simulated at p = 2, 4, 8 and 16 (its traces written by `augur sim`),
// learned, and simulated again at p = 64 from what was learned, against the same program written
// for p = 64; and what cannot be learned refused, with nothing written.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <numeric>
#include <random>
#include <regex>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "augur_runner.hpp"

using augur_test::augur;
using augur_test::read_text;
using augur_test::temp_file;

namespace {

// A ring: each rank computes 64 ms / p, passes 8 KiB on, and the ranks sum 64 bytes at the end.
std::string ring(int p) {
  return fmt::format(
      "ranks {}\nranks 0..N-1 {{\n  repeat 10 {{\n    compute {}us\n    sendrecv rank+1 rank-1 8KiB\n  }}\n"
      "  allreduce 64\n}}\n",
      p, 64000 / p);
}

double simulated(const std::string& args) {
  const auto r = augur("sim --machine t3d --json --no-progress " + args);
  EXPECT_EQ(r.status, 0) << r.out;
  return r.status == 0 ? nlohmann::json::parse(r.out).at("predicted_seconds").get<double>() : -1;
}

// Traces of `program` at p = 2, 4, 8, 16, as shell words for augur learn.
std::string traces_of(const std::string& name, const std::function<std::string(int)>& program) {
  std::string words;
  for (const int p : {2, 4, 8, 16}) {
    const auto dir = testing::TempDir() + fmt::format("learn-{}-{}", name, p);
    std::filesystem::remove_all(dir);
    const auto file = temp_file(fmt::format("learn-{}-{}.sched", name, p), program(p));
    EXPECT_GE(simulated(file + " --trace " + dir), 0);
    words += " " + dir;
  }
  return words;
}

// Traces of the application model `file` simulated at p = 2, 4, 8, 16, as augur learn's words.
std::string app_traces(const std::string& name, const std::string& file) {
  std::string words;
  for (const int p : {2, 4, 8, 16}) {
    const auto dir = testing::TempDir() + fmt::format("learn-{}-{}", name, p);
    std::filesystem::remove_all(dir);
    EXPECT_GE(simulated(fmt::format("--app {} --ranks {} --no-bounds --trace {}", file, p, dir)), 0);
    words += " " + dir;
  }
  return words;
}

// Traces of `program(p, n)` at p = 2, 4, 8, 16 and n = 64, 128, 256, as augur learn's words with
// a --param n=… per trace.
std::string traces_in_p_and_n(const std::string& name, const std::function<std::string(int, int)>& program) {
  std::string words, params;
  for (const int n : {64, 128, 256})
    for (const int p : {2, 4, 8, 16}) {
      const auto dir = testing::TempDir() + fmt::format("learn-{}-{}-{}", name, n, p);
      std::filesystem::remove_all(dir);
      const auto file = temp_file(fmt::format("learn-{}-{}-{}.sched", name, n, p), program(p, n));
      EXPECT_GE(simulated(file + " --trace " + dir), 0);
      words += " " + dir;
      params += fmt::format(" --param n={}", n);
    }
  return words + params;
}

const nlohmann::json& body_of(const nlohmann::json& app) { return app.at("program").at("groups").at(0).at("body"); }

// A law's expression, written alone (exact, or fitted without scatter) or with its bounds.
std::string expr_of(const nlohmann::json& law) { return law.is_string() ? law.get<std::string>() : law.at("expr").get<std::string>(); }

// The coefficients of `expr` when it has the form `pattern` (a regular expression whose groups
// are the coefficients), else nothing.
std::vector<double> coefficients_of(const std::string& expr, const std::string& pattern) {
  std::smatch m;
  if (!std::regex_match(expr, m, std::regex(pattern))) return {};
  std::vector<double> out;
  for (std::size_t i = 1; i < m.size(); ++i) out.push_back(std::stod(m[i].str()));
  return out;
}

const std::string kNumber = "([-+0-9.e]+)";

// Ranks 0 … p − 1 in an order shuffled by `seed`, as a schedule's table: "2, 0, 3, 1".
std::string shuffled_ranks(int p, unsigned seed) {
  std::vector<int> perm(p);
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), std::mt19937(seed));
  std::string table;
  for (int i = 0; i < p; ++i) table += fmt::format("{}{}", i ? ", " : "", perm[i]);
  return table;
}

}  // namespace

TEST(LearnCli, LearnsARingsLawsAndPredictsItAtSixtyFourRanks) {
  const auto out = testing::TempDir() + "learn-ring.json";
  std::filesystem::remove(out);
  const auto r = augur("learn" + traces_of("ring", ring) + " -o " + out);
  ASSERT_EQ(r.status, 0) << r.out;
  // Checked before it was written: the calls as the runs', and each count's time beside its run's.
  EXPECT_NE(r.out.find("checked: the program simulated at each count it was learned from, against the trace replayed: "
                       "every call's count and bytes as the run's"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("\n  p = 16 "), std::string::npos) << r.out;
  const auto app = nlohmann::json::parse(read_text(out));
  ASSERT_EQ(app.at("program").at("groups").size(), 1u);
  const auto& loop = body_of(app).at(0);
  EXPECT_EQ(loop.at("repeat").dump(), "\"10\"");
  const auto& compute = loop.at("body").at(0).at("compute");  // seconds · p, fitted to rounding
  EXPECT_NEAR(compute.is_string() ? std::stod(compute.get<std::string>()) : compute.at("coefficients").at(0).get<double>(),
              0.064, 1e-12);
  const auto& exchange = loop.at("body").at(1);
  EXPECT_EQ(exchange.at("op"), "sendrecv");
  EXPECT_EQ(body_of(app).at(1).at("op"), "allreduce");
  // What was learned runs at a count never traced to the time of the program written for it.
  const double learned = simulated("--app " + out + " --ranks 64");
  const double written = simulated(temp_file("learn-ring-64.sched", ring(64)));
  EXPECT_NEAR(learned, written, 1e-9 * written);
}

TEST(LearnCli, PeersThatFollowNoRuleAreRefusedAndNothingIsWritten) {
  // Each rank sends to a partner picked by a table that is a different shuffle at each count.
  const auto shuffled = [](int p) {
    return fmt::format("ranks {}\ntable to = {{{}}}\nranks 0..N-1 {{\n  isend to[rank] 1KiB\n  recv any\n  wait\n}}\n", p,
                       shuffled_ranks(p, 42 + p));
  };
  const auto out = testing::TempDir() + "learn-shuffle.json";
  std::filesystem::remove(out);
  const auto r = augur("learn" + traces_of("shuffle", shuffled) + " -o " + out);
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("MPI_Isend"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("follows no rule"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("at p = 8"), std::string::npos) << r.out;
  EXPECT_FALSE(std::filesystem::exists(out));
}

// Each rank computes, sends to a partner from a table shuffled anew at each count, and the ranks
// reduce over the world: its peers follow no rule, its collectives and its time do.
std::string shuffled_with_reductions(int p) {
  return fmt::format("ranks {}\ntable to = {{{}}}\nranks 0..N-1 {{\n  repeat 3 {{\n    compute {}us\n    isend to[rank] "
                     "1KiB\n    recv any\n    wait\n    allreduce 64\n  }}\n}}\n",
                     p, shuffled_ranks(p, 7 + p), 64000 / p);
}

TEST(LearnCli, APartialModelKeepsTheWorldsCollectivesAndTheRestAsTimeThatFollowsALaw) {
  const auto traces = traces_of("partial", shuffled_with_reductions);
  const auto out = testing::TempDir() + "learn-partial.json";
  std::filesystem::remove(out);
  const auto whole = augur("learn" + traces + " --whole -o " + out);
  EXPECT_EQ(whole.status, 1) << whole.out;
  EXPECT_NE(whole.out.find("follows no rule"), std::string::npos) << whole.out;
  EXPECT_FALSE(std::filesystem::exists(out));

  const auto r = augur("learn" + traces + " -o " + out);
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("a partial model: the whole program could not be learned as calls"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("follows no rule"), std::string::npos) << r.out;  // why, as the refusal said it
  EXPECT_NE(r.out.find("p = 16 "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("against the trace replayed: (the calls its blocks fold are not compared) time"), std::string::npos)
      << r.out;
  const auto app = nlohmann::json::parse(read_text(out));
  const auto& blocks = app.at("program").at("blocks_of_time");
  ASSERT_EQ(blocks.size(), 4u);
  EXPECT_EQ(blocks.at(3).at("p"), 16);
  EXPECT_EQ(blocks.at(3).at("calls"), 16 * 3 * 3);  // isend, recv, wait: 3 times on 16 ranks
  EXPECT_GT(blocks.at(3).at("share").get<double>(), 0.5);
  EXPECT_LT(blocks.at(3).at("share").get<double>(), 1.0);

  // At 64 ranks, a count it was not learned from, the blocks' law gives the program's own time.
  const auto at64 = augur("sim --machine t3d --json --no-progress --no-bounds --app " + out + " --ranks 64");
  ASSERT_EQ(at64.status, 0) << at64.out;
  const auto report = nlohmann::json::parse(at64.out);
  EXPECT_NE(report.at("warnings").dump().find("a partial model"), std::string::npos) << at64.out;
  const double written = simulated(temp_file("learn-partial-64.sched", shuffled_with_reductions(64)));
  EXPECT_NEAR(report.at("predicted_seconds").get<double>(), written, 1e-9 * written);
}

TEST(LearnCli, PhasesThatDifferBetweenCountsAreRefused) {
  const auto program = [](int p) {
    return fmt::format("ranks {}\nranks 0..N-1 {{\n  {}\n}}\n", p, p < 8 ? "allreduce 64" : "bcast 64 root=0");
  };
  const auto r = augur("learn" + traces_of("differ", program) + " -o " + testing::TempDir() +
                       "learn-differ.json");
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("differ between process counts"), std::string::npos) << r.out;
}

TEST(LearnCli, OneProcessCountIsAUsageError) {
  const auto dir = testing::TempDir() + "learn-one";
  std::filesystem::remove_all(dir);
  ASSERT_GE(simulated(temp_file("learn-one.sched", ring(4)) + " --trace " + dir), 0);
  const auto r = augur("learn " + dir + " " + dir + " -o " + testing::TempDir() + "learn-one.json");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.out.find("two or more process counts"), std::string::npos) << r.out;
}

TEST(LearnCli, RecoversTheSeedsMandelModelFormsInPAndN) {
  // Seed 000's mandel: t = d·(d/p)·c computing rows, then the image gathered at rank 0.
  const auto traces = traces_in_p_and_n("mandel", [](int p, int n) {
    return fmt::format("ranks {}\nranks 0..N-1 {{\n  compute {}ns\n  gather {} root=0\n}}\n", p, n * n / p * 50,
                       n * n / p * 4);
  });
  const auto out = testing::TempDir() + "learn-mandel.json";
  const auto r = augur("learn" + traces + " -o " + out);
  ASSERT_EQ(r.status, 0) << r.out;
  const auto app = nlohmann::json::parse(read_text(out));
  // Exact data give an exact law, written as its expression: a·n²/p with a = 50 ns.
  const auto compute = body_of(app).at(0).at("compute").get<std::string>();
  const auto times = compute.find("*n^2/p");
  ASSERT_NE(times, std::string::npos) << compute;
  EXPECT_EQ(times + 6, compute.size()) << compute;
  EXPECT_NEAR(std::stod(compute.substr(0, times)), 50e-9, 1e-15);
  EXPECT_EQ(body_of(app).at(1).at("bytes").get<std::string>(), "4*n^2/p");
  EXPECT_EQ(app.at("parameters").at("n").at("values").size(), 3u);
  // And the learned model plots like a hand-written one.
  const auto plot = augur("plot " + out + " --machine t3d --no-draw -o " + testing::TempDir() + "learn-mandel-plot");
  EXPECT_EQ(plot.status, 0) << plot.out;
}

TEST(LearnCli, RecoversTheSeedsLifeModelFormsInPAndN) {
  // Seed 000's life on a d × d board in row blocks: each iteration updates the block,
  // (d/p)·c·d + d·(d/p)·c = 2·c·d²/p with c = 10 ns, and swaps the boundary rows with the
  // neighbours above and below (2·tsend(d) + 2·trecv(d), d ints each way, a tag for each way, so
  // that at p = 2, where both neighbours are the other rank, the two swaps stay two); a barrier
  // ends the run.
  const auto traces = traces_in_p_and_n("life", [](int p, int n) {
    return fmt::format("ranks {}\nranks 0..N-1 {{\n  repeat 10 {{\n    compute {}ns\n"
                       "    sendrecv rank+1 rank-1 {} tag=1\n    sendrecv rank-1 rank+1 {} tag=2\n  }}\n  barrier\n}}\n",
                       p, 2 * 10 * n * n / p, 4 * n, 4 * n);
  });
  const auto out = testing::TempDir() + "learn-life.json";
  const auto r = augur("learn" + traces + " -o " + out);
  ASSERT_EQ(r.status, 0) << r.out;
  const auto app = nlohmann::json::parse(read_text(out));
  ASSERT_EQ(app.at("program").at("groups").size(), 1u) << app.dump(1);
  const auto& body = body_of(app);
  ASSERT_EQ(body.size(), 2u) << body.dump(1);
  EXPECT_EQ(body.at(0).at("repeat"), "10");
  EXPECT_EQ(body.at(1).at("op"), "barrier");
  // The loop's body: the two swaps, d ints each, to the next rank and the one before, around
  // the ring, and the update, exact data giving a·n²/p with a = 2·c.
  int swaps = 0, updates = 0;
  for (const auto& node : body.at(0).at("body")) {
    if (node.contains("op")) {
      EXPECT_EQ(node.at("op"), "sendrecv");
      EXPECT_EQ(node.at("bytes"), "4*n");
      EXPECT_EQ(node.at("peer").at("edge"), "wrap") << node.dump();
      ++swaps;
      continue;
    }
    const auto a = coefficients_of(expr_of(node.at("compute")), kNumber + "\\*n\\^2/p");
    ASSERT_EQ(a.size(), 1u) << node.dump();
    EXPECT_NEAR(a[0], 20e-9, 1e-15);
    ++updates;
  }
  EXPECT_EQ(swaps, 2);
  EXPECT_EQ(updates, 1);
  EXPECT_NE(r.out.find("a·n²/p"), std::string::npos) << r.out;
}

TEST(LearnCli, RecoversTheSeedsOuterModelFormsInPAndN) {
  // Seed 000's outer product of d points: each rank's d/p points allgathered (d/p ints each),
  // the points made (d·tdist) and the rows of the d × d distance matrix filled (d·(d/p)·tdist),
  // the largest distance allreduced (one int), the diagonal set (d·tdist) and a barrier, with
  // tdist = 50 ns.
  const auto traces = traces_in_p_and_n("outer", [](int p, int n) {
    return fmt::format("ranks {}\nranks 0..N-1 {{\n  allgather {}\n  compute {}ns\n  allreduce 4\n  compute {}ns\n"
                       "  barrier\n}}\n",
                       p, 4 * n / p, 50 * n + 50 * n * n / p, 50 * n);
  });
  const auto out = testing::TempDir() + "learn-outer.json";
  const auto r = augur("learn" + traces + " -o " + out);
  ASSERT_EQ(r.status, 0) << r.out;
  const auto app = nlohmann::json::parse(read_text(out));
  const auto& body = body_of(app);
  ASSERT_EQ(body.size(), 5u) << body.dump(1);
  EXPECT_EQ(body.at(0).at("op"), "allgather");
  EXPECT_EQ(body.at(0).at("bytes"), "4*n/p");
  // Making the points and filling the rows: the whole problem beside a share of it, a·n + b·n²/p.
  const auto fill = coefficients_of(expr_of(body.at(1).at("compute")), kNumber + "\\*n \\+ " + kNumber + "\\*n\\^2/p");
  ASSERT_EQ(fill.size(), 2u) << body.at(1).dump();
  EXPECT_NEAR(fill[0], 50e-9, 1e-14);
  EXPECT_NEAR(fill[1], 50e-9, 1e-14);
  EXPECT_EQ(body.at(2).at("op"), "allreduce");
  EXPECT_EQ(body.at(2).at("bytes"), "4");
  const auto diagonal = coefficients_of(expr_of(body.at(3).at("compute")), kNumber + "\\*n");
  ASSERT_EQ(diagonal.size(), 1u) << body.at(3).dump();
  EXPECT_NEAR(diagonal[0], 50e-9, 1e-15);
  EXPECT_EQ(body.at(4).at("op"), "barrier");
  EXPECT_NE(r.out.find("a·n + b·n²/p"), std::string::npos) << r.out;
}

// A task farm (examples/farm.c's pattern): rank 0 answers whoever asked with one of 60 tasks
// (tag 3) and then with the stop (tag 4); each worker asks, and computes 1 ms per task until told
// to stop. How many tasks a worker takes is the run's doing, not its rank's.
TEST(LearnCli, LearnsATaskFarmsRepliesAndWorkLoopsAndPredictsItAtSixtyFourRanks) {
  const auto farm = temp_file("learn-farm-written.json", R"x({"augur_app": 1, "name": "farm",
    "parameters": {"p": {"from": 2, "to": 64, "scale": "doubling"}},
    "phases": [{"name": "compute", "expr": "0"}],
    "program": {"groups": [
      {"ranks": {"first": "0", "last": "0"}, "body": [
        {"repeat": "60", "body": [
          {"op": "recv", "peer": "any", "tag": -1}, {"op": "send", "peer": "reply", "bytes": "8", "tag": 3}]},
        {"repeat": "p - 1", "body": [
          {"op": "recv", "peer": "any", "tag": -1}, {"op": "send", "peer": "reply", "bytes": "8", "tag": 4}]}]},
      {"ranks": {"first": "1", "last": "p - 1"}, "body": [
        {"op": "send", "peer": {"fixed": "0"}, "bytes": "16", "tag": 1},
        {"until_tag": 4, "body": [
          {"op": "recv", "peer": {"fixed": "0"}, "tag": -1},
          {"compute": "0.001"},
          {"op": "send", "peer": {"fixed": "0"}, "bytes": "16", "tag": 2}]}]}]}})x");
  const auto traces = app_traces("farm", farm);
  const auto out = testing::TempDir() + "learn-farm.json";
  std::filesystem::remove(out);
  const auto r = augur("learn" + traces + " -o " + out);
  ASSERT_EQ(r.status, 0) << r.out;
  // At p = 2 the stop loop runs once, a loop of one beside the other counts' p - 1: every count
  // is learned.
  EXPECT_EQ(r.out.find("left out"), std::string::npos) << r.out;
  const auto app = nlohmann::json::parse(read_text(out));
  const auto& groups = app.at("program").at("groups");
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups.at(0).at("body").at(0).at("body").at(1).at("peer"), "reply");
  EXPECT_EQ(groups.at(0).at("body").at(1).at("repeat"), "p - 1") << groups.at(0).dump();
  const auto& work = groups.at(1).at("body");
  const auto loop = std::find_if(work.begin(), work.end(), [](const auto& n) { return n.contains("until_tag"); });
  ASSERT_NE(loop, work.end()) << work.dump();
  EXPECT_EQ(loop->at("until_tag"), 4);
  // The design-time phases take each phase from its slowest group: the compute is the workers'
  // mean count of tasks times a task of 1 ms (1000 µs), where the server computes nothing.
  const auto& phases = app.at("phases");
  const auto compute = std::find_if(phases.begin(), phases.end(), [](const auto& ph) { return ph.at("name") == "compute"; });
  ASSERT_NE(compute, phases.end()) << phases.dump();
  EXPECT_NE(compute->at("expr").get<std::string>().find("1e6 * (0.0010000"), std::string::npos) << compute->dump();
  // The learned farm deals its tasks at 32 and 64 ranks as the written one does.
  for (const int p : {32, 64}) {
    const double written = simulated(fmt::format("--app {} --ranks {} --no-bounds", farm, p));
    EXPECT_NEAR(simulated(fmt::format("--app {} --ranks {} --no-bounds", out, p)), written, 1e-6 * written) << p;
  }
}

// Collectives on the rows and the columns of the process grid (MPI_Comm_split by rank / C and by
// rank mod C, C = dims(p, 2, 1)): their communicators learned as blocks and strides of that size.
TEST(LearnCli, LearnsCollectivesOnAGridsRowsAndColumns) {
  const auto grid = temp_file("learn-grid-written.json", R"x({"augur_app": 1, "name": "grid",
    "parameters": {"p": {"from": 2, "to": 64, "scale": "doubling"}},
    "phases": [{"name": "compute", "expr": "0"}],
    "program": {"groups": [{"ranks": {"first": "0", "last": "p - 1"}, "body": [
      {"repeat": "5", "body": [
        {"compute": "0.064 / p"},
        {"op": "allreduce", "bytes": "8192", "comm": {"block": "dims(p, 2, 1)"}},
        {"op": "bcast", "bytes": "1024", "root": {"fixed": "0"}, "comm": {"stride": "dims(p, 2, 1)"}}]}]}]}})x");
  const auto out = testing::TempDir() + "learn-grid.json";
  std::filesystem::remove(out);
  const auto r = augur("learn" + app_traces("grid", grid) + " -o " + out);
  ASSERT_EQ(r.status, 0) << r.out;
  const auto loop = body_of(nlohmann::json::parse(read_text(out))).at(0).at("body");
  EXPECT_EQ(loop.at(1).at("comm").dump(), R"x({"block":"dims(p, 2, 1)"})x");
  EXPECT_EQ(loop.at(2).at("comm").dump(), R"x({"stride":"dims(p, 2, 1)"})x");
  for (const int p : {64, 256}) {
    const double written = simulated(fmt::format("--app {} --ranks {} --no-bounds", grid, p));
    EXPECT_NEAR(simulated(fmt::format("--app {} --ranks {} --no-bounds", out, p)), written, 1e-6 * written) << p;
  }
}
