#pragma once
// Where the critical path's time goes: by rank, by operation and by the user's phases, so the
// tuner sees which grains and calls to work on first.
#include <map>
#include <string>

#include "analyze/critical_path.hpp"

namespace augur::analyze {

struct Shares {
  std::map<int, double> by_rank;               // work on each rank (messages are in by_operation)
  std::map<std::string, double> by_operation;  // "compute", an MPI call, "message", "untraced"
  std::map<std::string, double> by_phase;      // the innermost phase open where a segment began
  double longest_grain = 0;                    // the longest compute segment: what splitting could halve
  int longest_grain_rank = -1;
  std::uint32_t longest_grain_state = 0;
};

Shares shares_of(const trace::Trace& trace, const CriticalPath& path);

// An operation of by_operation for people: MPI's name of a call (MPI_Isend), the others as they
// are ("compute", "message", "untraced"), so no made-up MPI_ name reaches a table.
std::string readable_operation(const std::string& op);

// The innermost phase open on `rank` at `time`, or "" outside every phase.
class PhaseLookup {
 public:
  explicit PhaseLookup(const trace::Trace& trace);
  std::string_view at(int rank, double time) const;
  std::int64_t name_at(int rank, double time) const;  // index into the trace's names, or -1
  bool empty() const { return empty_; }

 private:
  struct Change {
    double time;
    std::int64_t name;  // -1: no phase open
  };
  const trace::Trace& trace_;
  std::vector<std::vector<Change>> changes_;
  bool empty_ = true;
};

}  // namespace augur::analyze
