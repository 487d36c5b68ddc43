#pragma once
// The min/max bounds of a fitted regime. A query's min is avg·(1 − below) − e and its max
// avg·(1 + above) + e (docs/model-format.md, "Bounds"); the fitter chooses below and above so
// that these cover every measured min and max the law was fitted to.
#include <vector>

#include "fit/samples.hpp"
#include "model/regime.hpp"

namespace augur::fit {

// below = largest (fit − measured min)/fit, above = largest (measured max − fit)/fit, each at
// least 0 and a relative 1e-9 more so rounding in unit conversion cannot leave a measurement
// outside; below is at most 1 (a measured min of 0). Points where the law is not positive
// carry no relative information and are skipped.
model::Spread covering_spread(const std::vector<Sample>& samples, const model::FittedForm& law);

}  // namespace augur::fit
