#include "analyze/costs.hpp"

#include <algorithm>
#include <limits>

#include "sim/program/message_ops.hpp"

namespace augur::analyze {

MessageCosts::MessageCosts(const sim::Network* network, const sim::Machine* machine)
    : network_(network), machine_(machine) {
  if (machine_) router_ = std::make_unique<sim::Router>(*machine_);
}

double MessageCosts::message(int src, int dst, double bytes) const {
  if (router_) {
    const int from = machine_->node_of(src), to = machine_->node_of(dst);
    const auto route = router_->route(from, to);
    double narrowest = std::numeric_limits<double>::infinity();
    for (auto c : route.channels) narrowest = std::min(narrowest, router_->capacity(c));
    return route.latency + (route.channels.empty() ? 0 : bytes / narrowest);
  }
  if (!network_) return 0;
  return network_->receive_end(0, 0, false, bytes);
}

double MessageCosts::receive_overhead(double bytes) const { return network_ ? network_->recvmin(bytes) : 0; }

double MessageCosts::collective(std::string_view name, int members, double bytes, bool is_root) const {
  if (!network_ || !network_->prices_collectives()) return std::numeric_limits<double>::infinity();
  return network_->collective_duration(name, members, bytes, is_root);
}

double MessageCosts::call(std::string_view name, double bytes) const {
  using timing::SendMode;
  if (!network_) return 0;
  double nic_free = 0;
  const sim::MessageOp* m = sim::find_message_model_name(name);
  if (m && m->kind == sim::OpKind::isend) return network_->isend(nic_free, SendMode::standard, 0, bytes).returns;
  if (m && m->kind == sim::OpKind::irecv) return network_->irecv_post(0);
  if (!m || m->kind != sim::OpKind::send) return 0;
  const SendMode mode = m->mode;
  if (network_->waits_for_receiver(mode, bytes)) return network_->waiting_send_end(0, 0, bytes);
  return network_->send_end(nic_free, mode, 0, bytes);
}

}  // namespace augur::analyze
