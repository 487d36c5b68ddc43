#pragma once
// The fitter: raw measurements in, model file out. For each operation it fits every hypothesis
// of the chosen family by weighted least squares, selects by cross-validated error so that extra
// terms must earn their place, splits the size axis into regimes (a fixed threshold or detected
// breakpoints), and sets min/max bounds from the machine's fast and slow states as every pass
// measured them (state_bounds.hpp, docs/fitting.md).
#include <optional>
#include <string>
#include <string_view>

#include "fit/breakpoints.hpp"
#include "fit/raw.hpp"
#include "fit/state_bounds.hpp"
#include "model/machine_states.hpp"
#include "model/model.hpp"

namespace augur::fit {

enum class Family {
  seed12,  // c + s·startup(p) + k·data(p,d), startup ∈ {p, log p, p²}, data ∈ {d, p·d, log p·d, p²·d}
  wide,    // Extra-P-style p^i·log2^j(p), ⌊log2 p⌋ and √p terms, alone or as startup + data
};

enum class Selection {
  cross_validation,  // least leave-one-out relative error; more terms must win by `selection_margin`
  chi2,              // least χ² per degree of freedom (the seed's rule: least χ² among equal-size forms)
};

std::string_view to_string(Family);
std::optional<Family> family_from_string(std::string_view);
std::string_view to_string(Selection);
std::optional<Selection> selection_from_string(std::string_view);

struct FitOptions {
  Family family = Family::wide;
  Selection selection = Selection::cross_validation;
  // A law with more coefficients must lower the cross-validated error by this fraction to be
  // preferred over a simpler one.
  double selection_margin = 0.1;
  model::Statistic statistic = model::Statistic::median;
  model::StateChoice state = model::StateChoice::reference;  // which passes of a point to pool (model/state_choice.hpp)
  // Error estimates below this fraction of the value are raised to it, so points whose
  // repetitions agree exactly do not dominate the fit.
  double relative_error_floor = 0.01;
  // Each point's squared relative standard error is averaged with the operation's median as if
  // the median came from this many extra repetitions (0 = each point's own estimate only).
  double pooled_repetitions = 5;
  // Fixed split of the size axis (bytes): sizes ≤ threshold form the small regime, sizes ≥
  // threshold the large one (the seed's 32 ints); the regimes are [0, T+1) and [T+1, ∞), so a
  // query at T uses the small law. Unset = automatic breakpoint detection.
  std::optional<double> threshold_bytes;
  bool detect_breakpoints = true;  // ignored when threshold_bytes is set
  int max_segments = BreakpointOptions{}.max_segments;
  model::Units units{"us", "bytes", 4};  // units the written equations use
  std::string source;  // provenance.source when the raw header names none (e.g. the raw files)
};

// Fits one operation's pooled points (all with the same op name); each regime's states come from
// `measured`, the passes the points were pooled from. Throws std::invalid_argument for an empty
// or mixed set of points.
model::Operation fit_operation(const std::vector<Measurement>& points, const MeasuredPasses& measured,
                               const FitOptions& options);
// The same for points measured once each, which are their own passes.
model::Operation fit_operation(const std::vector<Measurement>& points, const FitOptions& options);

// A fit's model, and the machine states its measurements were taken in (which the model's
// provenance also records), so that a command can report them without reading them back.
struct FittedModel {
  model::Model model;
  model::MachineStates states;
};

// Fits every operation in the set; machine and provenance come from the raw header. Throws
// std::runtime_error naming the operation for one that is not in the catalog or cannot be fitted.
FittedModel fit_model(const RawSet& raw, const FitOptions& options);

}  // namespace augur::fit
