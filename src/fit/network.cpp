#include "fit/network.hpp"

#include <algorithm>

namespace augur::fit {

void derive_network(model::Model& m, const RawSet& raw) {
  const auto at_zero = [&](std::string_view op) { return m.find(op) ? std::max(0.0, m.seconds(op, 2, 0)) : 0.0; };
  if (m.network.latency == 0) m.network.latency = at_zero("pingpong");
  if (m.network.send_overhead == 0) m.network.send_overhead = at_zero("send");
  if (m.network.recv_overhead == 0) m.network.recv_overhead = at_zero("recvmin");
  double largest = 0;
  for (const auto& point : raw.points)
    if (point.op == "pingpong") largest = std::max(largest, point.bytes);
  if (m.network.bandwidth == 0 && m.find("pingpong") && largest >= 2) {
    const double rise = m.seconds("pingpong", 2, largest) - m.seconds("pingpong", 2, largest / 2);
    if (rise > 0) m.network.bandwidth = (largest / 2) / rise;
  }
}

}  // namespace augur::fit
