#include "learn/learner.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "learn/comm_rules.hpp"
#include "learn/exact_law.hpp"
#include "learn/index_laws.hpp"
#include "learn/law_fit.hpp"
#include "learn/peer_rules.hpp"
#include "learn/rank_groups.hpp"
#include "model/units.hpp"

namespace augur::learn {
namespace {

using app::ProgramNode;
using sim::OpKind;

// One group of one run, with the run's p and n: what the aligned walk below reads.
struct GroupRun {
  const LearnRun* run;
  const std::vector<SampleNode>* body;
  const std::vector<int>* ranks;
};

std::string runs_text(const std::vector<GroupRun>& at) {
  std::string out;
  for (const auto& g : at) out += fmt::format("{}p = {}", out.empty() ? "" : ", ", g.run->p);
  return out;
}

std::string op_name(const sim::Op& op, const RankSequences& seq) {
  using timing::SendMode;
  switch (op.kind) {
    case OpKind::send:
      return op.mode == SendMode::synchronous ? "ssend"
             : op.mode == SendMode::buffered  ? "bsend"
             : op.mode == SendMode::ready     ? "rsend"
                                              : "send";
    case OpKind::isend: return "isend";
    case OpKind::recv: return "recv";
    case OpKind::irecv: return "irecv";
    case OpKind::sendrecv: return "sendrecv";
    case OpKind::wait: return "wait";
    case OpKind::collective: return seq.names.at(op.name);
    default: return "compute";
  }
}

// An exact law is written as its expression alone: it has no error to carry.
bool exact(const app::Law& law) { return law.cv_error == 0 && law.low == law.expr && law.high == law.expr; }

app::Law bare(const app::Law& law) {
  app::Law out;
  out.expr = out.low = out.high = law.expr;
  return out;
}

class Aligner {
 public:
  Aligner(const std::string& parameter, Learned& out, bool indexed)
      : parameter_(parameter), out_(out), indexed_(indexed) {}

  std::vector<ProgramNode> body(const std::vector<GroupRun>& at, const std::string& where) {
    check_same_length(at, where);
    std::vector<ProgramNode> nodes;
    const auto& first = *at.front().body;
    for (std::size_t i = 0; i < first.size(); ++i) {
      std::vector<const SampleNode*> node;
      for (const auto& g : at) node.push_back(&(*g.body)[i]);
      check_same_kind(at, node, where, i);
      if (first[i].is_loop()) nodes.push_back(loop(at, node, where, i));
      else if (first[i].op.kind == OpKind::compute) add_compute(at, node, where, nodes);
      else nodes.push_back(call(at, node, where, i));
    }
    return nodes;
  }

  app::Law law(const std::vector<GroupRun>& at, const std::vector<double>& values, Quantity q,
               const std::string& where, const std::string& what) {
    std::vector<LawPoint> points;
    for (std::size_t i = 0; i < at.size(); ++i) points.push_back({double(at[i].run->p), at[i].run->n, values[i]});
    auto law = fit_law(points, q, parameter_);
    if (q == Quantity::integer && !exact(law) && indexed_)
      if (auto dealt = dealt_count(at, values)) law = *dealt;
    out_.laws.push_back({where, what, law});
    return exact(law) ? bare(law) : law;
  }

  // A count that deals one of the program's constant counts among the ranks in turn.
  std::optional<app::Law> dealt_count(const std::vector<GroupRun>& at, const std::vector<double>& values) const {
    std::vector<std::int64_t> totals;
    for (const auto& learned : out_.laws) {
      const auto& expr = learned.law.expr;
      if (!exact(learned.law) || expr.empty() || expr.find_first_not_of("0123456789") != std::string::npos) continue;
      const auto c = std::stoll(expr);
      if (c >= 2 && std::find(totals.begin(), totals.end(), c) == totals.end()) totals.push_back(c);
    }
    std::vector<std::pair<int, double>> points;
    for (std::size_t i = 0; i < at.size(); ++i) points.emplace_back(at[i].run->p, values[i]);
    const auto text = dealt_count_law(points, totals);
    if (!text) return std::nullopt;
    auto law = bare(app::Law{*text, "", "", "", {}, {}, 0});
    law.form = *text;
    return law;
  }

