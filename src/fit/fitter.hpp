#pragma once
// The fitter: raw measurements in, model file out. For each operation it fits every hypothesis
// of the chosen family by weighted least squares, selects by cross-validated error so that extra
// terms must earn their place, splits the size axis into regimes (a fixed threshold or detected
// breakpoints), and sets min/max bounds that cover the measurements (docs/fitting.md).
#include <optional>

#include "fit/raw.hpp"
#include "model/model.hpp"

namespace augur::fit {

enum class Family {
  seed12,  // c + s·startup(p) + k·data(p,d), startup ∈ {p, log p, p²}, data ∈ {d, p·d, log p·d, p²·d}
  wide,    // seed12 plus Extra-P-style p^i·log2^j(p), ⌊log2 p⌋ and √p terms
};

struct FitOptions {
  Family family = Family::wide;
  model::Statistic statistic = model::Statistic::median;
  // Fixed split of the size axis (bytes): sizes ≤ threshold form the small regime, sizes ≥
  // threshold the large one (the seed's 32 ints); unset = automatic breakpoint detection.
  std::optional<double> threshold_bytes;
  bool detect_breakpoints = true;  // ignored when threshold_bytes is set
  int max_segments = 4;
  model::Units units;              // units the written equations use (seconds and bytes by default)
};

// Fits one operation's points (all with the same op name).
model::Operation fit_operation(const std::vector<Measurement>& points, const FitOptions& options);

// Fits every operation in the set; machine and provenance come from the raw header.
model::Model fit_model(const RawSet& raw, const FitOptions& options);

}  // namespace augur::fit
