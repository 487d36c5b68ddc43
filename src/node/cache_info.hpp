#pragma once
// The caches the operating system reports, so the kernels can size their arrays beyond them.
#include <cstddef>

namespace augur::node {

// Bytes of the largest data or unified cache of CPU 0; 0 when the system does not say.
std::size_t last_level_cache_bytes();

// Bytes of a cache line; 64 when the system does not say.
std::size_t cache_line_bytes();

}  // namespace augur::node