 private:
  void check_same_length(const std::vector<GroupRun>& at, const std::string& where) const {
    for (const auto& g : at)
      if (g.body->size() != at.front().body->size())
        throw LearnError(fmt::format("{}: the ranks do {} steps at p = {} and {} at p = {} ({}): the program's phases differ "
                                     "between process counts",
                                     where, at.front().body->size(), at.front().run->p, g.body->size(), g.run->p,
                                     runs_text(at)));
  }

  void check_same_kind(const std::vector<GroupRun>& at, const std::vector<const SampleNode*>& node,
                       const std::string& where, std::size_t i) const {
    const auto& a = *node.front();
    for (std::size_t k = 1; k < node.size(); ++k) {
      const auto& b = *node[k];
      const bool same = a.is_loop() == b.is_loop() &&
                        (a.is_loop() || (a.op.kind == b.op.kind && a.op.mode == b.op.mode &&
                                         op_name(a.op, at.front().run->sequences) == op_name(b.op, at[k].run->sequences)));
      if (!same)
        throw LearnError(fmt::format("{}, step {}: the ranks do {} at p = {} but {} at p = {}: the program's phases differ "
                                     "between process counts",
                                     where, i + 1, describe_step(a, *at.front().run), at.front().run->p,
                                     describe_step(b, *at[k].run), at[k].run->p));
    }
  }

  static std::string describe_step(const SampleNode& n, const LearnRun& run) {
    if (n.is_loop()) return fmt::format("a loop of {} iterations", n.times);
    return n.op.kind == OpKind::compute ? "compute" : model::mpi_name(op_name(n.op, run.sequences));
  }

  ProgramNode loop(const std::vector<GroupRun>& at, const std::vector<const SampleNode*>& node,
                   const std::string& where, std::size_t i) {
    if (node.front()->until_tag >= 0) return until(at, node, where, i);
    const auto here = fmt::format("{} › loop at step {}", where, i + 1);
    std::vector<double> times;
    std::vector<GroupRun> inner;
    for (std::size_t k = 0; k < at.size(); ++k) {
      times.push_back(node[k]->times);
      inner.push_back({at[k].run, &node[k]->body, at[k].ranks});
    }
    ProgramNode n;
    n.kind = ProgramNode::Kind::repeat;
    n.times = law(at, times, Quantity::integer, here, "iterations");
    auto outer = std::move(index_);
    if (indexed_) index_ = IndexContext{kIndexNames[std::min(depth_, kIndexNames.size() - 1)], n.times.expr, {}, false};
    if (index_)
      for (const auto* s : node) index_->times.push_back(s->times);
    ++depth_;
    n.body = body(inner, here);
    --depth_;
    if (index_ && index_->used) n.index = index_->name;
    index_ = std::move(outer);
    return n;
  }

  // A loop the run ends on a tag: its count is the run's, kept as the mean over the members (for
  // the model's phases), and its computes are the mean task's, since whichever rank is free
  // takes the next one.
  ProgramNode until(const std::vector<GroupRun>& at, const std::vector<const SampleNode*>& node,
                    const std::string& where, std::size_t i) {
    const auto here = fmt::format("{} › loop until tag {} at step {}", where, node.front()->until_tag, i + 1);
    std::vector<double> counts;
    std::vector<GroupRun> inner;
    for (std::size_t k = 0; k < at.size(); ++k) {
      if (node[k]->until_tag != node.front()->until_tag)
        throw LearnError(fmt::format("{}: the loop ends on tag {} at p = {} but on tag {} at p = {}", here,
                                     node.front()->until_tag, at.front().run->p, node[k]->until_tag, at[k].run->p));
      counts.push_back(mean(node[k]->counts));
      inner.push_back({at[k].run, &node[k]->body, at[k].ranks});
    }
    ProgramNode n;
    n.kind = ProgramNode::Kind::until;
    n.tag = node.front()->until_tag;
    n.times = law(at, counts, Quantity::seconds, here, "iterations, the mean (the run decides)");
    auto outer = std::move(index_);
    index_.reset();
    ++until_depth_;
    n.body = body(inner, here);
    --until_depth_;
    index_ = std::move(outer);
    return n;
  }

