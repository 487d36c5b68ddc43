#include "app/comm_split.hpp"

#include <algorithm>

namespace augur::app {

std::int64_t split_count(CommRule::Kind kind, std::int64_t size, std::int64_t p) {
  return kind == CommRule::Kind::block ? (p + size - 1) / size : std::min(size, p);
}

std::int64_t split_index(CommRule::Kind kind, std::int64_t size, std::int64_t rank) {
  return kind == CommRule::Kind::block ? rank / size : rank % size;
}

std::vector<int> split_members(CommRule::Kind kind, std::int64_t size, std::int64_t p, std::int64_t index) {
  std::vector<int> out;
  if (kind == CommRule::Kind::block)
    for (auto r = index * size; r < std::min(p, (index + 1) * size); ++r) out.push_back(static_cast<int>(r));
  else
    for (auto r = index; r < p; r += size) out.push_back(static_cast<int>(r));
  return out;
}

}  // namespace augur::app
