#pragma once
// Each rank's utilisation over time: the run from its first to its last event cut into equal
// intervals, and per rank the fraction of each interval spent computing and in MPI calls (MPI
// and wait states). `augur analyze --html` draws it, `augur sim --utilisation` writes it.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "trace/trace.hpp"

namespace augur::trace {

struct Utilisation {
  double start = 0;        // the trace's start time: bin b is [start + b·width, start + (b+1)·width)
  double bin_seconds = 0;  // width
  std::vector<std::vector<double>> compute, mpi;  // [rank][bin], fractions in [0, 1]
};

Utilisation utilisation(const Trace& trace, int bins);

// Adds `seconds` of work spread evenly over [begin, end) (times from the first bin's start) to
// the bins of width `width` it overlaps.
void spread(std::vector<double>& bins, double width, double begin, double end, double seconds);
// Busy seconds per bin as fractions of the bin, capped at 1.
std::vector<double> fractions(std::vector<double> bins, double width);

// {"bins", "bin_seconds", "start", "ranks": [{"rank", "compute": [...], "mpi": [...]}]}.
nlohmann::json utilisation_json(const Utilisation& u);
// One row per rank and bin: rank,bin,begin,end,compute,mpi (times in seconds).
std::string utilisation_csv(const Utilisation& u);
// A line per rank: its totals and one character per bin, C mostly computing, M mostly in MPI,
// c / m busy less than half the time, '.' idle; at most `max_ranks` ranks.
std::string utilisation_text(const Utilisation& u, int max_ranks);

}  // namespace augur::trace
