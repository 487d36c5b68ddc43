#include "learn/rank_groups.hpp"

#include <algorithm>
#include <map>
#include <span>
#include <string>
#include <tuple>

#include "learn/loops.hpp"
#include "learn/until_loops.hpp"

namespace augur::learn {
namespace {

// What makes two calls the same token: everything but the value, with or without the peers.
using Key = std::tuple<int, int, int, int, int, int, std::int32_t, std::int32_t>;

// Without peers, a message's tags and communicator are set aside too: a rank at the edge of a grid
// sends to no one where its neighbours send to someone, and that call's tag and communicator are
// not recorded.
Key key_of(const sim::Op& op, bool with_peers, bool with_tags = false) {
  const auto peer = [&](std::int32_t p) { return with_peers || p == sim::kAny ? p : 0; };
  const bool tags = with_peers || with_tags || !is_message(op);
  const auto tag = [&](std::int32_t t) { return tags || t == sim::kAny ? t : 0; };
  const bool comm = with_peers || with_tags;
  return {int(op.kind), op.name, comm ? op.comm : 0, int(op.mode), tag(op.tag), tag(op.tag2), peer(op.peer),
          peer(op.peer2)};
}

struct Tokens {
  bool peers = true;
  std::map<Key, std::uint32_t> ids;
  std::map<std::pair<std::vector<std::uint32_t>, std::int32_t>, std::uint32_t> loops;  // a loop the run ends
  std::vector<std::uint32_t> abstract;  // token → the id of its key without peers
  std::map<Key, std::uint32_t> abstract_ids;
  std::uint32_t abstract_count = 0;

  std::uint32_t of(const sim::Op& op) {
    auto [it, added] = ids.try_emplace(key_of(op, peers, true), next());
    if (added) {
      auto [a, fresh] = abstract_ids.try_emplace(key_of(op, false), abstract_count);
      abstract_count += fresh;
      abstract.push_back(a->second);
    }
    return it->second;
  }

  // One token for a loop the run ends: its first iteration's tokens and its ending tag.
  std::uint32_t of(const UntilRegion& r, std::span<const std::uint32_t> sequence) {
    std::vector<std::uint32_t> body(sequence.begin() + r.first, sequence.begin() + r.first + r.period);
    auto [it, added] = loops.try_emplace({std::move(body), r.tag}, next());
    if (added) abstract.push_back(abstract_count++);
    return it->second;
  }

