#include "timing/rules.hpp"
#include "model/units.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <optional>
#include <type_traits>

#include "model/catalog.hpp"

namespace augur::timing {
namespace {

bool starts_with_i(std::string_view op) { return op.size() > 1 && op.front() == 'i'; }

// Collectives a model may not have measured, and the nearest one that stands in for them.
std::vector<std::string_view> collective_fallbacks(std::string_view op) {
  if (op == "gatherv") return {"gather"};
  if (op == "scatterv") return {"scatter"};
  if (op == "allgatherv") return {"allgather"};
  if (op == "alltoallv" || op == "alltoallw") return {"alltoall"};
  if (op == "reduce_scatter_block") return {"reduce_scatter", "allreduce"};
  if (op == "reduce_scatter") return {"reduce_scatter_block", "allreduce"};
  if (op == "scan" || op == "exscan") return {"allreduce", "reduce"};
  if (model::creates_communicator(op)) return {"allreduce", "barrier"};
  if (op == "win_fence") return {"barrier"};
  return {};
}

}  // namespace

CollectiveShape shape_of(std::string_view op) {
  if (starts_with_i(op)) op.remove_prefix(1);
  if (op == "bcast" || op == "scatter" || op == "scatterv") return CollectiveShape::one_to_all;
  if (op == "reduce" || op == "gather" || op == "gatherv") return CollectiveShape::all_to_one;
  return CollectiveShape::all_to_all;
}

template <class V>
BasicRules<V>::BasicRules(const model::Model& model, model::Bound bound) : model_(model), bound_(bound) {
  // The ping-pong is the one-way time of a message (see rules.hpp); published models often give
  // only the ping-pong, so it also stands in (conservatively) for the sender's time.
  using Names = std::initializer_list<std::string_view>;
  transit_ = resolve("pingpong", Names{"recv", "send"});
  send_ = resolve("send", Names{"pingpong", "recv"});
  ssend_ = resolve("ssend", Names{"send", "pingpong"});
  rsend_ = resolve("rsend", Names{"send", "pingpong"});
  bsend_ = resolve("bsend", Names{"send", "pingpong"});
  isend1_ = resolve("isend1", {});
  irecv1_ = resolve("irecv1", {});
  recvmin_ = resolve("recvmin", {});
  test_ = resolve("test", {});
  iprobe_ = resolve("iprobe", Names{"test"});
  put_ = resolve("put", Names{"pingpong", "recv", "send"});
  fence_holds_transfers_ = model_.find("win_fence") != nullptr;
  // Optional: without them the message rule stands alone, and there is nothing to report.
  sendrecv_ = model_.find("sendrecv");
  exchange_ = model_.find("exchange");
  if (model_.network.bandwidth > 0) seconds_per_byte_ = 1 / model_.network.bandwidth;
  for (const auto& info : model::operation_catalog()) {
    if (info.cls != model::OperationClass::collective && info.cls != model::OperationClass::barrier) continue;
    std::vector<std::string_view> chain;
    if (starts_with_i(info.name)) chain.push_back(info.name.substr(1));
    auto base = starts_with_i(info.name) ? info.name.substr(1) : info.name;
    for (auto f : collective_fallbacks(base)) chain.push_back(f);
    collectives_.emplace(std::string(info.name), resolve(info.name, chain, kTreeOfMessages));
  }
  for (std::string rooted : {"bcast", "reduce", "gather", "gatherv", "scatter", "scatterv"})
    roles_.emplace(rooted, Roles{model_.find(rooted + "_root"), model_.find(rooted + "_others")});
}

template <class V>
typename BasicRules<V>::Priced BasicRules<V>::resolve(std::string_view name, std::span<const std::string_view> fallbacks,
                                                      std::string_view otherwise) {
  if (const auto* op = model_.find(name)) return {op};
  const model::Operation* found = nullptr;
  std::string_view by = otherwise;
  for (auto f : fallbacks)
    if ((found = model_.find(f))) {
      by = f;
      break;
    }
  stand_ins_.push_back({std::string(name), std::string(by)});
  used_.push_back(0);
  return {found, static_cast<int>(stand_ins_.size()) - 1};
}

template <class V>
std::vector<std::string> BasicRules<V>::substitutions() const {
  std::vector<std::string> out;
  for (const auto& s : stand_ins_)
    out.push_back(s.operation + " <- " + (s.priced_as.empty() ? "0 (not in the model)" : s.priced_as));
  return out;
}

template <class V>
std::vector<StandIn> BasicRules<V>::stand_ins_used() const {
  std::vector<StandIn> out;
  for (std::size_t i = 0; i < stand_ins_.size(); ++i)
    if (used_[i]) out.push_back(stand_ins_[i]);
  return out;
}

template <class V>
V BasicRules<V>::price(const Priced& priced, double p, double bytes) const {
  mark_used(priced);
  return eval(priced.op, p, bytes);
}

template <class V>
V BasicRules<V>::eval(const model::Operation* op, double p, double bytes) const {
  if (!op) return V{};
  const auto key = std::bit_cast<std::uint64_t>(bytes) ^ std::bit_cast<std::uint64_t>(p) * 31 ^
                   reinterpret_cast<std::uintptr_t>(op) >> 4;
  auto& set = memo_[(key * 0x9E3779B97F4A7C15ull) >> 59];
  auto hit = [&](const Memo& m) { return m.op == op && m.p == p && m.bytes == bytes; };
  if (hit(set[0])) return set[0].seconds;
  if (hit(set[1])) return set[1].seconds;
  if (op->measured && !op->measured->covers(p, bytes)) note_extrapolation(*op, p, bytes);
  const std::optional<V> seconds = answer(*op, p, op->size_priced_as(bytes));
  // Not remembered: every call the model cannot price is told.
  if (!seconds) return V{};
  // The newest answer goes first, the older one stays: two of a loop's operations that share a
  // set both keep their answers instead of evicting each other on every call.
  set[1] = set[0];
  set[0] = {op, p, bytes, *seconds};
  return set[0].seconds;
}

template <class V>
std::optional<V> BasicRules<V>::answer(const model::Operation& op, double p, double bytes) const {
  try {
    return evaluate(op, p, bytes);
  } catch (const std::exception& e) {
    if (!unanswered_) throw;
    unanswered_(e.what());
  } catch (...) {
    if (!unanswered_) throw;
    unanswered_(op.name + ": its law failed to evaluate");
  }
  return std::nullopt;
}

// Three clocks: one evaluation of the law gives all three bounds, each as one clock gets it.
template <class V>
V BasicRules<V>::evaluate(const model::Operation& op, double p, double bytes) const {
  if constexpr (std::is_same_v<V, double>) {
    return std::max(0.0, model_.seconds(op, p, bytes, bound_));
  } else {
    const model::Estimate e = model_.estimate(op, p, bytes);
    return {{std::max(0.0, e.min), std::max(0.0, e.avg), std::max(0.0, e.max)}};
  }
}

template <class V>
void BasicRules<V>::note_extrapolation(const model::Operation& op, double p, double bytes) const {
  auto [it, fresh] = extrapolations_.try_emplace(op.name, Extrapolation{bytes, p, *op.measured});
  if (fresh) return;
  it->second.bytes = std::max(it->second.bytes, bytes);
  it->second.p = std::max(it->second.p, p);
}

template <class V>
V BasicRules<V>::send_busy(SendMode mode, double bytes) const {
  switch (mode) {
    case SendMode::synchronous: return price(ssend_, 2, bytes);
    case SendMode::ready: return price(rsend_, 2, bytes);
    case SendMode::buffered: return price(bsend_, 2, bytes);
    case SendMode::standard: break;
  }
  return price(send_, 2, bytes);
}

template <class V>
V BasicRules<V>::departure(V& link_free, const V& start, double bytes) const {
  if (!(seconds_per_byte_ > 0)) return start;
  const V leaves = later(start, link_free);
  link_free = leaves + uniform<V>(bytes * seconds_per_byte_);
  return leaves;
}

template <class V>
bool BasicRules<V>::waits_for_receiver(SendMode mode, double bytes) const {
  if (mode == SendMode::synchronous) return true;
  if (mode == SendMode::buffered || mode == SendMode::ready) return false;
  return model_.network.eager_limit > 0 && bytes > model_.network.eager_limit;
}

template <class V>
V BasicRules<V>::receive_end(const V& post, const V& send_start, bool rendezvous, double bytes) const {
  const V transfer_start = rendezvous ? later(send_start, post) : send_start;
  return later<V>(post + recvmin(bytes), transfer_start + transit(bytes));
}

template <class V>
typename BasicRules<V>::Decision BasicRules<V>::crossed(const Flight& own, const Flight& incoming) const {
  // Never sent to them: not crossed. Each condition prices its transit only if some clock still
  // needs it.
  auto still = by_lane<Decision>([&](std::size_t i) {
    return std::isfinite(lane(own.start, i)) && std::isfinite(lane(incoming.start, i));
  });
  if (!any(still)) return still;
  // Strict: a message started the moment the other arrived found it gone.
  const V in_flight = transit(incoming.bytes);
  still = by_lane<Decision>([&](std::size_t i) {
    return lane(still, i) && lane(own.start, i) < lane(incoming.start, i) + lane(in_flight, i);
  });
  if (!any(still)) return still;
  const V own_flight = transit(own.bytes);
  return by_lane<Decision>([&](std::size_t i) {
    return lane(still, i) && lane(incoming.start, i) < lane(own.start, i) + lane(own_flight, i);
  });
}

template <class V>
V BasicRules<V>::crossed_receive_end(const V& post, const Flight& own, const Flight& incoming, const V& halves_end) const {
  if (!exchange_) return halves_end;
  const Decision did = crossed(own, incoming);
  if (!any(did)) return halves_end;
  const V floor = later<V>(halves_end, earlier(post, own.start) + eval(exchange_, 2, incoming.bytes));
  return choose<V>(did, floor, halves_end);
}

template <class V>
V BasicRules<V>::sendrecv_end(const V& begin, const V& halves_end, double bytes) const {
  return later<V>(halves_end, begin + eval(sendrecv_, 2, bytes));
}

template <class V>
V BasicRules<V>::waiting_send_end(const V& send_start, const V& receiver_post, double bytes) const {
  return later(send_start, receiver_post) + send_busy(SendMode::synchronous, bytes);
}

template <class V>
V BasicRules<V>::tree_estimate(std::string_view op, int p, double bytes) const {
  // No collective model at all: a binomial tree of one-way messages, or p − 1 rounds for the
  // personalised exchanges. Crude, and the report says it was used.
  double rounds = std::ceil(std::log2(std::max(p, 1)));
  if (op.find("alltoall") != std::string_view::npos) rounds = p - 1;
  return rounds * transit(bytes);
}

template <class V>
V BasicRules<V>::collective_duration(std::string_view op, int p, double bytes) const {
  auto it = collectives_.find(op);
  if (it == collectives_.end()) return tree_estimate(op, p, bytes);
  mark_used(it->second);
  return it->second.op ? eval(it->second.op, p, bytes) : tree_estimate(op, p, bytes);
}

template <class V>
V BasicRules<V>::collective_duration(std::string_view op, int p, double bytes, bool is_root) const {
  if (auto it = roles_.find(op); it != roles_.end())
    if (const auto* role = is_root ? it->second.root : it->second.others) return eval(role, p, bytes);
  return collective_duration(op, p, bytes);
}

template class BasicRules<double>;
template class BasicRules<Times>;

}  // namespace augur::timing
