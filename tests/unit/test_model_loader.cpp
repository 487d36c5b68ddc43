// The loader must reject every kind of bad model file with a message naming the file, the
// field and the reason; these tests pin each case from docs/model-format.md.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "model/model_json.hpp"

using augur::model::ModelError;
using augur::model::parse_model;
using nlohmann::json;

namespace {

json valid_model() {
  return json::parse(R"json({
    "augur_model": 1,
    "machine": {"name": "toy", "description": "a test machine"},
    "provenance": {"source": "unit test"},
    "units": {"time": "us", "size": "bytes"},
    "operations": {
      "pingpong": {"regimes": [
        {"from": 0, "to": 1024, "expr": "10 + d/100"},
        {"from": 1024, "to": null, "form": {
           "terms": [{"basis": "1", "coef": 20, "stderr": 1}, {"basis": "d", "coef": 0.02, "stderr": 0.001}],
           "chi2": 3.0, "q": 0.9, "points": 12, "statistic": "median"}}]},
      "barrier": {"regimes": [{"from": 0, "expr": "84*log2(p)"}]}
    }
  })json");
}

// Expects loading `doc` to fail with a message that names `field` and contains `reason`.
void expect_rejected(const std::string& text, const std::string& field, const std::string& reason) {
  try {
    parse_model(text, "bad.json");
    FAIL() << "accepted a bad model; expected " << field << ": " << reason;
  } catch (const ModelError& e) {
    EXPECT_EQ(e.file(), "bad.json");
    EXPECT_EQ(e.field(), field) << e.what();
    EXPECT_NE(e.reason().find(reason), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("bad.json: " + (field.empty() ? "(document)" : field)), std::string::npos) << e.what();
  }
}

void expect_rejected(const json& doc, const std::string& field, const std::string& reason) {
  expect_rejected(doc.dump(), field, reason);
}

}  // namespace

TEST(ModelLoader, AcceptsValidModelAndEvaluatesBothLaws) {
  auto m = parse_model(valid_model().dump(), "good.json");
  EXPECT_NEAR(m.seconds("pingpong", 2, 500), (10 + 5) * 1e-6, 1e-12);
  EXPECT_NEAR(m.seconds("pingpong", 2, 2000), (20 + 0.02 * 2000) * 1e-6, 1e-12);
  EXPECT_NEAR(m.seconds("barrier", 8, 0), 84 * 3 * 1e-6, 1e-12);
}

TEST(ModelLoader, RejectsTruncatedJson) {
  auto text = valid_model().dump();
  expect_rejected(text.substr(0, text.size() / 2), "", "not valid JSON");
}

TEST(ModelLoader, RejectsMissingField) {
  auto doc = valid_model();
  doc["machine"].erase("name");
  expect_rejected(doc, "machine", "missing required field 'name'");
}

TEST(ModelLoader, RejectsMissingOperations) {
  auto doc = valid_model();
  doc.erase("operations");
  expect_rejected(doc, "", "missing required field 'operations'");
}

TEST(ModelLoader, RejectsMistypedField) {
  auto doc = valid_model();
  doc["operations"]["pingpong"]["regimes"][1]["form"]["terms"][0]["coef"] = "20";
  expect_rejected(doc, "operations.pingpong.regimes[1].form.terms[0].coef", "expected a number, found string");
}

TEST(ModelLoader, RejectsUnknownField) {
  auto doc = valid_model();
  doc["units"]["tiem"] = "us";
  expect_rejected(doc, "units", "unknown field 'tiem'");
}

TEST(ModelLoader, RejectsUnknownOperation) {
  auto doc = valid_model();
  doc["operations"]["bcastt"] = doc["operations"]["barrier"];
  expect_rejected(doc, "operations.bcastt", "unknown operation 'bcastt'");
}

TEST(ModelLoader, RejectsOverlappingRegimes) {
  auto doc = valid_model();
  doc["operations"]["pingpong"]["regimes"][1]["from"] = 1000;
  expect_rejected(doc, "operations.pingpong.regimes[1].from", "overlaps the previous regime");
}

