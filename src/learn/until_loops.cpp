#include "learn/until_loops.hpp"

#include <algorithm>

namespace augur::learn {
namespace {

bool asks_for_any_tag(const sim::Op& op) { return op.kind == sim::OpKind::recv && op.tag == sim::kAny && op.peer >= 0; }

// The region that starts at the k-th of a token's receives `at`, if the tags they took run a…a b
// and every iteration is the same tokens; `next` is where to look on from.
std::optional<UntilRegion> region_from(const std::vector<std::uint32_t>& at, std::size_t k,
                                       std::span<const std::int32_t> tags, std::span<const std::uint32_t> ids,
                                       std::size_t& next) {
  std::size_t end = k;
  while (end + 1 < at.size() && tags[at[end + 1]] == tags[at[k]]) ++end;
  next = end + 1;
  if (end + 1 >= at.size()) return std::nullopt;
  const auto period = at[k + 1] - at[k];
  for (std::size_t i = k; i <= end; ++i)
    if (at[i + 1] - at[i] != period ||
        !std::equal(ids.begin() + at[i], ids.begin() + at[i] + period, ids.begin() + at[k]))
      return std::nullopt;
  next = end + 2;
  return UntilRegion{at[k], at[end + 1], period, tags[at[end + 1]]};
}

void shift_into(std::vector<LoopNode>& into, const std::vector<LoopNode>& pattern, std::uint32_t shift) {
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i].is_loop()) shift_into(into[i].body, pattern[i].body, shift);
    else
      for (const auto at : pattern[i].occurrences) into[i].occurrences.push_back(at + shift);
  }
}

void clear_occurrences(std::vector<LoopNode>& nodes) {
  for (auto& n : nodes) {
    n.occurrences.clear();
    clear_occurrences(n.body);
  }
}

LoopNode until_loop(const LoopNode& leaf, const Folded& folded, const std::vector<UntilRegion>& regions,
                    std::span<const std::uint32_t> ids) {
  const auto& first = regions[folded.region_at.at(leaf.occurrences.front())];
  const auto pattern = compress(ids.subspan(first.first, first.period));
  LoopNode loop;
  loop.until_tag = first.tag;
  loop.body = pattern;
  clear_occurrences(loop.body);
  std::uint64_t iterations = 0;
  for (const auto at : leaf.occurrences) {
    const auto& r = regions[folded.region_at.at(at)];
    for (std::uint32_t i = 0; i < r.times(); ++i) shift_into(loop.body, pattern, r.first + i * r.period);
    loop.body.front().occurrences.push_back(r.exit);  // the receive that ended it
    iterations += r.times();
  }
  loop.times = static_cast<std::uint32_t>((iterations + leaf.occurrences.size() / 2) / leaf.occurrences.size());
  return loop;
}

}  // namespace

std::vector<UntilRegion> until_regions(std::span<const sim::Op> ops, std::span<const std::int32_t> received_tags,
                                       std::span<const std::uint32_t> ids) {
  std::map<std::uint32_t, std::vector<std::uint32_t>> receives;  // token → its positions
  for (std::uint32_t i = 0; i < ops.size(); ++i)
    if (asks_for_any_tag(ops[i])) receives[ids[i]].push_back(i);
  std::vector<UntilRegion> found;
  for (const auto& [token, at] : receives)
    for (std::size_t k = 0, next = 0; k < at.size(); k = next)
      if (auto r = region_from(at, k, received_tags, ids, next)) found.push_back(*r);
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<UntilRegion> out;
  for (const auto& r : found)
    if (out.empty() || r.first > out.back().exit) out.push_back(r);
  return out;
}

Folded fold_regions(std::span<const std::uint32_t> ids, const std::vector<UntilRegion>& regions,
                    const std::function<std::uint32_t(const UntilRegion&)>& token_of) {
  Folded out;
  std::size_t next = 0;
  for (std::uint32_t i = 0; i < ids.size(); ++i) {
    if (next < regions.size() && regions[next].first == i) {
      out.region_at[static_cast<std::uint32_t>(out.ids.size())] = next;
      out.ids.push_back(token_of(regions[next]));
      out.origin.push_back(i);
      i = regions[next++].exit;
      continue;
    }
    out.ids.push_back(ids[i]);
    out.origin.push_back(i);
  }
  return out;
}

void unfold_regions(std::vector<LoopNode>& tree, const Folded& folded, const std::vector<UntilRegion>& regions,
                    std::span<const std::uint32_t> ids) {
  for (auto& n : tree) {
    if (n.is_loop()) {
      unfold_regions(n.body, folded, regions, ids);
      continue;
    }
    if (folded.region_at.contains(n.occurrences.front())) {
      n = until_loop(n, folded, regions, ids);
      continue;
    }
    for (auto& at : n.occurrences) at = folded.origin[at];
  }
}

}  // namespace augur::learn
