#pragma once
// A tuning to try: compute grains, ranks' compute or messages made smaller or larger. Applied to
// the program that re-simulates the run (what-if), and to the critical path's weights (the bound
// the tuned run cannot beat, known before simulating).
//
// A grain is named by a phase of the trace (every compute state inside it), or as RANK:K, the
// K-th compute state (0 first) of rank RANK. Message sizes are scaled by the call that sent
// them, by its trace name (send, isend1, sendrecv, bcast, allreduce …) or `all`.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analyze/critical_path.hpp"
#include "sim/program/program.hpp"
#include "trace/trace.hpp"

namespace augur::analyze {

struct Tuning {
  std::map<std::string, double> grains;  // phase name or "RANK:K" → factor
  std::map<int, double> ranks;           // every compute grain of a rank → factor
  std::map<std::string, double> bytes;   // sending call's name or "all" → factor
  bool empty() const { return grains.empty() && ranks.empty() && bytes.empty(); }
  std::string describe() const;
};

// Parses "NAME=FACTOR" for the options above; throws std::invalid_argument naming the option,
// the text and the reason.
std::pair<std::string, double> parse_factor(std::string_view option, std::string_view text);

// Which compute grain each compute state is: its ordinal on its rank and the phase around it.
class GrainIndex {
 public:
  explicit GrainIndex(const trace::Trace& trace);
  std::uint32_t ordinal(int rank, std::uint32_t state) const { return ordinal_[rank][state]; }
  std::uint32_t state(int rank, std::uint32_t ordinal) const { return states_[rank][ordinal]; }
  std::uint32_t count(int rank) const { return static_cast<std::uint32_t>(states_[rank].size()); }
  std::string_view phase(int rank, std::uint32_t ordinal) const;
  const std::vector<std::string>& phases() const { return phase_names_; }  // every phase with compute in it
  // Takes the phases of `other`, an index of the same program's grains in another run of it
  // (a simulated run records no phases; the measured one it replays does).
  void borrow_phases(const GrainIndex& other);

 private:
  const trace::Trace* names_;
  std::vector<std::vector<std::uint32_t>> ordinal_, states_;
  std::vector<std::vector<std::int64_t>> phase_;  // per rank, per grain: name index or -1
  std::vector<std::string> phase_names_;
};

// The factor of grain `ordinal` of `rank`.
double compute_factor(const Tuning& tuning, const GrainIndex& grains, int rank, std::uint32_t ordinal);
double bytes_factor(const Tuning& tuning, std::string_view call);

// The weights of the critical path under `tuning`.
Scaling scaling_for(const Tuning& tuning, const GrainIndex& grains, const trace::Trace& trace);

// `program` (replayed from the trace that `grains` indexes) with the tuning applied.
std::unique_ptr<sim::FlatProgram> tuned_program(const sim::FlatProgram& program, const Tuning& tuning,
                                                const GrainIndex& grains);

}  // namespace augur::analyze