  // The mean over every occurrence of every member.
  static double mean_occurrence(const SampleNode& n) {
    double sum = 0, count = 0;
    for (const auto& member : n.values)
      for (const auto v : member) sum += v, count += 1;
    return count > 0 ? sum / count : 0;
  }

  // A send whose every occurrence, in every member and run, went to the source of the latest
  // receive, and not always to the same rank: a server's answer to whoever asked.
  static std::optional<app::PeerRule> reply(const std::vector<const SampleNode*>& node) {
    bool varies = false;
    for (const auto* n : node) {
      if (n->replies.empty()) return std::nullopt;
      for (std::size_t m = 0; m < n->replies.size(); ++m) {
        if (!n->replies[m]) return std::nullopt;
        for (const auto peer : n->peers[m]) varies = varies || peer != n->peers[m].front();
      }
    }
    if (!varies) return std::nullopt;
    return peer_rule(app::PeerRule::Kind::reply);
  }

  // The innermost loop around the node being learned, when its iterations may differ.
  struct IndexContext {
    std::string name, times_expr;
    std::vector<std::uint32_t> times;  // per run
    bool used = false;
  };
  static constexpr std::array<const char*, 4> kIndexNames{"i", "j", "k", "l"};

  // Each run's values of the node at each iteration of the enclosing loop, the members reduced
  // by `slowest` (a compute) or their mean (a size; members with no peer left out).
  std::vector<std::vector<double>> iterations(const std::vector<const SampleNode*>& node, bool slowest) const {
    std::vector<std::vector<double>> out;
    const bool message = is_message(node.front()->op);
    for (std::size_t k = 0; k < node.size(); ++k) {
      std::vector<double> merged(index_->times[k], 0.0);
      double members = 0;
      for (std::size_t m = 0; m < node[k]->values.size(); ++m) {
        if (message && node[k]->peer[m] == sim::kNoPeer) continue;
        const auto y = per_iteration(node[k]->values[m], index_->times[k]);
        for (std::size_t i = 0; i < y.size(); ++i) merged[i] = slowest ? std::max(merged[i], y[i]) : merged[i] + y[i];
        members += 1;
      }
      if (!slowest && members > 0)
        for (auto& v : merged) v /= members;
      out.push_back(std::move(merged));
    }
    return out;
  }

  static bool varies(const std::vector<std::vector<double>>& runs) {
    for (const auto& y : runs)
      for (const auto v : y)
        if (v != y.front()) return true;
    return false;
  }

