#include "learn/peer_choice.hpp"

#include <fmt/format.h>

#include "learn/peer_rules.hpp"

namespace augur::learn {
namespace {

std::string peers_text(const std::vector<PeerSamples>& runs) {
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

// Each run's members and the peers (or, `second`, the sources) they had at the call.
std::vector<PeerSamples> samples_of(const std::vector<GroupRun>& at, const AlignedNode& node, bool second) {
  std::vector<PeerSamples> runs;
  for (std::size_t k = 0; k < at.size(); ++k)
    runs.push_back({at[k].run->p, at[k].run->n, *at[k].ranks, second ? node[k]->peer2 : node[k]->peer});
  return runs;
}

}  // namespace

std::optional<app::PeerRule> reply_peer(const AlignedNode& node) {
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

PeerGrid grid_of_peers(const std::vector<GroupRun>& at, const AlignedNode& node, const std::string& parameter) {
  const auto rule = infer_peer_rule(samples_of(at, node, false), parameter);
  if (!rule || rule->kind != app::PeerRule::Kind::grid) return {};
  return {rule->dims, rule->dim};
}

app::PeerRule root_peer(const std::vector<GroupRun>& at, const AlignedNode& node, const std::string& here, LawBook& laws) {
  bool rootless = true;
  for (const auto* n : node)
    for (const auto r : n->peer) rootless = rootless && r < 0;
  if (rootless) return peer_rule(app::PeerRule::Kind::none);
  return rank_peer(at, node, here, false, laws);
}

app::PeerRule rank_peer(const std::vector<GroupRun>& at, const AlignedNode& node, const std::string& here, bool second,
                        LawBook& laws) {
  const auto runs = samples_of(at, node, second);
  const auto kind = node.front()->op.kind;
  const bool source = second || kind == sim::OpKind::recv || kind == sim::OpKind::irecv;
  if (auto rule = infer_peer_rule(runs, laws.parameter(), source ? PeerRole::source : PeerRole::destination)) {
    if (rule->kind == app::PeerRule::Kind::fixed) laws.record(here, second ? "source" : "peer", rule->rank);
    if (rule->kind == app::PeerRule::Kind::offset || rule->kind == app::PeerRule::Kind::exclusive_or)
      laws.record(here, second ? "source offset" : "peer offset", rule->by);
    for (auto* law : {&rule->rank, &rule->by})
      if (exact(*law)) *law = bare(*law);
    return *rule;
  }
  throw LearnError(fmt::format("{}: the {} follows no rule in rank and p ({}): {}", here, second ? "source" : "peer",
                               "a fixed rank, an offset, a grid neighbour or an exclusive or", peers_text(runs)));
}

}  // namespace augur::learn
