// Laws of a learned program: each family recovered from synthetic points at p = 2…16, exact
// integer laws, noise not mistaken for a law, the texts evaluating to the fitted values in
// muparser with only p and the parameter, and bounds that hold the true law at p = 64.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include <fmt/format.h>

#include "app/process_grid.hpp"
#include "app/scope.hpp"
#include "learn/law_fit.hpp"

namespace augur::learn {
namespace {

using Truth = std::function<double(double p, double n)>;

const std::vector<double> kCounts{2, 4, 8, 16};
const std::vector<double> kNoSize{0};
const std::vector<double> kSizes{256, 512, 1024};

// One point per process count and size, each off its true value by `noise` (relative, normal).
std::vector<LawPoint> points(const Truth& truth, const std::vector<double>& sizes, double noise = 0,
                             unsigned seed = 1) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> relative(0, noise);
  std::vector<LawPoint> v;
  for (double n : sizes)
    for (double p : kCounts) v.push_back({p, n, truth(p, n) * (1 + (noise > 0 ? relative(rng) : 0))});
  return v;
}

// How many of 200 noisy point sets give the law `form`.
int recoveries(const Truth& truth, const std::vector<double>& sizes, double noise, const std::string& form) {
  int count = 0;
  for (unsigned seed = 1; seed <= 200; ++seed)
    count += fit_law(points(truth, sizes, noise, seed), Quantity::seconds, sizes.size() > 1 ? "n" : "").form == form;
  return count;
}

double log2(double x) { return std::log2(x); }

struct Family {
  std::string form;
  Truth truth;
  bool with_n;
};

TEST(LearnLawFit, EachFamilyIsRecoveredFromExactPoints) {
  const std::vector<Family> families{
      {"a/p", [](double p, double) { return 3e-3 / p; }, false},
      {"a/√p", [](double p, double) { return 3e-3 / std::sqrt(p); }, false},
      {"a·log₂p", [](double p, double) { return 2e-5 * log2(p); }, false},
      {"a·p", [](double p, double) { return 2e-5 * p; }, false},
      {"a·p·log₂p", [](double p, double) { return 2e-5 * p * log2(p); }, false},
      {"a·p²", [](double p, double) { return 2e-6 * p * p; }, false},
      // A pair's share of an all-to-all of a fixed total.
      {"a/p²", [](double p, double) { return 1.6e6 / (p * p); }, false},
      {"c + a/p", [](double p, double) { return 1e-3 + 8e-3 / p; }, false},
      {"c + a·log₂p", [](double p, double) { return 1e-3 + 5e-4 * log2(p); }, false},
      {"a·n", [](double, double n) { return 4e-8 * n; }, true},
      {"a·√n", [](double, double n) { return 4e-6 * std::sqrt(n); }, true},
      {"a·n²", [](double, double n) { return 4e-10 * n * n; }, true},
      {"a·n/p", [](double p, double n) { return 4e-8 * n / p; }, true},
      {"a·n/√p", [](double p, double n) { return 4e-8 * n / std::sqrt(p); }, true},
      {"a·n²/p", [](double p, double n) { return 3e-9 * n * n / p; }, true},
      {"c + a·n", [](double, double n) { return 2e-5 + 4e-8 * n; }, true},
      {"c + a·log₂p + b·n²/p", [](double p, double n) { return 1e-4 + 2e-5 * log2(p) + 3e-9 * n * n / p; }, true},
      // Seed 000's outer: the whole problem on every rank beside a share of it.
      {"a·n + b·n²/p", [](double p, double n) { return 5e-8 * n + 5e-8 * n * n / p; }, true},
  };
  for (const auto& family : families) {
    const auto law = fit_law(points(family.truth, family.with_n ? kSizes : kNoSize), Quantity::seconds,
                             family.with_n ? "n" : "");
    EXPECT_EQ(law.form, family.form);
    EXPECT_LT(law.cv_error, 1e-9) << family.form;
    for (double p : {64.0, 4096.0})
      EXPECT_NEAR(evaluate_law(law, p, 2048, "n"), family.truth(p, 2048), 1e-9 * family.truth(p, 2048)) << family.form;
  }
}

// Rates of 200 noisy point sets (one point per count and size); each threshold is about three
// standard deviations of a binomial count below the rate measured, which it states.
TEST(LearnLawFit, NoisyLawsAreRecovered) {
  // 5% noise: measured 197, 157 and 120 of 200.
  EXPECT_GE(recoveries([](double p, double n) { return 3e-9 * n * n / p; }, kSizes, 0.05, "a·n²/p"), 190);
  EXPECT_GE(recoveries([](double p, double) { return 1e-3 + 8e-3 / p; }, kNoSize, 0.05, "c + a/p"), 140);
  EXPECT_GE(recoveries([](double p, double) { return 1e-3 + 5e-4 * log2(p); }, kNoSize, 0.05, "c + a·log₂p"), 100);
  // Four counts tell log₂p from c − a/√p poorly at 5% when the constant is twice the term; at 3%
  // they do better (measured 176).
  EXPECT_GE(recoveries([](double p, double) { return 1e-3 + 5e-4 * log2(p); }, kNoSize, 0.03, "c + a·log₂p"), 162);
  // A constant as large as the term needs sizes spread over more than a factor of four to be told
  // from a·√n (measured 199).
  EXPECT_GE(recoveries([](double, double n) { return 2e-5 + 4e-8 * n; }, {256, 1024, 4096}, 0.05, "c + a·n"), 192);
}

TEST(LearnLawFit, NoiseOnAConstantStaysAConstant) {
  // 3% noise: measured 193 and 189 of 200. Without the significance test on each coefficient,
  // cross-validation alone kept 148 of 200 constant at four counts.
  EXPECT_GE(recoveries([](double, double) { return 1e-3; }, kNoSize, 0.03, "c"), 185);
  EXPECT_GE(recoveries([](double, double) { return 1e-3; }, kSizes, 0.03, "c"), 180);
}

// A few microseconds between two calls (a face's packing) that the host's noise moves by a factor
// of two: no power of p describes them, and one fitted to them (a·p² on four counts) carries the
// noise to every larger count. They are kept at their mean: 144 of 200 point sets give the
// constant, none more than 6.3 times its largest value at 64 (without: 62, and 14.6 times).
TEST(LearnLawFit, NoiseLargerThanTheValueKeepsTheMean) {
  int constants = 0;
  double worst = 0;
  for (unsigned seed = 1; seed <= 200; ++seed) {
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> spread(0, 0.8);
    std::vector<LawPoint> v;
    double largest = 0;
    for (double p : kCounts) {
      v.push_back({p, 0, 2e-6 * std::exp(spread(rng))});
      largest = std::max(largest, v.back().value);
    }
    const auto law = fit_law(v, Quantity::seconds, "");
    constants += law.form == "c";
    worst = std::max(worst, evaluate_law(law, 64, 0, "") / largest);
  }
  EXPECT_GE(constants, 130);
  EXPECT_LE(worst, 8.0);  // at 64 ranks, against the largest value measured
}

// A simulated run's times are exact but for rounding, and so is the scatter about any law that
// adds a term of rounding size to the true one: such a term is dropped, whatever its error (with
// the error test alone, 196 of 200 kept a·n²/p and 4 added a second term of rounding size).
TEST(LearnLawFit, RoundingOnExactDataAddsNoTerm) {
  EXPECT_EQ(recoveries([](double p, double n) { return 2e-8 * n * n / p; }, kSizes, 1e-12, "a·n²/p"), 200);
  EXPECT_EQ(recoveries([](double p, double n) { return 5e-8 * n + 5e-8 * n * n / p; }, kSizes, 1e-12, "a·n + b·n²/p"),
            200);
}

TEST(LearnLawFit, EqualValuesAreAnExactConstant) {
  const auto law = fit_law(points([](double, double) { return 2.5e-4; }, kNoSize), Quantity::seconds, "");
  EXPECT_EQ(law.expr, "0.00025000000000000001");
  EXPECT_EQ(law.low, law.expr);
  EXPECT_EQ(law.high, law.expr);
  EXPECT_EQ(law.cv_error, 0);
  EXPECT_EQ(law.coefficients, std::vector<double>{2.5e-4});
  EXPECT_EQ(law.errors, std::vector<double>{0.0});
}

struct Exact {
  Truth count;
  bool with_n;
  std::string expr, form;
};

TEST(LearnLawFit, CountsFollowExactIntegerLaws) {
  const std::vector<Exact> cases{
      {[](double, double) { return 10; }, false, "10", "10"},
      {[](double p, double) { return p - 1; }, false, "p - 1", "p − 1"},
      {[](double p, double) { return p / 2; }, false, "0.5*p", "p/2"},
      {[](double p, double) { return log2(p); }, false, "log2(p)", "log₂p"},
      {[](double p, double) { return -p / 2; }, false, "-0.5*p", "−p/2"},
      {[](double p, double) { return 1 - p; }, false, "1 - p", "1 − p"},
      {[](double p, double) { return 2 * p + 1; }, false, "2*p + 1", "2·p + 1"},
      {[](double p, double n) { return n / p; }, true, "n/p", "n/p"},
      {[](double p, double n) { return std::ceil(n / p); }, true, "ceil(n/p)", "⌈n/p⌉"},
      {[](double p, double n) { return 8 * n * n / p; }, true, "8*n^2/p", "8·n²/p"},
      // A 2-D stencil's halo: a row of 256 doubles split along the grid's second side, a column
      // of n along its first.
      {[](double p, double) { return 2048 / app::grid_side(p, 2, 1); }, false, "2048/dims(p, 2, 1)",
       "2048/dims(p, 2, 1)"},
      {[](double p, double n) { return 8 * n / app::grid_side(p, 2, 0); }, true, "8*n/dims(p, 2, 0)",
       "8·n/dims(p, 2, 0)"},
  };
  const std::vector<double> sizes{1000, 3000};
  for (const auto& c : cases) {
    const auto law = fit_law(points(c.count, c.with_n ? sizes : kNoSize), Quantity::integer, c.with_n ? "n" : "");
    EXPECT_EQ(law.expr, c.expr);
    EXPECT_EQ(law.form, c.form);
    EXPECT_EQ(law.low, law.expr);
    EXPECT_EQ(law.high, law.expr);
    EXPECT_EQ(law.cv_error, 0);
    EXPECT_EQ(evaluate_law(law, 64, 5000, "n"), c.count(64, 5000)) << c.form;
  }
}

// A 3-D halo's faces: the product of the block's two other sides, exact laws of MPI_Dims_create's
// 3-D grid (p = 16 is 4 x 2 x 2, p = 32 is 4 x 4 x 2). At p = 4, 8, 16 (the face of a dimension
// p = 2 leaves unsplit) the z-face is also 16384/dims(p, 2, 1): the grid of the call's peers
// decides, and the face across the peers' dimension comes first.
TEST(LearnLawFit, FacesOfAThreeDimensionalGridAreExactLawsOfItsSides) {
  const auto face = [](int a, int b) {
    return [a, b](double p, double) { return 32768 / (app::grid_side(p, 3, a) * app::grid_side(p, 3, b)); };
  };
  const auto at = [](const Truth& truth, std::vector<double> counts) {
    std::vector<LawPoint> v;
    for (double p : counts) v.push_back({p, 0, truth(p, 0)});
    return v;
  };
  const std::vector<std::tuple<int, int, int>> faces{{0, 1, 2}, {1, 0, 2}, {2, 0, 1}};
  for (const auto& [dim, a, b] : faces) {
    const auto law = fit_law(at(face(a, b), {2, 4, 8, 16}), Quantity::integer, "", PeerGrid{3, dim});
    EXPECT_EQ(law.expr, fmt::format("32768/(dims(p, 3, {})*dims(p, 3, {}))", a, b)) << dim;
    EXPECT_EQ(law.form, fmt::format("32768/(dims(p, 3, {})·dims(p, 3, {}))", a, b)) << dim;
    for (const double p : {32.0, 64.0, 96.0}) EXPECT_EQ(evaluate_law(law, p, 0, ""), face(a, b)(p, 0)) << dim << " " << p;
  }
  const auto z = at(face(0, 1), {4, 8, 16});
  EXPECT_EQ(fit_law(z, Quantity::integer, "").expr, "16384/dims(p, 2, 1)");  // a 2-D law by chance
  const auto law = fit_law(z, Quantity::integer, "", PeerGrid{3, 2});
  EXPECT_EQ(law.expr, "32768/(dims(p, 3, 0)*dims(p, 3, 1))");
  EXPECT_EQ(evaluate_law(law, 32, 0, ""), 2048);
  // With the problem size: 8·n²/(dims(p, 3, 1)·dims(p, 3, 2)).
  std::vector<LawPoint> sized;
  for (double n : {32.0, 64.0})
    for (double p : kCounts) sized.push_back({p, n, 8 * n * n / (app::grid_side(p, 3, 1) * app::grid_side(p, 3, 2))});
  EXPECT_EQ(fit_law(sized, Quantity::integer, "n", PeerGrid{3, 0}).expr, "8*n^2/(dims(p, 3, 1)*dims(p, 3, 2))");
}

// A rank's block of an all-to-all within its grid row (a pencil transform's transpose): its
// share of n³ over p, cut into as many blocks as the row has ranks. No power of p gives it
// (p = 8 is a 4 × 2 grid, p = 32 an 8 × 4 one); the fitted a/p² missed the runs by up to 43%.
TEST(LearnLawFit, AnAllToAllsBlockWithinAGridRowIsAnExactLaw) {
  for (const int side : {0, 1}) {
    const Truth block = [side](double p, double) { return 2097152 / (p * app::grid_side(p, 2, side)); };
    const auto law = fit_law(points(block, kNoSize), Quantity::integer, "");
    EXPECT_EQ(law.expr, fmt::format("2097152/(p*dims(p, 2, {}))", side));
    EXPECT_EQ(law.form, fmt::format("2097152/(p·dims(p, 2, {}))", side));
    for (const double p : {32.0, 64.0, 128.0}) EXPECT_EQ(evaluate_law(law, p, 0, ""), block(p, 0)) << side << " " << p;
  }
}

TEST(LearnLawFit, CountsWithoutAnExactLawAreFitted) {
  auto v = points([](double p, double) { return std::round(1000 * std::pow(p, 0.3)); }, kNoSize);
  const auto law = fit_law(v, Quantity::integer, "");
  EXPECT_GT(law.cv_error, 0);
  EXPECT_NE(law.low, law.high);
  // Two points could be any law c + a·term; only laws with one coefficient are tried on them.
  v.resize(2);
  v[1].value = 1229;
  EXPECT_EQ(fit_law(v, Quantity::integer, "").errors.size(), 1);
}

// A fitted law's value from its coefficients, for the forms the round trip uses.
double by_coefficients(const app::Law& law, double p, double n) {
  const auto& a = law.coefficients;
  if (law.form == "c + a·log₂p") return a[0] + a[1] * log2(p);
  if (law.form == "a·n²/p") return a[0] * n * n / p;
  if (law.form == "c + a·n²/p") return a[0] + a[1] * n * n / p;
  if (law.form == "c + a·log₂p + b·n²/p") return a[0] + a[1] * log2(p) + a[2] * n * n / p;
  ADD_FAILURE() << "no reference for " << law.form;
  return 0;
}

TEST(LearnLawFit, TextsEvaluateToTheFittedValues) {
  const std::vector<std::pair<Truth, std::vector<double>>> cases{
      {[](double p, double) { return 1e-3 + 5e-4 * log2(p); }, kNoSize},
      {[](double p, double n) { return 3e-9 * n * n / p; }, kSizes},
      {[](double p, double n) { return 1e-4 + 2e-5 * log2(p) + 3e-9 * n * n / p; }, kSizes},
  };
  for (const auto& [truth, sizes] : cases) {
    const std::string parameter = sizes.size() > 1 ? "n" : "";
    const auto v = points(truth, sizes, 0.02, 7);
    const auto law = fit_law(v, Quantity::seconds, parameter);
    for (const auto& q : v) {
      const double fitted = by_coefficients(law, q.p, q.n);
      EXPECT_NEAR(evaluate_law(law, q.p, q.n, parameter), fitted, 1e-12 * fitted) << law.expr;
    }
    for (const auto* text : {&law.expr, &law.low, &law.high})
      for (const auto& name : app::Scope::variables_used(*text)) EXPECT_TRUE(name == "p" || name == parameter) << *text;
  }
}

TEST(LearnLawFit, TheParameterNamesTheTexts) {
  auto v = points([](double p, double n) { return 3e-9 * n * n / p; }, kSizes);
  const auto law = fit_law(v, Quantity::seconds, "size");
  EXPECT_EQ(law.form, "a·size²/p");
  EXPECT_NEAR(evaluate_law(law, 32, 100, "size"), 3e-9 * 100 * 100 / 32, 1e-20);
  // Without a parameter, n is ignored: the sizes look like repeated points of one law in p.
  EXPECT_EQ(fit_law(v, Quantity::seconds, "").form.find('n'), std::string::npos);
}

TEST(LearnLawFit, BoundsHoldTheTrueLawAtSixtyFour) {
  const Truth truth = [](double p, double) { return 1e-3 + 8e-3 / p; };
  int right_form = 0, bracketed = 0;
  for (unsigned seed = 1; seed <= 200; ++seed) {
    const auto law = fit_law(points(truth, kNoSize, 0.03, seed), Quantity::seconds, "");
    const double low = evaluate_expression(law.low, 64, 0, ""), high = evaluate_expression(law.high, 64, 0, "");
    const double value = evaluate_law(law, 64, 0, "");
    EXPECT_LE(low, value);
    EXPECT_LE(value, high);
    EXPECT_GE(low, 0);
    if (law.form != "c + a/p") continue;
    ++right_form;
    bracketed += low <= truth(64, 0) && truth(64, 0) <= high;
  }
  // One standard error each way: about 68% if the errors are honest; measured 147 of 193.
  EXPECT_GE(right_form, 185);
  EXPECT_GE(bracketed, 0.68 * right_form);
}

// Beyond the largest count (16) a time falls no faster than 1/p from its value there, which is
// what the slowest of p shares of a fixed work can do; below it the law is as fitted.
TEST(LearnLawFit, ATimeFallsNoFasterThanStrongScalingBeyondTheData) {
  const auto law = fit_law(points([](double p, double) { return 10 - 0.5 * p; }, kNoSize), Quantity::seconds, "");
  EXPECT_EQ(law.form, "c + a·p");
  EXPECT_EQ(law.expr.rfind("max(p > 16 ? ", 0), 0u) << law.expr;
  EXPECT_NEAR(evaluate_law(law, 8, 0, ""), 6, 1e-12);
  EXPECT_NEAR(evaluate_law(law, 16, 0, ""), 2, 1e-12);
  EXPECT_NEAR(evaluate_law(law, 17, 0, ""), 2 * 16.0 / 17, 1e-12);
  EXPECT_NEAR(evaluate_law(law, 64, 0, ""), 0.5, 1e-12);
  for (const auto* text : {&law.low, &law.high}) EXPECT_GT(evaluate_expression(*text, 1024, 0, ""), 0) << *text;
}

// The slowest of p contiguous slices when the work sits in the middle ones: 4, 3, 2, 1 ms at
// p = 2…16 is exactly c + a·log₂p with a < 0, which reaches 0 at p = 32.
TEST(LearnLawFit, TheSlowestSliceKeepsItsWorkAtScale) {
  const auto law = fit_law(points([](double p, double) { return 5e-3 - 1e-3 * log2(p); }, kNoSize),
                           Quantity::seconds, "");
  EXPECT_EQ(law.form, "c + a·log₂p");
  EXPECT_NEAR(evaluate_law(law, 4, 0, ""), 3e-3, 1e-15);
  EXPECT_NEAR(evaluate_law(law, 32, 0, ""), 0.5e-3, 1e-15);
  EXPECT_NEAR(evaluate_law(law, 64, 0, ""), 0.25e-3, 1e-15);
}

// A law with no negative coefficient cannot fall faster than 1/p and is written as fitted.
TEST(LearnLawFit, ALawThatCannotFallIsNotGuarded) {
  const auto law = fit_law(points([](double p, double) { return 1e-3 + 8e-3 / p; }, kNoSize), Quantity::seconds, "");
  EXPECT_EQ(law.form, "c + a/p");
  EXPECT_EQ(law.expr.find("max"), std::string::npos) << law.expr;
}

// A size is not work shared among the ranks (a pair's share of an all-to-all falls as 1/p²): a
// fitted size is only kept from falling below zero.
TEST(LearnLawFit, ASizeThatWouldTurnNegativeIsClampedAtZero) {
  // Not an exact law (no small-fraction coefficients), so fitted.
  const auto law = fit_law(points([](double p, double) { return 10.3 - 0.4137 * p; }, kNoSize), Quantity::integer, "");
  EXPECT_EQ(law.form, "c + a·p");
  EXPECT_EQ(law.expr.rfind("max(0, ", 0), 0u) << law.expr;
  EXPECT_EQ(evaluate_law(law, 64, 0, ""), 0);
  EXPECT_NEAR(evaluate_law(law, 8, 0, ""), 10.3 - 0.4137 * 8, 1e-12);
}

// The floor needs the law's value at the largest count for every size, which a law in the
// problem size does not have in one number: it is kept from falling below zero only.
TEST(LearnLawFit, ATimeInTheProblemSizeIsClampedAtZero) {
  const auto law = fit_law(points([](double p, double n) { return 1e-2 - 1e-4 * p + 3e-9 * n * n / p; }, kSizes),
                           Quantity::seconds, "n");
  EXPECT_EQ(law.form, "c + a·p + b·n²/p");
  EXPECT_EQ(law.expr.rfind("max(0, ", 0), 0u) << law.expr;
}

TEST(LearnLawFit, BadPointsAreRefusedWithTheReason) {
  EXPECT_THROW(fit_law({}, Quantity::seconds, ""), std::invalid_argument);
  try {
    fit_law({{2, 0, 1}, {4, 0, std::nan("")}}, Quantity::seconds, "");
    FAIL() << "a value that is not a number was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("p = 4"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("not finite"), std::string::npos) << e.what();
  }
  EXPECT_THROW(fit_law({{0, 0, 1}}, Quantity::seconds, ""), std::invalid_argument);
  EXPECT_THROW(fit_law({{2, -1, 1}}, Quantity::seconds, "n"), std::invalid_argument);
  EXPECT_THROW(fit_law({{2, 1, 1}}, Quantity::seconds, "p"), std::invalid_argument);
  EXPECT_THROW(fit_law({{2, 1, 1}}, Quantity::seconds, "n-1"), std::invalid_argument);
}

}  // namespace
}  // namespace augur::learn
