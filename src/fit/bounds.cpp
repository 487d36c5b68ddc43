#include "fit/bounds.hpp"

#include <algorithm>

namespace augur::fit {
namespace {

constexpr double kRoundingSlack = 1e-9;

double value_of(const model::FittedForm& law, const Sample& s) {
  double sum = 0;
  for (const auto& t : law.terms) sum += t.coef * t.basis(s.p, s.d);
  return sum;
}

}  // namespace

model::Spread covering_spread(const std::vector<Sample>& samples, const model::FittedForm& law) {
  model::Spread spread;
  for (const auto& s : samples) {
    const double fit = value_of(law, s);
    if (!(fit > 0)) continue;
    spread.below = std::max(spread.below, (fit - s.lowest) / fit);
    spread.above = std::max(spread.above, (s.highest - fit) / fit);
  }
  // A measured min of 0 gives below = 1 (min bound ≤ 0), the most a relative spread can say.
  spread.below = std::min(spread.below + kRoundingSlack, 1.0);
  spread.above += kRoundingSlack;
  return spread;
}

}  // namespace augur::fit
