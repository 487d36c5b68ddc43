// `augur sim` as a user runs it: the report's first line, JSON, schedules, errors and deadlocks.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "augur_runner.hpp"

using augur_test::augur;
using augur_test::temp_file;

TEST(SimCli, GeneratedBroadcastReportOpensLikeAugurRun) {
  auto r = augur("sim --machine sp2-mpl --network loggops --generate bcast algorithm=1m p=12 bytes=16");
  ASSERT_EQ(r.status, 0) << r.out;
  // The same readable headline as augur run's report; --json carries the exact seconds.
  EXPECT_EQ(r.out.rfind("Predicted run time on sp2-mpl: 202.1 µs", 0), 0u) << r.out;
}

TEST(SimCli, JsonCarriesThePredictionAndEveryRank) {
  auto r = augur("sim --machine sp2-mpl --network loggops --generate allreduce p=16 bytes=8 --json");
  ASSERT_EQ(r.status, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_GT(j.at("predicted_seconds").get<double>(), 0);
  EXPECT_EQ(j.at("ranks").size(), 16u);
  EXPECT_EQ(j.at("operations").at("allreduce").at("count").get<int>(), 16);
}

// A model without a point-to-point law (archer2 has only its published osu_allreduce): the
// report names what priced the messages, as `augur run`'s does, in text and JSON.
TEST(SimCli, NamesTheStandInsOfOperationsTheModelLacks) {
  const auto text = augur("sim --machine archer2 --generate pipeline p=3 items=2 bytes=4KiB compute=10us");
  ASSERT_EQ(text.status, 0) << text.out;
  EXPECT_NE(text.out.find("The model lacks some operations the program used; what priced them:\n"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("\n  MPI_Send: not in the model, priced as 0\n"), std::string::npos) << text.out;
  const auto json = augur("sim --machine sp2-mpl --generate pipeline p=3 items=2 bytes=4KiB compute=10us --json");
  ASSERT_EQ(json.status, 0) << json.out;
  const auto used = nlohmann::json::parse(json.out).at("run").at("stand_ins_used");
  EXPECT_NE(std::find(used.begin(), used.end(), nlohmann::json{{"operation", "send"}, {"stand_in", "pingpong"}}), used.end()) << used;
}

TEST(SimCli, ScheduleRunsAndWritesATraceTheOtherToolsRead) {
  const auto sched = temp_file("ring.sched", "ranks 4\nranks 0..N-1 { compute 10us sendrecv rank+1 rank-1 1KiB }\n");
  const auto out = testing::TempDir() + "sim-trace";
  std::filesystem::remove_all(out);
  auto r = augur("sim --machine sp2-mpl " + sched + " --trace " + out);
  ASSERT_EQ(r.status, 0) << r.out;
  auto s = augur("summary " + out);
  EXPECT_EQ(s.status, 0) << s.out;
  // The simulated trace replays to the same prediction.
  auto again = augur("sim --machine sp2-mpl " + out + " --json");
  ASSERT_EQ(again.status, 0) << again.out;
  auto first = augur("sim --machine sp2-mpl " + sched + " --json");
  EXPECT_EQ(nlohmann::json::parse(again.out).at("predicted_seconds"),
            nlohmann::json::parse(first.out).at("predicted_seconds"));
}

TEST(SimCli, ScheduleErrorsPointAtTheText) {
  const auto sched = temp_file("bad.sched", "ranks 2\nrank 0 { sned 1 8 }\n");
  auto r = augur("sim " + sched);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("bad.sched:2:10: unknown operation 'sned'"), std::string::npos) << r.out;
}

TEST(SimCli, DeadlockNamesRanksAndEndsWithAnError) {
  const auto sched = temp_file("dead.sched", "ranks 3\nranks 0..2 { recv rank+1 }\n");
  auto r = augur("sim " + sched);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("deadlock: 3 of 3 ranks"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("rank 2: recv from rank 0"), std::string::npos) << r.out;
}

TEST(SimCli, HelpShowsExamples) {
  auto r = augur("sim --help");
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("--generate bcast algorithm=1m p=12 bytes=16"), std::string::npos);
}

TEST(SimCli, GenerateHelpListsProgramsAndAlgorithms) {
  auto r = augur("sim --generate help");
  EXPECT_NE(r.status, 0);
  for (const char* name : {"farm", "pipeline", "array", "rabenseifner"})
    EXPECT_NE(r.out.find(name), std::string::npos) << name << "\n" << r.out;
}