  std::uint32_t next() const { return static_cast<std::uint32_t>(ids.size() + loops.size()); }
};

void signature(const std::vector<LoopNode>& nodes, const Tokens& tokens, std::string& out) {
  for (const auto& n : nodes) {
    if (!n.is_loop()) {
      out += 't' + std::to_string(tokens.abstract[n.token]) + ' ';
      continue;
    }
    // A loop the run ends is the same work whatever its count.
    out += n.until_tag >= 0 ? 'u' + std::to_string(n.until_tag) + '{' : 'r' + std::to_string(n.times) + '{';
    signature(n.body, tokens, out);
    out += "} ";
  }
}

double mean_value(const std::vector<sim::Op>& ops, const std::vector<std::uint32_t>& at) {
  double sum = 0;
  for (const auto i : at) sum += ops[i].value;
  return at.empty() ? 0 : sum / double(at.size());
}

// The first member's tree, as the template every member's values are added to.
std::vector<SampleNode> template_of(const std::vector<LoopNode>& nodes, const std::vector<sim::Op>& ops) {
  std::vector<SampleNode> out;
  for (const auto& n : nodes) {
    SampleNode s;
    s.times = n.is_loop() ? n.times : 1;
    s.until_tag = n.until_tag;
    if (n.is_loop()) s.body = template_of(n.body, ops);
    else {
      s.op = ops[n.occurrences.front()];
      s.op.peer = s.op.peer == sim::kAny ? sim::kAny : 0;
      s.op.peer2 = s.op.peer2 == sim::kAny ? sim::kAny : 0;
      s.op.value = 0;
    }
    out.push_back(std::move(s));
  }
  return out;
}

// One rank's sequence and, at each position, the source of its latest receive before it.
struct RankView {
  const std::vector<sim::Op>& ops;
  std::vector<std::int32_t> latest_source;
};

RankView view_of(const RankSequences& sequences, int rank) {
  RankView v{sequences.ops[rank], {}};
  std::int32_t latest = sim::kNoPeer;
  const auto* from = rank < int(sequences.received_from.size()) ? &sequences.received_from[rank] : nullptr;
  for (std::size_t i = 0; i < v.ops.size(); ++i) {
    v.latest_source.push_back(latest);
    if (from && i < from->size() && (*from)[i] >= 0) latest = (*from)[i];
  }
  return v;
}

bool replies(const LoopNode& leaf, const RankView& rank) {
  const auto kind = rank.ops[leaf.occurrences.front()].kind;
  if (kind != sim::OpKind::send && kind != sim::OpKind::isend) return false;
  return std::all_of(leaf.occurrences.begin(), leaf.occurrences.end(), [&](std::uint32_t at) {
    return rank.ops[at].peer >= 0 && rank.ops[at].peer == rank.latest_source[at];
  });
}

void add_member(std::vector<SampleNode>& into, const std::vector<LoopNode>& nodes, const RankView& rank) {
  const auto& ops = rank.ops;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i].is_loop()) {
      into[i].counts.push_back(nodes[i].times);
      add_member(into[i].body, nodes[i].body, rank);
      continue;
    }
    into[i].replies.push_back(replies(nodes[i], rank));
    const auto& first = ops[nodes[i].occurrences.front()];
    into[i].peer.push_back(first.peer);
    into[i].peer2.push_back(first.peer2);
    into[i].tag.push_back(first.tag);
    into[i].tag2.push_back(first.tag2);
    into[i].comm.push_back(first.comm);
    into[i].value.push_back(mean_value(ops, nodes[i].occurrences));
    into[i].at.push_back(nodes[i].occurrences.front());
    auto& values = into[i].values.emplace_back();
    auto& peers = into[i].peers.emplace_back();
    for (const auto at : nodes[i].occurrences) values.push_back(ops[at].value), peers.push_back(ops[at].peer);
  }
}

// The rank's loops, those the run ended among them.
std::vector<LoopNode> loops_of(const std::vector<sim::Op>& ops, const std::vector<std::uint32_t>& ids,
                               const std::vector<std::int32_t>& received_tags, Tokens& tokens) {
  const auto regions = until_regions(ops, received_tags, ids);
  if (regions.empty()) return compress(ids);
  const auto folded = fold_regions(ids, regions, [&](const UntilRegion& r) { return tokens.of(r, ids); });
  auto tree = compress(folded.ids);
  unfold_regions(tree, folded, regions, ids);
  return tree;
}

}  // namespace

std::vector<GroupSamples> group_ranks(const RankSequences& sequences, bool peers_in_tokens) {
  Tokens tokens;
  tokens.peers = peers_in_tokens;
  std::map<std::string, std::size_t> group_of;
  std::vector<GroupSamples> groups;
  for (int r = 0; r < sequences.ranks; ++r) {
    const auto& ops = sequences.ops[r];
    std::vector<std::uint32_t> ids;
    ids.reserve(ops.size());
    for (const auto& op : ops) ids.push_back(tokens.of(op));
    const bool told = r < int(sequences.received_tag.size());  // sequences made by hand may say nothing
    const auto tree = peers_in_tokens || !told ? compress(ids) : loops_of(ops, ids, sequences.received_tag[r], tokens);
    std::string sig;
    signature(tree, tokens, sig);
    auto [it, added] = group_of.try_emplace(sig, groups.size());
    if (added) groups.push_back({{}, template_of(tree, ops)});
    groups[it->second].ranks.push_back(r);
    add_member(groups[it->second].body, tree, view_of(sequences, r));
  }
  return groups;  // ranks were taken in order, so groups are ordered by their first rank
}

}  // namespace augur::learn
