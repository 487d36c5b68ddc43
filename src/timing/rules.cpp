#include "timing/rules.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

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
  if (op == "comm_dup" || op == "comm_split" || op == "comm_create") return {"allreduce", "barrier"};
  return {};
}

}  // namespace

CollectiveShape shape_of(std::string_view op) {
  if (starts_with_i(op)) op.remove_prefix(1);
  if (op == "bcast" || op == "scatter" || op == "scatterv") return CollectiveShape::one_to_all;
  if (op == "reduce" || op == "gather" || op == "gatherv") return CollectiveShape::all_to_one;
  return CollectiveShape::all_to_all;
}

double collective_end(CollectiveShape shape, bool is_root, double own_start, const CollectiveStarts& starts,
                      double duration) {
  switch (shape) {
    case CollectiveShape::one_to_all:
      return is_root ? own_start + duration : std::max(own_start, starts.root + duration);
    case CollectiveShape::all_to_one:
      return is_root ? starts.latest + duration : own_start + duration;
    case CollectiveShape::all_to_all:
      break;
  }
  return starts.latest + duration;
}

Rules::Rules(const model::Model& model, model::Bound bound) : model_(model), bound_(bound) {
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
  // Optional: without them the message rule stands alone, and there is nothing to report.
  sendrecv_ = model_.find("sendrecv");
  exchange_ = model_.find("exchange");
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

Rules::Priced Rules::resolve(std::string_view name, std::span<const std::string_view> fallbacks,
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

std::vector<std::string> Rules::substitutions() const {
  std::vector<std::string> out;
  for (const auto& s : stand_ins_)
    out.push_back(s.operation + " <- " + (s.priced_as.empty() ? "0 (not in the model)" : s.priced_as));
  return out;
}

std::vector<Rules::StandIn> Rules::stand_ins_used() const {
  std::vector<StandIn> out;
  for (std::size_t i = 0; i < stand_ins_.size(); ++i)
    if (used_[i]) out.push_back(stand_ins_[i]);
  return out;
}

double Rules::price(const Priced& priced, double p, double bytes) const {
  mark_used(priced);
  return eval(priced.op, p, bytes);
}

double Rules::eval(const model::Operation* op, double p, double bytes) const {
  if (!op) return 0;
  const auto key = std::bit_cast<std::uint64_t>(bytes) ^ std::bit_cast<std::uint64_t>(p) * 31 ^
                   reinterpret_cast<std::uintptr_t>(op) >> 4;
  auto& set = memo_[(key * 0x9E3779B97F4A7C15ull) >> 59];
  auto hit = [&](const Memo& m) { return m.op == op && m.p == p && m.bytes == bytes; };
  if (hit(set[0])) return set[0].seconds;
  if (hit(set[1])) return set[1].seconds;
  if (op->measured && !op->measured->covers(p, bytes)) note_extrapolation(*op, p, bytes);
  // A model measured up to some size is extrapolated by its last regime rather than failing.
  const double last = op->regimes.back().to;
  const double clamped = bytes < last ? bytes : std::nextafter(last, 0.0);
  // The newest answer goes first, the older one stays: two of a loop's operations that share a
  // set both keep their answers instead of evicting each other on every call.
  set[1] = set[0];
  set[0] = {op, p, bytes, std::max(0.0, model_.seconds(*op, p, clamped, bound_))};
  return set[0].seconds;
}

void Rules::note_extrapolation(const model::Operation& op, double p, double bytes) const {
  auto [it, fresh] = extrapolations_.try_emplace(op.name, Extrapolation{bytes, p, *op.measured});
  if (fresh) return;
  it->second.bytes = std::max(it->second.bytes, bytes);
  it->second.p = std::max(it->second.p, p);
}

double Rules::send_busy(SendMode mode, double bytes) const {
  switch (mode) {
    case SendMode::synchronous: return price(ssend_, 2, bytes);
    case SendMode::ready: return price(rsend_, 2, bytes);
    case SendMode::buffered: return price(bsend_, 2, bytes);
    case SendMode::standard: break;
  }
  return price(send_, 2, bytes);
}

double Rules::isend_post(double bytes) const { return price(isend1_, 2, bytes); }
double Rules::irecv_post(double bytes) const { return price(irecv1_, 2, bytes); }
double Rules::transit(double bytes) const { return price(transit_, 2, bytes); }
double Rules::recvmin(double bytes) const { return price(recvmin_, 2, bytes); }

bool Rules::waits_for_receiver(SendMode mode, double bytes) const {
  if (mode == SendMode::synchronous) return true;
  if (mode == SendMode::buffered || mode == SendMode::ready) return false;
  return model_.network.eager_limit > 0 && bytes > model_.network.eager_limit;
}

double Rules::receive_end(double post, double send_start, bool rendezvous, double bytes) const {
  double transfer_start = rendezvous ? std::max(send_start, post) : send_start;
  return std::max(post + recvmin(bytes), transfer_start + transit(bytes));
}

bool Rules::crossed(const Flight& own, const Flight& incoming) const {
  if (!std::isfinite(own.start) || !std::isfinite(incoming.start)) return false;  // never sent to them
  // Strict: a message started the moment the other arrived found it gone.
  return own.start < incoming.start + transit(incoming.bytes) && incoming.start < own.start + transit(own.bytes);
}

double Rules::crossed_receive_end(double post, const Flight& own, const Flight& incoming, double halves_end) const {
  if (!exchange_ || !crossed(own, incoming)) return halves_end;
  return std::max(halves_end, std::min(post, own.start) + eval(exchange_, 2, incoming.bytes));
}

double Rules::sendrecv_end(double begin, double halves_end, double bytes) const {
  return std::max(halves_end, begin + eval(sendrecv_, 2, bytes));
}

double Rules::waiting_send_end(double send_start, double receiver_post, double bytes) const {
  return std::max(send_start, receiver_post) + send_busy(SendMode::synchronous, bytes);
}

double Rules::tree_estimate(std::string_view op, int p, double bytes) const {
  // No collective model at all: a binomial tree of one-way messages, or p − 1 rounds for the
  // personalised exchanges. Crude, and the report says it was used.
  double rounds = std::ceil(std::log2(std::max(p, 1)));
  if (op.find("alltoall") != std::string_view::npos) rounds = p - 1;
  return rounds * transit(bytes);
}

double Rules::collective_duration(std::string_view op, int p, double bytes) const {
  auto it = collectives_.find(op);
  if (it == collectives_.end()) return tree_estimate(op, p, bytes);
  mark_used(it->second);
  return it->second.op ? eval(it->second.op, p, bytes) : tree_estimate(op, p, bytes);
}

double Rules::collective_duration(std::string_view op, int p, double bytes, bool is_root) const {
  if (auto it = roles_.find(op); it != roles_.end())
    if (const auto* role = is_root ? it->second.root : it->second.others) return eval(role, p, bytes);
  return collective_duration(op, p, bytes);
}

}  // namespace augur::timing
