#include "timing/placement.hpp"

#include <algorithm>
#include <map>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

namespace augur::timing {

Placement Placement::block(int ranks_per_node) {
  if (ranks_per_node < 1) throw std::invalid_argument(fmt::format("ranks a node must be at least 1, not {}", ranks_per_node));
  Placement p;
  p.per_node_ = ranks_per_node;
  return p;
}

Placement Placement::cyclic(int ranks_per_node, int ranks) {
  Placement p = block(ranks_per_node);
  if (ranks < 1) throw std::invalid_argument(fmt::format("a cyclic placement needs the number of ranks, not {}", ranks));
  p.kind_ = Kind::cyclic;
  p.nodes_ = (ranks + ranks_per_node - 1) / ranks_per_node;
  return p;
}

Placement Placement::table(std::vector<int> node_of_rank) {
  if (node_of_rank.empty()) throw std::invalid_argument("a rank-to-node table needs at least one rank");
  Placement p;
  p.kind_ = Kind::table;
  p.per_node_ = 0;
  std::map<int, int> count;
  for (int node : node_of_rank) p.per_node_ = std::max(p.per_node_, ++count[node]);
  p.nodes_ = static_cast<int>(count.size());
  p.table_ = std::move(node_of_rank);
  return p;
}

int Placement::node_of(int rank) const {
  if (rank < 0) throw std::invalid_argument(fmt::format("rank {} has no node", rank));
  switch (kind_) {
    case Kind::block:
      return rank / per_node_;
    case Kind::cyclic:
      return rank % nodes_;
    case Kind::table:
      break;
  }
  if (static_cast<std::size_t>(rank) >= table_.size())
    throw std::invalid_argument(fmt::format("rank {} is not in the rank-to-node table ({} ranks)", rank, table_.size()));
  return table_[static_cast<std::size_t>(rank)];
}

NodesAndRanks Placement::shape(std::span<const int> ranks) const {
  if (ranks.empty()) return {};
  if (one_a_node()) return {static_cast<int>(ranks.size()), 1};
  std::map<int, int> count;
  NodesAndRanks out{0, 0};
  for (int r : ranks) out.ranks_per_node = std::max(out.ranks_per_node, ++count[node_of(r)]);
  out.nodes = static_cast<int>(count.size());
  return out;
}

NodesAndRanks Placement::shape_of_first(int p) const {
  if (p < 1) return {};
  if (kind_ == Kind::block) return {p / per_node_ + (p % per_node_ != 0), std::min(p, per_node_)};
  if (kind_ == Kind::cyclic) return {std::min(p, nodes_), p / nodes_ + (p % nodes_ != 0)};
  if (static_cast<std::size_t>(p) > table_.size())
    throw std::invalid_argument(fmt::format("rank {} is not in the rank-to-node table ({} ranks)", table_.size(), table_.size()));
  std::vector<int> ranks(static_cast<std::size_t>(p));
  for (int r = 0; r < p; ++r) ranks[static_cast<std::size_t>(r)] = r;
  return shape(ranks);
}

std::string Placement::describe() const {
  switch (kind_) {
    case Kind::block:
      return per_node_ == 1 ? "one rank a node" : fmt::format("block, {} ranks a node", per_node_);
    case Kind::cyclic:
      return fmt::format("cyclic, {} ranks a node over {} nodes", per_node_, nodes_);
    case Kind::table:
      break;
  }
  return fmt::format("a table of {} ranks on {} nodes", table_.size(), nodes_);
}

Placement parse_placement_table(std::string_view text, const std::string& source) {
  std::istringstream in{std::string(text)};
  std::string line;
  std::map<int, int> node_of;      // rank → node index
  std::map<std::string, int> ids;  // node name → index, in order of first appearance
  for (int number = 1; std::getline(in, line); ++number) {
    if (auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    std::replace(line.begin(), line.end(), ':', ' ');
    std::istringstream fields(line);
    std::string rank_text, name, extra;
    if (!(fields >> rank_text)) continue;
    auto bad = [&](const std::string& why) { throw std::invalid_argument(fmt::format("{}:{}: {}", source, number, why)); };
    if (!(fields >> name)) bad("expected `RANK NODE`, found only '" + rank_text + "'");
    if (fields >> extra) bad("expected `RANK NODE`, found more: '" + extra + "'");
    if (rank_text.empty() || rank_text.size() > 9 || !std::all_of(rank_text.begin(), rank_text.end(), ::isdigit))
      bad("RANK must be a whole number 0…999999999, not '" + rank_text + "'");
    const int rank = std::stoi(rank_text);
    const int id = ids.emplace(name, static_cast<int>(ids.size())).first->second;
    if (!node_of.emplace(rank, id).second) bad(fmt::format("rank {} is given twice", rank));
  }
  if (node_of.empty()) throw std::invalid_argument(source + ": no ranks (expected a line `RANK NODE` for each rank)");
  std::vector<int> table;
  for (const auto& [rank, id] : node_of) {
    if (rank != static_cast<int>(table.size()))
      throw std::invalid_argument(fmt::format("{}: rank {} has no line (ranks must be 0…{} each once)", source,
                                              table.size(), node_of.rbegin()->first));
    table.push_back(id);
  }
  return Placement::table(std::move(table));
}

}  // namespace augur::timing