TEST(ModelLoader, RejectsGapBetweenRegimes) {
  auto doc = valid_model();
  doc["operations"]["pingpong"]["regimes"][1]["from"] = 2048;
  expect_rejected(doc, "operations.pingpong.regimes[1].from", "leaves a gap");
}

TEST(ModelLoader, RejectsRegimesNotStartingAtZero) {
  auto doc = valid_model();
  doc["operations"]["barrier"]["regimes"][0]["from"] = 8;
  expect_rejected(doc, "operations.barrier.regimes[0].from", "leaves a gap");
}

TEST(ModelLoader, RejectsEmptyRange) {
  auto doc = valid_model();
  doc["operations"]["pingpong"]["regimes"][0]["to"] = 0;
  expect_rejected(doc, "operations.pingpong.regimes[0].to", "must be greater than from");
}

TEST(ModelLoader, RejectsNegativeValue) {
  auto doc = valid_model();
  doc["operations"]["pingpong"]["regimes"][1]["form"]["terms"][1]["stderr"] = -0.1;
  expect_rejected(doc, "operations.pingpong.regimes[1].form.terms[1].stderr", "must not be negative");
}

TEST(ModelLoader, RejectsNonFiniteValue) {
  auto text = valid_model().dump();
  auto at = text.find("\"chi2\":3.0");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 10, "\"chi2\":1e999");
  expect_rejected(text, "", "number overflow");
}

TEST(ModelLoader, RejectsNaNWrittenAsString) {
  auto doc = valid_model();
  doc["compute"] = {{"seconds_per_step", "NaN"}};
  expect_rejected(doc, "compute.seconds_per_step", "expected a number, found string");
}

TEST(ModelLoader, RejectsExpressionThatDoesNotParse) {
  auto doc = valid_model();
  doc["operations"]["pingpong"]["regimes"][0]["expr"] = "10 + (d/100";
  expect_rejected(doc, "operations.pingpong.regimes[0].expr", "expression '10 + (d/100'");
}

TEST(ModelLoader, RejectsExpressionWithUnknownVariable) {
  auto doc = valid_model();
  doc["operations"]["pingpong"]["regimes"][0]["expr"] = "10 + n/100";
  expect_rejected(doc, "operations.pingpong.regimes[0].expr", "\"n\"");
}

TEST(ModelLoader, RejectsBadBasis) {
  auto doc = valid_model();
  doc["operations"]["pingpong"]["regimes"][1]["form"]["terms"][1]["basis"] = "q*d";
  expect_rejected(doc, "operations.pingpong.regimes[1].form.terms[1].basis", "unknown factor 'q'");
}

TEST(ModelLoader, RejectsRegimeWithBothLaws) {
  auto doc = valid_model();
  doc["operations"]["pingpong"]["regimes"][0]["form"] = doc["operations"]["pingpong"]["regimes"][1]["form"];
  expect_rejected(doc, "operations.pingpong.regimes[0]", "exactly one of 'expr'");
}

TEST(ModelLoader, RejectsWrongVersion) {
  auto doc = valid_model();
  doc["augur_model"] = 2;
  expect_rejected(doc, "augur_model", "unsupported format version 2");
}

TEST(ModelLoader, RejectsIntsWithoutIntSize) {
  auto doc = valid_model();
  doc["units"]["size"] = "ints";
  expect_rejected(doc, "units", "int_bytes");
}

TEST(ModelLoader, RejectsQOutsideUnitInterval) {
  auto doc = valid_model();
  doc["operations"]["pingpong"]["regimes"][1]["form"]["q"] = 1.5;
  expect_rejected(doc, "operations.pingpong.regimes[1].form.q", "[0, 1]");
}

TEST(ModelLoader, MissingFileNamesThePath) {
  try {
    augur::model::load_model_file("/nonexistent/model.json");
    FAIL();
  } catch (const ModelError& e) {
    EXPECT_EQ(e.file(), "/nonexistent/model.json");
    EXPECT_NE(e.reason().find("cannot open"), std::string::npos);
  }
}

