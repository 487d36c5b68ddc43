// The report assembled from every rank's ledger: what it tells of times the model could only
// extrapolate.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "model/model_json.hpp"
#include "revprof/ledger.hpp"
#include "revprof/report.hpp"

namespace {

using namespace augur;
using Asked = std::map<std::string, timing::Rules::Extrapolation, std::less<>>;

nlohmann::json rank_with(int rank, const Asked& asked) {
  auto json = revprof::Ledger{}.to_json(rank, 1.0);
  if (!asked.empty()) json["extrapolated"] = revprof::extrapolations_to_json(asked);
  return json;
}

TEST(RevprofReport, ExtrapolationsOfAllRanksMergeToTheLargestAskedAndAreWarnedOf) {
  const model::MeasuredRange pingpong{1048576, 2}, bcast{65536, 4};
  const std::vector<nlohmann::json> ranks{
      rank_with(0, {{"pingpong", {4194304, 2, pingpong}}}),
      rank_with(1, {{"pingpong", {16777216, 2, pingpong}}, {"bcast", {1024, 8, bcast}}}),
      rank_with(2, {})};
  const auto report = revprof::make_report(ranks, {{"machine", "m"}});
  const auto& merged = report.at("extrapolated");
  ASSERT_EQ(merged.size(), 2u);
  EXPECT_DOUBLE_EQ(merged.at("pingpong").at("bytes").get<double>(), 16777216);
  EXPECT_DOUBLE_EQ(merged.at("bcast").at("p").get<double>(), 8);

  const auto text = revprof::format_report(report);
  EXPECT_NE(text.find("Warning: times extrapolated beyond what the model measured"), std::string::npos) << text;
  EXPECT_NE(text.find("messages up to 16 MiB (measured up to 1 MiB)"), std::string::npos) << text;
  // bcast stayed within its measured sizes; only its group size is beyond.
  EXPECT_NE(text.find("groups of up to 8 (measured up to 4)"), std::string::npos) << text;
  EXPECT_EQ(text.find("messages up to 1 KiB"), std::string::npos) << text;
}

// Calls that ran but could not be priced: counted over the ranks per operation, with the
// reason the first rank to meet it gave, and warned of where a person reads the prediction.
TEST(RevprofReport, CallsNotPricedAreCountedPerOperationWithTheReason) {
  revprof::Ledger first, second;
  first.not_priced("allgatherv", "allgather: size must be >= 0 bytes, not -4");
  first.not_priced("allgatherv", "allgather: size must be >= 0 bytes, not -8");
  second.not_priced("allgatherv", "allgather: size must be >= 0 bytes, not -2");
  second.not_priced("send", "std::bad_alloc");
  const auto report = revprof::make_report({first.to_json(0, 1.0), second.to_json(1, 1.0), rank_with(2, {})},
                                           {{"machine", "m"}});
  const auto& unpriced = report.at("not_priced");
  ASSERT_EQ(unpriced.size(), 2u);
  EXPECT_EQ(unpriced.at("allgatherv").at("calls"), 3);
  EXPECT_EQ(unpriced.at("allgatherv").at("reason"), "allgather: size must be >= 0 bytes, not -4");
  EXPECT_EQ(unpriced.at("send").at("calls"), 1);
  const auto text = revprof::format_report(report);
  EXPECT_NE(text.find("Warning: these MPI calls ran but could not be priced; the prediction leaves their cost out:\n"
                      "  MPI_Allgatherv x3: allgather: size must be >= 0 bytes, not -4\n"
                      "  MPI_Send x1: std::bad_alloc\n"),
            std::string::npos)
      << text;
}

TEST(RevprofReport, ARankWhoseTraceStoppedEarlyIsWarnedOf) {
  auto rank1 = rank_with(1, {});
  rank1["trace_error"] = "trace/rank-00001.augt: cannot write trace records";
  const auto text = revprof::format_report(revprof::make_report({rank_with(0, {}), rank1}, {{"machine", "m"}}));
  EXPECT_NE(text.find("Warning: the trace of rank 1 stops early: trace/rank-00001.augt: cannot write trace records\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("rank 0 stops"), std::string::npos) << text;
}

TEST(RevprofReport, NoExtrapolationNoWarning) {
  const auto report = revprof::make_report({rank_with(0, {}), rank_with(1, {})}, {{"machine", "m"}});
  EXPECT_TRUE(report.at("extrapolated").empty());
  EXPECT_TRUE(report.at("not_priced").empty());
  EXPECT_EQ(revprof::format_report(report).find("extrapolated"), std::string::npos);
  EXPECT_EQ(revprof::format_report(report).find("could not be priced"), std::string::npos);
}

TEST(RevprofReport, StandInsAreThoseAnyRankUsedReadByMPIsNames) {
  auto rank0 = rank_with(0, {}), rank1 = rank_with(1, {}), rank2 = rank_with(2, {});
  rank0["substitutions"] = revprof::stand_ins_to_json({{"isend1", ""}});
  rank1["substitutions"] = revprof::stand_ins_to_json({{"bsend", "send"}, {"isend1", ""}});
  const auto report = revprof::make_report({rank0, rank1, rank2}, {{"machine", "m"}});
  ASSERT_EQ(report.at("substitutions").size(), 2u);
  EXPECT_TRUE(report.at("substitutions")[0].at("stand_in").is_null());
  const auto text = revprof::format_report(report);
  EXPECT_NE(text.find("The model lacks some operations the program used; what priced them:\n"
                      "  MPI_Isend: not in the model, priced as 0\n"
                      "  MPI_Bsend: priced as MPI_Send\n"),
            std::string::npos)
      << text;
}

TEST(RevprofReport, NoStandInUsedNoneListed) {
  const auto report = revprof::make_report({rank_with(0, {})}, {{"machine", "m"}});
  EXPECT_EQ(revprof::format_report(report).find("lacks"), std::string::npos);
}

TEST(RevprofReport, TheModelsNoteOnMachineStatesClosesTheTextReport) {
  const auto ranks = std::vector<nlohmann::json>{rank_with(0, {}), rank_with(1, {})};
  const auto text = revprof::format_report(revprof::make_report(ranks, {{"machine", "m"}, {"model_note", "slower state."}}));
  EXPECT_NE(text.find("\nNote on the model: slower state.\n"), std::string::npos) << text;
  EXPECT_EQ(revprof::format_report(revprof::make_report(ranks, {{"machine", "m"}})).find("Note on the model"),
            std::string::npos);
}

// Each clock's run time is its latest finish over the ranks, whichever rank that is, and the
// headline reads AVG (MIN … MAX) in units.
TEST(RevprofReport, TheRunTimeOnEachClockIsTheLatestFinishOnIt) {
  auto rank0 = revprof::Ledger{}.to_json(0, 0.002);
  auto rank1 = revprof::Ledger{}.to_json(1, 0.0025);
  rank0["finish_bounds"] = revprof::bounds_to_json({0.0015, 0.002, 0.004});
  rank1["finish_bounds"] = revprof::bounds_to_json({0.001, 0.0025, 0.003});
  const auto report = revprof::make_report({rank0, rank1}, {{"machine", "m"}, {"bound", "avg"}});
  EXPECT_EQ(report.at("predicted_bounds"), revprof::bounds_to_json({0.0015, 0.0025, 0.004}));
  EXPECT_EQ(report.at("predicted_seconds").get<double>(), 0.0025);
  const auto text = revprof::format_report(report);
  EXPECT_EQ(text.find("Predicted run time on m: 2.5 ms (1.5 ms … 4 ms)  (tables at bound avg"), 0u) << text;
  const auto traced = revprof::trace_bounds(report);
  EXPECT_EQ(traced.at("timeline_bound"), "avg");
  EXPECT_EQ(traced.at("ranks").at(1).at("finish"), rank1["finish_bounds"]);
}

// A report without the three clocks (a simulated run's) keeps its one time.
TEST(RevprofReport, WithoutThreeClocksTheHeadlineHasOneTime) {
  const auto report = revprof::make_report({rank_with(0, {})}, {{"machine", "m"}, {"bound", "max"}});
  EXPECT_FALSE(report.contains("predicted_bounds"));
  EXPECT_EQ(revprof::format_report(report).find("Predicted run time on m: 1 s  (bound max"), 0u);
}

}  // namespace

namespace {

// A model with a measured launch prices the whole command a user times: the span from
// MPI_Init's return to MPI_Finalize, and the launch around it.
TEST(RevprofReport, TheWholeCommandAddsTheModelsLaunchToTheSpan) {
  const std::vector<nlohmann::json> ranks{augur::revprof::Ledger{}.to_json(0, 2.0),
                                          augur::revprof::Ledger{}.to_json(1, 2.5)};
  const nlohmann::json run = {{"machine", "m"}, {"launch", {{"seconds", 0.5}, {"processes", 2}}}};
  const auto report = augur::revprof::make_report(ranks, run);
  EXPECT_DOUBLE_EQ(report.at("predicted_seconds").get<double>(), 2.5);
  EXPECT_DOUBLE_EQ(report.at("predicted_run_seconds").get<double>(), 3.0);
  const auto text = augur::revprof::format_report(report);
  EXPECT_NE(text.find("MPI_Init and MPI_Finalize: 500 ms measured at 2 ranks): 3 s"), std::string::npos) << text;

  const auto without = augur::revprof::make_report(ranks, {{"machine", "m"}});
  EXPECT_FALSE(without.contains("predicted_run_seconds"));
}

}  // namespace

// On a machine of nodes the report says which level extrapolated or stood in: the on-node
// ping-pong asked beyond its measured 256 KiB is listed apart from the between-nodes one.
TEST(RevprofReport, EachLevelOfAMachineOfNodesSaysWhatItExtrapolatedAndStoodInFor) {
  const auto m = model::load_model_file(AUGUR_TEST_DATA "/two-level.model.json");
  const timing::BoundsRules rules(m);
  const timing::BoundsLevelRules levels(m, timing::Placement::block(2));
  levels.on_node().transit(4 << 20);
  levels.on_node().recvmin(8);
  rules.transit(1024);  // within what was measured
  const auto [extrapolated, stand_ins] = revprof::priced_beyond_the_model(rules, &levels);
  ASSERT_EQ(extrapolated.size(), 1u) << extrapolated.dump();
  EXPECT_EQ(extrapolated.at("pingpong, on one node").at("level"), "on one node");
  EXPECT_DOUBLE_EQ(extrapolated.at("pingpong, on one node").at("bytes").get<double>(), 4 << 20);
  auto rank = rank_with(0, {});
  rank["extrapolated"] = extrapolated;
  rank["substitutions"] = stand_ins;
  const auto text = revprof::format_report(revprof::make_report({rank}, {{"machine", "m"}}));
  EXPECT_NE(text.find("MPI_Send/MPI_Recv ping-pong, on one node messages up to 4 MiB (measured up to 256 KiB)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("(already arrived), on one node: not in the model, priced as 0"), std::string::npos) << text;
  // A model of one level: the rules alone, every entry keyed by its operation.
  EXPECT_EQ(revprof::priced_beyond_the_model(rules, nullptr).first.size(), 0u);
}
