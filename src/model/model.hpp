#pragma once
// The model file in memory: the timing equations of every MPI operation on one machine, with
// units, provenance, and the compute and network sections the predictors use. This is the one
// interface between characterising a machine and predicting on it (docs/model-format.md).
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/error.hpp"
#include "model/regime.hpp"

namespace augur::model {

inline constexpr int kFormatVersion = 1;

struct Machine {
  std::string name;
  std::string description;
};

struct Provenance {
  std::string source;        // where the numbers come from (a seed table, a bench run)
  std::string mpi_library;   // e.g. "Open MPI"
  std::string mpi_version;
  std::string date;          // ISO 8601 when known
  std::string measured_by;   // person or program that measured
  nlohmann::json settings = nlohmann::json::object();  // free-form: repetitions, sync method …
};

// Units the equations are written in. Times are converted to seconds and sizes from bytes.
struct Units {
  std::string time = "s";     // "s", "ms", "us" or "ns"
  std::string size = "bytes"; // "bytes" or "ints"
  int int_bytes = 4;          // bytes per int when size == "ints" (8 on the T3D)

  double seconds_per_time_unit() const;
  double bytes_per_size_unit() const { return size == "ints" ? int_bytes : 1.0; }
};

// The seed's placeholder tcompute (1 µs), which annotations use for a model that has no step.
inline constexpr double kDefaultSecondsPerStep = 1e-6;

// One working-set size of the cache sweep: a chain of dependent loads over `bytes` of memory.
struct CacheSweepPoint {
  double bytes = 0;
  double seconds_per_access = 0;
};

// The node kernels of `augur bench` (docs/node-model.md). Numbers are 0 and the sweep empty where
// they are not known; a model file leaves those fields out.
struct Compute {
  double seconds_per_step = 0;     // one compute(N) step (the seed's tcompute); 0 = not known
  double relative_speed = 1.0;     // speed relative to a reference node; 1 = reference
  double memory_bandwidth = 0;     // bytes/s of a STREAM triad beyond the caches
  double flops = 0;                // flop/s of independent multiply-adds
  std::vector<CacheSweepPoint> cache_sweep;  // working sets in increasing size
  // Where the machine's fast and slow states put the compute step, as factors of its typical
  // time (0 < fast <= 1 <= slow): the compute of the min and max bounds. Absent: compute moves
  // every bound alike.
  std::optional<StateFactors> states;

  bool knows_step() const { return seconds_per_step > 0; }
  // What `augur_compute_steps(n)` charges per step.
  double step_seconds() const { return knows_step() ? seconds_per_step : kDefaultSecondsPerStep; }
};

// Point-to-point parameters for the simulator's network models (seconds, bytes, bytes/second).
struct Network {
  double latency = 0;
  double bandwidth = 0;        // 0 = unknown
  double eager_limit = 0;      // bytes; 0 = unknown
  double send_overhead = 0;
  double recv_overhead = 0;
};

// What starting and ending a run costs beside its MPI_Init-to-MPI_Finalize span: the launcher
// (mpirun), MPI_Init and MPI_Finalize, about half a second here. A user times the whole command.
struct Launch {
  double seconds = 0;
  int processes = 0;  // the launch that was measured
};

// The largest message and group an operation's law was fitted to. Beyond them its time is an
// extrapolation of the last regime: a law fitted to messages that fit in a cache says nothing of
// those that do not (shared-memory ping-pongs here: 24 GB/s up to 1 MiB, 5 GB/s at 16 MiB).
struct MeasuredRange {
  double max_bytes = 0;
  double max_processes = 0;
  bool covers(double p, double bytes) const { return bytes <= max_bytes && p <= max_processes; }
};

struct Operation {
  std::string name;
  std::string meaning;  // what the time measures, e.g. "half the round trip"
  std::vector<Regime> regimes;  // sorted, contiguous, from 0
  std::optional<MeasuredRange> measured;  // unknown for published models

  const Regime& regime_for(double bytes) const;  // throws QueryError outside every regime
  // The size the predictors price `bytes` at: itself, or just inside the last regime past its
  // end, so that a model measured up to some size carries its last regime on instead of failing.
  double size_priced_as(double bytes) const {
    const double last = regimes.back().to;
    return bytes < last ? bytes : std::nextafter(last, 0.0);
  }
};

using Operations = std::map<std::string, Operation, std::less<>>;

// A machine of nodes (docs/nodes.md): ranks of one node talk through its memory, far faster
// than ranks of two nodes through the network, and a collective costs what its placement makes
// it. The model's own `operations` are the between-nodes level, one rank a node; this holds
// the node's size, the point-to-point laws of two ranks of one node, and the collectives as
// measured with several ranks a node. Absent: one rank a node, as every model before it.
struct Nodes {
  int ranks_per_node = 2;  // how many ranks a node holds
  Network network;         // the on-node level's point-to-point parameters; 0 = not known
  Operations on_node;      // point-to-point between two ranks of one node
  // Laws measured at a number of ranks a node (>= 2), each a function of p = nodes × ranks a
  // node; one rank a node is the model's own operations.
  std::map<int, Operations> placements;
};

class Model {
 public:
  Machine machine;
  Provenance provenance;
  Units units;
  Compute compute;
  Network network;
  std::optional<Launch> launch;  // unknown for published models
  Operations operations;       // between nodes, one rank a node: the whole model of a one-level machine
  std::optional<Nodes> nodes;  // a machine of nodes; absent: one rank a node

  // The model that prices messages between two ranks of one node: this one with the on-node
  // laws and network section in place of the between-nodes ones (the operations the node level
  // lacks keep theirs). A copy of this model when it has no nodes.
  Model on_node_level() const;

  const Operation* find(std::string_view op) const;
  const Operation& at(std::string_view op) const;  // throws QueryError naming known operations
  // The same on a machine of nodes whose levels measured different operations: `operations`
  // first, then the on-node level's, then each placement's (an imported model may have a
  // collective at its files' ranks a node only).
  const Operation& at_any_level(std::string_view op) const;

  // Time of `op` on p processes with a message of `bytes` bytes, in seconds.
  double seconds(const Operation& op, double p, double bytes, Bound bound = Bound::avg) const;
  double seconds(std::string_view op, double p, double bytes, Bound bound = Bound::avg) const {
    return seconds(at(op), p, bytes, bound);
  }
  // All three bounds at once, evaluating the law once.
  Estimate estimate(const Operation& op, double p, double bytes) const;
  Estimate estimate(std::string_view op, double p, double bytes) const { return estimate(at(op), p, bytes); }

 private:
  // The regime that prices `bytes` and the size in the model's unit; throws on a bad p or size.
  std::pair<const Regime*, double> query(const Operation& op, double p, double bytes) const;
};

}  // namespace augur::model