  // A compute that changes over the iterations (the rows left to eliminate), when it has a trend
  // in most runs (trend_share): the mean over the iterations as a law in p,
  // so that the loop's total is kept, and the share of it the line gives the first iteration, u
  // in [0, 1] (the line then runs from 2u·mean to (2 − 2u)·mean and never goes below 0).
  std::optional<app::Law> indexed_seconds(const std::vector<GroupRun>& at, const std::vector<const SampleNode*>& node,
                                          const std::string& where) {
    if (!index_) return std::nullopt;
    const auto runs = iterations(node, true);
    if (!varies(runs)) return std::nullopt;
    std::vector<double> mean, share;
    std::size_t trends = 0;
    for (const auto& y : runs) {
      const auto u = trend_share(y);
      if (!u) return std::nullopt;
      double m = 0;
      for (const auto v : y) m += v / double(y.size());
      mean.push_back(m);
      share.push_back(u->first);
      trends += u->second;
    }
    if (2 * trends < runs.size()) return std::nullopt;
    const auto m = law(at, mean, Quantity::seconds, where, fmt::format("compute seconds, mean over {}", index_->name));
    // The shape in i, unlike the mean, is taken as the same at every count: the runs' mean share.
    double mean_share = 0;
    for (const auto v : share) mean_share += v / double(share.size());
    app::Law u;
    u.expr = u.low = u.high = fmt::format("{:.4g}", mean_share);
    u.form = u.expr + ", the runs' mean";
    const auto [lo, hi] = std::minmax_element(share.begin(), share.end());
    u.cv_error = mean_share > 0 ? (*hi - *lo) / mean_share : 0;  // the spread between the runs, reported
    out_.laws.push_back({where, fmt::format("compute's share at {} = 0", index_->name), u});
    index_->used = true;
    const auto line = [&](const std::string& mean_expr, const std::string& share_expr) {
      const auto s = fmt::format("min(1, max(0, {}))", share_expr);
      return fmt::format("({0}) * (2 * {1} + (2 - 4 * {1}) * {2} / max(1, ({3}) - 1))", mean_expr, s, index_->name,
                         index_->times_expr);
    };
    app::Law out;
    out.expr = line(m.expr, u.expr);
    out.low = line(m.low.empty() ? m.expr : m.low, u.expr);
    out.high = line(m.high.empty() ? m.expr : m.high, u.expr);
    out.cv_error = m.cv_error;
    return out;
  }

  // The first iteration's share u of a line through the medians of the first and the last third
  // of y (medians: a host's pause in one iteration does not make a trend), and whether the two
  // differ by at least half the larger (a trend, where the others are the timer's noise).
  static std::optional<std::pair<double, bool>> trend_share(const std::vector<double>& y) {
    if (y.size() < 6) return std::nullopt;
    const auto third = y.size() / 3;
    const auto median = [](std::vector<double> v) {
      std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(v.size() / 2), v.end());
      return v[v.size() / 2];
    };
    const double head = median({y.begin(), y.begin() + std::ptrdiff_t(third)});
    const double tail = median({y.end() - std::ptrdiff_t(third), y.end()});
    const double slope = (tail - head) / double(y.size() - third);  // centre to centre
    const double first = std::max(0.0, head - slope * double(third - 1) / 2);
    const double last = std::max(0.0, tail + slope * double(third - 1) / 2);
    if (first + last <= 0) return std::nullopt;
    return std::pair{first / (first + last), std::abs(head - tail) >= 0.5 * std::max(head, tail)};
  }


  // A size that changes by the same step at each iteration: a + b·i, both exact integer laws.
  std::optional<app::Law> indexed_bytes(const std::vector<GroupRun>& at, const std::vector<const SampleNode*>& node,
                                        const std::string& here) {
    if (!index_) return std::nullopt;
    const auto runs = iterations(node, false);
    if (!varies(runs)) return std::nullopt;
    std::vector<double> first, step;
    for (const auto& y : runs) {
      const auto line = fit_affine(y);
      const double a = std::round(line.a), b = std::round(line.b);
      for (std::size_t i = 0; i < y.size(); ++i)
        if (a + b * double(i) != y[i]) return std::nullopt;
      first.push_back(a), step.push_back(b);
    }
    const auto a = law(at, first, Quantity::integer, here, fmt::format("bytes at {} = 0", index_->name));
    const auto b = law(at, step, Quantity::integer, here, fmt::format("bytes per {}", index_->name));
    if (!exact(a) || !exact(b)) return std::nullopt;
    index_->used = true;
    return bare(app::Law{fmt::format("{} + ({}) * {}", a.expr, b.expr, index_->name), "", "", "", {}, {}, 0});
  }

  // Nothing when every member kept its peer over its occurrences (the rules in rank and p then
  // apply); a peer that moves by no rule of the index is refused.
  static std::optional<app::PeerRule> unchanging_peers(const std::vector<const SampleNode*>& node,
                                                       const std::string& here) {
    for (const auto* n : node)
      for (const auto& member : n->peers)
        for (const auto peer : member)
          if (peer != member.front())
            throw LearnError(fmt::format("{}: the peer changes from one iteration to the next by no rule of the "
                                         "iteration's index (mod(a ± i, p), a + mod(±i, p), or with p − 1)",
                                         here));
    return std::nullopt;
  }

