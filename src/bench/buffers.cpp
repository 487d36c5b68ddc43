#include "bench/buffers.hpp"

#include <algorithm>

namespace augur::bench {
namespace {

constexpr std::size_t kFreshSpan = std::size_t{64} << 20;  // larger than the last-level caches of current nodes
constexpr std::size_t kAlignment = 4096;

}  // namespace

void Buffers::reserve(std::uint64_t block) {
  block_ = (std::max<std::size_t>(block, 1) + kAlignment - 1) / kAlignment * kAlignment;
  slots_ = fresh_ ? std::max<std::size_t>(2, kFreshSpan / block_) : 1;
  const std::size_t total = block_ * slots_;
  if (send_.size() < total) {
    send_.assign(total, std::byte{1});
    recv_.assign(total, std::byte{0});
  }
}

std::size_t Buffers::offset(int rep) const {
  return static_cast<std::size_t>(rep) % slots_ * block_;
}

}  // namespace augur::bench