TEST(SimCli, UtilisationOverTimeInTheCsvTheJsonAndTheText) {
  const auto csv = testing::TempDir() + "farm-utilisation.csv";
  auto j = augur("sim --machine sp2-mpl --generate farm p=4 items=12 compute=1ms --utilisation " + csv +
                 " --bins 10 --json");
  ASSERT_EQ(j.status, 0) << j.out;
  const auto u = nlohmann::json::parse(j.out).at("utilisation");
  EXPECT_EQ(u.at("bins").get<int>(), 10);
  ASSERT_EQ(u.at("ranks").size(), 4u);
  EXPECT_GT(u.at("ranks").at(1).at("compute").at(5).get<double>(), 0.5);  // a worker, mid-run
  std::ifstream in(csv);
  int lines = 0;
  for (std::string line; std::getline(in, line);) ++lines;
  EXPECT_EQ(lines, 1 + 4 * 10);
  auto t = augur("sim --machine sp2-mpl --generate pipeline p=3 items=5 --utilisation " + csv);
  ASSERT_EQ(t.status, 0) << t.out;
  EXPECT_NE(t.out.find("Utilisation over time (20 intervals"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("rank    2"), std::string::npos) << t.out;
}

// `--network topology` (docs/machine-format.md) and `augur machines`'s list of topologies.

namespace {

// Ranks 0 and 1 each send 1 MB to rank 2 over links of 1 MB/s: the switch's link to node 2 is
// shared, so the last receive ends at 2 s.
constexpr const char* kFanIn = "ranks 3\nrank 0 { send 2 1MB }\nrank 1 { send 2 1MB }\nrank 2 { recv any recv any }\n";

}  // namespace

TEST(TopologyCli, FlowsShareALinkOfAGeneratedStar) {
  const auto sched = temp_file("fanin.sched", kFanIn);
  auto r = augur("sim --network topology --topology star:3,bandwidth=1MB/s,latency=0 --json " + sched);
  ASSERT_EQ(r.status, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_DOUBLE_EQ(j.at("predicted_seconds").get<double>(), 2);
  EXPECT_NE(j.at("run").at("network").get<std::string>().find("topology star:3"), std::string::npos);
}

TEST(TopologyCli, AMachineFileWorksLikeItsGenerator) {
  const auto sched = temp_file("fanin2.sched", kFanIn);
  const auto machine = temp_file("star.json", R"({"augur_machine": 1, "topology": "star:3,bandwidth=1MB/s,latency=0"})");
  auto r = augur("sim --network topology --topology " + machine + " --json " + sched);
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_DOUBLE_EQ(nlohmann::json::parse(r.out).at("predicted_seconds").get<double>(), 2);
}

TEST(TopologyCli, GeneratedCollectivesRunOnATorus) {
  auto r = augur("sim --network topology --topology torus:4x4 --generate allreduce p=16 bytes=8KiB");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out.rfind("Predicted run time on generic:", 0), 0u) << r.out;
}

TEST(TopologyCli, ErrorsNameTheFieldAndTheFile) {
  const auto machine = temp_file("bad.json", R"({"augur_machine": 1, "nodes": 2, "links": [{"connect": ["n0", "n1"]}]})");
  auto r = augur("sim --network topology --topology " + machine + " --generate barrier p=2");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.out.find("bad.json: links[0]: missing required field 'bandwidth'"), std::string::npos) << r.out;
  auto g = augur("sim --network topology --topology torus:4xq --generate barrier p=2");
  EXPECT_NE(g.status, 0);
  EXPECT_NE(g.out.find("side 'q' is not a whole number"), std::string::npos) << g.out;
  auto missing = augur("sim --network topology --generate barrier p=2");
  EXPECT_NE(missing.out.find("needs --topology"), std::string::npos) << missing.out;
}

