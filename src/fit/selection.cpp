#include "fit/selection.hpp"

#include <algorithm>
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

// Laws kept as candidate runners-up: more than are reported, since the chosen law is among them
// and so may be laws that fit these points exactly as it does (floor(log2 p) is log2 p when every
// p is a power of two), which tie with it rather than lose to it.
constexpr std::size_t kCandidateRunnersUp = 4 * kRunnersUp;

bool same_fit(const Scored& a, const Scored& b) {
  auto close = [](double x, double y) { return std::abs(x - y) <= kRoundingTolerance * std::max(std::abs(x), std::abs(y)); };
  return close(a.validation.chi2, b.validation.chi2) &&
         (close(a.validation.cv_error, b.validation.cv_error) ||
          (!std::isfinite(a.validation.cv_error) && !std::isfinite(b.validation.cv_error)));
}

// The best few laws offered, by the rule's measure.
class RunnersUp {
 public:
  RunnersUp(int points, Selection rule) : points_(points), rule_(rule) {}

  void offer(const Scored& s) {
    const auto at = std::find_if(best_.begin(), best_.end(), [&](const Scored& b) { return better(s, b); });
    if (at == best_.end() && best_.size() >= kCandidateRunnersUp) return;
    best_.insert(at, s);
    if (best_.size() > kCandidateRunnersUp) best_.pop_back();
  }

  std::vector<RunnerUp> without(const Scored& chosen, int points) const {
    std::vector<RunnerUp> kept;
    std::vector<const Scored*> shown;
    for (const auto& s : best_) {
      // A law with the chosen one's fit on these points tied with it: it was not beaten. Of laws
      // that fit alike, the first (simplest) stands for them.
      if (same_law(s, chosen) || same_fit(s, chosen) || kept.size() == kRunnersUp) continue;
      if (std::any_of(shown.begin(), shown.end(), [&](const Scored* k) { return same_fit(s, *k); })) continue;
      shown.push_back(&s);
      kept.push_back({s.fit.hypothesis, s.validation, goodness_of_fit(s.fit.chi2, points, s.fit.hypothesis.size)});
    }
    return kept;
  }

 private:
  static bool same_law(const Scored& a, const Scored& b) {
    return a.fit.hypothesis.size == b.fit.hypothesis.size && a.fit.hypothesis.columns == b.fit.hypothesis.columns;
  }

  static double cv_or_infinity(const Scored& s) {
    return std::isfinite(s.validation.cv_error) ? s.validation.cv_error : std::numeric_limits<double>::infinity();
  }

  // Strictly better, so that of equal laws the one offered first (the simpler) stays ahead.
  bool better(const Scored& a, const Scored& b) const {
    if (rule_ == Selection::cross_validation && cv_or_infinity(a) != cv_or_infinity(b))
      return cv_or_infinity(a) < cv_or_infinity(b);
    return reduced_chi2(a, points_) < reduced_chi2(b, points_);
  }

  int points_;
  Selection rule_;
  std::vector<Scored> best_;
};

}  // namespace

SelectedLaw select_law(const WeightedDesign& design, const CandidateSet& candidates,
                       const SelectionOptions& options) {
  Leaderboard positive(design.points()), any(design.points());
  RunnersUp positive_runners(design.points(), options.rule), any_runners(design.points(), options.rule);
  LeaveOneOut validate(design);
  for (const auto& hypothesis : candidates.hypotheses) {
    auto fit = solve(design, hypothesis);
    if (!fit) continue;
    Scored s{*fit, validate(*fit)};
    s.fit.chi2 = s.validation.chi2;
    any.offer(s);
    any_runners.offer(s);
    if (s.validation.lowest_prediction > 0) {
      positive.offer(s);
      positive_runners.offer(s);
    }
  }
  if (any.empty()) throw std::runtime_error("no law can be fitted to these points");
  const bool only_positive = !positive.empty();
  const Scored& chosen = (only_positive ? positive : any).choose(options);

  SelectedLaw law;
  law.fit = chosen.fit;
  law.validation = chosen.validation;
  law.q = goodness_of_fit(chosen.fit.chi2, design.points(), chosen.fit.hypothesis.size);
  law.standard_errors = standard_errors(chosen.fit, design.points());
  law.runners_up = (only_positive ? positive_runners : any_runners).without(chosen, design.points());
  return law;
}

}  // namespace augur::fit
