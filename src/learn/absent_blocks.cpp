#include "learn/absent_blocks.hpp"

#include <algorithm>
#include <map>
#include <optional>

#include "learn/aligned.hpp"
#include "learn/exact_law.hpp"
#include "learn/first_difference.hpp"
#include "model/units.hpp"

namespace augur::learn {
namespace {

// Past this many cells the alignment's table is not built and the bodies are left as they are
// (a body of thousands of steps has found no loops; its counts are not aligned by blocks).
constexpr std::size_t kMostCells = std::size_t{1} << 24;

// A message's tag where its first member sends to or receives from someone, else -1.
std::int32_t real_tag(const SampleNode& n) {
  return !is_message(n.op) || n.tag.empty() || n.tag.front() <= kNoOneTag ? -1 : n.tag.front();
}

// Two steps the alignment may pair: the same call (peers and sizes aside) with the same tag where
// both have one (a program that tags each direction tells its exchanges apart so), or two loops.
bool alike(const SampleNode& a, const RankSequences& sa, const SampleNode& b, const RankSequences& sb) {
  if (a.is_loop() || b.is_loop()) return a.is_loop() && b.is_loop() && a.until_tag == b.until_tag;
  const auto ta = real_tag(a), tb = real_tag(b);
  return same_call(a.op, sa, b.op, sb) && (ta < 0 || tb < 0 || ta == tb);
}

// Which steps of `longest` `other` lacks, when `other` is `longest` with stretches left out (a
// common subsequence as long as `other`); nothing when `other` has steps of its own. Where the
// gaps could lie elsewhere they are put as late as they can be, so that a stretch starts at a
// call, not at the compute before it (the rhythm puts a compute between every two calls).
std::optional<std::vector<bool>> lacking(const GroupBody& longest, const GroupBody& other) {
  const auto& r = *longest.body;
  const auto& b = *other.body;
  const std::size_t n = b.size(), m = r.size();
  if (n > m || (n + 1) * (m + 1) > kMostCells) return std::nullopt;
  std::vector<std::vector<std::uint32_t>> common(n + 1, std::vector<std::uint32_t>(m + 1, 0));
  for (std::size_t i = 1; i <= n; ++i)
    for (std::size_t j = 1; j <= m; ++j)
      common[i][j] = alike(b[i - 1], *other.sequences, r[j - 1], *longest.sequences)
                         ? common[i - 1][j - 1] + 1
                         : std::max(common[i - 1][j], common[i][j - 1]);
  if (common[n][m] != n) return std::nullopt;
  std::vector<bool> absent(m, false);
  for (std::size_t i = n, j = m; j > 0; --j) {
    if (common[i][j - 1] == common[i][j]) absent[j - 1] = true;  // the gap, while it can be later
    else --i;                                                    // b[i − 1] is r[j − 1]
  }
  return absent;
}

// A step copied from another count, its members' values made as many as this count's members.
void resize_members(SampleNode& n, std::size_t members) {
  const auto fit = [&](auto& per_member) {
    if (!per_member.empty()) per_member.resize(members, per_member.front());
  };
  fit(n.counts), fit(n.peer), fit(n.peer2), fit(n.tag), fit(n.tag2), fit(n.comm), fit(n.value), fit(n.at);
  fit(n.values), fit(n.peers), fit(n.replies);
  for (auto& inner : n.body) resize_members(inner, members);
}

// The loop of zero iterations that stands for steps [from, to) of `longest`: a loop of theirs
// run no times, or a loop of those calls.
SampleNode loop_of_zero(const std::vector<SampleNode>& longest, std::size_t from, std::size_t to, std::size_t members) {
  SampleNode loop;
  if (to == from + 1 && longest[from].is_loop()) {
    loop = longest[from];
  } else {
    loop.body.assign(longest.begin() + static_cast<std::ptrdiff_t>(from), longest.begin() + static_cast<std::ptrdiff_t>(to));
  }
  loop.times = 0;
  loop.counts.assign(members, 0.0);
  for (auto& inner : loop.body) resize_members(inner, members);
  return loop;
}

std::string first_call(const std::vector<SampleNode>& steps, std::size_t from, std::size_t to, const RankSequences& seq) {
  for (std::size_t j = from; j < to; ++j) {
    if (steps[j].is_loop()) return first_call(steps[j].body, 0, steps[j].body.size(), seq);
    if (steps[j].op.kind != sim::OpKind::compute) return model::mpi_name(op_name(steps[j].op, seq));
  }
  return "a compute";
}

using Path = std::vector<std::size_t>;  // the steps of the loops the block lies in, then its own
using Blocks = std::map<Path, AbsentBlock>;

// Where the stretches some count lacks start and end, and around each loop of the longest body:
// a loop of zero is cut there, so that every count gets the same loops.
std::vector<bool> cuts(const std::vector<std::optional<std::vector<bool>>>& gaps, const std::vector<SampleNode>& longest) {
  const std::size_t m = longest.size();
  std::vector<bool> cut(m + 1, false);
  for (std::size_t j = 0; j < m; ++j)
    if (longest[j].is_loop()) cut[j] = cut[j + 1] = true;
  for (const auto& absent : gaps) {
    if (!absent) continue;
    for (std::size_t j = 0; j < m; ++j) {
      if (!(*absent)[j]) continue;
      if (j == 0 || !(*absent)[j - 1]) cut[j] = true;
      if (j + 1 == m || !(*absent)[j + 1]) cut[j + 1] = true;
    }
  }
  return cut;
}

// `body` rebuilt on the longest body's steps: each stretch some count lacks (`block`, cut at
// `cut`) is a loop of zero where `absent` says this count lacks it, and elsewhere this count's
// copy as a loop of one (or its loop as it is).
void rebuild(const GroupBody& body, const GroupBody& longest, const std::vector<bool>& absent,
             const std::vector<bool>& block, const std::vector<bool>& cut, const Path& where, Blocks& blocks) {
  const auto& r = *longest.body;
  auto& steps = *body.body;
  std::vector<SampleNode> out;
  std::size_t k = 0;
  for (std::size_t j = 0; j < r.size();) {
    if (!block[j]) {
      out.push_back(std::move(steps[k++]));
      ++j;
      continue;
    }
    std::size_t end = j + 1;
    while (end < r.size() && block[end] && !cut[end]) ++end;
    if (absent[j]) {
      auto path = where;
      path.push_back(j);
      auto& entry = blocks[path];
      entry.first_call = first_call(r, j, end, *longest.sequences);
      entry.absent_at.push_back(body.p);
      out.push_back(loop_of_zero(r, j, end, body.members));
    } else if (end == j + 1 && steps[k].is_loop()) {
      out.push_back(std::move(steps[k++]));
    } else {
      out.push_back(loop_of_one(steps, k, end - j, body.members));
      k += end - j;
    }
    j = end;
  }
  steps = std::move(out);
}

// Whether each step some count lacks is present or absent by an exact law in p (0 where absent,
// 1 where present): otherwise the counts differ in
// a way no loop of zero describes, and their first difference is the refusal's.
bool counted(const std::vector<GroupBody>& bodies, const std::vector<std::optional<std::vector<bool>>>& gaps,
             const std::vector<bool>& block, const GroupBody& longest) {
  for (std::size_t j = 0; j < block.size(); ++j) {
    if (!block[j]) continue;
    std::vector<LawPoint> points;
    for (std::size_t k = 0; k < bodies.size(); ++k) {
      if (!gaps[k] && &bodies[k] != &longest) continue;
      const bool absent = gaps[k] && (*gaps[k])[j];
      points.push_back({double(bodies[k].p), 0, absent ? 0.0 : 1.0});
    }
    if (!exact_integer_law(points, "", {})) return false;
  }
  return true;
}

void insert(const std::vector<GroupBody>& bodies, const Path& where, Blocks& blocks);

}  // namespace

std::vector<AbsentBlock> insert_absent_blocks(const std::vector<GroupBody>& bodies) {
  Blocks blocks;
  // A group of one rank (a server, a root) that makes more calls at larger counts talks to more
  // ranks, a loop over them (learned by its index, index_laws.hpp), not blocks of a grid's sides.
  const bool alone = std::any_of(bodies.begin(), bodies.end(), [](const GroupBody& b) { return b.members < 2; });
  if (!alone) insert(bodies, {}, blocks);
  std::vector<AbsentBlock> out;
  for (auto& [_, block] : blocks) {
    std::sort(block.absent_at.begin(), block.absent_at.end());
    out.push_back(std::move(block));
  }
  return out;
}

namespace {

void insert(const std::vector<GroupBody>& bodies, const Path& where, Blocks& blocks) {
  if (bodies.size() < 2) return;
  const auto longest = std::max_element(bodies.begin(), bodies.end(), [](const GroupBody& a, const GroupBody& b) {
    return std::pair(a.body->size(), a.p) < std::pair(b.body->size(), b.p);
  });
  std::vector<std::optional<std::vector<bool>>> gaps;
  for (const auto& b : bodies) gaps.push_back(&b == &*longest ? std::nullopt : lacking(*longest, b));
  const std::size_t m = longest->body->size();
  std::vector<bool> block(m, false);  // some count lacks the step
  for (const auto& absent : gaps)
    if (absent)
      for (std::size_t j = 0; j < m; ++j) block[j] = block[j] || (*absent)[j];
  if (std::find(block.begin(), block.end(), true) != block.end() && counted(bodies, gaps, block, *longest)) {
    const auto cut = cuts(gaps, *longest->body);
    const std::vector<bool> present(m, false);
    for (std::size_t k = 0; k < bodies.size(); ++k)
      if (gaps[k] || &bodies[k] == &*longest)
        rebuild(bodies[k], *longest, gaps[k] ? *gaps[k] : present, block, cut, where, blocks);
  }
  for (std::size_t i = 0; i < longest->body->size(); ++i) {
    const auto inner = loops_at(bodies, i);
    auto path = where;
    path.push_back(i);
    insert(inner, path, blocks);
  }
}

}  // namespace

}  // namespace augur::learn
