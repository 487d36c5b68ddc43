#pragma once
// Which peer rule an aligned call gets: a reply to whoever asked, a collective's root (or none),
// or the rule in rank and p (learn/peer_rules.hpp) that gives every member's peer at every run,
// recorded in the report where it has a law. A call whose peers follow no rule is refused.
#include <optional>
#include <string>
#include <vector>

#include "learn/aligned.hpp"
#include "learn/law_book.hpp"

namespace augur::learn {

// A send whose every occurrence, in every member and run, went to the source of the latest
// receive, and not always to the same rank: a server's answer to whoever asked.
std::optional<app::PeerRule> reply_peer(const AlignedNode& node);
// The process grid whose neighbours the call's peers are, and the dimension they lie along; none
// when they follow another rule. The grid its sizes are laws of.
PeerGrid grid_of_peers(const std::vector<GroupRun>& at, const AlignedNode& node, const std::string& parameter);
// A collective's root: none when no member named one.
app::PeerRule root_peer(const std::vector<GroupRun>& at, const AlignedNode& node, const std::string& here, LawBook& laws);
// The rule of the destination or source (`second`: sendrecv's source).
app::PeerRule rank_peer(const std::vector<GroupRun>& at, const AlignedNode& node, const std::string& here, bool second,
                        LawBook& laws);

}  // namespace augur::learn
