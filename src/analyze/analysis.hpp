#pragma once
// Everything `augur analyze` says about one run: its critical path and where it goes, its
// critical load, the optimistic limit and the tuning the gap points to.
#include <cstdint>

#include "analyze/advice.hpp"
#include "analyze/costs.hpp"
#include "analyze/critical_load.hpp"
#include "analyze/critical_path.hpp"
#include "analyze/shares.hpp"

namespace augur::analyze {

struct Analysis {
  CriticalPath path;
  Shares shares;
  CriticalLoad load;
  Advice advice;
  std::uint64_t unmatched = 0;  // messages with only one half recorded: left off the path
  std::uint64_t events = 0;
};

Analysis analyze_trace(const trace::Trace& trace, const MessageCosts& costs, const Scaling& scaling = {});

}  // namespace augur::analyze
