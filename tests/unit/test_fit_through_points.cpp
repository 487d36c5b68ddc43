// The lines through a published table's points (fit/through_points.hpp): calc gives every printed
// time back, interpolates between two sizes, and leaves operations measured at several process
// counts with the fitter's laws.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <unistd.h>
#include <vector>

#include "fit/fitter.hpp"
#include "fit/raw.hpp"
#include "fit/through_points.hpp"
#include "model/model_json.hpp"

namespace augur::fit {
namespace {

Measurement printed(const std::string& op, int p, double bytes, double seconds) {
  return Measurement{op, p, bytes, seconds, seconds, seconds, seconds, 0, 1, {}, {}, {}};
}

// A jagged ping-pong as a loaded host prints it (times fall as the message grows between 8 and
// 64 B), and an allreduce at two process counts.
RawSet table() {
  RawSet raw;
  raw.header = {{"augur_raw", 1}, {"settings", {{"reps", 1}}}};
  const std::vector<std::pair<double, double>> pingpong = {
      {0, 2.0e-6}, {8, 2.6e-6}, {64, 1.9e-6}, {512, 3.1e-6}, {4096, 6.0e-6}, {32768, 20e-6}, {262144, 120e-6}};
  for (const auto& [bytes, seconds] : pingpong) raw.points.push_back(printed("pingpong", 2, bytes, seconds));
  for (double bytes : {8.0, 64.0, 512.0, 4096.0, 32768.0}) {
    raw.points.push_back(printed("allreduce", 2, bytes, 3e-6 + bytes * 1e-9));
    raw.points.push_back(printed("allreduce", 4, bytes, 6e-6 + bytes * 2e-9));
  }
  return raw;
}

TEST(ThroughPoints, CalcGivesEveryPrintedTimeBack) {
  const auto raw = table();
  auto model = fit_model(raw, FitOptions{}).model;
  lay_laws_through_points(model, raw.points);
  for (const auto& m : raw.points) {
    if (m.op != "pingpong") continue;
    EXPECT_NEAR(model.seconds("pingpong", 2, m.bytes), m.median, 1e-12 * m.median) << m.bytes << " B";
  }
}

TEST(ThroughPoints, BetweenTwoPrintedSizesTheLineThroughThem) {
  const auto raw = table();
  auto model = fit_model(raw, FitOptions{}).model;
  lay_laws_through_points(model, raw.points);
  EXPECT_NEAR(model.seconds("pingpong", 2, 36), (2.6e-6 + 1.9e-6) / 2, 1e-15);
  EXPECT_NEAR(model.seconds("pingpong", 2, 2304), (3.1e-6 + 6.0e-6) / 2, 1e-15);
  // Past the largest the last line carries on: 120 µs + (120 - 20) µs for another 229376 B.
  EXPECT_NEAR(model.seconds("pingpong", 2, 262144 + 229376), 220e-6, 1e-12);
}

TEST(ThroughPoints, BelowTheSmallestPrintedSizeItsTime) {
  RawSet raw = table();
  std::erase_if(raw.points, [](const Measurement& m) { return m.op == "pingpong" && m.bytes < 64; });
  auto model = fit_model(raw, FitOptions{}).model;
  lay_laws_through_points(model, raw.points);
  EXPECT_DOUBLE_EQ(model.seconds("pingpong", 2, 0), 1.9e-6);
  EXPECT_DOUBLE_EQ(model.seconds("pingpong", 2, 32), 1.9e-6);
  EXPECT_NEAR(model.seconds("pingpong", 2, 64), 1.9e-6, 1e-18);
}

TEST(ThroughPoints, TwoProcessCountsComeBackAndPLiesBetween) {
  const auto raw = table();
  auto model = fit_model(raw, FitOptions{}).model;
  lay_laws_through_points(model, raw.points);
  for (const auto& m : raw.points) {
    if (m.op != "allreduce") continue;
    EXPECT_NEAR(model.seconds("allreduce", m.p, m.bytes), m.median, 1e-12 * m.median);
  }
  // Halfway in p and in size between two printed points: the mean of the four.
  const double t = (3e-6 + 8e-9) + (3e-6 + 64e-9) + (6e-6 + 16e-9) + (6e-6 + 128e-9);
  EXPECT_NEAR(model.seconds("allreduce", 3, 36), t / 4, 1e-15);
}

TEST(ThroughPoints, OneSizeAtTwoCountsIsTheLineInP) {
  // IMB's Barrier at 2 and 4 processes of one -npmin run: no constant is within 5% of both.
  auto raw = table();
  raw.points.push_back(printed("barrier", 2, 0, 1.53e-6));
  raw.points.push_back(printed("barrier", 4, 0, 7.68e-6));
  auto model = fit_model(raw, FitOptions{}).model;
  lay_laws_through_points(model, raw.points);
  EXPECT_NEAR(model.seconds("barrier", 2, 0), 1.53e-6, 1e-18);
  EXPECT_NEAR(model.seconds("barrier", 4, 0), 7.68e-6, 1e-18);
  EXPECT_NEAR(model.seconds("barrier", 3, 0), (1.53e-6 + 7.68e-6) / 2, 1e-18);
}

TEST(ThroughPoints, OperationsAtThreeProcessCountsKeepTheFittedLaws) {
  auto raw = table();
  for (double bytes : {8.0, 64.0, 512.0, 4096.0, 32768.0}) raw.points.push_back(printed("allreduce", 8, bytes, 9e-6 + bytes * 3e-9));
  const auto fitted = fit_model(raw, FitOptions{}).model;
  auto model = fitted;
  lay_laws_through_points(model, raw.points);
  const auto& before = fitted.at("allreduce").regimes;
  const auto& after = model.at("allreduce").regimes;
  ASSERT_EQ(before.size(), after.size());
  for (std::size_t i = 0; i < before.size(); ++i) EXPECT_EQ(before[i].equation(), after[i].equation());
  EXPECT_NE(fitted.at("pingpong").regimes.size(), model.at("pingpong").regimes.size());
}

TEST(ThroughPoints, TheLinesSurviveTheModelFile) {
  const auto raw = table();
  auto model = fit_model(raw, FitOptions{}).model;
  lay_laws_through_points(model, raw.points);
  const auto path = std::filesystem::temp_directory_path() / ("augur-through-points-" + std::to_string(::getpid()) + ".json");
  model::save_model_file(model, path.string());
  const auto loaded = model::load_model_file(path.string());
  std::filesystem::remove(path);
  for (const auto& m : raw.points) {
    if (m.op != "pingpong") continue;
    EXPECT_NEAR(loaded.seconds("pingpong", 2, m.bytes), m.median, 1e-9 * m.median) << m.bytes << " B";
  }
}

}  // namespace
}  // namespace augur::fit
