// The fitter recovers the law that generated the data: the seed's twelve forms with 5% noise,
// point-to-point lines and barrier curves, and the wide family's preference for fewer terms.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "fit/fitter.hpp"
#include "test_fit_synthetic.hpp"

namespace augur::fit {
namespace {

using model::Basis;
using synthetic::Grid;

struct Term {
  const char* name;
  double (*at)(double p);  // the p-part; data terms are at(p)·d
};

const Term kStartup[] = {{"p", [](double p) { return p; }},
                         {"log(p)", [](double p) { return std::log(p); }},
                         {"p^2", [](double p) { return p * p; }}};
const Term kData[] = {{"d", [](double) { return 1.0; }},
                      {"p*d", [](double p) { return p; }},
                      {"log(p)*d", [](double p) { return std::log(p); }},
                      {"p^2*d", [](double p) { return p * p; }}};

// Proportions of the T3D's bcast (100 + 6p + 0.04pd µs): at 128 processes the startup term
// adds about 800 µs to the constant's 100 and the data term reaches about 40 ms at 8192 ints.
struct Coefficients {
  double c, s, k;
};
Coefficients realistic(const Term& startup, const Term& data) {
  return {100, 800 / startup.at(128), 40000 / (8192 * data.at(128))};
}

FitOptions seed_options() {
  FitOptions options;
  options.family = Family::seed12;
  options.statistic = model::Statistic::mean;
  options.units = {"us", "ints", 8};
  return options;
}

const model::FittedForm& only_form(const model::Operation& op) {
  return std::get<model::FittedForm>(op.regimes.front().law);
}

bool has_terms(const model::FittedForm& form, const std::vector<std::string>& names) {
  if (form.terms.size() != names.size()) return false;
  for (std::size_t i = 0; i < names.size(); ++i)
    if (!(form.terms[i].basis == Basis::parse(names[i]))) return false;
  return true;
}

bool within_two_sigma(const model::Term& term, double truth) {
  return std::abs(term.coef - truth) <= 2 * term.stderr_;
}

TEST(FitForms, SeedTwelveFormsAreRecoveredWithHonestErrors) {
  constexpr int kTrials = 20;
  std::mt19937_64 rng(20240601);
  int picked_total = 0, trials_total = 0, covered = 0, coefficients = 0, all_three = 0;
  for (const auto& startup : kStartup) {
    for (const auto& data : kData) {
      const auto truth = realistic(startup, data);
      int picked = 0;
      for (int trial = 0; trial < kTrials; ++trial) {
        auto law = [&](double p, double d) { return truth.c + truth.s * startup.at(p) + truth.k * data.at(p) * d; };
        const auto op = fit_operation(synthetic::synthesize("bcast", law, Grid{}, 0.05, rng), seed_options());
        const auto& form = only_form(op);
        if (op.regimes.size() != 1 || !has_terms(form, {"1", startup.name, data.name})) continue;
        ++picked;
        const double expected[] = {truth.c, truth.s, truth.k};
        int inside = 0;
        for (int i = 0; i < 3; ++i) inside += within_two_sigma(form.terms[i], expected[i]);
        covered += inside;
        all_three += inside == 3;
        coefficients += 3;
      }
      EXPECT_GE(picked, 0.9 * kTrials) << "c + s*" << startup.name << " + k*" << data.name;
      picked_total += picked;
      trials_total += kTrials;
    }
  }
  const double pick_rate = double(picked_total) / trials_total;
  const double coverage = double(covered) / coefficients;
  std::printf("seed12 forms: generating form picked in %.1f%% of %d trials; true coefficient within 2 sigma "
              "in %.1f%% of %d (all three at once in %.1f%% of fits)\n",
              100 * pick_rate, trials_total, 100 * coverage, coefficients, 100.0 * all_three / picked_total);
  EXPECT_GE(pick_rate, 0.9);
  EXPECT_GE(coverage, 0.9);
}

TEST(FitForms, ChiSquareSelectionAlsoFindsSeedForms) {
  auto options = seed_options();
  options.selection = Selection::chi2;
  std::mt19937_64 rng(7);
  int picked = 0, trials = 0;
  for (const auto& startup : kStartup)
    for (const auto& data : kData) {
      const auto truth = realistic(startup, data);
      auto law = [&](double p, double d) { return truth.c + truth.s * startup.at(p) + truth.k * data.at(p) * d; };
      const auto op = fit_operation(synthetic::synthesize("bcast", law, Grid{}, 0.05, rng), options);
      picked += has_terms(only_form(op), {"1", startup.name, data.name});
      ++trials;
    }
  EXPECT_GE(picked, 0.9 * trials);
}

TEST(FitForms, PointToPointIsALineInD) {
  Grid grid;
  grid.group_sizes = {2};
  std::mt19937_64 rng(11);
  int covered = 0;
  constexpr int kTrials = 20;
  for (int trial = 0; trial < kTrials; ++trial) {
    const auto op = fit_operation(
        synthetic::synthesize("send", [](double, double d) { return 30 + 0.09 * d; }, grid, 0.05, rng), seed_options());
    ASSERT_EQ(op.regimes.size(), 1u);
    const auto& form = only_form(op);
    ASSERT_TRUE(has_terms(form, {"1", "d"}));
    covered += within_two_sigma(form.terms[0], 30) && within_two_sigma(form.terms[1], 0.09);
  }
  EXPECT_GE(covered, 0.8 * kTrials);
}

TEST(FitForms, BarrierIsACurveInP) {
  // The T3D barrier, 10 + 8·log(p), measured with a zero-byte "message".
  Grid grid;
  grid.group_sizes = synthetic::powers_of_two(2, 256);
  grid.ints = {0};
  std::mt19937_64 rng(3);
  int picked = 0;
  for (int trial = 0; trial < 20; ++trial) {
    const auto op = fit_operation(
        synthetic::synthesize("barrier", [](double p, double) { return 10 + 8 * std::log(p); }, grid, 0.05, rng),
        seed_options());
    ASSERT_EQ(op.regimes.size(), 1u);
    picked += has_terms(only_form(op), {"1", "log(p)"});
  }
  EXPECT_GE(picked, 18);
}

TEST(FitForms, WideFamilyDoesNotAddATermTheDataDoNotNeed) {
  // c + k·p·d has no startup term: a third coefficient only fits noise.
  std::mt19937_64 rng(5);
  int two_terms = 0;
  constexpr int kTrials = 20;
  FitOptions options = seed_options();
  options.family = Family::wide;
  for (int trial = 0; trial < kTrials; ++trial) {
    const auto op = fit_operation(
        synthetic::synthesize("alltoall", [](double p, double d) { return 500 + 0.2 * p * d; }, Grid{}, 0.05, rng),
        options);
    ASSERT_EQ(op.regimes.size(), 1u);
    two_terms += has_terms(only_form(op), {"1", "p*d"});
  }
  EXPECT_GE(two_terms, 0.9 * kTrials);
}

TEST(FitForms, WideFamilyFindsExtraPTerms) {
  // A startup growing like p·log2²(p) is outside the seed's forms but inside the wide family.
  std::mt19937_64 rng(9);
  FitOptions options = seed_options();
  options.family = Family::wide;
  auto law = [](double p, double d) { return 50 + 2 * p * std::pow(std::log2(p), 2) + 0.01 * p * d; };
  const auto op = fit_operation(synthetic::synthesize("allgather", law, Grid{}, 0.02, rng), options);
  ASSERT_EQ(op.regimes.size(), 1u);
  EXPECT_TRUE(has_terms(only_form(op), {"1", "p*log2(p)^2", "p*d"})) << op.regimes[0].equation();

  auto seed = seed_options();
  const auto seed_op = fit_operation(synthetic::synthesize("allgather", law, Grid{}, 0.02, rng), seed);
  EXPECT_LT(only_form(op).stats.cv_error, only_form(seed_op).stats.cv_error);
}

TEST(FitForms, StatisticsDescribeTheFit) {
  std::mt19937_64 rng(13);
  auto law = [](double p, double d) { return 100 + 6 * p + 0.04 * p * d; };
  constexpr int kTrials = 20;
  double reduced_chi2 = 0, cv_error = 0;
  int plausible_q = 0;
  for (int trial = 0; trial < kTrials; ++trial) {
    const auto op = fit_operation(synthetic::synthesize("bcast", law, Grid{}, 0.05, rng), seed_options());
    const auto& stats = only_form(op).stats;
    EXPECT_EQ(stats.points, 7 * 14);
    EXPECT_EQ(stats.statistic, model::Statistic::mean);
    reduced_chi2 += stats.chi2 / (stats.points - 3) / kTrials;
    cv_error += stats.cv_error / kTrials;
    plausible_q += stats.q > 0.001 && stats.q <= 1;
  }
  // Honest error estimates: χ² near its degrees of freedom (a little above, since each σ is
  // itself estimated from 16 repetitions), and Q rarely tiny.
  EXPECT_GT(reduced_chi2, 0.8);
  EXPECT_LT(reduced_chi2, 1.5);
  EXPECT_GE(plausible_q, 0.8 * kTrials);
  // A left-out point is mispredicted by about the noise: mean |N(0, 5%)| is 4%.
  EXPECT_GT(cv_error, 0.03);
  EXPECT_LT(cv_error, 0.06);
}

TEST(FitForms, UnderstatedErrorsGiveALowQAndWiderCoefficientErrors) {
  auto law = [](double p, double d) { return 100 + 6 * p + 0.04 * p * d; };
  std::mt19937_64 rng(17);
  auto points = synthetic::synthesize("bcast", law, Grid{}, 0.05, rng);
  const auto honest = only_form(fit_operation(points, seed_options()));
  for (auto& m : points) m.stddev /= 4;
  const auto understated = only_form(fit_operation(points, seed_options()));
  EXPECT_LT(understated.stats.q, 1e-6);
  // Up to 16 times larger: a few standard errors now fall under the 1% floor.
  EXPECT_GT(understated.stats.chi2, 8 * honest.stats.chi2);
  EXPECT_LE(understated.stats.chi2, 16 * honest.stats.chi2 * (1 + 1e-9));
  // The covariance is scaled by χ²/(N − M), so the coefficient errors do not shrink by 4.
  for (std::size_t i = 0; i < honest.terms.size(); ++i)
    EXPECT_GT(understated.terms[i].stderr_, 0.8 * honest.terms[i].stderr_);
}

}  // namespace
}  // namespace augur::fit
