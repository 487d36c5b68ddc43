#include "learn/law_fit.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>
#include <stdexcept>
#include <utility>

#include <boost/math/distributions/students_t.hpp>
#include <fmt/format.h>

#include "app/scope.hpp"
#include "fit/least_squares.hpp"
#include "fit/selection.hpp"
#include "learn/exact_law.hpp"
#include "learn/law_terms.hpp"

namespace augur::learn {
namespace {

// Below this many distinct (p, n) points a law with two coefficients, and below the second a law
// with three, could not be cross-validated against the one it has to beat.
constexpr std::size_t kPointsForTwoCoefficients = 3;
constexpr std::size_t kPointsForThreeCoefficients = 6;
// A law with more than one coefficient is kept only if each is nonzero at a two-sided level of
// kFalseTermRate shared among the terms tried (2% each for the seven terms in p): on four process
// counts noise alone often lowers a two-term law's cross-validated error by more than the margin.
// With 5% for each term, one noisy constant in ten passed for c + a·term; now about one in thirty
// (tests/unit/test_learn_law_fit.cpp).
constexpr double kFalseTermRate = 0.14;
// The bounds move each coefficient by one standard error, widened by Student's t for the few
// degrees of freedom the scatter was estimated with (the normal distribution's 1σ quantile).
constexpr double kOneSigma = 0.8413447460685429;
// A point's weight is its relative error, floored so that a zero value does not take them all.
constexpr double kRelativeWeightFloor = 0.01;
// SMAPE's largest value, the cross-validated error recorded when leaving a point out was not
// possible: no evidence for the law beyond its fit.
constexpr double kNoValidation = 2;
// A term whose share of every measured value is below this is rounding, not a term: on exact data
// (a simulated run) the scatter is rounding too, so the test against the errors alone keeps it.
constexpr double kNegligibleShare = 1e-9;
// A law whose leave-one-out predictions miss the counts left out by more than this, on average,
// follows the noise of a few small values (a face's packing, microseconds among milliseconds),
// and its power of p would carry that noise to every larger count: the mean is kept instead.
constexpr double kNoTrend = 0.5;

bool is_identifier(const std::string& name) {
  const auto alpha = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; };
  return !name.empty() && alpha(name[0]) && std::all_of(name.begin(), name.end(), [&](char c) {
           return alpha(c) || std::isdigit(static_cast<unsigned char>(c));
         });
}

void check_points(const std::vector<LawPoint>& points, const std::string& parameter) {
  if (points.empty()) throw std::invalid_argument("a law needs at least one measured point");
  if (!parameter.empty() && (!is_identifier(parameter) || parameter == "p"))
    throw std::invalid_argument(fmt::format("parameter name '{}' is not an identifier other than p", parameter));
  for (const auto& q : points) {
    const auto where = fmt::format("the point at p = {}, {} = {}", q.p, parameter.empty() ? "n" : parameter, q.n);
    if (!std::isfinite(q.value)) throw std::invalid_argument(where + " has a value that is not finite");
    if (!std::isfinite(q.p) || q.p < 1) throw std::invalid_argument(where + ": p must be a finite count ≥ 1");
    if (!parameter.empty() && (!std::isfinite(q.n) || q.n < 0))
      throw std::invalid_argument(where + ": the problem size must be finite and ≥ 0");
  }
}

struct Shape {
  bool p_varies = false, n_varies = false;
  std::size_t distinct = 0;  // distinct (p, n)
};

Shape shape_of(const std::vector<LawPoint>& points, bool with_parameter) {
  Shape shape;
  std::set<std::pair<double, double>> seen;
  for (const auto& q : points) {
    shape.p_varies = shape.p_varies || q.p != points[0].p;
    shape.n_varies = shape.n_varies || (with_parameter && q.n != points[0].n);
    seen.emplace(q.p, with_parameter ? q.n : 0);
  }
  shape.distinct = seen.size();
  return shape;
}

// The constant first, then the terms in p, then those in n; a term in a variable that does not
// vary could not be told from the constant or from another term.
std::vector<Term> candidate_terms(const Shape& shape) {
  std::vector<Term> terms{constant_term()};
  if (shape.p_varies) for (const auto& t : p_terms()) terms.push_back(t);
  if (shape.n_varies)
    for (const auto& t : n_terms())
      if (shape.p_varies || !t.uses_p()) terms.push_back(t);
  return terms;
}

void add(fit::CandidateSet& set, std::initializer_list<int> columns) {
  fit::Hypothesis h;
  for (int c : columns) h.columns[h.size++] = c;
  set.hypotheses.push_back(h);
}

// Simplest first, so that of laws that predict alike the simpler is kept: the constant, each term
// alone, c + term, and when both p and n vary, work on the whole problem beside work divided
// among the ranks (a·n + b·n²/p: a term in n alone and one in n and p) and c + term in p + term
// in n.
fit::CandidateSet hypotheses(const std::vector<Term>& terms, const Shape& shape) {
  fit::CandidateSet set;
  const int count = static_cast<int>(terms.size());
  add(set, {0});
  for (int k = 1; k < count; ++k) add(set, {k});
  if (shape.distinct >= kPointsForTwoCoefficients)
    for (int k = 1; k < count; ++k) add(set, {0, k});
  if (shape.distinct < kPointsForThreeCoefficients || !shape.p_varies || !shape.n_varies) return set;
  const auto whole = [&](int k) { return terms[k].uses_n() && !terms[k].uses_p(); };
  const auto shared = [&](int k) { return terms[k].uses_n() && terms[k].uses_p(); };
  for (int k = 1; k < count; ++k)
    for (int l = 1; l < count; ++l)
      if (whole(k) && shared(l)) add(set, {k, l});
  for (int k = 1; k < count; ++k)
    for (int l = 1; l < count; ++l)
      if (!terms[k].uses_n() && terms[l].uses_n()) add(set, {0, k, l});
  return set;
}

fit::WeightedDesign design(const std::vector<LawPoint>& points, const std::vector<Term>& terms) {
  const auto rows = static_cast<Eigen::Index>(points.size());
  Eigen::MatrixXd columns(rows, static_cast<Eigen::Index>(terms.size()));
  Eigen::VectorXd values(rows), sigma(rows);
  for (Eigen::Index i = 0; i < rows; ++i) {
    const auto& q = points[static_cast<std::size_t>(i)];
    for (std::size_t k = 0; k < terms.size(); ++k) columns(i, static_cast<Eigen::Index>(k)) = terms[k](q.p, q.n);
    values[i] = q.value;
  }
  const double floor = kRelativeWeightFloor * values.cwiseAbs().mean();
  for (Eigen::Index i = 0; i < rows; ++i) sigma[i] = std::max(std::abs(values[i]), floor);
  return fit::WeightedDesign(columns, values, sigma);
}

// The weights are relative values, not error estimates, so the coefficients' errors take their
// scale from the scatter about the law (χ²/(N − M)), however small.
std::vector<double> scatter_errors(const fit::LinearFit& fit, int points) {
  const int m = fit.hypothesis.size;
  const int freedom = points - m;
  std::vector<double> errors;
  for (int k = 0; k < m; ++k)
    errors.push_back(freedom > 0 ? std::sqrt(std::max(0.0, fit.inverse_normal(k, k)) * fit.chi2 / freedom)
                                 : std::abs(fit.coef[k]));
  return errors;
}

double students_t_quantile(double probability, int freedom) {
  return boost::math::quantile(boost::math::students_t_distribution<double>(freedom), probability);
}

// Whether term k of the fit adds a share of some measured value above rounding. The design's
// rows are divided by each value's scale, so a term's weighted column times its coefficient is
// its share of the point.
bool contributes(const fit::LinearFit& fit, int k, const fit::WeightedDesign& design) {
  const auto share = (fit.coef[k] * design.weighted_columns().col(fit.hypothesis.columns[k])).cwiseAbs().maxCoeff();
  return share >= kNegligibleShare * design.weighted_y().cwiseAbs().maxCoeff();
}

// Whether every coefficient is one its error does not make indistinguishable from zero, and
// whose term is more than rounding; if one is not, a law without its term (the constant, or
// a·term alone) says as much.
bool terms_significant(const fit::LinearFit& fit, const std::vector<double>& errors, const fit::WeightedDesign& design,
                       double level) {
  const int freedom = design.points() - fit.hypothesis.size;
  if (freedom <= 0) return false;
  const double t = students_t_quantile(1 - level / 2, freedom);
  for (int k = 0; k < fit.hypothesis.size; ++k)
    if (std::abs(fit.coef[k]) < t * errors[k] || !contributes(fit, k, design)) return false;
  return true;
}

// select_law's choice, unless one of its terms is lost in the scatter; then the best law with
// fewer coefficients.
fit::SelectedLaw choose(const fit::WeightedDesign& design, fit::CandidateSet set, std::size_t terms_tried) {
  const double level = kFalseTermRate / static_cast<double>(std::max<std::size_t>(terms_tried, 1));
  while (true) {
    auto chosen = fit::select_law(design, set, fit::SelectionOptions{});
    const int size = chosen.fit.hypothesis.size;
    const bool trend = !(chosen.validation.cv_error > kNoTrend) || !std::isfinite(chosen.validation.cv_error);
    if (!trend && !(size == 1 && chosen.fit.hypothesis.columns[0] == 0)) {
      std::erase_if(set.hypotheses, [](const fit::Hypothesis& h) { return !(h.size == 1 && h.columns[0] == 0); });
      continue;  // the constant alone
    }
    if (size == 1 || terms_significant(chosen.fit, scatter_errors(chosen.fit, design.points()), design, level))
      return chosen;
    std::erase_if(set.hypotheses, [&](const fit::Hypothesis& h) { return h.size >= size; });
  }
}

// Every term is ≥ 0 for p ≥ 1 and n ≥ 0, so lowering each coefficient lowers the law everywhere.
std::vector<double> shifted(const std::vector<double>& coefficients, const std::vector<double>& errors, double sign) {
  std::vector<double> v;
  for (std::size_t k = 0; k < coefficients.size(); ++k) v.push_back(coefficients[k] + sign * errors[k]);
  return v;
}

// What a law with a negative coefficient may not fall below beyond the measured counts.
struct Guard {
  bool non_negative = false;  // a time or a size: never below zero
  // A time: never below the strong-scaling floor of its value at the largest measured count.
  // The slowest of p ranks' shares of a fixed work is at least the mean of the p/P shares its
  // slowest share at P was cut into, so it falls at most as 1/p. A sum whose negative term
  // cancels its positive ones (c − a·log₂p, the slowest of the slices where the work sits in a
  // few of them) would otherwise reach 0 a few doublings beyond the data and lose the work.
  bool strong_scaling = false;
  double largest_p = 1;
};

double sum_at(const std::vector<Term>& terms, const std::vector<double>& coefficients, double p) {
  double v = 0;
  for (std::size_t k = 0; k < terms.size(); ++k) v += coefficients[k] * terms[k](p, 0);
  return v;
}

// A sum with a negative coefficient can fall below zero, or below the strong-scaling floor,
// beyond the measured counts; a time or a size must not. The floor is written only for laws in
// p alone: one in the problem size would need its value at the largest count for every size.
std::string guarded_expression(const std::vector<Term>& terms, const std::vector<double>& coefficients,
                               const std::string& parameter, const Guard& guard) {
  auto text = sum_expression(terms, coefficients, parameter);
  const bool may_fall = std::any_of(coefficients.begin(), coefficients.end(), [](double a) { return a < 0; });
  if (!guard.non_negative || !may_fall) return text;
  const bool in_p_alone = std::none_of(terms.begin(), terms.end(), [](const Term& t) { return t.uses_n(); });
  const double last = sum_at(terms, coefficients, guard.largest_p);
  if (!guard.strong_scaling || !in_p_alone || last <= 0) return "max(0, " + text + ")";
  return fmt::format("max(p > {0:.17g} ? {1:.17g}/p : 0, {2})", guard.largest_p, last * guard.largest_p, text);
}

app::Law fitted_law(const std::vector<LawPoint>& points, const Guard& guard, const std::string& parameter) {
  const auto shape = shape_of(points, !parameter.empty());
  const auto terms = candidate_terms(shape);
  const auto chosen = choose(design(points, terms), hypotheses(terms, shape), terms.size() - 1);
  const auto& h = chosen.fit.hypothesis;
  std::vector<Term> used;
  std::vector<double> coefficients;
  for (int k = 0; k < h.size; ++k) {
    used.push_back(terms[static_cast<std::size_t>(h.columns[k])]);
    coefficients.push_back(chosen.fit.coef[k]);
  }
  app::Law law;
  law.coefficients = coefficients;
  law.errors = scatter_errors(chosen.fit, static_cast<int>(points.size()));
  law.expr = guarded_expression(used, coefficients, parameter, guard);
  const int freedom = static_cast<int>(points.size()) - h.size;
  const double widen = freedom > 0 ? students_t_quantile(kOneSigma, freedom) : 1.0;
  law.low = guarded_expression(used, shifted(coefficients, law.errors, -widen), parameter, guard);
  law.high = guarded_expression(used, shifted(coefficients, law.errors, +widen), parameter, guard);
  law.form = letter_form(used, parameter);
  law.cv_error = std::isfinite(chosen.validation.cv_error) ? chosen.validation.cv_error : kNoValidation;
  return law;
}

}  // namespace