TEST(ModelLoader, SaveThenLoadKeepsEveryAnswer) {
  auto m = parse_model(valid_model().dump(), "good.json");
  auto path = std::filesystem::temp_directory_path() / "augur_roundtrip_model.json";
  augur::model::save_model_file(m, path);
  auto back = augur::model::load_model_file(path);
  std::filesystem::remove(path);
  for (double bytes : {0.0, 100.0, 1023.0, 1024.0, 65536.0})
    for (auto b : {augur::model::Bound::min, augur::model::Bound::avg, augur::model::Bound::max})
      EXPECT_DOUBLE_EQ(back.seconds("pingpong", 4, bytes, b), m.seconds("pingpong", 4, bytes, b));
  EXPECT_FALSE(std::filesystem::exists(path.string() + ".partial"));
}

TEST(ModelLoader, TheLaunchIsReadSavedAndChecked) {
  auto j = valid_model();
  j["launch"] = {{"seconds", 0.42}, {"processes", 2}};
  auto m = parse_model(j.dump(), "good.json");
  ASSERT_TRUE(m.launch);
  EXPECT_DOUBLE_EQ(m.launch->seconds, 0.42);
  EXPECT_EQ(m.launch->processes, 2);
  auto path = std::filesystem::temp_directory_path() / "augur_launch_model.json";
  augur::model::save_model_file(m, path);
  auto back = augur::model::load_model_file(path);
  std::filesystem::remove(path);
  ASSERT_TRUE(back.launch);
  EXPECT_DOUBLE_EQ(back.launch->seconds, 0.42);
  EXPECT_FALSE(parse_model(valid_model().dump(), "good.json").launch);

  j["launch"] = {{"seconds", -1}, {"processes", 2}};
  EXPECT_THROW(parse_model(j.dump(), "bad.json"), ModelError);
  j["launch"] = {{"seconds", 0.4}};
  EXPECT_THROW(parse_model(j.dump(), "bad.json"), ModelError);
}

namespace {

json node_kernels() {
  return json::parse(R"json({
    "seconds_per_step": 1.6e-9, "relative_speed": 1.0, "memory_bandwidth": 1.2e10, "flops": 8e9,
    "cache_sweep": [{"bytes": 4096, "seconds_per_access": 1.1e-9},
                    {"bytes": 8192, "seconds_per_access": 1.1e-9},
                    {"bytes": 67108864, "seconds_per_access": 9e-8}]
  })json");
}

}  // namespace

TEST(ModelLoader, WithoutComputeSectionTheStepIsUnknown) {
  auto m = parse_model(valid_model().dump(), "good.json");
  EXPECT_FALSE(m.compute.knows_step());
  EXPECT_DOUBLE_EQ(m.compute.step_seconds(), augur::model::kDefaultSecondsPerStep);
  EXPECT_EQ(m.compute.memory_bandwidth, 0);
  EXPECT_TRUE(m.compute.cache_sweep.empty());
}

TEST(ModelLoader, AcceptsNodeKernelResults) {
  auto doc = valid_model();
  doc["compute"] = node_kernels();
  auto m = parse_model(doc.dump(), "good.json");
  EXPECT_TRUE(m.compute.knows_step());
  EXPECT_DOUBLE_EQ(m.compute.step_seconds(), 1.6e-9);
  EXPECT_DOUBLE_EQ(m.compute.memory_bandwidth, 1.2e10);
  EXPECT_DOUBLE_EQ(m.compute.flops, 8e9);
  ASSERT_EQ(m.compute.cache_sweep.size(), 3u);
  EXPECT_DOUBLE_EQ(m.compute.cache_sweep[2].bytes, 67108864);
  EXPECT_DOUBLE_EQ(m.compute.cache_sweep[2].seconds_per_access, 9e-8);
}

