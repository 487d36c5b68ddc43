#pragma once
// The reverse profiler keeps three virtual clocks side by side, one per bound of the model's
// equations (min, avg, max), so one run gives all three predictions from the same measured
// compute: three runs would each measure their own, and their noise could put max below min.
// Every rule that moves a clock is applied to each of the three with the model's time at that
// bound; what the program sees (MPI_Wtime) and the trace's timeline follow the one chosen with
// --bound. Pure arithmetic, so it is tested without MPI.
#include <array>

#include "model/model.hpp"
#include "timing/rules.hpp"
#include "timing/times.hpp"

namespace augur::revprof {

inline constexpr std::array<model::Bound, 3> kBounds{model::Bound::min, model::Bound::avg, model::Bound::max};

using timing::later;
using timing::Times;

// The timing rules on the three clocks at once: one memo entry and one evaluation of the law
// give an operation's three times. Decisions that happen once in the real run (whether a send
// waits for its receiver) are the machine's, the same on every clock.
using BoundRules = timing::BoundsRules;

}  // namespace augur::revprof
