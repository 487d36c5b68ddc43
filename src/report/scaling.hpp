#pragma once
// Scaling plots from runs over (p, size), the seed's mkgraph and cmpgraph: per-phase time and
// speedup against the number of processes, one line per problem size, and for a second set of
// runs (e.g. predicted against measured) the ratio of their total times. The data and the
// gnuplot script are written as files so the plots can be redrawn or restyled by hand. The data
// keep seconds; each time plot reads in the unit (s, ms, µs, ns) of its longest time.
#include <filesystem>
#include <istream>
#include <map>
#include <string>
#include <vector>

#include "trace/trace.hpp"

namespace augur::report {

struct RunPoint {
  int p = 1;
  double size = 0;
  std::map<std::string, double> phases;  // seconds per phase (the maximum over processes)
  double total = 0;                      // seconds
  std::string source;
};

// The seed's format: "# <nprocs> <ndata>", then "<phase> <time>" lines, the last one the total.
// Throws std::runtime_error naming the source and line.
RunPoint parse_mkgraph(std::istream& in, const std::string& source);

// Phases from augur_phase_begin/end marks (each the longest over ranks) and the elapsed time.
RunPoint run_from_trace(const trace::Trace& trace, double size, const std::string& source);

// Speedup of each run against the run with the fewest processes of the same size:
// S(p) = T(p0) · p0 / T(p), so S(p0) = p0 and perfect scaling is S(p) = p.
std::map<std::pair<double, int>, double> speedups(const std::vector<RunPoint>& runs);

// One line per run: processes, problem size, total time (in a unit for reading) and its source.
std::string format_runs(const std::vector<RunPoint>& runs);

// Writes time-PHASE.dat, speedup.dat, ratio.dat (with `versus`) and scale.gp into `dir`.
// Returns the script's path; `gnuplot scale.gp` run in `dir` draws the SVG files.
std::filesystem::path write_scaling_plots(const std::vector<RunPoint>& runs, const std::vector<RunPoint>& versus,
                                          const std::filesystem::path& dir);

}  // namespace augur::report
