#include "analyze/dependencies.hpp"

#include <algorithm>
#include <map>
#include <utility>

#include "trace/messages.hpp"

namespace augur::analyze {

std::uint32_t state_at(const trace::RankTrace& rank, double t) {
  const auto& s = rank.states;
  auto it = std::upper_bound(s.begin(), s.end(), t, [](double x, const trace::State& st) { return x < st.begin; });
  return it == s.begin() ? 0 : static_cast<std::uint32_t>(it - s.begin() - 1);
}

std::uint32_t state_ending(const trace::RankTrace& rank, double t) {
  const auto& s = rank.states;
  auto it = std::lower_bound(s.begin(), s.end(), t, [](const trace::State& st, double x) { return st.end < x; });
  if (it == s.end()) return s.empty() ? 0 : static_cast<std::uint32_t>(s.size() - 1);
  // A grain ending where an empty call begins: the call is the one that completed it.
  while (it->kind == trace::StateKind::compute && std::next(it) != s.end() && std::next(it)->begin <= t) ++it;
  return static_cast<std::uint32_t>(it - s.begin());
}

namespace {

// Messages whose two halves were both recorded, each with the states that sent and completed it.
void add_messages(const trace::Trace& t, Dependencies& d) {
  const auto pairing = trace::pair_messages(t);
  d.unmatched = pairing.unmatched_sends + pairing.unmatched_recvs;
  std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> by_state(t.ranks.size());
  for (const auto& m : pairing.messages) {
    const auto& s = t.ranks[m.src].sends[m.send_index];
    const auto& r = t.ranks[m.dst].recvs[m.recv_index];
    if (t.ranks[m.src].states.empty() || t.ranks[m.dst].states.empty()) continue;
    const auto id = static_cast<std::uint32_t>(d.messages.size());
    d.messages.push_back({m.src, m.dst, state_at(t.ranks[m.src], s.time), m.send_index, m.recv_index, s.time, r.end,
                          double(s.bytes)});
    by_state[m.dst].push_back({state_ending(t.ranks[m.dst], r.end), id});
  }
  for (std::size_t r = 0; r < t.ranks.size(); ++r) {
    auto& list = by_state[r];
    std::sort(list.begin(), list.end());
    auto& first = d.first_incoming[r];
    first.assign(t.ranks[r].states.size() + 1, 0);
    for (const auto& [state, id] : list) ++first[state + 1];
    for (std::size_t i = 1; i < first.size(); ++i) first[i] += first[i - 1];
    d.incoming[r].reserve(list.size());
    for (const auto& [state, id] : list) d.incoming[r].push_back(id);
  }
}

// The k-th collective on a communicator of every member is one instance.
void add_collectives(const trace::Trace& t, Dependencies& d) {
  std::map<std::pair<int, std::uint64_t>, std::uint32_t> instance;
  for (std::size_t r = 0; r < t.ranks.size(); ++r) {
    const auto& rank = t.ranks[r];
    d.collective_of[r].assign(rank.states.size(), kNone);
    std::map<int, std::uint64_t> seen;
    for (const auto& c : rank.collectives) {
      if (rank.states.empty()) break;
      const auto key = std::make_pair(int(c.comm), seen[c.comm]++);
      auto [it, fresh] = instance.try_emplace(key, static_cast<std::uint32_t>(d.collectives.size()));
      if (fresh) d.collectives.push_back({{}, {}, c.begin, c.op});
      auto& inst = d.collectives[it->second];
      const auto state = state_at(rank, c.begin);
      if (c.root == int(r)) inst.root = static_cast<std::int32_t>(inst.ranks.size());
      inst.bytes = std::max(inst.bytes, double(c.bytes));
      inst.ranks.push_back(static_cast<std::int32_t>(r));
      inst.states.push_back(state);
      inst.last_arrival = std::max(inst.last_arrival, c.begin);
      d.collective_of[r][state] = it->second;
    }
  }
}

void add_sent_bytes(const trace::Trace& t, Dependencies& d) {
  for (std::size_t r = 0; r < t.ranks.size(); ++r) {
    const auto& rank = t.ranks[r];
    d.sent_bytes[r].assign(rank.states.size(), 0);
    if (rank.states.empty()) continue;
    for (const auto& s : rank.sends) d.sent_bytes[r][state_at(rank, s.time)] += double(s.bytes);
  }
}

}  // namespace

Dependencies find_dependencies(const trace::Trace& trace) {
  Dependencies d;
  const auto n = trace.ranks.size();
  d.first_incoming.resize(n);
  d.incoming.resize(n);
  d.collective_of.resize(n);
  d.sent_bytes.resize(n);
  add_messages(trace, d);
  add_collectives(trace, d);
  add_sent_bytes(trace, d);
  return d;
}

}  // namespace augur::analyze
