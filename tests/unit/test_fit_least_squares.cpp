// Weighted least squares over a shared Gram matrix: exact on exact data, closed-form
// leave-one-out equal to refitting, textbook standard errors and Q.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "fit/least_squares.hpp"

namespace augur::fit {
namespace {

using model::Basis;

std::vector<Basis> bases(std::initializer_list<const char*> names) {
  std::vector<Basis> b;
  for (const char* n : names) b.push_back(Basis::parse(n));
  return b;
}

Hypothesis first(int size) {
  Hypothesis h;
  for (int k = 0; k < size; ++k) h.columns[h.size++] = k;
  return h;
}

Sample sample(double p, double d, double y, double sigma) {
  return Sample{p, d, d, y, sigma, y, y};
}

std::vector<Sample> noisy_surface(std::mt19937_64& rng, int count) {
  std::uniform_real_distribution<double> group(2, 128), size(1, 5000);
  std::normal_distribution<double> noise(0, 0.05);
  std::vector<Sample> s;
  for (int i = 0; i < count; ++i) {
    const double p = std::round(group(rng)), d = std::round(size(rng));
    const double truth = 100 + 6 * p + 0.04 * p * d;
    s.push_back(sample(p, d, truth * (1 + noise(rng)), 0.05 * truth));
  }
  return s;
}

TEST(FitLeastSquares, ExactDataGiveExactCoefficients) {
  std::vector<Sample> s;
  for (double p : {2.0, 8.0, 32.0, 128.0})
    for (double d : {1.0, 100.0, 10000.0}) s.push_back(sample(p, d, 100 + 6 * p + 0.04 * p * d, 1));
  const WeightedDesign design(s, bases({"1", "p", "p*d"}));
  const auto fit = solve(design, first(3));
  ASSERT_TRUE(fit);
  EXPECT_NEAR(fit->coef[0], 100, 1e-8);
  EXPECT_NEAR(fit->coef[1], 6, 1e-10);
  EXPECT_NEAR(fit->coef[2], 0.04, 1e-12);
  EXPECT_NEAR(leave_one_out(design, *fit).cv_error, 0, 1e-9);
}

TEST(FitLeastSquares, ACallersColumnTableIsTheSameDesignAsItsBases) {
  std::mt19937_64 rng(3);
  const auto s = noisy_surface(rng, 30);
  const auto b = bases({"1", "p", "p*d"});
  Eigen::MatrixXd columns(s.size(), b.size());
  Eigen::VectorXd y(s.size()), sigma(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    for (std::size_t j = 0; j < b.size(); ++j) columns(i, j) = b[j](s[i].p, s[i].d);
    y[i] = s[i].y;
    sigma[i] = s[i].sigma;
  }
  const WeightedDesign from_bases(s, b), from_table(columns, y, sigma);
  EXPECT_TRUE(from_table.gram().isApprox(from_bases.gram(), 1e-14));
  EXPECT_TRUE(from_table.gram_rhs().isApprox(from_bases.gram_rhs(), 1e-14));
  EXPECT_NEAR(from_table.weighted_yy(), from_bases.weighted_yy(), 1e-12 * from_bases.weighted_yy());
}

TEST(FitLeastSquares, ClosedFormLeaveOneOutEqualsRefitting) {
  std::mt19937_64 rng(1);
  const auto s = noisy_surface(rng, 40);
  const auto b = bases({"1", "p", "p*d"});
  const WeightedDesign design(s, b);
  const auto fit = solve(design, first(3));
  ASSERT_TRUE(fit);
  const auto closed_form = leave_one_out(design, *fit);

  double refit_error = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    auto rest = s;
    rest.erase(rest.begin() + static_cast<long>(i));
    const auto refit = solve(WeightedDesign(rest, b), first(3));
    ASSERT_TRUE(refit);
    double prediction = 0;
    for (int k = 0; k < 3; ++k) prediction += refit->coef[k] * b[k](s[i].p, s[i].d);
    refit_error += 2 * std::abs(s[i].y - prediction) / (std::abs(s[i].y) + std::abs(prediction)) / s.size();
  }
  EXPECT_NEAR(closed_form.cv_error, refit_error, 1e-9 * refit_error);
  EXPECT_NEAR(closed_form.chi2, fit->chi2, 1e-6 * fit->chi2);
}

TEST(FitLeastSquares, MeanOfEqualErrorPointsHasTheTextbookError) {
  // A constant fitted to N points of equal σ is their mean, with standard error σ/√N.
  std::vector<Sample> s;
  for (int i = 0; i < 16; ++i) s.push_back(sample(2, 1, 10 + (i % 2 ? 0.1 : -0.1), 1));
  const WeightedDesign design(s, bases({"1"}));
  const auto fit = solve(design, first(1));
  ASSERT_TRUE(fit);
  EXPECT_NEAR(fit->coef[0], 10, 1e-12);
  EXPECT_NEAR(standard_errors(*fit, 16)[0], 0.25, 1e-12);
}

TEST(FitLeastSquares, ScatterBeyondTheErrorsWidensTheStandardErrors) {
  std::vector<Sample> s;
  for (int i = 0; i < 16; ++i) s.push_back(sample(2, 1, 10 + (i % 2 ? 3.0 : -3.0), 1));
  const WeightedDesign design(s, bases({"1"}));
  const auto fit = solve(design, first(1));
  ASSERT_TRUE(fit);
  // χ² = 16·9 over 15 degrees of freedom: errors scaled by √(144/15).
  EXPECT_NEAR(standard_errors(*fit, 16)[0], 0.25 * std::sqrt(144.0 / 15), 1e-9);
}

TEST(FitLeastSquares, GoodnessOfFitIsTheUpperIncompleteGamma) {
  EXPECT_NEAR(goodness_of_fit(2, 5, 3), std::exp(-1.0), 1e-12);  // Γ(1, 1)/Γ(1) = e⁻¹
  EXPECT_EQ(goodness_of_fit(123, 3, 3), 1);
  EXPECT_GT(goodness_of_fit(10, 13, 3), goodness_of_fit(30, 13, 3));
  EXPECT_LT(goodness_of_fit(1000, 13, 3), 1e-100);
}

TEST(FitLeastSquares, DependentColumnsAreRejected) {
  std::vector<Sample> s;
  for (double d : {1.0, 10.0, 100.0}) s.push_back(sample(8, d, 5 + d, 1));
  const WeightedDesign design(s, bases({"1", "p", "d"}));
  EXPECT_FALSE(solve(design, first(2)));  // p is the same at every point
  Hypothesis line;
  line.columns = {0, 2};
  line.size = 2;
  EXPECT_TRUE(solve(design, line));
}

TEST(FitLeastSquares, ALawThatNeedsEveryPointCannotBeCrossValidated) {
  std::vector<Sample> s{sample(2, 1, 5, 1), sample(2, 10, 7, 1)};
  const WeightedDesign design(s, bases({"1", "d"}));
  const auto fit = solve(design, first(2));
  ASSERT_TRUE(fit);
  EXPECT_TRUE(std::isinf(leave_one_out(design, *fit).cv_error));
}

}  // namespace
}  // namespace augur::fit
