#pragma once
// The seed's cmptrace: compares two runs of the same program (typically measured against
// predicted) state by state. A state's duration is the time to the next event on its rank, so
// the i-th state of rank r in one trace is paired with the i-th state of rank r in the other.
// Level A lists every pair with its ratio, level B totals per rank and state, level C totals per
// state where a state's time is the maximum over ranks. The text prints MPI's names of the states
// and times in one unit chosen for reading; the JSON keeps seconds and the trace's names.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "trace/trace.hpp"

namespace augur::trace {

struct StatePair {
  int rank;
  std::string label;
  double a, b;
  std::uint32_t line;  // source line in A for text traces, else the state's index
};

struct StateTotal {
  int rank;  // -1 in the per-state level
  std::string label;
  double a = 0, b = 0;
};

struct TraceComparison {
  std::vector<StatePair> events;            // level A
  std::vector<StateTotal> per_rank_state;   // level B
  std::vector<StateTotal> per_state;        // level C
  std::vector<std::string> mismatches;      // where the two runs stop doing the same thing
  double elapsed_a = 0, elapsed_b = 0;
};

TraceComparison compare_traces(const Trace& a, const Trace& b);

struct ComparisonFormat {
  bool level_a = true, level_b = true, level_c = true;
  // Decimals of the times in the unit the text chooses (s, ms, µs or ns, from the longest time);
  // -1: enough for three significant digits of the longest.
  int decimals = -1;
  std::size_t top = 5;      // pairs and totals listed in the divergence summary
};

// b/a, the seed's prediction ratio; infinite when A took no time but B did.
double ratio(double a, double b);

std::string format_comparison(const TraceComparison& c, const ComparisonFormat& format);
nlohmann::json comparison_json(const TraceComparison& c);

}  // namespace augur::trace
