#pragma once
// The report of a reverse-profiled run, assembled from every rank's ledger: predicted run time
// (the latest finish over ranks), per-rank compute / MPI / waiting, per-operation totals
// (mpiP-like), the bound used and the calls that were not modelled.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace augur::revprof {

// `ranks` holds Ledger::to_json of every rank; `run` the settings (machine, bound, compute …).
nlohmann::json make_report(const std::vector<nlohmann::json>& ranks, const nlohmann::json& run);
std::string format_report(const nlohmann::json& report);

}  // namespace augur::revprof
