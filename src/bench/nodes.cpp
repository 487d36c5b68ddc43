#include "bench/nodes.hpp"

#include <mpi.h>

#include <algorithm>
#include <map>

namespace augur::bench {
namespace {

std::string processor_name() {
  char name[MPI_MAX_PROCESSOR_NAME] = {};
  int length = 0;
  MPI_Get_processor_name(name, &length);
  return std::string(name, static_cast<std::size_t>(std::max(length, 0)));
}

}  // namespace

NodeMap find_nodes() {
  int rank = 0, world = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  MPI_Comm shared;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shared);
  NodeMap map;
  MPI_Comm_rank(shared, &map.local);
  int leader = rank;
  MPI_Allreduce(MPI_IN_PLACE, &leader, 1, MPI_INT, MPI_MIN, shared);
  MPI_Comm_free(&shared);

  std::vector<int> leaders(world);
  MPI_Allgather(&leader, 1, MPI_INT, leaders.data(), 1, MPI_INT, MPI_COMM_WORLD);
  std::map<int, int> ranks_on;  // a node's lowest world rank → its ranks
  for (int l : leaders) ++ranks_on[l];
  for (const auto& [first, count] : ranks_on) map.first_ranks.push_back(first);
  map.node = static_cast<int>(std::find(map.first_ranks.begin(), map.first_ranks.end(), leader) - map.first_ranks.begin());
  map.machine.nodes = static_cast<int>(ranks_on.size());
  map.machine.ranks_per_node = world;
  for (const auto& [first, count] : ranks_on) {
    map.machine.ranks_per_node = std::min(map.machine.ranks_per_node, count);
    map.most_ranks_per_node = std::max(map.most_ranks_per_node, count);
  }
  for (int r = 0; r < world; ++r)
    map.block = map.block && leaders[r] == map.first_ranks[r / map.most_ranks_per_node];
  map.block = map.block && map.machine.ranks_per_node == map.most_ranks_per_node;

  // Each node's name from its first rank.
  std::string name = processor_name();
  name.resize(MPI_MAX_PROCESSOR_NAME, '\0');
  std::vector<char> names(static_cast<std::size_t>(world) * MPI_MAX_PROCESSOR_NAME);
  MPI_Allgather(name.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR, names.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR,
                MPI_COMM_WORLD);
  for (int first : map.first_ranks) map.hosts.emplace_back(names.data() + std::size_t(first) * MPI_MAX_PROCESSOR_NAME);
  return map;
}

std::string describe(const NodeMap& map) {
  std::string hosts;
  for (const auto& h : map.hosts) hosts += (hosts.empty() ? "" : ", ") + h;
  if (!map.machine.several()) return "one node (" + hosts + ")";
  std::string text = std::to_string(map.machine.nodes) + " nodes (" + hosts + "), ";
  if (map.machine.ranks_per_node == map.most_ranks_per_node)
    text += std::to_string(map.machine.ranks_per_node) + " ranks a node";
  else
    text += std::to_string(map.machine.ranks_per_node) + " to " + std::to_string(map.most_ranks_per_node) +
            " ranks a node";
  return text;
}

}  // namespace augur::bench