// A bad dragonfly names the parameter and the reason, and nothing runs; a good one runs and
// exports as SimGrid's own dragonfly.
TEST(TopologyCli, DragonflySpecErrorsNameTheField) {
  auto zero = augur("sim --network topology --topology dragonfly:4,1,0,2 --generate barrier p=8");
  EXPECT_NE(zero.status, 0);
  EXPECT_NE(zero.out.find("dragonfly: routers must be at least 1, not 0"), std::string::npos) << zero.out;
  EXPECT_EQ(zero.out.find("Predicted"), std::string::npos) << zero.out;
  auto groups = augur("machines export dragonfly:9,1,4,2");
  EXPECT_NE(groups.status, 0);
  EXPECT_NE(groups.out.find("groups 9 exceeds the routers of a group (1 chassis × 4 routers)"), std::string::npos)
      << groups.out;
  auto count = augur("sim --network topology --topology dragonfly:4,1 --generate barrier p=8");
  EXPECT_NE(count.status, 0);
  EXPECT_NE(count.out.find("found 2 parameter(s)"), std::string::npos) << count.out;
  auto good = augur("sim --network topology --topology dragonfly:4,1,4,2 --generate alltoall p=32 bytes=1KiB");
  EXPECT_EQ(good.status, 0) << good.out;
  auto exported = augur("machines export dragonfly:4,1,4,2");
  EXPECT_EQ(exported.status, 0) << exported.out;
  EXPECT_NE(exported.out.find(R"(topology="DRAGONFLY" topo_parameters="4,1;1,1;4,1;2")"), std::string::npos)
      << exported.out;
}

// --sharing rtt on a line of three nodes (tests/unit/test_sim_topology_network.cpp has the
// arithmetic): rank 0's message over two links of 1 s and rank 1's over one, sent 1 s later,
// both flow from 2 s, at 1/3 and 2/3 MB/s; the last ends at 4 s. Shared fairly: 3 s.
TEST(TopologyCli, SharingRttIsCm02sAndFairTheDefault) {
  const auto sched = temp_file("line.sched", "ranks 3\nrank 0 { send 2 1MB }\nrank 1 { compute 1s send 2 1MB }\n"
                                        "rank 2 { recv 1 recv 0 }\n");
  const std::string topology = "sim --network topology --topology mesh:3,bandwidth=1MB/s,latency=1s --json ";
  auto rtt = augur(topology + "--sharing rtt " + sched), fair = augur(topology + sched);
  ASSERT_EQ(rtt.status, 0) << rtt.out;
  ASSERT_EQ(fair.status, 0) << fair.out;
  EXPECT_DOUBLE_EQ(nlohmann::json::parse(rtt.out).at("predicted_seconds").get<double>(), 4);
  EXPECT_DOUBLE_EQ(nlohmann::json::parse(fair.out).at("predicted_seconds").get<double>(), 3);
  auto bad = augur(topology + "--sharing cm02 " + sched);
  EXPECT_NE(bad.status, 0);
  EXPECT_NE(bad.out.find("--sharing: sharing must be fair or rtt, not 'cm02'"), std::string::npos) << bad.out;
  auto alone = augur("sim --sharing rtt --generate barrier p=2");
  EXPECT_NE(alone.status, 0);
  EXPECT_NE(alone.out.find("--sharing needs --network topology"), std::string::npos) << alone.out;
}

