#pragma once
// The tolerance of one machine parameter (`augur sensitivity`): the smallest factor above 1 at
// which the run reaches a target time, found by re-simulation alone. A simulated run is
// piecewise linear in a parameter of the network, so a line through two runs on the crossing's
// piece gives the crossing in one run; each such guess is confirmed by a run just below it. A
// guess that does not hold falls back to bisection, so the runs a tolerance takes are bounded
// by a number known in advance (ToleranceSearch::max_runs), not by how the run bends.
#include <functional>
#include <limits>
#include <map>

namespace augur::analyze {

struct ToleranceSearch {
  double precision = 1e-6;  // the crossing is bracketed to this relative width
  double max_factor = 1e6;  // past it the parameter is tolerated ("never")
  int max_runs = 48;        // re-simulations a crossing may take, the doubling past the samples included
};

struct Crossing {
  double factor = std::numeric_limits<double>::infinity();  // infinity: not reached
  double time = 0;   // the run at `factor`
  double below = 1;  // the largest factor known to stay below the target: the bracket is [below, factor]
  int runs = 0;      // re-simulations this search took
};

// `time(f)`: the run with the parameter times f. `known`: runs already made, factor to time,
// 1 among them; the search adds its own, so the next target (a larger growth) starts from them.
// The crossing is the first in factor order: a run that shrinks again past it is not looked at.
Crossing first_crossing(const std::function<double(double)>& time, std::map<double, double>& known, double target,
                        const ToleranceSearch& options);

}  // namespace augur::analyze
