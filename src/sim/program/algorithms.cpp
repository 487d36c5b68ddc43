// Collective algorithms step by step. Each function answers "what is step s of rank `me`" in
// O(log p) at most, with no state, so the kernel can ask again after a rank blocks. Rooted
// algorithms work on ranks relative to the root (rel = me − root mod p).
#include "sim/program/algorithms.hpp"
#include "model/units.hpp"

#include <bit>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

namespace augur::sim {
namespace {

constexpr double kPart = 8192;  // seed 002's pipelined algorithms move 8 KB parts

int relative(const CollectiveCall& c) { return (c.me - c.root + c.size) % c.size; }
int absolute(const CollectiveCall& c, int rel) { return (rel + c.root) % c.size; }
int ceil_log2(int p) { return p <= 1 ? 0 : std::bit_width(static_cast<unsigned>(p - 1)); }

Op send_to(int peer, double bytes) { return send_op(peer, bytes); }
Op recv_from(int peer) { return recv_op(peer); }
Op exchange(int to, int from, double bytes) { return sendrecv_op(to, from, bytes); }

// Writes `op` and says yes: the common tail of the step functions.
bool yield(Op& out, const Op& op) {
  out = op;
  return true;
}

// --- broadcast -----------------------------------------------------------------------------

// 1m: the root sends to every other rank in turn.
bool bcast_1m(const CollectiveCall& c, std::uint32_t s, Op& op) {
  const int rel = relative(c);
  if (rel != 0) return s == 0 && yield(op, recv_from(c.root));
  return s + 1 < std::uint32_t(c.size) && yield(op, send_to(absolute(c, int(s) + 1), c.bytes));
}

// The `s`-th stage k (in increasing k) at which rel has a partner rel ^ 2^k inside the group.
int nth_stage_with_partner(int rel, int size, std::uint32_t s) {
  for (int k = 0, found = 0; k < ceil_log2(size); ++k)
    if ((rel ^ (1 << k)) < size && std::uint32_t(found++) == s) return k;
  return -1;
}

// rd: recursive doubling as pairwise exchanges; every rank exchanges with rel ^ 2^k at every
// stage, so the stages stay in step and the data reaches everyone after ⌈log2 p⌉ of them.
bool bcast_rd_parts(const CollectiveCall& c, std::uint32_t s, Op& op, double part, int parts) {
  const int rel = relative(c);
  int per_part = 0;
  for (int k = 0; k < ceil_log2(c.size); ++k) per_part += (rel ^ (1 << k)) < c.size;
  if (per_part == 0 || s >= std::uint32_t(per_part * parts)) return false;
  const int k = nth_stage_with_partner(rel, c.size, s % per_part);
  const int partner = absolute(c, rel ^ (1 << k));
  const bool last_part = s / per_part == std::uint32_t(parts - 1);
  return yield(op, exchange(partner, partner, last_part ? c.bytes - part * (parts - 1) : part));
}

int parts_of(double bytes) { return std::max(1, static_cast<int>(std::ceil(bytes / kPart))); }

bool bcast_rd(const CollectiveCall& c, std::uint32_t s, Op& op) { return bcast_rd_parts(c, s, op, c.bytes, 1); }
bool bcast_prd(const CollectiveCall& c, std::uint32_t s, Op& op) {
  return bcast_rd_parts(c, s, op, std::min(c.bytes, kPart), parts_of(c.bytes));
}

// bt: a binary tree; rel receives from (rel − 1)/2 and sends to 2·rel + 1 and 2·rel + 2, one
// part at a time (pbt pipelines 8 KB parts, bt sends the message whole).
bool bcast_bt_parts(const CollectiveCall& c, std::uint32_t s, Op& op, double part, int parts) {
  const int rel = relative(c);
  const int children = (2 * rel + 1 < c.size) + (2 * rel + 2 < c.size);
  const int per_part = (rel != 0) + children;
  if (per_part == 0 || s >= std::uint32_t(per_part * parts)) return false;
  const int i = static_cast<int>(s / per_part), j = static_cast<int>(s % per_part);
  const double bytes = i == parts - 1 ? c.bytes - part * (parts - 1) : part;
  if (rel != 0 && j == 0) return yield(op, recv_from(absolute(c, (rel - 1) / 2)));
  const int child = 2 * rel + 1 + (j - (rel != 0));
  return yield(op, send_to(absolute(c, child), bytes));
}

bool bcast_bt(const CollectiveCall& c, std::uint32_t s, Op& op) { return bcast_bt_parts(c, s, op, c.bytes, 1); }
bool bcast_pbt(const CollectiveCall& c, std::uint32_t s, Op& op) {
  return bcast_bt_parts(c, s, op, std::min(c.bytes, kPart), parts_of(c.bytes));
}

// The binomial tree: rel receives from rel − 2^j (2^j its lowest set bit), then sends to
// rel + 2^i for i = j−1 … 0 (the root: from the top bit down).
int binomial_mask(int rel, int size) {
  return rel == 0 ? (size <= 1 ? 0 : 1 << (ceil_log2(size) - 1)) * 2 : rel & -rel;
}

bool bcast_binomial(const CollectiveCall& c, std::uint32_t s, Op& op) {
  const int rel = relative(c);
  const int mask = binomial_mask(rel, c.size);
  if (rel != 0 && s == 0) return yield(op, recv_from(absolute(c, rel - mask)));
  std::uint32_t step = rel != 0;
  for (int m = mask >> 1; m > 0; m >>= 1) {
    if (rel + m >= c.size) continue;
    if (step++ == s) return yield(op, send_to(absolute(c, rel + m), c.bytes));
  }
  return false;
}

// --- reduce, gather, scatter: the binomial tree run the other way --------------------------

// Ranks of the binomial subtree rooted at rel.
double subtree(int rel, int size) { return std::min(binomial_mask(rel, size), size - rel); }

bool toward_root(const CollectiveCall& c, std::uint32_t s, Op& op, bool gather) {
  const int rel = relative(c);
  const int mask = binomial_mask(rel, c.size);
  std::uint32_t step = 0;
  for (int m = 1; m < mask; m <<= 1) {
    if (rel + m >= c.size) continue;
    if (step++ == s) return yield(op, recv_from(absolute(c, rel + m)));
  }
  if (rel == 0 || step != s) return false;
  return yield(op, send_to(absolute(c, rel - mask), gather ? c.bytes * subtree(rel, c.size) : c.bytes));
}

bool reduce_binomial(const CollectiveCall& c, std::uint32_t s, Op& op) { return toward_root(c, s, op, false); }
bool gather_binomial(const CollectiveCall& c, std::uint32_t s, Op& op) { return toward_root(c, s, op, true); }

bool scatter_binomial(const CollectiveCall& c, std::uint32_t s, Op& op) {
  if (!bcast_binomial(c, s, op)) return false;
  if (op.kind == OpKind::send) op.value = c.bytes * subtree(relative({op.peer, c.size, c.root, 0}), c.size);
  return true;
}

// --- allreduce -------------------------------------------------------------------------------

// The power-of-two core of an allreduce (MPICH's): with p not a power of two, the first 2·rem
// ranks pair up and the even one hands its data to the odd one first and gets the result back
// at the end, so `core_steps` exchanges run among pof2 ranks. `core(newrank, k, op)` writes core
// step k of `newrank` with partners as new ranks; folded() maps them back to real ranks.
template <typename Core>
bool folded(const CollectiveCall& c, std::uint32_t s, Op& op, std::uint32_t core_steps, Core core) {
  const int pof2 = c.size <= 1 ? 1 : 1 << (std::bit_width(static_cast<unsigned>(c.size)) - 1);
  const int rem = c.size - pof2, me = c.me;
  if (me < 2 * rem && me % 2 == 0) {  // hands its data over and waits for the result
    if (s == 0) return yield(op, send_to(me + 1, c.bytes));
    return s == 1 && yield(op, recv_from(me + 1));
  }
  const bool paired = me < 2 * rem;
  std::uint32_t step = s;
  if (paired && step-- == 0) return yield(op, recv_from(me - 1));
  if (step < core_steps) {
    core(paired ? me / 2 : me - rem, step, op);
    const int real = op.peer < rem ? op.peer * 2 + 1 : op.peer + rem;
    op.peer = op.peer2 = real;
    return true;
  }
  return paired && step == core_steps && yield(op, send_to(me - 1, c.bytes));
}

std::uint32_t core_stages(int size) { return size <= 1 ? 0 : std::bit_width(static_cast<unsigned>(size)) - 1; }

// Recursive doubling: log2 pof2 exchanges of the whole vector with newrank ^ 2^k.
bool allreduce_rd(const CollectiveCall& c, std::uint32_t s, Op& op) {
  return folded(c, s, op, core_stages(c.size), [&](int newrank, std::uint32_t k, Op& out) {
    out = exchange(newrank ^ (1 << k), newrank ^ (1 << k), c.bytes);
  });
}

// Rabenseifner: a reduce-scatter by recursive halving (partner newrank ^ 2^k, k = 0 … , each
// exchange half of what is left: n/2, n/4 … n/pof2) then an allgather by recursive doubling
// (the same partners in reverse, n/pof2 … n/2). Twice rd's messages, but each rank sends
// 2n(1 − 1/pof2) bytes instead of n·log2 pof2: it wins when bandwidth dominates.
bool allreduce_rabenseifner(const CollectiveCall& c, std::uint32_t s, Op& op) {
  const std::uint32_t stages = core_stages(c.size);
  return folded(c, s, op, 2 * stages, [&](int newrank, std::uint32_t step, Op& out) {
    const std::uint32_t k = step < stages ? step : 2 * stages - 1 - step;
    out = exchange(newrank ^ (1 << k), newrank ^ (1 << k), c.bytes / double(2u << k));
  });
}

// Neighbours on the ring, without the divisions of `%` (a ring asks for them at every step).
int right(const CollectiveCall& c) { return c.me + 1 == c.size ? 0 : c.me + 1; }
int left(const CollectiveCall& c) { return c.me == 0 ? c.size - 1 : c.me - 1; }

// Ring: a reduce-scatter then an allgather, 2(p − 1) steps of n/p bytes to the right.
bool allreduce_ring(const CollectiveCall& c, std::uint32_t s, Op& op) {
  if (s >= 2 * std::uint32_t(c.size - 1)) return false;
  return yield(op, exchange(right(c), left(c), c.bytes / c.size));
}

bool allgather_ring(const CollectiveCall& c, std::uint32_t s, Op& op) {
  if (s >= std::uint32_t(c.size - 1)) return false;
  return yield(op, exchange(right(c), left(c), c.bytes));
}

// --- barrier and all-to-all ------------------------------------------------------------------

// Dissemination: in round k, send to me + 2^k and receive from me − 2^k.
bool barrier_dissemination(const CollectiveCall& c, std::uint32_t s, Op& op) {
  if (s >= std::uint32_t(ceil_log2(c.size))) return false;
  const int d = 1 << s;
  return yield(op, exchange((c.me + d) % c.size, ((c.me - d) % c.size + c.size) % c.size, 0));
}

bool alltoall_pairwise(const CollectiveCall& c, std::uint32_t s, Op& op) {
  if (s >= std::uint32_t(c.size - 1)) return false;
  const int k = static_cast<int>(s) + 1;
  return yield(op, exchange((c.me + k) % c.size, (c.me - k + c.size) % c.size, c.bytes));
}

// Bruck: in round k every rank passes on the blocks whose index has bit k set.
bool alltoall_bruck(const CollectiveCall& c, std::uint32_t s, Op& op) {
  if (s >= std::uint32_t(ceil_log2(c.size))) return false;
  const int d = 1 << s;
  const int blocks = (c.size / (2 * d)) * d + std::max(0, c.size % (2 * d) - d);
  return yield(op, exchange((c.me + d) % c.size, (c.me - d + c.size) % c.size, c.bytes * blocks));
}

}  // namespace

const std::vector<AlgorithmInfo>& algorithm_catalog() {
  static const std::vector<AlgorithmInfo> catalog{
      {"bcast", "binomial", "binomial tree: ⌈log2 p⌉ rounds, senders double each round", bcast_binomial},
      {"bcast", "1m", "the root sends to each other rank in turn (seed 002)", bcast_1m},
      {"bcast", "rd", "recursive doubling as pairwise exchanges, ⌈log2 p⌉ stages (seed 002)", bcast_rd},
      {"bcast", "prd", "rd over 8 KiB parts (seed 002)", bcast_prd},
      {"bcast", "bt", "binary tree: receive from (me−1)/2, send to 2me+1, 2me+2 (seed 002)", bcast_bt},
      {"bcast", "pbt", "bt over 8 KiB parts (seed 002)", bcast_pbt},
      {"reduce", "binomial", "binomial tree towards the root", reduce_binomial},
      {"gather", "binomial", "binomial tree towards the root, subtrees' data growing", gather_binomial},
      {"scatter", "binomial", "binomial tree from the root, subtrees' data shrinking", scatter_binomial},
      {"allreduce", "rd", "recursive doubling (pairs fold in when p is not a power of two)", allreduce_rd},
      {"allreduce", "rabenseifner", "reduce-scatter by recursive halving, allgather by recursive doubling",
       allreduce_rabenseifner},
      {"allreduce", "ring", "reduce-scatter and allgather around a ring, 2(p−1) steps of n/p", allreduce_ring},
      {"allgather", "ring", "p−1 steps around a ring", allgather_ring},
      {"barrier", "dissemination", "⌈log2 p⌉ rounds to me+2^k", barrier_dissemination},
      {"alltoall", "pairwise", "p−1 exchanges with me±k", alltoall_pairwise},
      {"alltoall", "bruck", "⌈log2 p⌉ rounds passing half the blocks", alltoall_bruck},
  };
  return catalog;
}

Algorithm find_algorithm(std::string_view collective, std::string_view name) {
  for (const auto& a : algorithm_catalog())
    if (a.collective == collective && a.name == name) return a.run;
  return nullptr;
}

Algorithm default_algorithm(std::string_view collective) {
  // Creating a communicator is an agreement on a context id, which MPI libraries reach with an
  // allreduce over the parent communicator.
  if (model::creates_communicator(collective)) collective = "allreduce";
  for (const auto& a : algorithm_catalog())  // the first listed of each collective
    if (a.collective == collective) return a.run;
  return nullptr;
}

AlgorithmChoice parse_algorithm_choice(std::string_view text) {
  AlgorithmChoice choice;
  while (!text.empty()) {
    const auto comma = text.find(',');
    const auto item = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
    const auto eq = item.find('=');
    if (eq == std::string_view::npos || !find_algorithm(item.substr(0, eq), item.substr(eq + 1)))
      throw std::invalid_argument(fmt::format("'{}' is not COLLECTIVE=ALGORITHM of a known algorithm", item));
    choice.emplace(std::string(item.substr(0, eq)), std::string(item.substr(eq + 1)));
  }
  return choice;
}

}  // namespace augur::sim
