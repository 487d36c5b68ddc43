#pragma once
// The critical load (seed 004, T_CL): the work of the busiest resource. A rank's load is its
// compute plus the MPI work that was not waiting; with a topology, a link direction's load is
// the time its messages' bytes take over it. No mapping of this program runs faster than its
// busiest resource, and none faster than the total work spread evenly over the ranks.
#include <string>
#include <vector>

#include "analyze/costs.hpp"
#include "analyze/critical_path.hpp"

namespace augur::analyze {

struct LinkLoad {
  std::string name;  // sim::channel_name: "n1→n0", or the medium's ends for a shared one
  double seconds = 0;
  std::uint64_t messages = 0;
};

struct CriticalLoad {
  double busiest_rank_load = 0;
  int busiest_rank = 0;
  double even_spread = 0;       // total rank load / ranks
  std::vector<LinkLoad> links;  // busiest first; empty without a topology
  double load = 0;              // the largest of the rank and link loads
  std::string resource;         // "rank 3" or a link's name
  bool on_link = false;
};

CriticalLoad critical_load(const Dependencies& deps, const CriticalPath& path, const MessageCosts& costs);

}  // namespace augur::analyze
