#include "app/peer_resolution.hpp"

#include <stdexcept>
#include <string>

#include "app/process_grid.hpp"

namespace augur::app {
namespace {

using Kind = PeerRule::Kind;

std::int64_t wrapped(std::int64_t v, std::int64_t n) { return ((v % n) + n) % n; }

}  // namespace

PeerAt peer_at(const PeerRule& rule, std::int64_t p, std::int64_t value) {
  PeerAt peer;
  peer.kind = rule.kind;
  if (rule.kind == Kind::fixed) {
    if (value < 0 || value >= p)
      throw std::invalid_argument("rank " + std::to_string(value) + " is outside 0.." + std::to_string(p - 1));
    peer.value = value;
  } else if (rule.kind == Kind::offset || rule.kind == Kind::exclusive_or) {
    if (rule.kind == Kind::exclusive_or && value < 0) throw std::invalid_argument(std::to_string(value) + " is negative");
    peer.value = value;
    peer.wrap = rule.wrap;
  } else if (rule.kind == Kind::grid) {
    // Ranks laid out row-major, the last dimension fastest, as MPI_Cart_create without
    // reordering, or with the first fastest.
    const auto dims = balanced_dims(static_cast<int>(p), rule.dims);
    peer.extent = dims[rule.dim];
    if (rule.first_fastest)
      for (int d = 0; d < rule.dim; ++d) peer.stride *= dims[d];
    else
      for (int d = rule.dims - 1; d > rule.dim; --d) peer.stride *= dims[d];
    peer.shift = rule.shift;
    peer.periodic = rule.periodic;
  }
  return peer;
}

std::optional<std::int64_t> peer_rank(const PeerAt& peer, std::int64_t rank, std::int64_t p) {
  std::int64_t target = 0;
  switch (peer.kind) {
    case Kind::any:
    case Kind::none:
    case Kind::reply: return std::nullopt;
    case Kind::fixed: return peer.value;
    case Kind::offset:
      target = rank + peer.value;
      if (peer.wrap) target = wrapped(target, p);
      break;
    case Kind::exclusive_or: target = rank ^ peer.value; break;
    case Kind::grid: {
      const auto at = (rank / peer.stride) % peer.extent;
      auto to = at + peer.shift;
      if (peer.periodic) to = wrapped(to, peer.extent);
      if (to < 0 || to >= peer.extent) return std::nullopt;
      target = rank + (to - at) * peer.stride;
      break;
    }
  }
  if (target < 0 || target >= p) return std::nullopt;
  return target;
}

}  // namespace augur::app
