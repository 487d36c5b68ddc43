#pragma once
// The report of a simulated run, in the shape of the reverse profiler's (revprof/report.hpp), so
// `augur sim` prints and writes what `augur run` does and scripts read both alike. Runs of more
// than `kListedRanks` ranks list the slowest ones only (with rank_count giving them all).
#include <nlohmann/json.hpp>

#include "sim/kernel/kernel.hpp"

namespace augur::sim {

inline constexpr std::size_t kListedRanks = 4096;

// `run` holds the settings (machine, bound, network, input …) as in revprof::make_report.
nlohmann::json make_report(const Result& result, nlohmann::json run, double wall_seconds);

}  // namespace augur::sim
