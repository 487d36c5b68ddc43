#pragma once
// Writes a made-up but well-formed native trace: ranks in a ring computing, exchanging with
// their neighbours and meeting in an allreduce every few iterations, inside two phases. Used by
// tests, benchmarks and the documentation's example timeline.
#include <cstdint>
#include <filesystem>

#include "trace/format.hpp"

namespace augur::trace {

struct SyntheticTraceSpec {
  int ranks = 4;
  std::uint64_t events = 1000;  // approximate total over all ranks
  TraceMode mode = TraceMode::measured;
  std::uint32_t seed = 1;
  double compute_scale = 1.0;   // multiplies every compute time, to make a slower "prediction"
};

// Returns the number of events written.
std::uint64_t write_synthetic_trace(const std::filesystem::path& dir, const SyntheticTraceSpec& spec);

}  // namespace augur::trace
