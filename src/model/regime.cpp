#include "model/regime.hpp"

#include <cmath>

#include <fmt/format.h>

namespace augur::model {
namespace {

template <class... Ts>
struct Overloaded : Ts... { using Ts::operator()...; };
// clang 14 does not yet deduce aggregate templates from their initialisers (P1816).
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

double fitted_value(const FittedForm& form, double p, double d) {
  double sum = 0;
  for (const auto& t : form.terms) sum += t.coef * t.basis(p, d);
  return sum;
}

// The seed's "rough guide": the linear sum of the coefficients' standard errors.
double fitted_error(const FittedForm& form, double p, double d) {
  double sum = 0;
  for (const auto& t : form.terms) sum += t.stderr_ * std::abs(t.basis(p, d));
  return sum;
}

double apply_spread(double avg, const Spread& s, Bound bound) {
  if (bound == Bound::min) return avg * (1 - s.below);
  if (bound == Bound::max) return avg * (1 + s.above);
  return avg;
}

double apply_states(double avg, const StateFactors& s, Bound bound) {
  if (bound == Bound::min) return avg * s.fast;
  if (bound == Bound::max) return avg * s.slow;
  return avg;
}

// The law's value scaled to the bound: by the states when the regime records them, else by the
// spread (model files written before the states were, and published models).
double scaled(double avg, const Regime& r, Bound bound) {
  return r.states ? apply_states(avg, *r.states, bound) : apply_spread(avg, r.spread, bound);
}

// A free-form law's own expression for `bound`, if the model gives one.
const Expression* explicit_bound(const FreeForm& f, Bound bound) {
  if (bound == Bound::min && f.min) return &*f.min;
  if (bound == Bound::max && f.max) return &*f.max;
  return nullptr;
}

}  // namespace

std::string_view to_string(Statistic s) {
  switch (s) {
    case Statistic::min: return "min";
    case Statistic::median: return "median";
    case Statistic::mean: return "mean";
  }
  return "?";
}

std::optional<Statistic> statistic_from_string(std::string_view s) {
  if (s == "min") return Statistic::min;
  if (s == "median") return Statistic::median;
  if (s == "mean") return Statistic::mean;
  return std::nullopt;
}

std::string_view to_string(Bound b) {
  switch (b) {
    case Bound::min: return "min";
    case Bound::avg: return "avg";
    case Bound::max: return "max";
  }
  return "?";
}

std::optional<Bound> bound_from_string(std::string_view s) {
  if (s == "min") return Bound::min;
  if (s == "avg") return Bound::avg;
  if (s == "max") return Bound::max;
  return std::nullopt;
}

double Regime::evaluate(double p, double d, Bound bound) const {
  return std::visit(Overloaded{[&](const FittedForm& f) {
                                 const double avg = fitted_value(f, p, d);
                                 return bound == Bound::avg ? avg : fitted_bound(avg, fitted_error(f, p, d), bound);
                               },
                               [&](const FreeForm& f) {
                                 if (const auto* own = explicit_bound(f, bound)) return (*own)(p, d);
                                 return scaled(f.avg(p, d), *this, bound);
                               }},
                    law);
}

Estimate Regime::estimate(double p, double d) const {
  return std::visit(Overloaded{[&](const FittedForm& f) {
                                 const double avg = fitted_value(f, p, d), err = fitted_error(f, p, d);
                                 return Estimate{fitted_bound(avg, err, Bound::min), avg, fitted_bound(avg, err, Bound::max)};
                               },
                               [&](const FreeForm& f) {
                                 const double avg = f.avg(p, d);
                                 auto at = [&](Bound b) {
                                   const auto* own = explicit_bound(f, b);
                                   return own ? (*own)(p, d) : scaled(avg, *this, b);
                                 };
                                 return Estimate{at(Bound::min), avg, at(Bound::max)};
                               }},
                    law);
}

double Regime::fitted_bound(double avg, double err, Bound bound) const {
  return scaled(avg, *this, bound) + (bound == Bound::min ? -err : err);
}

std::string Regime::equation() const {
  return std::visit(Overloaded{[](const FittedForm& f) {
                                 std::string text;
                                 for (const auto& t : f.terms) {
                                   if (!text.empty()) text += " + ";
                                   text += fmt::format("({:.6g} +/- {:.6g})", t.coef, t.stderr_);
                                   if (t.basis.name() != "1") text += fmt::format("*{}", t.basis.name());
                                 }
                                 return text.empty() ? std::string("0") : text;
                               },
                               [](const FreeForm& f) { return f.avg.text(); }},
                    law);
}

}  // namespace augur::model
