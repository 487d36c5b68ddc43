#pragma once
// Timing a node kernel: enough work per run to lie far above the clock's resolution, several
// runs, and the fastest kept, since interference (other processes, interrupts, page faults) only
// ever adds time to a run.
#include <cstdint>
#include <functional>

namespace augur::node {

struct Timing {
  double slice = 0.01;   // least seconds of one timed run
  double budget = 0.1;   // seconds of repeated runs once the run's length is found
  int min_runs = 3;      // runs at least, whatever the budget
};

// The least seconds per unit of `work(n)`, which does n units of work. Doubles n from 1 until a
// run takes `slice`, then repeats runs of that n for `budget` seconds (at least `min_runs`), so a
// call takes about 2·slice + budget unless one unit alone is longer than that.
double best_seconds_per_unit(const std::function<void(std::uint64_t)>& work, const Timing& timing);

// Hands a result to the outside world, so the compiler must compute it.
void keep(std::uint64_t value);
void keep(double value);

}  // namespace augur::node
