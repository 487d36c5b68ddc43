#pragma once
// Who a call's peer is, as a rule in the rank and p: the same rank for all (a root), the rank a
// fixed offset away (wrapping around, or MPI_PROC_NULL past the ends), a neighbour on the
// process grid MPI_Dims_create and MPI_Cart_create make, the rank an exclusive or away, any
// source, or no one. A rule is accepted only if it gives every peer of every run exactly.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "app/app_program.hpp"

namespace augur::learn {

// One run's peers of one call: member ranks and the peer each had.
struct PeerSamples {
  int p = 0;
  double n = 0;
  std::vector<int> ranks;
  std::vector<std::int32_t> peers;  // world ranks, sim::kAny or sim::kNoPeer
};

// A rule of that kind with its defaults.
inline app::PeerRule peer_rule(app::PeerRule::Kind kind) {
  app::PeerRule rule;
  rule.kind = kind;
  return rule;
}

// The peer of `rank` under `rule` at p (sim::kAny, sim::kNoPeer, sim::kLastSource or a world
// rank), as app::peer_rank gives it; `value` is the rule's law at p. Throws
// std::invalid_argument where app::peer_at does (a fixed rank outside 0..p−1).
std::int32_t apply_peer_rule(const app::PeerRule& rule, int rank, int p, long value);

// Whom the peer is to the call: where a message goes, or where one comes from.
enum class PeerRole { destination, source };

// The first rule that reproduces every sample, or nothing. Where a grid's next and previous
// neighbours are one rank at every count (a dimension of two), the one a halo's shift names is
// kept: the next for a destination, the previous for a source (MPI_Cart_shift's pair).
std::optional<app::PeerRule> infer_peer_rule(const std::vector<PeerSamples>& runs, const std::string& parameter,
                                             PeerRole role = PeerRole::destination);

}  // namespace augur::learn