  // A peer the same for every member at each iteration but moving with it (a root that rotates,
  // a client's servers in turn), with its first value a law in p.
  std::optional<app::PeerRule> indexed_peer(const std::vector<GroupRun>& at, const std::vector<const SampleNode*>& node,
                                            const std::string& here) {
    if (!index_) return std::nullopt;
    std::optional<std::vector<IndexPeer>> shapes;  // the forms every run so far follows
    for (std::size_t k = 0; k < node.size(); ++k) {
      const auto& peers = node[k]->peers;
      if (peers.empty()) return std::nullopt;
      for (const auto& member : peers)
        if (member != peers.front()) return unchanging_peers(node, here);  // a peer per member: not a root's
      if (peers.front().size() != index_->times[k]) return unchanging_peers(node, here);  // in an inner loop
      auto rules = index_peer_rules(peers.front(), at[k].run->p);
      if (shapes)
        std::erase_if(rules, [&](const IndexPeer& r) {
          return std::none_of(shapes->begin(), shapes->end(), [&](const IndexPeer& s) { return same_shape(r, s); });
        });
      if (rules.empty()) return unchanging_peers(node, here);
      shapes = std::move(rules);
    }
    const auto shape = shapes->front();
    std::vector<double> first;
    for (std::size_t k = 0; k < node.size(); ++k) first.push_back(double(node[k]->peers.front().front()));
    const auto a = law(at, first, Quantity::integer, here, fmt::format("peer at {} = 0", index_->name));
    if (!exact(a)) return unchanging_peers(node, here);
    index_->used = true;
    auto rule = peer_rule(app::PeerRule::Kind::fixed);
    rule.rank = bare(app::Law{index_peer_text(shape, a.expr, index_->name), "", "", "", {}, {}, 0});
    out_.laws.push_back({here, "peer", rule.rank});
    return rule;
  }

  // A compute that took no time in every run is the rhythm's filler between two calls, not work.
  // A group's compute is its slowest member's: the others wait for it at the next call that joins
  // them, so the slowest sets the program's pace (a mean loses the load imbalance).
  void add_compute(const std::vector<GroupRun>& at, const std::vector<const SampleNode*>& node,
                   const std::string& where, std::vector<ProgramNode>& nodes) {
    std::vector<double> seconds;
    for (const auto* n : node)
      seconds.push_back(until_depth_ > 0 ? mean_occurrence(*n) : *std::max_element(n->value.begin(), n->value.end()));
    if (std::all_of(seconds.begin(), seconds.end(), [](double s) { return s == 0; })) return;
    ProgramNode c;
    c.kind = ProgramNode::Kind::compute;
    if (auto indexed = indexed_seconds(at, node, where)) c.seconds = *indexed;
    else c.seconds = law(at, seconds, Quantity::seconds, where, "compute seconds");
    nodes.push_back(std::move(c));
  }

  ProgramNode call(const std::vector<GroupRun>& at, const std::vector<const SampleNode*>& node,
                   const std::string& where, std::size_t i) {
    const auto& first = *node.front();
    const auto& seq = at.front().run->sequences;
    ProgramNode n;
    n.kind = ProgramNode::Kind::operation;
    n.op = op_name(first.op, seq);
    const auto here = fmt::format("{} › {} at step {}", where, model::mpi_name(n.op), i + 1);
    if (first.op.kind == OpKind::collective) n.comm = communicator(at, node, here);
    else check_communicator(at, node, here);
    n.tag = tag(at, node, here, false);
    n.tag2 = first.op.kind == OpKind::sendrecv ? tag(at, node, here, true) : 0;
    if (first.op.kind == OpKind::wait) n.count = first.op.tag2;
    else if (auto indexed = indexed_bytes(at, node, here)) n.bytes = *indexed;
    else n.bytes = bytes(at, node, here);
    if (auto answer = reply(node)) n.peer = *answer;
    else if (auto indexed = first.op.kind == OpKind::wait ? std::nullopt : indexed_peer(at, node, here)) n.peer = *indexed;
    else if (first.op.kind == OpKind::collective) n.peer = root(at, node, here);
    else if (first.op.kind != OpKind::wait) n.peer = peer(at, node, here, false);
    if (first.op.kind == OpKind::sendrecv) n.peer2 = peer(at, node, here, true);
    return n;
  }

