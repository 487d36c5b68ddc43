#pragma once
// Choosing one law among the candidate hypotheses of a regime.
//
// Cross-validation (the default) ranks laws by how well they predict points they were not
// fitted to, which, unlike χ², does not automatically favour more terms. The simplest law is
// kept unless a law with more coefficients lowers the cross-validated error by a clear relative
// margin. Laws that predict a non-positive time at a measured point are passed over while any
// other law fits (docs/fitting.md, "Selection").
#include <vector>

#include <Eigen/Dense>

#include "fit/fitter.hpp"
#include "fit/hypotheses.hpp"
#include "fit/least_squares.hpp"

namespace augur::fit {

struct SelectionOptions {
  Selection rule = Selection::cross_validation;
  // A law with more coefficients replaces a simpler one only if its cross-validated error is
  // below (1 − margin) times the simpler one's.
  double margin = 0.1;
};

// A law that was tried and not kept, with its scores on the same points.
struct RunnerUp {
  Hypothesis hypothesis;
  Validation validation;
  double q = 1;
};

struct SelectedLaw {
  LinearFit fit;
  Validation validation;
  double q = 1;
  Eigen::Vector3d standard_errors = Eigen::Vector3d::Zero();
  // The best laws not kept, best first by the rule's own measure (cross-validated error, then
  // reduced χ²; or reduced χ² alone), drawn from the laws the choice was made among. Under
  // cross-validation a law with more coefficients can have a lower error than the chosen one and
  // still lose, by less than the margin.
  std::vector<RunnerUp> runners_up;
};

// How many runners-up select_law keeps.
inline constexpr std::size_t kRunnersUp = model::kMaxAlternatives;

// Throws std::runtime_error if no hypothesis can be fitted to the design's samples. Reads only
// the candidates' hypotheses, so a design built from the caller's own columns can be given a
// CandidateSet whose bases are empty.
SelectedLaw select_law(const WeightedDesign& design, const CandidateSet& candidates,
                       const SelectionOptions& options);

}  // namespace augur::fit
