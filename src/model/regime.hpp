#pragma once
// One regime of an operation: the law that gives its time over a half-open range of message
// sizes [from, to). A regime is either a fitted form (named basis functions with coefficients and
// their standard errors) or a free expression for published models whose terms the fitter does
// not produce (⌊log2 p⌋ mixtures, −√d, p³ …).
#include <limits>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "model/basis.hpp"
#include "model/expression.hpp"

namespace augur::model {

enum class Statistic { min, median, mean };
std::string_view to_string(Statistic);
std::optional<Statistic> statistic_from_string(std::string_view);

enum class Bound { min, avg, max };

// min/avg/max in seconds (or, from a regime, in the model's time unit).
struct Estimate {
  double min = 0, avg = 0, max = 0;
  double at(Bound b) const { return b == Bound::min ? min : b == Bound::max ? max : avg; }
};
std::string_view to_string(Bound);
std::optional<Bound> bound_from_string(std::string_view);

struct Term {
  Basis basis;
  double coef = 0;
  double stderr_ = 0;  // standard error of coef; 0 when unknown
};

// A law the selection tried for a regime and did not keep: its basis functions (the constant
// first), and how it scored on the same points.
struct Alternative {
  std::vector<Basis> bases;
  double cv_error = 0;  // cross-validated relative error (0 if unknown)
  double chi2 = 0;
  double q = 1;
};

// Laws the fitter keeps as runners-up of a regime, best first.
inline constexpr std::size_t kMaxAlternatives = 4;

struct FitStats {
  double chi2 = 0;
  double q = 1;          // goodness of fit: gammq((N − M)/2, χ²/2)
  int points = 0;
  Statistic statistic = Statistic::median;  // which statistic of the measurements was fitted
  double cv_error = 0;   // cross-validated relative error that selected this form (0 if unknown)
  std::vector<Alternative> alternatives;  // the best laws it beat, at most kMaxAlternatives
};

struct FittedForm {
  std::vector<Term> terms;
  FitStats stats;
};

struct FreeForm {
  Expression avg;
  std::optional<Expression> min, max;  // explicit bounds; otherwise the states or the spread apply
};

// Relative spread of measurements about the law, used for the min and max bounds
// (see docs/model-format.md, "Bounds").
struct Spread {
  double below = 0;
  double above = 0;
};

// Where the machine's fast and slow states lie, as factors of the law (docs/model-format.md,
// "Bounds"): min is the fast state's time and max the slow state's. A machine that jumps between
// states (a guest whose host moves its processors) runs a program a third longer in the slow one;
// a band drawn from one state's repetitions misses every run made in the other. fast ≤ 1 ≤ slow,
// so that avg, the law, lies between min and max.
struct StateFactors {
  double fast = 1;
  double slow = 1;
};

struct Regime {
  double from = 0;                                       // bytes, inclusive
  double to = std::numeric_limits<double>::infinity();  // bytes, exclusive
  std::variant<FittedForm, FreeForm> law;
  Spread spread;                       // the bounds of files without `states`
  std::optional<StateFactors> states;  // when present, the bounds instead of the spread

  bool contains(double bytes) const { return bytes >= from && bytes < to; }
  // Time in the model's time unit; p processes, d in the model's size unit.
  double evaluate(double p, double d, Bound bound) const;
  // All three bounds from one evaluation of the law: each exactly what evaluate gives.
  Estimate estimate(double p, double d) const;
  // Text of the law, e.g. "(47 ± 1) + (0.0425 ± 0.001)*d" or the expression.
  std::string equation() const;

 private:
  // A fitted law's min or max: the states' or the spread's scaling of avg, widened by the error.
  double fitted_bound(double avg, double err, Bound bound) const;
};

}  // namespace augur::model
