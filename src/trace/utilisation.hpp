#pragma once
// Each rank's utilisation over time: the run from its first to its last event cut into equal
// intervals, and per rank the fraction of each interval spent computing and in MPI calls (MPI
// and wait states); with a topology, each link direction's too (sim/network/link_usage.hpp from the
// simulator's flows, or analyze's loads). `augur analyze --html` draws it, `augur sim
// --utilisation` writes it.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "trace/trace.hpp"

namespace augur::trace {

// One direction of a link over the run.
struct LinkUtilisation {
  std::string name;          // as the machine names its ends, sim::channel_name
  double bandwidth = 0;      // bytes per second
  double bytes = 0;          // carried by the flows that crossed it
  double busy_seconds = 0;   // within the run, while at least one flow crossed it
  std::vector<double> busy;  // [bin] fraction of the interval it was busy
};

struct Utilisation {
  double start = 0;        // the trace's start time: bin b is [start + b·width, start + (b+1)·width)
  double bin_seconds = 0;  // width
  std::vector<std::vector<double>> compute, mpi;  // [rank][bin], fractions in [0, 1]
  std::vector<LinkUtilisation> links;              // by channel; empty without a topology

  int bins() const { return compute.empty() ? 0 : static_cast<int>(compute.front().size()); }
  double run_seconds() const { return bin_seconds * bins(); }
};

// busy_seconds over the run, and bytes over what the bandwidth could carry in the run.
double busy_share(const LinkUtilisation& link, double run_seconds);
double bandwidth_share(const LinkUtilisation& link, double run_seconds);
// Indices of the `n` busiest links, busiest first: by busy time, then bytes, then the order given.
std::vector<std::size_t> busiest_links(const std::vector<LinkUtilisation>& links, std::size_t n);

Utilisation utilisation(const Trace& trace, int bins);

// Adds `seconds` of work spread evenly over [begin, end) (times from the first bin's start) to
// the bins of width `width` it overlaps.
void spread(std::vector<double>& bins, double width, double begin, double end, double seconds);
// Busy seconds per bin as fractions of the bin, capped at 1.
std::vector<double> fractions(std::vector<double> bins, double width);

// {"bins", "bin_seconds", "start", "ranks": [{"rank", "compute": [...], "mpi": [...]}]}, and
// with links "run_seconds", "busiest_link" and "links": [{"name", "bandwidth", "bytes",
// "busy_seconds", "busy_share", "bandwidth_share", "busy": [...]}].
nlohmann::json utilisation_json(const Utilisation& u);
// One row per rank and bin: rank,bin,begin,end,compute,mpi (times in seconds); with links two
// more columns, link,busy, empty on the ranks' rows, and a row per link and bin after them.
std::string utilisation_csv(const Utilisation& u);
// A line per rank: its totals and one character per bin, C mostly computing, M mostly in MPI,
// c / m busy less than half the time, '.' idle; at most `max_ranks` ranks.
std::string utilisation_text(const Utilisation& u, int max_ranks);

}  // namespace augur::trace
