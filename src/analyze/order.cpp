#include "analyze/order.hpp"

#include <algorithm>
#include <tuple>

#include <fmt/format.h>

namespace augur::analyze {
namespace {

struct Event {
  double time;
  std::int32_t rank;
  std::uint8_t receive;  // 0 send, 1 receive completion
  std::uint32_t index;
  std::int32_t peer;
};

std::vector<Event> events_of(const trace::Trace& t) {
  std::vector<Event> out;
  for (std::int32_t r = 0; r < t.nranks(); ++r) {
    const auto& rank = t.ranks[r];
    for (std::uint32_t i = 0; i < rank.sends.size(); ++i) out.push_back({rank.sends[i].time, r, 0, i, rank.sends[i].dst});
    for (std::uint32_t i = 0; i < rank.recvs.size(); ++i) out.push_back({rank.recvs[i].end, r, 1, i, rank.recvs[i].src});
  }
  std::sort(out.begin(), out.end(), [](const Event& a, const Event& b) {
    return std::tie(a.time, a.rank, a.receive, a.index) < std::tie(b.time, b.rank, b.receive, b.index);
  });
  return out;
}

std::string describe(const Event& e) {
  if (e.receive) return fmt::format("rank {}'s receive #{} (from rank {}) completes", e.rank, e.index, e.peer);
  return fmt::format("rank {}'s send #{} (to rank {})", e.rank, e.index, e.peer);
}

// Positions of each (rank, kind, index) in a run's order.
class Positions {
 public:
  Positions(const std::vector<Event>& order, int nranks) : at_(std::size_t(nranks) * 2) {
    for (std::size_t k = 0; k < order.size(); ++k) {
      auto& v = at_[std::size_t(order[k].rank) * 2 + order[k].receive];
      if (v.size() <= order[k].index) v.resize(order[k].index + 1, -1);
      v[order[k].index] = std::int64_t(k);
    }
  }
  std::int64_t of(const Event& e) const {
    const auto& v = at_[std::size_t(e.rank) * 2 + e.receive];
    return e.index < v.size() ? v[e.index] : -1;
  }

 private:
  std::vector<std::vector<std::int64_t>> at_;
};

void rematched(const trace::Trace& before, const trace::Trace& after, std::size_t limit, std::vector<std::string>& out) {
  for (int r = 0; r < std::min(before.nranks(), after.nranks()); ++r) {
    const auto& a = before.ranks[r].recvs;
    const auto& b = after.ranks[r].recvs;
    for (std::size_t i = 0; i < std::min(a.size(), b.size()) && out.size() < limit; ++i)
      if (a[i].src != b[i].src)
        out.push_back(fmt::format("rank {}'s receive #{} now matches rank {} (was rank {})", r, i, b[i].src, a[i].src));
  }
}

}  // namespace

bool matching_changed(const trace::Trace& before, const trace::Trace& after) {
  if (before.nranks() != after.nranks()) return true;
  for (int r = 0; r < before.nranks(); ++r) {
    const auto& a = before.ranks[r].recvs;
    const auto& b = after.ranks[r].recvs;
    if (a.size() != b.size()) return true;
    for (std::size_t i = 0; i < a.size(); ++i)
      if (a[i].src != b[i].src || a[i].tag != b[i].tag) return true;
  }
  return false;
}

std::vector<std::string> order_changes(const trace::Trace& before, const trace::Trace& after, std::size_t limit) {
  std::vector<std::string> out;
  const auto first = events_of(before), second = events_of(after);
  const Positions was(first, std::max(before.nranks(), after.nranks()));
  for (std::size_t k = 1; k < second.size() && out.size() < limit; ++k) {
    const auto &a = second[k - 1], &b = second[k];
    if (a.rank == b.rank || a.time == b.time) continue;
    const auto pa = was.of(a), pb = was.of(b);
    if (pa >= 0 && pb >= 0 && pa > pb)
      out.push_back(fmt::format("{} now comes before {}; it came after", describe(a), describe(b)));
  }
  rematched(before, after, limit, out);
  return out;
}

}  // namespace augur::analyze
