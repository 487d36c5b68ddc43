#pragma once
// Raw measurements: what `augur bench` writes and `augur fit` reads (docs/raw-format.md).
// JSON Lines: a header line, then one record per (operation, p, bytes) point, so a run that is
// interrupted leaves every finished point readable.
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/model.hpp"

namespace augur::fit {

// Medians by role of a rooted operation, seconds: the root's own time and the slowest other rank's.
struct RoleTimes {
  double root = 0, others = 0;
};

struct Measurement {
  std::string op;
  int p = 0;             // processes in the group
  double bytes = 0;      // message size in bytes
  double min = 0, median = 0, mean = 0, max = 0, stddev = 0;  // seconds
  int reps = 0;          // repetitions behind the statistics
  // How well the ranks started together (seconds), when the run measured it: the median spread
  // of the ranks' start times, and the uncertainty of the clock offsets it was measured with.
  std::optional<double> skew, clock_error;
  std::optional<RoleTimes> roles;
  // Which sweep over the plan measured it: a run may measure every point again in later passes,
  // spread over time, and the fit pools a point's passes (pooling.hpp).
  int pass = 1;
  // Calls per repetition: a short collective or pair exchange is timed as the mean of a
  // back-to-back sequence (docs/bench-method.md), and its times are per call.
  int calls = 1;
  // Half round trip of an 8-byte ping-pong between world ranks 0 and 1 around the point
  // (seconds; the slower of before and after): which state the machine was in
  // (model/machine_states.hpp).
  std::optional<double> state_probe = std::nullopt;
  // Seconds of one compute step (the model's compute.seconds_per_step kernel) timed on world
  // rank 0 just after the point: how fast the machine computed then (fit/compute_states.hpp).
  std::optional<double> compute_probe = std::nullopt;
  // Where the point's ranks ran, block placement: `nodes` × `ranks_per_node` = p. Absent
  // (both 0): one rank a node, as every record before them (docs/raw-format.md, "Placement").
  int nodes = 0, ranks_per_node = 0;
  bool placed() const { return ranks_per_node > 0; }
  // Ranks a node, 1 when the record does not say.
  int per_node() const { return placed() ? ranks_per_node : 1; }
};

// A point the MPI library could not run: the bench records the library's error text in place
// of times, and measures no more of that operation.
struct Unmeasurable {
  std::string op;
  int p = 0;
  double bytes = 0;
  std::string error;  // MPI_Error_string's text
  int pass = 1;
};

// The first line of an MPI library's error text, without the ", error stack:" with which MPICH
// announces the lines after it: "MPI_ERR_WIN: invalid window", "Invalid count".
std::string error_headline(const std::string& error);

struct RawSet {
  nlohmann::json header = nlohmann::json::object();  // machine, provenance, settings
  std::vector<Measurement> points;
  std::vector<Unmeasurable> unmeasurable;
};

// Throws std::runtime_error "FILE:LINE: FIELD: REASON" on bad input. A truncated last line (a
// run killed mid-write) is reported, not skipped, unless `tolerate_truncated_tail` is set.
RawSet read_raw_file(const std::filesystem::path& path, bool tolerate_truncated_tail = false);
RawSet parse_raw(std::istream& in, const std::string& source, bool tolerate_truncated_tail = false);

// The header's `compute` object, which the bench's node kernels fill in the shape of a model's
// compute section (docs/model-format.md); nothing known when the header has none. Throws
// model::ModelError naming `source` and the field (e.g. "compute.cache_sweep[2].bytes").
model::Compute header_compute(const nlohmann::json& header, const std::string& source);

// The header's `settings.ranks_per_node` and `settings.nodes`, what the bench found of the
// machine; 0 when the header does not say. Throws std::invalid_argument naming the field.
struct HeaderNodes {
  int ranks_per_node = 0, nodes = 0;
};
HeaderNodes header_nodes(const nlohmann::json& header);

nlohmann::json to_json(const Measurement& m);
nlohmann::json to_json(const Unmeasurable& u);
void check_measurement(const Measurement& m);  // throws std::invalid_argument with the reason

// Appends records and flushes each one, so a crash loses nothing that was finished.
class RawWriter {
 public:
  // Creates the file with `header`, or (append = true) continues an existing file.
  RawWriter(const std::filesystem::path& path, const nlohmann::json& header, bool append);
  void write(const Measurement& m);
  void write(const Unmeasurable& u);

 private:
  std::ofstream out_;
};

}  // namespace augur::fit
