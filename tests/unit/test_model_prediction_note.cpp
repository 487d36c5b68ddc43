// The note a model's answers carry when its machine spent part of the bench in a slower state.
#include <gtest/gtest.h>

#include <string>

#include "model/machine_states.hpp"

namespace {

using augur::model::prediction_note;
using nlohmann::json;

// provenance.settings as `augur fit` writes them (src/fit/fitter.cpp, model/machine_states.cpp).
json settings_with(double probed, double elsewhere, const std::string& state = "reference") {
  return {{"fit", {{"state", state}}},
          {"machine_states",
           {{"probed", probed}, {"elsewhere", elsewhere}, {"reference_probe", 0.143e-6},
            {"elsewhere_probe", 0.359e-6}, {"limit", 0.25e-6}}}};
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(PredictionNote, ReferenceModelSaysHowOftenAndHowMuchSlowerTheOtherStateWasAndWhichItDescribes) {
  const auto note = prediction_note(settings_with(28965, 19571));
  ASSERT_TRUE(note.has_value());
  EXPECT_TRUE(has(*note, "68% of the measurements")) << *note;
  EXPECT_TRUE(has(*note, "359 ns instead of 143 ns (2.5 times as long)")) << *note;
  EXPECT_TRUE(has(*note, "describes the faster state")) << *note;
}

TEST(PredictionNote, ModelPoolingEveryPassSaysItsTimesLieBetweenTheStates) {
  const auto note = prediction_note(settings_with(1000, 400, "typical"));
  ASSERT_TRUE(note.has_value());
  EXPECT_TRUE(has(*note, "40% of the measurements")) << *note;
  EXPECT_TRUE(has(*note, "lie between the two")) << *note;
  EXPECT_FALSE(has(*note, "describes the faster state")) << *note;
}

TEST(PredictionNote, ARareOtherStateIsNotWorthANote) {
  EXPECT_FALSE(prediction_note(settings_with(28939, 1386)).has_value());  // 4.8%
  EXPECT_TRUE(prediction_note(settings_with(1000, 50)).has_value());      // 5% exactly
}

TEST(PredictionNote, ModelsWithoutARecordOrWithAMalformedOneGetNoNote) {
  EXPECT_FALSE(prediction_note(json::object()).has_value());
  EXPECT_FALSE(prediction_note(json{{"machine_states", "many"}}).has_value());
  EXPECT_FALSE(prediction_note(json::array()).has_value());
  auto text_counts = settings_with(100, 50);
  text_counts["machine_states"]["elsewhere"] = "50";
  EXPECT_FALSE(prediction_note(text_counts).has_value());
  EXPECT_FALSE(prediction_note(settings_with(100, 150)).has_value());  // more elsewhere than probed
  auto faster_elsewhere = settings_with(100, 50);
  faster_elsewhere["machine_states"]["elsewhere_probe"] = 0.1e-6;
  EXPECT_FALSE(prediction_note(faster_elsewhere).has_value());
  EXPECT_FALSE(prediction_note(settings_with(0, 0)).has_value());
}

TEST(PredictionNote, TheRecordReadsBackAsTheFitWroteIt) {
  augur::model::MachineStates written;
  written.probed = 28965;
  written.reference = 0.143e-6;
  written.limit = 0.25e-6;
  written.elsewhere = 19571;
  written.elsewhere_probe = 0.359e-6;
  const auto read = augur::model::MachineStates::from_json(written.to_json());
  ASSERT_TRUE(read.has_value());
  EXPECT_EQ(read->probed, written.probed);
  EXPECT_EQ(read->elsewhere, written.elsewhere);
  EXPECT_DOUBLE_EQ(read->reference, written.reference);
  EXPECT_DOUBLE_EQ(read->limit, written.limit);
  EXPECT_DOUBLE_EQ(read->elsewhere_probe, written.elsewhere_probe);
  EXPECT_FALSE(augur::model::MachineStates::from_json(json{{"probed", 1e300}, {"elsewhere", 1}}).has_value());
}

}  // namespace
