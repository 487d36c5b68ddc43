#include "fit/network.hpp"

#include <algorithm>

#include "fit/samples.hpp"

namespace augur::fit {
namespace {

std::vector<double> measured_sizes(const RawSet& raw, std::string_view op) {
  std::vector<double> sizes;
  for (const auto& point : raw.points)
    if (point.op == op && point.p == 2) sizes.push_back(point.bytes);
  return sizes;
}

// Where the send's law changes regime within (below, at]: the protocol switch itself when the fit
// placed a breakpoint there, else the largest size still seen eager.
double switch_between(const model::Operation& send, double below, double at) {
  for (const auto& regime : send.regimes)
    if (regime.from > below && regime.from <= at) return regime.from - 1;
  return below;
}

}  // namespace

// An eager send returns once the message is copied out; a rendezvous send, like a synchronous
// one, waits for its receiver's answer, which adds at least a round trip. So the limit is the
// first measured size at which `send` jumps up (half as much again as the eager sends below it
// explain: their last step carried on in a straight line) to cost about what `ssend` does: the bench's receiver is already waiting, so above
// the limit the two differ by little. Over shared memory here, send was 0.46 µs at 3 KiB and
// 2.71 µs at 4 KiB, 1.02 of ssend (Open MPI's btl_vader_eager_limit is 4096 with the header);
// over TCP 8.3 µs at 32 KiB and 36 µs at 64 KiB (btl_tcp_eager_limit 65536). A ratio alone does
// not tell: an eager send of 2 KiB already cost 0.91 of ssend, its copy outweighing the
// acknowledgement. Nor does a jump measured against the size's own growth: in a slower state
// Open MPI's 2 to 4 KiB step went from 0.94 to 2.23 µs, less than three times for twice the
// bytes, while the eager sends below it grew by a tenth a doubling. The next size must agree, so
// one noisy point does not make a switch. Of several such steps the largest rise is the
// switch: over shared memory Open MPI sends up to 256 B inline (40 ns) and copies larger ones
// out (0.25 µs, what ssend's acknowledgement costs there) without waiting for the receiver; its
// rendezvous adds 1.75 µs at 4 KiB (tests/data/openmpi-vader-send-ssend.raw.jsonl).
double eager_limit(const model::Model& m, std::vector<double> sizes) {
  constexpr double kLikeSynchronous = 0.9;
  constexpr double kJump = 1.5;
  const auto* send = m.find("send");
  const auto* ssend = m.find("ssend");
  if (!send || !ssend) return 0;
  sizes = sorted_unique(std::move(sizes));
  const auto sent = [&](double bytes) { return m.seconds(*send, 2, bytes); };
  const auto synchronous_like = [&](double bytes) { return sent(bytes) >= kLikeSynchronous * m.seconds(*ssend, 2, bytes); };
  // What an eager send of sizes[i] would cost: the step from sizes[i-2] to sizes[i-1] carried
  // on; with one size below, the previous cost grown with the bytes.
  const auto eager_at = [&](std::size_t i) {
    if (i < 2) return std::max(sizes[i] / std::max(sizes[i - 1], 1.0), 1.0) * sent(sizes[i - 1]);
    const double slope = (sent(sizes[i - 1]) - sent(sizes[i - 2])) / (sizes[i - 1] - sizes[i - 2]);
    return std::max(sent(sizes[i - 1]) + std::max(slope, 0.0) * (sizes[i] - sizes[i - 1]), sent(sizes[i - 1]));
  };
  std::size_t step = 0;
  double largest_rise = 0;
  for (std::size_t i = 1; i < sizes.size(); ++i) {
    if (!(sent(sizes[i]) > kJump * eager_at(i)) || !synchronous_like(sizes[i])) continue;
    if (i + 1 < sizes.size() && !synchronous_like(sizes[i + 1])) continue;
    if (const double rise = sent(sizes[i]) - eager_at(i); rise > largest_rise) {
      largest_rise = rise;
      step = i;
    }
  }
  return step == 0 ? 0 : switch_between(*send, sizes[step - 1], sizes[step]);
}

void derive_network(model::Model& m, const RawSet& raw) {
  const auto at_zero = [&](std::string_view op) { return m.find(op) ? std::max(0.0, m.seconds(op, 2, 0)) : 0.0; };
  if (m.network.latency == 0) m.network.latency = at_zero("pingpong");
  if (m.network.send_overhead == 0) m.network.send_overhead = at_zero("send");
  if (m.network.recv_overhead == 0) m.network.recv_overhead = at_zero("recvmin");
  if (m.network.eager_limit == 0) m.network.eager_limit = eager_limit(m, measured_sizes(raw, "send"));
  const auto pingpongs = measured_sizes(raw, "pingpong");
  const double largest = pingpongs.empty() ? 0 : *std::max_element(pingpongs.begin(), pingpongs.end());
  if (m.network.bandwidth == 0 && m.find("pingpong") && largest >= 2) {
    const double rise = m.seconds("pingpong", 2, largest) - m.seconds("pingpong", 2, largest / 2);
    if (rise > 0) m.network.bandwidth = (largest / 2) / rise;
  }
}

}  // namespace augur::fit
