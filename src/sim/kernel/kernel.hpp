#pragma once
// The discrete-event kernel: runs a Program on a Network in global simulated time, one process,
// deterministically. Ranks execute their operations in time order (ties: lower rank first, then
// the earlier scheduled; on LogGOPS the order queued, as LogGOPSim, loggops_order.cpp); messages are matched by (source, tag, communicator) in MPI's
// non-overtaking order, and a wildcard receive takes the message whose envelope reached it first
// in simulated time. When nothing is left to happen and ranks have not finished, the run stops
// with a DeadlockError naming them and the operations they are blocked in.
#include <cstdint>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/kernel/trace_sink.hpp"
#include "sim/network/network.hpp"
#include "sim/program/algorithms.hpp"
#include "sim/program/goal.hpp"
#include "sim/program/program.hpp"

namespace augur::sim {

struct DeadlockError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct RankTotals {
  double finish = 0, compute = 0, mpi = 0, waiting = 0;  // seconds, as in the run report
};

struct OperationTotals {
  double count = 0, bytes = 0, seconds = 0, waiting = 0;
};

struct Progress {
  std::uint64_t events = 0;
  double now = 0;          // simulated seconds of the event being processed
  int finished_ranks = 0;
  int ranks = 0;
  std::uint64_t operations = 0;  // operations run so far
};

struct Options {
  // Collectives run as messages (algorithms.hpp) instead of priced whole by the network.
  bool expand_collectives = false;
  AlgorithmChoice algorithms;  // per collective; the default algorithm where none is named
  std::function<void(const Progress&)> progress;  // called every `progress_every` events
  std::uint64_t progress_every = 1 << 20;
  // Every compute grain's time times this (slower or faster cores), on every network and for
  // every kind of program, so a sensitivity sweep scales compute without rebuilding the program.
  double compute_scale = 1;
  // When set, the seconds added to the k-th compute grain (0 first) of a rank: noise, drawn
  // from (rank, k) alone so that a run is the same whatever order the events take.
  std::function<double(int rank, std::uint64_t k)> compute_delay;
};

struct Result {
  double predicted = 0;  // the latest finish over ranks
  std::vector<RankTotals> ranks;
  std::map<std::string, OperationTotals> operations;
  std::uint64_t events = 0;      // events taken from the queue
  std::uint64_t operations_run = 0;
  std::uint64_t messages = 0;
  // Wildcard receives that carried the source a trace recorded, and how many of them the
  // simulated order matched with another sender.
  std::uint64_t replayed_wildcards = 0, changed_matches = 0;
  std::vector<std::string> warnings;  // e.g. messages never received
};

// Runs `program` to the end. Throws DeadlockError, or std::invalid_argument for a program the
// kernel cannot run (a peer outside the world, a collective with no algorithm to expand it).
Result simulate(const Program& program, const Network& network, const Options& options = {},
                TraceSink* trace = nullptr);

// Runs a GOAL graph (goal.hpp): a vertex starts when what it requires is done and what it
// irequires has started, on its rank's processor once that is free; sends and receives are
// priced by `network` as in the sequence kernel (docs/goal-format.md). Networks with transfers
// are not supported (std::invalid_argument).
Result simulate(const GoalProgram& program, const Network& network, const Options& options = {},
                TraceSink* trace = nullptr);

}  // namespace augur::sim
