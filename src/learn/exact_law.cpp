#include "learn/exact_law.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>

#include <Eigen/Dense>

#include "learn/law_terms.hpp"

namespace augur::learn {
namespace {

// Multiples of 1/8 are exact in binary, so the law's text evaluates to exactly these values.
constexpr double kDenominators[] = {1, 2, 4, 8};
constexpr double kSnapTolerance = 1e-6;
constexpr double kExactTolerance = 1e-9;

std::optional<double> snapped(double x) {
  for (double denominator : kDenominators) {
    const double r = std::round(x * denominator) / denominator;
    if (std::abs(r - x) <= kSnapTolerance * std::max(1.0, std::abs(x))) return r;
  }
  return std::nullopt;
}

double value_of(const std::vector<Term>& terms, const std::vector<double>& coefficients, const LawPoint& point) {
  double v = 0;
  for (std::size_t k = 0; k < terms.size(); ++k) v += coefficients[k] * terms[k](point.p, point.n);
  return v;
}

bool reproduces(const std::vector<Term>& terms, const std::vector<double>& coefficients,
                const std::vector<LawPoint>& points) {
  return std::all_of(points.begin(), points.end(), [&](const LawPoint& point) {
    return std::abs(value_of(terms, coefficients, point) - point.value) <=
           kExactTolerance * std::max(1.0, std::abs(point.value));
  });
}

// Least squares, then each coefficient snapped to a multiple of 1/8; exact data give their law.
// The first term is the one that is not the constant; a law without it would be the constant.
std::optional<std::vector<double>> exact_coefficients(const std::vector<Term>& terms,
                                                      const std::vector<LawPoint>& points) {
  Eigen::MatrixXd columns(points.size(), terms.size());
  Eigen::VectorXd values(points.size());
  for (std::size_t i = 0; i < points.size(); ++i) {
    for (std::size_t k = 0; k < terms.size(); ++k) columns(i, k) = terms[k](points[i].p, points[i].n);
    values[i] = points[i].value;
  }
  const Eigen::VectorXd solution = columns.colPivHouseholderQr().solve(values);
  std::vector<double> coefficients;
  for (double x : solution) {
    const auto s = snapped(x);
    if (!s) return std::nullopt;
    coefficients.push_back(*s);
  }
  if (coefficients.front() == 0 || !reproduces(terms, coefficients, points)) return std::nullopt;
  return coefficients;
}

app::Law exact_law(std::vector<Term> terms, std::vector<double> coefficients, const std::string& parameter) {
  // 1 − p reads better than −p + 1.
  if (terms.size() == 2 && coefficients[0] < 0 && coefficients[1] > 0) {
    std::swap(terms[0], terms[1]);
    std::swap(coefficients[0], coefficients[1]);
  }
  app::Law law;
  law.expr = law.low = law.high = sum_expression(terms, coefficients, parameter);
  law.form = number_form(terms, coefficients, parameter);
  law.coefficients = coefficients;
  law.errors.assign(coefficients.size(), 0.0);
  return law;
}

std::size_t distinct_points(const std::vector<LawPoint>& points) {
  std::set<std::pair<double, double>> seen;
  for (const auto& point : points) seen.emplace(point.p, point.n);
  return seen.size();
}

// Terms in a variable the points do not vary are not told apart from a constant factor.
std::vector<Term> telling_terms(const std::vector<LawPoint>& points, const std::string& parameter, PeerGrid grid) {
  const auto varies = [&](double LawPoint::*field) {
    return std::any_of(points.begin(), points.end(), [&](const LawPoint& q) { return q.*field != points[0].*field; });
  };
  const bool p_varies = varies(&LawPoint::p), n_varies = !parameter.empty() && varies(&LawPoint::n);
  std::vector<Term> terms;
  for (const auto& t : exact_terms(!parameter.empty(), grid))
    if ((p_varies || !t.uses_p()) && (n_varies || !t.uses_n())) terms.push_back(t);
  return terms;
}

}  // namespace

std::optional<app::Law> exact_integer_law(const std::vector<LawPoint>& points, const std::string& parameter,
                                          PeerGrid grid) {
  const auto distinct = distinct_points(points);
  const auto terms = telling_terms(points, parameter, grid);
  if (distinct >= 2)
    for (const auto& t : terms)
      if (auto coefficients = exact_coefficients({t}, points)) return exact_law({t}, *coefficients, parameter);
  if (distinct >= 3)
    for (const auto& t : terms)
      if (auto coefficients = exact_coefficients({t, constant_term()}, points))
        return exact_law({t, constant_term()}, *coefficients, parameter);
  return std::nullopt;
}

app::Law constant_law(double value) { return exact_law({constant_term()}, {value}, ""); }

}  // namespace augur::learn
