#include "learn/single_iterations.hpp"

#include <algorithm>
#include <map>

#include "learn/aligned.hpp"
#include "learn/first_difference.hpp"
#include "model/units.hpp"

namespace augur::learn {
namespace {

bool same_leaf(const SampleNode& a, const RankSequences& sa, const SampleNode& b, const RankSequences& sb) {
  return !a.is_loop() && !b.is_loop() && same_call(a.op, sa, b.op, sb);
}

// Whether `body[at …]` is one copy of `loop`'s body: the same calls in the same order, with no
// loop inside (a nested loop's single copy is not folded).
bool one_copy(const std::vector<SampleNode>& body, std::size_t at, const RankSequences& sb, const SampleNode& loop,
              const RankSequences& sl) {
  if (at + loop.body.size() > body.size()) return false;
  for (std::size_t j = 0; j < loop.body.size(); ++j)
    if (!same_leaf(body[at + j], sb, loop.body[j], sl)) return false;
  return true;
}

// How far a compute's values spread within one member: the largest over the smallest, over the
// members (1 when they are all alike).
double spread(const std::vector<std::vector<double>>& values) {
  double most = 1;
  for (const auto& member : values) {
    if (member.empty()) continue;
    const auto [low, high] = std::minmax_element(member.begin(), member.end());
    most = std::max(most, *high / std::max(*low, 1e-12));
  }
  return most;
}

SampleNode compute_with(const SampleNode& like, std::vector<std::vector<double>> values) {
  SampleNode out = like;
  for (std::size_t m = 0; m < values.size(); ++m) {
    double sum = 0;
    for (const auto v : values[m]) sum += v;
    out.value[m] = values[m].empty() ? 0 : sum / double(values[m].size());
    out.peers[m].assign(values[m].size(), like.peers[m].empty() ? sim::kAny : like.peers[m].front());
  }
  out.values = std::move(values);
  return out;
}

// How a loop is turned: where the spread of its computes says so, or however spread (a count
// that loops once, where the others' spread says so); or only asked whether it would be, by its
// spread or by its shape alone (nothing changed).
enum class Turn { by_spread, always, ask_spread, ask_shape };

// A loop whose body starts with a compute may have taken the work before its first call into
// every iteration: [compute, call] repeated twice holds the step's main compute and the small
// one between the calls, while the step after the loop ends with another small one. The loop is
// turned to start at its call ([compute, loop of [call, compute]]) where that makes its
// iterations' computes clearly more alike, so that the block run once at other counts (the main
// compute, the call, the small compute) is one copy of its body, and each compute keeps its
// own law.
bool turn_to_its_call(std::vector<SampleNode>& body, std::size_t i, Turn how = Turn::by_spread) {
  auto& loop = body[i];
  const bool by_shape = how == Turn::always || how == Turn::ask_shape;
  const std::uint32_t least = by_shape ? 1 : 2;
  if (!loop.is_loop() || loop.until_tag >= 0 || loop.times < least || loop.body.size() < 2 || i + 1 >= body.size())
    return false;
  const auto& first = loop.body.front();
  const auto& after = body[i + 1];
  if (first.is_loop() || first.op.kind != sim::OpKind::compute || after.is_loop() || after.op.kind != sim::OpKind::compute)
    return false;
  const std::size_t k = loop.times;
  std::vector<std::vector<double>> firsts, rest;
  for (std::size_t m = 0; m < first.values.size(); ++m) {
    const auto& occurrences = first.values[m];
    const auto& ends = after.values[m];
    if (occurrences.size() != k * ends.size()) return false;
    auto& f = firsts.emplace_back();
    auto& r = rest.emplace_back();
    for (std::size_t j = 0; j < ends.size(); ++j) {
      f.push_back(occurrences[j * k]);
      r.insert(r.end(), occurrences.begin() + static_cast<std::ptrdiff_t>(j * k + 1),
               occurrences.begin() + static_cast<std::ptrdiff_t>(j * k + k));
      r.push_back(ends[j]);
    }
  }
  if (!by_shape && !(2 * spread(rest) < spread(first.values))) return false;
  if (how == Turn::ask_spread || how == Turn::ask_shape) return true;
  auto before = compute_with(first, std::move(firsts));
  auto last = compute_with(after, std::move(rest));
  loop.body.erase(loop.body.begin());
  loop.body.push_back(std::move(last));
  body.erase(body.begin() + static_cast<std::ptrdiff_t>(i + 1));
  body.insert(body.begin() + static_cast<std::ptrdiff_t>(i), std::move(before));
  return true;
}

// The MPI call a loop's body starts with, as the report names calls.
std::string first_call(const SampleNode& loop, const RankSequences& seq) {
  for (const auto& n : loop.body)
    if (!n.is_loop() && n.op.kind != sim::OpKind::compute) return model::mpi_name(op_name(n.op, seq));
  return "a loop";
}

using Folds = std::map<std::string, FoldedBlock>;  // by where the loop lies and its first call

void fold(const std::vector<GroupBody>& bodies, const std::string& where, Folds& folds);

}  // namespace

std::vector<GroupBody> loops_at(const std::vector<GroupBody>& bodies, std::size_t i) {
  std::vector<GroupBody> inner;
  for (const auto& b : bodies)
    if (i < b.body->size() && (*b.body)[i].is_loop()) inner.push_back({&(*b.body)[i].body, b.sequences, b.members, b.p});
  return inner;
}

SampleNode loop_of_one(std::vector<SampleNode>& body, std::size_t at, std::size_t length, std::size_t members) {
  SampleNode loop;
  loop.times = 1;
  loop.counts.assign(members, 1.0);
  loop.body.assign(std::make_move_iterator(body.begin() + static_cast<std::ptrdiff_t>(at)),
                   std::make_move_iterator(body.begin() + static_cast<std::ptrdiff_t>(at + length)));
  return loop;
}

std::vector<FoldedBlock> fold_single_iterations(const std::vector<GroupBody>& bodies) {
  Folds folds;
  fold(bodies, "", folds);
  std::vector<FoldedBlock> out;
  for (auto& [_, block] : folds) {
    std::sort(block.once_at.begin(), block.once_at.end());
    out.push_back(std::move(block));
  }
  return out;
}

namespace {

void fold(const std::vector<GroupBody>& bodies, const std::string& where, Folds& folds) {
  for (std::size_t i = 0;; ++i) {
    const GroupBody* looped = nullptr;
    bool any = false;
    for (const auto& b : bodies) {
      if (i >= b.body->size()) continue;
      any = true;
      const auto& node = (*b.body)[i];
      if (node.is_loop() && node.until_tag < 0 && !looped) looped = &b;
    }
    if (!any) return;
    if (!looped) continue;
    const bool some_flat = std::any_of(bodies.begin(), bodies.end(), [&](const GroupBody& b) {
      return i < b.body->size() && !(*b.body)[i].is_loop();
    });
    // Where every count loops here, the loops are turned together when every one that repeats
    // mixes its step's work into its first compute (a loop run once mixes nothing), so that all
    // keep one shape.
    const auto repeats = [&](const GroupBody& b) { return i < b.body->size() && (*b.body)[i].times >= 2; };
    const bool all_turn = !some_flat && std::any_of(bodies.begin(), bodies.end(), repeats) &&
                          std::all_of(bodies.begin(), bodies.end(), [&](const GroupBody& b) {
                            return i < b.body->size() &&
                                   turn_to_its_call(*b.body, i, repeats(b) ? Turn::ask_spread : Turn::ask_shape);
                          });
    bool turned = false;
    if (some_flat || all_turn)
      for (const auto& b : bodies)
        if (i < b.body->size()) turned = turn_to_its_call(*b.body, i, all_turn ? Turn::always : Turn::by_spread) || turned;
    if (turned) continue;  // the loops now start at the next step
    const auto& loop = (*looped->body)[i];
    for (const auto& b : bodies) {
      if (i >= b.body->size() || (*b.body)[i].is_loop()) continue;
      if (!one_copy(*b.body, i, *b.sequences, loop, *looped->sequences)) continue;
      auto& block = folds[where + "/" + std::to_string(i)];
      block.first_call = first_call(loop, *looped->sequences);
      block.once_at.push_back(b.p);
      auto folded = loop_of_one(*b.body, i, loop.body.size(), b.members);
      b.body->erase(b.body->begin() + static_cast<std::ptrdiff_t>(i),
                    b.body->begin() + static_cast<std::ptrdiff_t>(i + loop.body.size()));
      b.body->insert(b.body->begin() + static_cast<std::ptrdiff_t>(i), std::move(folded));
    }
    const auto inner = loops_at(bodies, i);
    fold(inner, where + "/" + std::to_string(i), folds);
  }
}

}  // namespace

}  // namespace augur::learn
