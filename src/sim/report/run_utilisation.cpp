#include "sim/report/run_utilisation.hpp"

namespace augur::sim {

trace::Utilisation run_utilisation(const trace::Trace& run, const Transfers* transfers, int bins) {
  auto u = trace::utilisation(run, bins);
  if (transfers && transfers->usage())
    u.links = link_utilisation(*transfers->usage(), transfers->machine(), u.start, u.bin_seconds, bins);
  return u;
}

}  // namespace augur::sim
