#pragma once
// The critical path of a run (seed 004, T_CP1): the longest chain of compute grains, MPI work and
// undisturbed messages through the run's dependencies, for the run's mapping. Every link of the
// chain is at most the time that passed between its ends in the run, so the path is never longer
// than the run; what the run spent beyond it went to waiting that better ordering, priorities or
// less contention could remove, and shortening the path is what grain and parallelism tuning do.
#include <cstdint>
#include <functional>
#include <vector>

#include "analyze/costs.hpp"
#include "analyze/dependencies.hpp"
#include "trace/trace.hpp"

namespace augur::analyze {

// A tuning applied to the path's weights without re-simulating: an a-priori bound on the tuned run.
struct Scaling {
  std::function<double(int rank, std::uint32_t state)> compute;  // factor of a compute state; empty: 1
  std::function<double(trace::NameIndex op)> bytes;               // factor of a message by its send's name
};

enum class SegmentKind : std::uint8_t { compute, mpi, message, collective, gap };

// One link of the path. `begin`/`end` are the run's times; `length` what it adds to the path.
struct Segment {
  SegmentKind kind = SegmentKind::gap;
  std::int32_t rank = 0;
  std::int32_t peer = -1;       // a message's sender; a collective's last member to arrive
  std::uint32_t state = 0;      // the state of `rank` it belongs to (a message: the receiving one)
  double begin = 0, end = 0, length = 0;
  trace::NameIndex op = 0;      // mpi and collective segments: the call
};

struct CriticalPath {
  double start = 0, run_time = 0, length = 0;
  int sink = 0;                   // the rank where the path ends
  std::vector<Segment> segments;  // in time order, lengths summing to `length`
  std::vector<double> busy;       // per rank: its compute and the MPI work that was not waiting
  std::uint64_t forced = 0;       // dependencies dropped to break a cycle (clock skew, damage)
};

CriticalPath critical_path(const trace::Trace& trace, const Dependencies& deps, const MessageCosts& costs,
                           const Scaling& scaling = {});

}  // namespace augur::analyze