  // The tag every member that sends to (or receives from) someone used; calls towards no one
  // have none of their own.
  static std::int32_t tag(const std::vector<GroupRun>& at, const std::vector<const SampleNode*>& node,
                          const std::string& here, bool second) {
    std::optional<std::int32_t> common;
    for (std::size_t k = 0; k < at.size(); ++k) {
      const auto& tags = second ? node[k]->tag2 : node[k]->tag;
      for (std::size_t m = 0; m < tags.size(); ++m) {
        if (tags[m] <= kNoOneTag) continue;
        if (common && *common != tags[m])
          throw LearnError(fmt::format("{}: rank {} uses tag {} where others use {} (p = {}): augur learn learns one tag "
                                       "for all the ranks of a group",
                                       here, (*at[k].ranks)[m], tags[m], *common, at[k].run->p));
        common = tags[m];
      }
    }
    return common.value_or(0);
  }

  // A message towards MPI_PROC_NULL records no size, so only the members that have a peer say
  // how large the message is (a stencil's edge ranks would otherwise pull the mean towards 0),
  // and a run where none has one says nothing.
  app::Law bytes(const std::vector<GroupRun>& at, const std::vector<const SampleNode*>& node, const std::string& here) {
    const bool message = is_message(node.front()->op);
    std::vector<GroupRun> told;
    std::vector<double> values;
    for (std::size_t k = 0; k < at.size(); ++k) {
      std::vector<double> sizes;
      for (std::size_t m = 0; m < node[k]->value.size(); ++m)
        if (!message || node[k]->peer[m] != sim::kNoPeer) sizes.push_back(node[k]->value[m]);
      if (sizes.empty()) continue;
      told.push_back(at[k]);
      values.push_back(mean(sizes));
    }
    if (told.empty()) return bare(constant_law(0));
    return law(told, values, Quantity::integer, here, "bytes");
  }

  // A collective's communicator: the world, or a split whose size is an exact law in p.
  app::CommRule communicator(const std::vector<GroupRun>& at, const std::vector<const SampleNode*>& node,
                             const std::string& here) {
    std::vector<CommSamples> runs;
    for (std::size_t k = 0; k < at.size(); ++k) {
      CommSamples run{at[k].run->p, *at[k].ranks, {}};
      for (const auto c : node[k]->comm) run.members.push_back(&at[k].run->sequences.comm_members.at(c));
      runs.push_back(std::move(run));
    }
    for (const auto& split : comm_splits(runs)) {
      if (split.kind == app::CommRule::Kind::world) return {};
      const bool block = split.kind == app::CommRule::Kind::block;
      const auto size = law(at, split.sizes, Quantity::integer, here, block ? "communicator: blocks of" : "communicator: ranks apart");
      if (exact(size)) return {split.kind, size};
      out_.laws.pop_back();  // the report keeps the rule learned, not the sizes tried
    }
    const auto& first = runs.back();
    throw LearnError(fmt::format("{}: rank {}'s communicator at p = {} is ranks {}: augur learn learns communicators of "
                                 "all ranks, of blocks of consecutive ranks or of ranks a fixed stride apart, each "
                                 "of a size that is an exact law in p",
                                 here, first.ranks.front(), first.p, fmt::join(*first.members.front(), ", ")));
  }

  void check_communicator(const std::vector<GroupRun>& at, const std::vector<const SampleNode*>& node,
                          const std::string& here) const {
    for (std::size_t k = 0; k < at.size(); ++k) {
      const int size = at[k].run->sequences.comm_sizes.at(node[k]->op.comm);
      if (size != at[k].run->p)
        throw LearnError(fmt::format("{}: a communicator of {} of the {} ranks at p = {}: augur learn learns calls on "
                                     "communicators of all ranks only",
                                     here, size, at[k].run->p, at[k].run->p));
    }
  }