TEST(ModelLoader, RejectsNonPositiveKernelResults) {
  for (const char* key : {"seconds_per_step", "memory_bandwidth", "flops"}) {
    auto doc = valid_model();
    doc["compute"] = node_kernels();
    doc["compute"][key] = 0;
    expect_rejected(doc, std::string("compute.") + key, "must be greater than 0");
  }
}

TEST(ModelLoader, RejectsUnknownComputeField) {
  auto doc = valid_model();
  doc["compute"] = node_kernels();
  doc["compute"]["bandwidth"] = 1e9;
  expect_rejected(doc, "compute", "unknown field 'bandwidth'");
}

TEST(ModelLoader, RejectsCacheSweepThatIsNotAnArray) {
  auto doc = valid_model();
  doc["compute"] = node_kernels();
  doc["compute"]["cache_sweep"] = {{"bytes", 4096}};
  expect_rejected(doc, "compute.cache_sweep", "expected an array");
}

TEST(ModelLoader, RejectsCacheSweepSizesOutOfOrder) {
  auto doc = valid_model();
  doc["compute"] = node_kernels();
  doc["compute"]["cache_sweep"][2]["bytes"] = 8192;
  expect_rejected(doc, "compute.cache_sweep[2].bytes", "must be greater than the previous size (8192)");
}

TEST(ModelLoader, RejectsCacheSweepPointWithoutTime) {
  auto doc = valid_model();
  doc["compute"] = node_kernels();
  doc["compute"]["cache_sweep"][1].erase("seconds_per_access");
  expect_rejected(doc, "compute.cache_sweep[1]", "missing required field 'seconds_per_access'");
}

TEST(ModelLoader, RejectsNegativeAccessTime) {
  auto doc = valid_model();
  doc["compute"] = node_kernels();
  doc["compute"]["cache_sweep"][0]["seconds_per_access"] = -1e-9;
  expect_rejected(doc, "compute.cache_sweep[0].seconds_per_access", "must be greater than 0");
}

TEST(ModelLoader, SaveThenLoadKeepsTheComputeSection) {
  auto doc = valid_model();
  doc["compute"] = node_kernels();
  auto m = parse_model(doc.dump(), "good.json");
  auto written = augur::model::to_json(m);
  EXPECT_EQ(written["compute"], node_kernels());
  auto back = parse_model(written.dump(), "again.json");
  EXPECT_DOUBLE_EQ(back.compute.seconds_per_step, m.compute.seconds_per_step);
  ASSERT_EQ(back.compute.cache_sweep.size(), m.compute.cache_sweep.size());
  for (std::size_t i = 0; i < m.compute.cache_sweep.size(); ++i) {
    EXPECT_DOUBLE_EQ(back.compute.cache_sweep[i].bytes, m.compute.cache_sweep[i].bytes);
    EXPECT_DOUBLE_EQ(back.compute.cache_sweep[i].seconds_per_access, m.compute.cache_sweep[i].seconds_per_access);
  }
}

TEST(ModelLoader, WriterLeavesUnknownComputeFieldsOut) {
  auto m = parse_model(valid_model().dump(), "good.json");
  EXPECT_EQ(augur::model::to_json(m)["compute"], json({{"relative_speed", 1.0}}));
}

TEST(ModelLoader, MeasuredRangeSurvivesSaveAndLoadAndTellsWhatIsExtrapolated) {
  auto doc = valid_model();
  doc["operations"]["pingpong"]["measured"] = {{"max_bytes", 1048576}, {"max_processes", 2}};
  auto m = parse_model(doc.dump(), "good.json");
  EXPECT_FALSE(m.at("barrier").measured.has_value());
  auto path = std::filesystem::temp_directory_path() / "augur_measured_model.json";
  augur::model::save_model_file(m, path);
  auto back = augur::model::load_model_file(path);
  std::filesystem::remove(path);
  ASSERT_TRUE(back.at("pingpong").measured.has_value());
  const auto& range = *back.at("pingpong").measured;
  EXPECT_TRUE(range.covers(2, 1048576));
  EXPECT_FALSE(range.covers(2, 2097152));
  EXPECT_FALSE(range.covers(4, 8));
}

