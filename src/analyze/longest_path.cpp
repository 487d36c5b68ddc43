#include "analyze/longest_path.hpp"

#include <algorithm>
#include <limits>

#include "timing/rules.hpp"

namespace augur::analyze {

LongestPath::LongestPath(const trace::Trace& t, const Dependencies& d, const MessageCosts& costs, const Scaling& scaling)
    : t_(t), d_(d), costs_(costs), scaling_(scaling), t0_(t.start_time()) {
  const auto n = t.ranks.size();
  v_.resize(n);
  pred_.resize(n);
  for (std::size_t r = 0; r < n; ++r) {
    v_[r].assign(t.ranks[r].states.size(), 0);
    pred_[r].assign(t.ranks[r].states.size(), {});
  }
  cursor_.assign(n, 0);
  arrived_at_.assign(n, -1);
  inst_value_.assign(d.collectives.size(), 0);
  inst_arrived_.assign(d.collectives.size(), 0);
  inst_critical_.assign(d.collectives.size(), 0);
  waiters_.resize(n);
  inst_waiters_.resize(d.collectives.size());
  forced_rank_.assign(n, false);
  queued_.assign(n, false);
  busy_.assign(n, 0);
}

double LongestPath::start_value(int r, std::uint32_t i) const {
  const auto& s = t_.ranks[r].states;
  if (i == 0) return std::max(0.0, s[0].begin - t0_);
  return v_[r][i - 1] + std::max(0.0, s[i].begin - s[i - 1].end);
}

double LongestPath::message_start(std::uint32_t id) const {
  const auto& m = d_.messages[id];
  const auto& st = t_.ranks[m.src].states[m.send_state];
  return start_value(m.src, m.send_state) + std::max(0.0, m.send_time - st.begin);
}

// Undisturbed, and never more than the time that passed from the send to the receive's end.
double LongestPath::message_weight(const MessageDependency& m) const {
  const double f = scaling_.bytes ? scaling_.bytes(t_.ranks[m.src].states[m.send_state].op) : 1.0;
  const double alone = costs_.message(m.src, m.dst, m.bytes * f);
  return std::max(0.0, std::min(alone, (m.recv_end - m.send_time) * std::min(1.0, f)));
}

bool LongestPath::messages_ready(int r, std::uint32_t i) {
  const auto& first = d_.first_incoming[r];
  for (auto k = first[i]; k < first[i + 1]; ++k) {
    const auto& m = d_.messages[d_.incoming[r][k]];
    if (cursor_[m.src] >= m.send_state) continue;
    if (forced_rank_[r]) continue;
    waiters_[m.src].push_back(r);
    return false;
  }
  return true;
}

// A member reaching a collective; the last to arrive settles the instance and wakes the others.
bool LongestPath::arrive(int r, std::uint32_t i, std::uint32_t c) {
  const auto& inst = d_.collectives[c];
  if (arrived_at_[r] != std::int64_t(i)) {
    arrived_at_[r] = i;
    const double s = start_value(r, i);
    const auto member = static_cast<std::size_t>(std::find(inst.ranks.begin(), inst.ranks.end(), r) - inst.ranks.begin());
    if (inst_arrived_[c] == 0 || s > inst_value_[c]) inst_value_[c] = s, inst_critical_[c] = member;
    if (++inst_arrived_[c] == inst.ranks.size())
      for (int w : inst_waiters_[c]) enqueue(w);
  }
  if (inst_arrived_[c] == inst.ranks.size() || forced_rank_[r]) return true;
  inst_waiters_[c].push_back(r);
  return false;
}

// The state's value: its own work after its predecessor, or later if a message or collective
// could not have completed it earlier.
void LongestPath::settle(int r, std::uint32_t i) {
  const auto& st = t_.ranks[r].states[i];
  const double s = start_value(r, i), span = st.end - st.begin;
  double own = own_work(r, i);
  // A call moving fewer bytes costs at most its share of the time it took: still a lower bound.
  const double call = st.kind == trace::StateKind::mpi && scaling_.bytes ? std::min(1.0, scaling_.bytes(st.op)) : 1.0;
  own *= call;
  Pred p;
  const auto& first = d_.first_incoming[r];
  double overhead = 0, v = 0;
  for (auto k = first[i]; k < first[i + 1]; ++k) {
    const auto id = d_.incoming[r][k];
    const auto& m = d_.messages[id];
    overhead = std::max(overhead, costs_.receive_overhead(m.src, m.dst, m.bytes));
    if (cursor_[m.src] < m.send_state) continue;  // dropped to break a cycle
    if (m.recv_end < m.send_time) {  // received before sent: the ranks' clocks disagree
      ++forced_;
      continue;
    }
    const double via = message_start(id) + message_weight(m);
    if (via > v) v = via, p = {Pred::message, id};
  }
  if (first[i + 1] > first[i] && st.kind != trace::StateKind::compute) own = std::min(span * call, overhead);
  const auto c = d_.collective_of[r][i];
  if (c != kNone && inst_arrived_[c] == d_.collectives[c].ranks.size()) collective_terms(r, i, c, call, own, v, p);
  if (s + own >= v) v = s + own, p = {};
  v_[r][i] = v;
  pred_[r][i] = p;
  busy_[r] += own;
}

// A collective by its shape (timing/rules.hpp): all-to-all members and an all-to-one root leave
// T_op after the last arrival, one-to-all members T_op after the root's; other members depend on
// no one. T_op is the model's, capped by what the run took.
void LongestPath::collective_terms(int r, std::uint32_t i, std::uint32_t c, double call, double& own, double& v,
                                   Pred& p) const {
  const auto& inst = d_.collectives[c];
  const double end = t_.ranks[r].states[i].end;
  const auto name = t_.names[inst.op];
  const auto shape = timing::shape_of(name);
  const bool is_root = inst.root >= 0 && inst.ranks[inst.root] == r;
  const double op = costs_.collective(name, inst.ranks, inst.bytes, is_root) * call;
  const bool after_all = shape == timing::CollectiveShape::all_to_all || (shape == timing::CollectiveShape::all_to_one && is_root);
  const bool after_root = shape == timing::CollectiveShape::one_to_all && !is_root && inst.root >= 0;
  if (after_all && end >= inst.last_arrival) {
    const double after = std::min((end - inst.last_arrival) * call, op);
    own = std::min(own, after);
    if (inst_value_[c] + after > v) v = inst_value_[c] + after, p = {Pred::collective, c};
    return;
  }
  own = std::min(own, op);
  if (!after_root) return;
  own = 0;  // it leaves as soon as the root's data has come, or at once if that came earlier
  const int root = inst.ranks[inst.root];
  const double root_begin = t_.ranks[root].states[inst.states[inst.root]].begin;
  if (end < root_begin) return;
  const double via = start_value(root, inst.states[inst.root]) + std::min((end - root_begin) * call, op);
  if (via > v) v = via, p = {Pred::collective_root, c};
}

// What the state itself costs: a compute grain (scaled), or at most the undisturbed cost of a
// call that completes no receive (the rest of it was waiting for someone); waiting and idle
// states are no work. Receives and collectives are settled from their dependencies.
double LongestPath::own_work(int r, std::uint32_t i) const {
  const auto& st = t_.ranks[r].states[i];
  const double span = st.end - st.begin;
  switch (st.kind) {
    case trace::StateKind::compute: return span * (scaling_.compute ? scaling_.compute(r, i) : 1.0);
    case trace::StateKind::wait:
    case trace::StateKind::idle: return 0;
    case trace::StateKind::mpi: break;
  }
  const bool receives = d_.first_incoming[r][i + 1] > d_.first_incoming[r][i];
  if (receives || d_.collective_of[r][i] != kNone) return span;
  return std::min(span, costs_.call(t_.names[st.op], r, d_.sent_bytes[r][i]));
}

bool LongestPath::step(int r) {
  const auto i = cursor_[r];
  const auto c = d_.collective_of[r][i];
  if (c != kNone && !arrive(r, i, c)) return false;
  if (!messages_ready(r, i)) return false;
  settle(r, i);
  ++cursor_[r];
  forced_rank_[r] = false;
  return true;
}

void LongestPath::enqueue(int r) {
  if (queued_[r]) return;
  queued_[r] = true;
  work_.push_back(r);
}

void LongestPath::drain() {
  while (!work_.empty()) {
    const int r = work_.back();
    work_.pop_back();
    queued_[r] = false;
    const auto before = cursor_[r];
    const auto size = t_.ranks[r].states.size();
    while (cursor_[r] < size && step(r)) {
    }
    if (cursor_[r] == before) continue;
    for (int w : waiters_[r]) enqueue(w);
    waiters_[r].clear();
  }
}

// The unfinished rank whose next state began earliest: the one a cycle is broken at.
int LongestPath::stuck_rank() const {
  int best = -1;
  double earliest = std::numeric_limits<double>::infinity();
  for (std::size_t r = 0; r < cursor_.size(); ++r) {
    const auto& s = t_.ranks[r].states;
    if (cursor_[r] < s.size() && s[cursor_[r]].begin < earliest) earliest = s[cursor_[r]].begin, best = int(r);
  }
  return best;
}

void LongestPath::run() {
  for (int r = static_cast<int>(cursor_.size()) - 1; r >= 0; --r) enqueue(r);
  for (;;) {
    drain();
    const int r = stuck_rank();
    if (r < 0) return;
    forced_rank_[r] = true;
    ++forced_;
    enqueue(r);
  }
}

}  // namespace augur::analyze
