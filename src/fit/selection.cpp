#include "fit/selection.hpp"

#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>

namespace augur::fit {
namespace {

constexpr double kRoundingTolerance = 1e-9;

struct Scored {
  LinearFit fit;
  Validation validation;
};

double reduced_chi2(const Scored& s, int points) {
  const int freedom = points - s.fit.hypothesis.size;
  return freedom > 0 ? s.validation.chi2 / freedom : std::numeric_limits<double>::infinity();
}

// Keeps, for each number of coefficients, the best law by cross-validated error and the best by
// reduced χ²; hypotheses come simplest first, so ties keep the simpler law.
class Leaderboard {
 public:
  explicit Leaderboard(int points) : points_(points) {}

  void offer(const Scored& s) {
    auto& cv = by_cv_[s.fit.hypothesis.size - 1];
    // Differences in the last digits are rounding, not evidence: the earlier (simpler) law stays.
    if (std::isfinite(s.validation.cv_error) &&
        (!cv || s.validation.cv_error < cv->validation.cv_error * (1 - kRoundingTolerance)))
      cv = s;
    if (!by_chi2_ || reduced_chi2(s, points_) < reduced_chi2(*by_chi2_, points_)) by_chi2_ = s;
  }

  bool empty() const { return !by_chi2_; }

  const Scored& choose(const SelectionOptions& options) const {
    if (options.rule == Selection::chi2) return *by_chi2_;
    const Scored* chosen = nullptr;
    for (const auto& best : by_cv_) {
      if (!best) continue;
      if (!chosen || best->validation.cv_error < (1 - options.margin) * chosen->validation.cv_error)
        chosen = &*best;
    }
    // Too few points to cross-validate anything: fall back to the seed's χ² rule.
    return chosen ? *chosen : *by_chi2_;
  }

 private:
  int points_;
  std::array<std::optional<Scored>, kMaxTerms> by_cv_;
  std::optional<Scored> by_chi2_;
};

}  // namespace

SelectedLaw select_law(const WeightedDesign& design, const CandidateSet& candidates,
                       const SelectionOptions& options) {
  Leaderboard positive(design.points()), any(design.points());
  LeaveOneOut validate(design);
  for (const auto& hypothesis : candidates.hypotheses) {
    auto fit = solve(design, hypothesis);
    if (!fit) continue;
    Scored s{*fit, validate(*fit)};
    s.fit.chi2 = s.validation.chi2;
    any.offer(s);
    if (s.validation.lowest_prediction > 0) positive.offer(s);
  }
  if (any.empty()) throw std::runtime_error("no law can be fitted to these points");
  const Scored& chosen = (positive.empty() ? any : positive).choose(options);

  SelectedLaw law;
  law.fit = chosen.fit;
  law.validation = chosen.validation;
  law.q = goodness_of_fit(chosen.fit.chi2, design.points(), chosen.fit.hypothesis.size);
  law.standard_errors = standard_errors(chosen.fit, design.points());
  return law;
}

}  // namespace augur::fit