  app::PeerRule root(const std::vector<GroupRun>& at, const std::vector<const SampleNode*>& node, const std::string& here) {
    bool rootless = true;
    for (const auto* n : node)
      for (const auto r : n->peer) rootless = rootless && r < 0;
    if (rootless) return peer_rule(app::PeerRule::Kind::none);
    return peer(at, node, here, false);
  }

  app::PeerRule peer(const std::vector<GroupRun>& at, const std::vector<const SampleNode*>& node,
                     const std::string& here, bool second) {
    std::vector<PeerSamples> runs;
    for (std::size_t k = 0; k < at.size(); ++k)
      runs.push_back({at[k].run->p, at[k].run->n, *at[k].ranks, second ? node[k]->peer2 : node[k]->peer});
    if (auto rule = infer_peer_rule(runs, parameter_)) {
      if (rule->kind == app::PeerRule::Kind::fixed) out_.laws.push_back({here, second ? "source" : "peer", rule->rank});
      if (rule->kind == app::PeerRule::Kind::offset || rule->kind == app::PeerRule::Kind::exclusive_or)
        out_.laws.push_back({here, second ? "source offset" : "peer offset", rule->by});
      for (auto* law : {&rule->rank, &rule->by})
        if (exact(*law)) *law = bare(*law);
      return *rule;
    }
    throw LearnError(fmt::format("{}: the {} follows no rule in rank and p ({}): {}", here, second ? "source" : "peer",
                                 "a fixed rank, an offset, a grid neighbour or an exclusive or", peers_text(runs)));
  }

  static std::string peers_text(const std::vector<PeerSamples>& runs) {
    std::string out;
    for (const auto& run : runs) {
      out += fmt::format("{}at p = {}:", out.empty() ? "" : "; ", run.p);
      for (std::size_t i = 0; i < run.ranks.size() && i < 6; ++i)
        out += fmt::format(" {}→{}", run.ranks[i], run.peers[i] == sim::kNoPeer ? std::string("none")
                                                    : run.peers[i] == sim::kAny  ? std::string("any")
                                                                                 : std::to_string(run.peers[i]));
      if (run.ranks.size() > 6) out += " …";
    }
    return out;
  }

  static double mean(const std::vector<double>& v) {
    double s = 0;
    for (const auto x : v) s += x;
    return v.empty() ? 0 : s / double(v.size());
  }

  const std::string& parameter_;
  Learned& out_;
  bool indexed_;
  std::optional<IndexContext> index_;
  std::size_t depth_ = 0;
  int until_depth_ = 0;  // loops the run ends around the node being learned
};

std::string group_label(int index, const std::vector<int>& ranks) {
  return fmt::format("group {} (ranks {}..{})", index + 1, ranks.front(), ranks.back());
}

void check_ranges(const std::vector<std::vector<GroupSamples>>& grouped, const std::vector<LearnRun>& runs) {
  for (std::size_t k = 0; k < runs.size(); ++k)
    for (const auto& g : grouped[k])
      if (g.ranks.back() - g.ranks.front() + 1 != int(g.ranks.size()))
        throw LearnError(fmt::format("{}: at p = {}, ranks {} do the same and the ranks between them something else: augur "
                                     "learn describes groups of ranks as ranges",
                                     runs[k].label, runs[k].p, fmt::join(g.ranks, ", ")));
}

// The runs whose ranks fall into the most groups: a group can be empty at the smallest counts
// (ranks 1..p−2 at p = 2), and those runs are left out of the alignment, with a note.
std::vector<std::size_t> runs_to_align(const std::vector<std::vector<GroupSamples>>& grouped,
                                       const std::vector<LearnRun>& runs, Learned& out) {
  std::size_t most = 0;
  for (const auto& g : grouped) most = std::max(most, g.size());
  std::vector<std::size_t> keep;
  std::set<int> counts;
  for (std::size_t k = 0; k < runs.size(); ++k) {
    if (grouped[k].size() == most) keep.push_back(k), counts.insert(runs[k].p);
    else out.notes.push_back(fmt::format("{} (p = {}) left out: its ranks form {} groups, the others' {}", runs[k].label,
                                         runs[k].p, grouped[k].size(), most));
  }
  if (counts.size() < 2)
    throw LearnError("the runs' ranks form a different number of groups at each process count: the program's phases "
                     "differ between counts");
  return keep;
}

}  // namespace

