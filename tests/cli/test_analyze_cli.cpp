// `augur analyze` as a user runs it: the seed's worked example as a schedule, what-ifs, the
// anomaly sweep, JSON, and errors that name what is wrong.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "augur_runner.hpp"

using augur_test::augur;
using augur_test::temp_file;

namespace {

// Seed 004's example: 20 + 50 + 90 + 10 = 170 s on the critical path, messages free.
const char* kSeedDag =
    "ranks 4\n"
    "rank 0 { compute 20 send 1 8 send 3 8 recv 2 recv 3 compute 10 }\n"
    "rank 1 { recv 0 compute 50 send 2 8 }\n"
    "rank 2 { recv 1 compute 90 send 0 8 }\n"
    "rank 3 { recv 0 compute 60 send 0 8 }\n";
const std::string kFree = " --network loggops --loggops L=0,o=0,g=0,G=0";

// Rank 2's message contends for the bus with rank 1's once rank 2's grain is halved.
const char* kSharedBus =
    "ranks 3\n"
    "rank 0 { recv 1 compute 100 recv 2 }\n"
    "rank 1 { compute 10 send 0 50 }\n"
    "rank 2 { compute 70 send 0 50 }\n";
const std::string kBus = " --network topology --topology bus:3,bandwidth=1,latency=0";

}  // namespace

TEST(AnalyzeCli, SeedExampleReadsInUnits) {
  auto r = augur("analyze " + temp_file("dag.sched", kSeedDag) + kFree);
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out.rfind("Run time: 170 s (4 ranks,", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("Critical path: 170 s (100.0% of the run), ending on rank 0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Tuning: parallelism tuning"), std::string::npos) << r.out;
}

TEST(AnalyzeCli, JsonCarriesExactSecondsAndWhatIfs) {
  auto r = augur("analyze " + temp_file("dag.sched", kSeedDag) + kFree + " --scale-grain 2:0=0.5 --scale-compute 3=2 --json");
  ASSERT_EQ(r.status, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.at("critical_path").at("seconds").get<double>(), 170);
  EXPECT_EQ(j.at("optimistic_limit_seconds").get<double>(), 170);
  ASSERT_EQ(j.at("what_ifs").size(), 1u);
  // 90 → 45 and the side branch 60 → 120: 20 + 120 + 10 = 150 now leads, known before simulating.
  EXPECT_EQ(j["what_ifs"][0].at("tuned_seconds").get<double>(), 150);
  EXPECT_EQ(j["what_ifs"][0].at("bound_seconds").get<double>(), 150);
}

TEST(AnalyzeCli, AnomalySweepNamesTheGrainAndTheReorderedEvents) {
  auto r = augur("analyze " + temp_file("bus.sched", kSharedBus) + kBus + " --anomalies");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("Anomaly sweep: 3 grains each shrunk to 0.5x: 1 made the run longer"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2:0: 160 s → 185 s (+25 s)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("rank 2's send #0 (to rank 0) now comes before"), std::string::npos) << r.out;
}

TEST(AnalyzeCli, SyntheticTraceStaysWithinItsRunTime) {
  const auto dir = testing::TempDir() + "analyze-synth";
  std::filesystem::remove_all(dir);
  ASSERT_EQ(augur("trace synth -o " + dir + " --ranks 4 --events 400").status, 0);
  auto r = augur("analyze " + dir + " --json --scale-path 0.5 -m t3d");
  ASSERT_EQ(r.status, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_LE(j.at("optimistic_limit_seconds").get<double>(), j.at("run_seconds").get<double>());
  EXPECT_EQ(j.at("what_ifs").size(), 2u);
  EXPECT_FALSE(j.at("critical_path").at("shares").at("by_phase").empty());
}

TEST(AnalyzeCli, BadInputIsAnErrorThatSaysWhy) {
  auto missing = augur("analyze /nonexistent/trace");
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.out.find("/nonexistent/trace"), std::string::npos) << missing.out;
  const auto dag = temp_file("dag.sched", kSeedDag);
  auto grain = augur("analyze " + dag + kFree + " --scale-grain solve=0.5");
  EXPECT_EQ(grain.status, 2);
  EXPECT_NE(grain.out.find("--scale-grain 'solve': no phase or grain RANK:K of that name"), std::string::npos) << grain.out;
  auto rank = augur("analyze " + dag + kFree + " --scale-compute 9=0.5");
  EXPECT_EQ(rank.status, 2);
  EXPECT_NE(rank.out.find("'9' is not a rank of the run (0 to 3)"), std::string::npos) << rank.out;
  auto factor = augur("analyze " + dag + kFree + " --scale-bytes send=half");
  EXPECT_EQ(factor.status, 2);
  EXPECT_NE(factor.out.find("'half' is not a number"), std::string::npos) << factor.out;
  auto call = augur("analyze " + dag + kFree + " --scale-bytes isend=0.5");
  EXPECT_EQ(call.status, 2);
  EXPECT_NE(call.out.find("--scale-bytes 'isend': the run made no call of that name (it made: recv, send)"),
            std::string::npos) << call.out;
  auto sched = augur("analyze " + temp_file("bad.sched", "ranks 2\nrank 0 { sned 1 8 }\n"));
  EXPECT_EQ(sched.status, 2);
  EXPECT_NE(sched.out.find("bad.sched:2:"), std::string::npos) << sched.out;
}

TEST(AnalyzeCli, DamagedTraceIsAnalysedThenReported) {
  const auto dir = testing::TempDir() + "analyze-damaged";
  std::filesystem::remove_all(dir);
  ASSERT_EQ(augur("trace synth -o " + dir + " --ranks 2 --events 200").status, 0);
  const auto file = dir + "/rank-00001.augt";
  std::filesystem::resize_file(file, std::filesystem::file_size(file) - 7);
  auto r = augur("analyze " + dir);
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("Critical path:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("rank-00001.augt"), std::string::npos) << r.out;
}

TEST(AnalyzeCli, HtmlReportCarriesThePathAndUtilisation) {
  const auto html = testing::TempDir() + "analyze.html";
  std::filesystem::remove(html);
  auto r = augur("analyze " + temp_file("bus.sched", kSharedBus) + kBus + " --html " + html);
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("HTML report: " + html), std::string::npos) << r.out;
  const auto page = augur_test::read_text(html);
  EXPECT_NE(page.find("id=\"trace-data\""), std::string::npos);  // augur view's timeline
  auto data = [&](const std::string& id) {
    const std::string open = "id=\"" + id + "\">";
    const auto at = page.find(open);
    EXPECT_NE(at, std::string::npos) << id;
    const auto begin = at + open.size();
    return nlohmann::json::parse(page.substr(begin, page.find("</script>", begin) - begin));
  };
  const auto j = data("analysis-data");
  // 10 s on rank 1, its message to rank 0 (a line), then 100 s on rank 0.
  EXPECT_EQ(j.at("path").at("states").size(), 2u) << j;
  EXPECT_EQ(j.at("path").at("messages").size(), 1u) << j;
  const auto u = data("utilisation-data");  // the strips under it, as augur sim --html draws them
  EXPECT_EQ(u.at("ranks").size(), 3u);
  ASSERT_FALSE(u.at("links").empty());
  EXPECT_EQ(u["links"][0].at("values").size(), 200u);
}