// Ranks 0 and 1 send 1000 and 3000 B to rank 2 on a star of links of 1000 B/s and no latency.
// Both flows share the switch's port to n2 at 500 B/s until rank 0's ends at 2 s; rank 1's
// 2000 B left then take 2 s at the full rate. s0→n2 is busy all 4 s with 4000 B (all its
// bandwidth); n1→s0 too, with 3000 B (three quarters); n0→s0 half the run with a quarter.
TEST(TopologyCli, LinkUtilisationInTheReportTheJsonTheCsvAndTheTimeline) {
  const auto sched = temp_file("fanin3.sched", "ranks 3\nrank 0 { send 2 1000 }\nrank 1 { send 2 3000 }\nrank 2 { recv 0 recv 1 }\n");
  const auto csv = testing::TempDir() + "links.csv", html = testing::TempDir() + "links.html";
  const std::string topology = " --network topology --topology star:3,bandwidth=1000B/s,latency=0 ";
  auto j = augur("sim" + topology + sched + " --utilisation " + csv + " --bins 4 --json");
  ASSERT_EQ(j.status, 0) << j.out;
  const auto u = nlohmann::json::parse(j.out).at("utilisation");
  EXPECT_EQ(u.at("busiest_link"), "s0→n2");  // as busy as n1→s0, but carried more
  EXPECT_EQ(u.at("run_seconds").get<double>(), 4);
  const std::map<std::string, std::array<double, 4>> want = {  // busy seconds, bytes, busy and bandwidth shares
      {"n0→s0", {2, 1000, 0.5, 0.25}}, {"s0→n0", {0, 0, 0, 0}}, {"n1→s0", {4, 3000, 1, 0.75}},
      {"s0→n1", {0, 0, 0, 0}},         {"n2→s0", {0, 0, 0, 0}}, {"s0→n2", {4, 4000, 1, 1}}};
  ASSERT_EQ(u.at("links").size(), want.size());
  for (const auto& l : u.at("links")) {
    const auto name = l.at("name").get<std::string>();
    ASSERT_EQ(want.count(name), 1u) << name;
    const auto& w = want.at(name);
    EXPECT_EQ(l.at("busy_seconds").get<double>(), w[0]) << name;
    EXPECT_EQ(l.at("bytes").get<double>(), w[1]) << name;
    EXPECT_EQ(l.at("busy_share").get<double>(), w[2]) << name;
    EXPECT_EQ(l.at("bandwidth_share").get<double>(), w[3]) << name;
    EXPECT_EQ(l.at("bandwidth").get<double>(), 1000) << name;
    EXPECT_EQ(l.at("busy").size(), 4u) << name;
  }
  std::ifstream in(csv);
  std::string header;
  std::getline(in, header);
  EXPECT_EQ(header, "rank,bin,begin,end,compute,mpi,link,busy");
  int lines = 0;
  for (std::string line; std::getline(in, line);) ++lines;
  EXPECT_EQ(lines, 3 * 4 + 6 * 4);

  auto t = augur("sim" + topology + sched + " --utilisation " + csv + " --html " + html);
  ASSERT_EQ(t.status, 0) << t.out;
  EXPECT_NE(t.out.find("Busiest links (3 of 6 link directions carried data over the 4 s run)"), std::string::npos)
      << t.out;
  EXPECT_NE(t.out.find("s0→n2  100.0%        4 s"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("n0→s0   50.0%        2 s     1000 B           25.0%"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("Timeline: " + html), std::string::npos) << t.out;
  std::ifstream page_in(html);
  const std::string page((std::istreambuf_iterator<char>(page_in)), std::istreambuf_iterator<char>());
  EXPECT_NE(page.find("id=\"trace-data\""), std::string::npos);
  EXPECT_NE(page.find("\"name\":\"s0→n2\""), std::string::npos);  // a link's strip
}

// Two ranks on one node (cores=2): their message crosses no link and takes the model's one-way
// time, what `augur calc` answers for a ping-pong of that size; under the placeholder model
// (no --machine) it takes nothing.
TEST(TopologyCli, RanksOfOneNodeTalkAtTheModelsPingPongTime) {
  const auto sched = temp_file("onnode.sched", "ranks 2\nrank 0 { send 1 1000 }\nrank 1 { recv 0 }\n");
  const std::string topology = "sim --network topology --topology ring:2,cores=2 --json ";
  auto sp2 = augur(topology + "--machine sp2-mpl " + sched), placeholder = augur(topology + sched);
  auto calc = augur("calc --machine sp2-mpl pingpong 2 1000 --json");
  ASSERT_EQ(sp2.status, 0) << sp2.out;
  ASSERT_EQ(placeholder.status, 0) << placeholder.out;
  ASSERT_EQ(calc.status, 0) << calc.out;
  const double pingpong = nlohmann::json::parse(calc.out).at("seconds").at("avg").get<double>();
  EXPECT_GT(pingpong, 50e-6);
  EXPECT_DOUBLE_EQ(nlohmann::json::parse(sp2.out).at("predicted_seconds").get<double>(), pingpong);
  EXPECT_EQ(nlohmann::json::parse(placeholder.out).at("predicted_seconds").get<double>(), 0);
}

TEST(TopologyCli, MachinesListsTheGenerators) {
  auto r = augur("machines");
  ASSERT_EQ(r.status, 0);
  for (const char* name : {"ring:16", "mesh:8x8", "torus:8x8x8", "hypercube:6", "fattree:4,3", "dragonfly:4,2,2", "dragonfly:8,2,8,4", "star:32", "bus:8"})
    EXPECT_NE(r.out.find(name), std::string::npos) << name;
}
