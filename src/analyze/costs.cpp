#include "analyze/costs.hpp"

#include <algorithm>
#include <limits>

namespace augur::analyze {

MessageCosts::MessageCosts(const sim::Network* network, const sim::Machine* machine)
    : network_(network), machine_(machine) {
  if (machine_) router_ = std::make_unique<sim::Router>(*machine_);
}

double MessageCosts::message(int src, int dst, double bytes) const {
  if (router_) {
    const int from = machine_->node_of(src), to = machine_->node_of(dst);
    if (from == to) return 0;
    const auto route = router_->route(from, to);
    double narrowest = std::numeric_limits<double>::infinity();
    for (auto c : route.channels) narrowest = std::min(narrowest, router_->capacity(c));
    return route.latency + (route.channels.empty() ? 0 : bytes / narrowest);
  }
  if (!network_) return 0;
  return network_->receive_end(0, 0, false, bytes);
}

double MessageCosts::receive_overhead(double bytes) const { return network_ ? network_->recvmin(bytes) : 0; }

}  // namespace augur::analyze
