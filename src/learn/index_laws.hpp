#pragma once
// What changes from one iteration of a loop to the next when its calls are the same: a root or
// a peer that moves with the iteration number i (the owner of row i, the server a client turns
// to), a size that shrinks by a fixed step, a compute that grows or shrinks. The forms are
// checked against every iteration of a run; a peer is accepted only when it is exact.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "learn/aligned.hpp"
#include "learn/law_book.hpp"
#include "learn/rank_groups.hpp"

namespace augur::learn {

// A peer at iteration i as mod(first + step·i, modulus) (wrapping) or first + mod(step·i,
// modulus) (an offset range, e.g. servers 1..p−1), with the modulus p or p − 1.
struct IndexPeer {
  bool offset_range = false;
  std::int64_t first = 0;
  int step = 1;                 // +1 or −1
  bool modulus_p_minus_1 = false;
};

// The first form that gives peers[i] for every i at p, or nothing; peers all equal give nothing
// (no index is needed).
std::optional<IndexPeer> fit_index_peer(const std::vector<std::int32_t>& peers, int p);
// Every form that does, in the order fit_index_peer tries them (at p = 2, +i and −i are one).
std::vector<IndexPeer> index_peer_rules(const std::vector<std::int32_t>& peers, int p);
bool same_shape(const IndexPeer& a, const IndexPeer& b);

// The rule's text with `first` written as `first_expr`, e.g. "mod(p-1 - i, p)", "1 + mod(i, p-1)".
std::string index_peer_text(const IndexPeer& rule, const std::string& first_expr, const std::string& index);

// y[i] ≈ a + b·i by least squares (exact when y is affine).
struct Affine {
  double a = 0, b = 0;
};
Affine fit_affine(const std::vector<double>& y);

// Each iteration's value of a leaf that occurs `values.size()` times, `times` times per pass of
// its loop: the mean over the passes of the occurrences at that iteration.
std::vector<double> per_iteration(const std::vector<double>& values, std::uint32_t times);

// A loop whose call's root follows one rule of the index for its first iterations and another
// after (gauss: rows 0..n−1 eliminated by their owners in turn, then solved back from n−1 down)
// is two loops. Applied to loops whose body is calls and computes only, each occurring once per
// iteration; the split is at the latest iteration where both parts follow a rule, at every p.
void split_at_index_turns(std::vector<SampleNode>& body, int p);

}  // namespace augur::learn

namespace augur::learn {

// A count that deals a total c, a constant the program uses elsewhere (the client's requests),
// among the ranks in turn: ⌊c/m⌋ + k or mod(c, m) + k with m = p or p − 1 and k a small integer
// (the servers 1..mod(c, p − 1) answer ⌊c/(p − 1)⌋ + 1 requests, the others ⌊c/(p − 1)⌋). The
// first that gives every value, tried for each of `totals` in turn; nothing otherwise.
std::optional<std::string> dealt_count_law(const std::vector<std::pair<int, double>>& values,
                                           const std::vector<std::int64_t>& totals);

}  // namespace augur::learn

namespace augur::learn {

// The innermost loop around the node being learned, when its iterations may differ: its index's
// name, its count's law, each run's count, and whether a law of the body read the index.
struct IndexContext {
  std::string name, times_expr;
  std::vector<std::uint32_t> times;  // per run
  bool used = false;
};

// The laws in the index of an aligned node inside `index`'s loop, recorded in `laws` and `used`
// set when one is found; nothing when there is no such loop or the node does not change with
// the iteration, so that its law in p and n applies.
// A compute that changes over the iterations, with a trend in most runs: a line in the index.
std::optional<app::Law> indexed_seconds(const std::vector<GroupRun>& at, const AlignedNode& node,
                                        const std::string& where, IndexContext* index, LawBook& laws);
// A size that changes by the same step at each iteration: a + b·i, both exact integer laws.
std::optional<app::Law> indexed_bytes(const std::vector<GroupRun>& at, const AlignedNode& node,
                                      const std::string& here, IndexContext* index, LawBook& laws);
// A peer the same for every member at each iteration but moving with it (a root that rotates,
// a client's servers in turn), with its first value a law in p; a peer that moves by no rule of
// the index is refused.
std::optional<app::PeerRule> indexed_peer(const std::vector<GroupRun>& at, const AlignedNode& node,
                                          const std::string& here, IndexContext* index, LawBook& laws);

}  // namespace augur::learn
