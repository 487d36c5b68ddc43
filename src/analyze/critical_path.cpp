#include "analyze/critical_path.hpp"

#include <algorithm>

#include "analyze/longest_path.hpp"

namespace augur::analyze {
namespace {

// Walks back from the sink along the predecessors that decided each value.
class Walk {
 public:
  Walk(const trace::Trace& t, const Dependencies& d, const LongestPath& lp) : t_(t), d_(d), lp_(lp) {}

  std::vector<Segment> from(int r, std::int64_t i) {
    while (i >= 0) {
      const auto [next_rank, next_state] = back(r, static_cast<std::uint32_t>(i));
      gap(next_rank, next_state);
      r = next_rank;
      i = std::int64_t(next_state) - 1;
    }
    std::reverse(out_.begin(), out_.end());
    return std::move(out_);
  }

 private:
  // The segment that ends state i of r; returns the state whose start the path goes on from.
  std::pair<int, std::uint32_t> back(int r, std::uint32_t i) {
    const auto& st = t_.ranks[r].states[i];
    const auto p = lp_.pred(r, i);
    const double v = lp_.value(r, i);
    if (p.kind == Pred::message) {
      const auto& m = d_.messages[p.ref];
      out_.push_back({SegmentKind::message, r, m.src, i, m.send_time, m.recv_end, v - lp_.start_value(m.src, m.send_state), 0});
      return {m.src, m.send_state};
    }
    if (p.kind == Pred::collective || p.kind == Pred::collective_root) {
      const auto& c = d_.collectives[p.ref];
      const bool root = p.kind == Pred::collective_root;
      const auto k = root ? std::size_t(c.root) : lp_.instance_critical(p.ref);
      const double from = root ? lp_.start_value(c.ranks[k], c.states[k]) : lp_.instance_value(p.ref);
      const double begin = root ? t_.ranks[c.ranks[k]].states[c.states[k]].begin : c.last_arrival;
      out_.push_back({SegmentKind::collective, r, c.ranks[k], i, begin, st.end, v - from, st.op});
      return {c.ranks[k], c.states[k]};
    }
    const auto kind = st.kind == trace::StateKind::compute ? SegmentKind::compute : SegmentKind::mpi;
    out_.push_back({kind, r, -1, i, st.begin, st.end, v - lp_.start_value(r, i), st.op});
    return {r, i};
  }

  // Time before state i of r began that no work explains: untraced time, or the run's start.
  void gap(int r, std::uint32_t i) {
    const auto& s = t_.ranks[r].states;
    const double before = i == 0 ? 0 : lp_.value(r, i - 1);
    const double length = lp_.start_value(r, i) - before;
    if (length <= 0) return;
    const double begin = i == 0 ? t_.start_time() : s[i - 1].end;
    out_.push_back({SegmentKind::gap, r, -1, i, begin, s[i].begin, length, 0});
  }

  const trace::Trace& t_;
  const Dependencies& d_;
  const LongestPath& lp_;
  std::vector<Segment> out_;
};

}  // namespace

CriticalPath critical_path(const trace::Trace& trace, const Dependencies& deps, const MessageCosts& costs,
                           const Scaling& scaling) {
  LongestPath lp(trace, deps, costs, scaling);
  lp.run();
  CriticalPath out;
  out.start = trace.start_time();
  out.run_time = trace.end_time() - out.start;
  out.busy = lp.busy();
  out.forced = lp.forced();
  for (int r = 0; r < trace.nranks(); ++r) {
    const auto n = trace.ranks[r].states.size();
    if (n > 0 && lp.value(r, n - 1) > out.length) out.length = lp.value(r, n - 1), out.sink = r;
  }
  const auto last = trace.ranks.empty() ? 0 : trace.ranks[out.sink].states.size();
  out.segments = Walk(trace, deps, lp).from(out.sink, std::int64_t(last) - 1);
  return out;
}

}  // namespace augur::analyze