TEST(ModelLoader, RejectsMeasuredRangeWithoutItsFieldsOrWithFractionalProcesses) {
  auto doc = valid_model();
  doc["operations"]["pingpong"]["measured"] = {{"max_bytes", 1024}};
  expect_rejected(doc, "operations.pingpong.measured", "missing required field 'max_processes'");
  doc["operations"]["pingpong"]["measured"] = {{"max_bytes", 1024}, {"max_processes", 2.5}};
  expect_rejected(doc, "operations.pingpong.measured.max_processes", "must be an integer");
  doc["operations"]["pingpong"]["measured"] = {{"max_bytes", -1}, {"max_processes", 2}};
  expect_rejected(doc, "operations.pingpong.measured.max_bytes", "must not be negative");
}

TEST(ModelLoader, ComputeWithoutStatesHasNone) {
  auto doc = valid_model();
  doc["compute"] = node_kernels();
  EXPECT_FALSE(parse_model(doc.dump(), "old.json").compute.states.has_value());
  EXPECT_FALSE(augur::model::to_json(parse_model(doc.dump(), "old.json").compute).contains("states"));
}

TEST(ModelLoader, ComputeStatesSurviveSaveAndLoad) {
  auto doc = valid_model();
  doc["compute"] = node_kernels();
  doc["compute"]["states"] = {{"fast", 0.93}, {"slow", 1.12}};
  const auto m = parse_model(doc.dump(), "good.json");
  ASSERT_TRUE(m.compute.states.has_value());
  EXPECT_EQ(m.compute.states->fast, 0.93);
  EXPECT_EQ(m.compute.states->slow, 1.12);
  const auto back = parse_model(augur::model::to_json(m).dump(), "again.json");
  ASSERT_TRUE(back.compute.states.has_value());
  EXPECT_EQ(back.compute.states->fast, 0.93);
  EXPECT_EQ(back.compute.states->slow, 1.12);
  // Factors 1 and 1 are a steady machine's states, not bad ones.
  doc["compute"]["states"] = {{"fast", 1}, {"slow", 1}};
  EXPECT_EQ(parse_model(doc.dump(), "steady.json").compute.states->fast, 1);
}

TEST(ModelLoader, RejectsBadComputeStates) {
  struct Case {
    json states;
    std::string field, reason;
  };
  const std::vector<Case> cases{
      {{{"fast", 0}, {"slow", 1.1}}, "compute.states.fast", "must be greater than 0"},
      {{{"fast", -0.5}, {"slow", 1.1}}, "compute.states.fast", "must not be negative"},
      {{{"fast", 1.05}, {"slow", 1.1}}, "compute.states.fast", "must be at most 1, a factor of the typical compute step"},
      {{{"fast", 0.9}, {"slow", 0.95}}, "compute.states.slow", "must be at least 1, a factor of the typical compute step"},
      {{{"fast", 0.9}, {"slow", "1.2"}}, "compute.states.slow", "expected a number"},
      {{{"fast", 0.9}}, "compute.states", "missing required field 'slow'"},
      {{{"fast", 0.9}, {"slow", 1.2}, {"typical", 1}}, "compute.states", "unknown field 'typical'"},
      {json::array({0.9, 1.2}), "compute.states", "expected an object"},
  };
  for (const auto& c : cases) {
    auto doc = valid_model();
    doc["compute"] = node_kernels();
    doc["compute"]["states"] = c.states;
    expect_rejected(doc, c.field, c.reason);
  }
}

// A compute section written by augur fit from a bench run with compute probes (26 November).
TEST(ModelLoader, ReadsTheComputeStatesAugurFitWrote) {
  const auto m = augur::model::load_model_file(std::string(AUGUR_TEST_DATA) + "/compute-states.json");
  ASSERT_TRUE(m.compute.states.has_value());
  EXPECT_GT(m.compute.states->fast, 0);
  EXPECT_LE(m.compute.states->fast, 1);
  EXPECT_GE(m.compute.states->slow, 1);
  EXPECT_LT(m.compute.states->slow, 2);
}