app::Law fit_law(const std::vector<LawPoint>& points, Quantity quantity, const std::string& parameter, PeerGrid grid) {
  check_points(points, parameter);
  const bool all_equal = std::all_of(points.begin(), points.end(), [&](const LawPoint& q) { return q.value == points[0].value; });
  if (all_equal) return constant_law(points[0].value);
  if (quantity == Quantity::integer)
    if (auto exact = exact_integer_law(points, parameter, grid)) return *exact;
  Guard guard;
  guard.non_negative = quantity == Quantity::seconds ||
                       std::all_of(points.begin(), points.end(), [](const LawPoint& q) { return q.value >= 0; });
  guard.strong_scaling = quantity == Quantity::seconds;
  guard.largest_p = std::max_element(points.begin(), points.end(), [](const LawPoint& a, const LawPoint& b) {
                      return a.p < b.p;
                    })->p;
  return fitted_law(points, guard, parameter);
}

double evaluate_expression(const std::string& text, double p, double n, const std::string& parameter) {
  app::Scope scope(nullptr, "bytes");
  scope.define("p", p);
  if (!parameter.empty()) scope.define(parameter, n);
  return scope.compile(text, false)();
}

double evaluate_law(const app::Law& law, double p, double n, const std::string& parameter) {
  return evaluate_expression(law.expr, p, n, parameter);
}

}  // namespace augur::learn
