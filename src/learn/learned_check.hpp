#pragma once
// Never a wrong program: before `augur learn` writes a model, its program is simulated at every
// count it was learned from and compared with the trace of that count replayed on the same
// machine and network. A program that deadlocks, whose MPI calls' numbers or bytes differ from a
// count's run beyond its laws' bounds and errors, or whose time misses the run by more than its
// laws' stated errors, is refused, naming the calls whose counts, sizes or times part.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "app/app_model.hpp"
#include "learn/learner.hpp"
#include "sim/network/network.hpp"
#include "sim/program/program.hpp"

namespace augur::learn {

struct CountCheck {
  std::string label;  // the trace
  int p = 0;
  double traced = 0;   // the trace replayed, seconds
  double learned = 0;  // the learned program at p, seconds
  double low = 0, high = 0;  // the learned program with every law at its low and high bound
  double allowed = 0;  // the relative miss the laws' errors allow beyond [low, high]
  double miss() const { return traced > 0 ? learned / traced - 1 : 0; }
};

using NetworkAt = std::function<std::unique_ptr<sim::Network>(int ranks)>;

// The relative miss the program's laws allow beyond their bounds: the largest cross-validated
// error of a law of compute seconds, message bytes or counts (0 when every law is exact), and
// never below `floor`, the host's noise between two replays of one trace.
double allowed_miss(const app::AppProgram& program, double floor);

// `model`: the learned model (its program); `replays`: each run's trace replayed
// (sim/program/replay.hpp), in the order of `runs`; `parameter` the problem size's name or empty.
// Throws LearnError for a deadlock or a miss beyond what is allowed.
// A partial model (its program's blocks_of_time) is checked on time alone: its blocks fold calls
// the run made.
std::vector<CountCheck> check_learned(const app::AppModel& model, const std::vector<LearnRun>& runs,
                                      const std::vector<const sim::Program*>& replays, const std::string& parameter,
                                      const NetworkAt& network_at, double floor = 0.02);

}  // namespace augur::learn
