#pragma once
// The busiest link directions of a run as a short table for a person: busy share, busy time,
// bytes carried and the share of the bandwidth used, in readable units (`augur sim`).
#include <cstddef>
#include <string>

#include "trace/utilisation.hpp"

namespace augur::report {

// Empty when `u` has no links.
std::string busiest_links_table(const trace::Utilisation& u, std::size_t rows);

}  // namespace augur::report