namespace {

// The first way's reason is the one thrown; the indexed way's is kept in `indexed_reason`.
Learned either_way(const std::vector<LearnRun>& runs, const std::string& parameter,
                   std::string* indexed_reason = nullptr) {
  try {
    return learn_program(runs, parameter, false);
  } catch (const LearnError& first) {
    try {
      return learn_program(runs, parameter, true);
    } catch (const LearnError& second) {
      if (indexed_reason) *indexed_reason = second.what();
      throw first;
    }
  }
}

}  // namespace

// The program's loops with their calls told apart by their peers; when those do not align
// between the counts, loops whose iterations talk to different ranks are looked for instead,
// with their roots, peers, sizes and computes laws in the loop's index, and the first reason
// the program could not be learned is the one reported. When neither way learns the program and
// three counts or more were traced, the smallest count is left out, with a note: there a loop of
// p − 1 iterations runs once and is no loop (a server's stop to its one worker).
Learned learn_program(const std::vector<LearnRun>& runs, const std::string& parameter) {
  std::string indexed_reason;
  try {
    return either_way(runs, parameter, &indexed_reason);
  } catch (const LearnError& first) {
    std::set<int> counts;
    for (const auto& r : runs) counts.insert(r.p);
    if (counts.size() < 3) throw;
    std::vector<LearnRun> larger;
    std::vector<std::string> left;
    for (const auto& r : runs)
      if (r.p != *counts.begin()) larger.push_back(r);
      else left.push_back(r.label);
    try {
      auto out = either_way(larger, parameter);
      // The indexed way (loops the run ends, replies, index laws) says why every count could not be learned.
      out.notes.push_back(fmt::format("{} (p = {}) left out: the program is learned from the larger counts only; with "
                                      "it: {}",
                                      fmt::join(left, ", "), *counts.begin(), indexed_reason));
      return out;
    } catch (const LearnError&) {
      throw first;
    }
  }
}

Learned learn_program(const std::vector<LearnRun>& runs, const std::string& parameter, bool indexed) {
  std::set<int> counts;
  for (const auto& r : runs) counts.insert(r.p);
  if (counts.size() < 2) throw LearnError("learning a program's laws in p needs traces at two or more process counts");
  std::vector<std::vector<GroupSamples>> grouped;
  for (const auto& r : runs) {
    grouped.push_back(group_ranks(r.sequences, !indexed));
    if (indexed)
      for (auto& g : grouped.back()) split_at_index_turns(g.body, r.p);
  }
  check_ranges(grouped, runs);
  Learned out;
  const auto keep = runs_to_align(grouped, runs, out);
  Aligner aligner(parameter, out, indexed);
  for (std::size_t g = 0; g < grouped[keep.front()].size(); ++g) {
    std::vector<GroupRun> at;
    std::vector<double> first, last;
    for (const auto k : keep) {
      const auto& group = grouped[k][g];
      at.push_back({&runs[k], &group.body, &group.ranks});
      first.push_back(group.ranks.front());
      last.push_back(group.ranks.back());
    }
    const auto where = group_label(int(g), grouped[keep.back()][g].ranks);
    app::RankGroup group;
    group.first = aligner.law(at, first, Quantity::integer, where, "first rank");
    group.last = aligner.law(at, last, Quantity::integer, where, "last rank");
    group.body = aligner.body(at, where);
    out.program.groups.push_back(std::move(group));
  }
  out.program.measured_ranks.assign(counts.begin(), counts.end());
  return out;
}

}  // namespace augur::learn
