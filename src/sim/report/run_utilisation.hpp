#pragma once
// A simulated run's utilisation over time: the ranks' from its recorded trace, and with a
// network of transfers that noted its channels' use (Transfers::record_usage), every link
// direction's, on the same intervals.
#include "sim/network/transfers.hpp"
#include "trace/trace.hpp"
#include "trace/utilisation.hpp"

namespace augur::sim {

trace::Utilisation run_utilisation(const trace::Trace& run, const Transfers* transfers, int bins);

}  // namespace augur::sim
