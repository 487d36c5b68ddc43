#include "trace/format.hpp"

#include <fmt/format.h>

namespace augur::trace {

std::string_view to_string(TraceMode mode) {
  switch (mode) {
    case TraceMode::predicted: return "predicted";
    case TraceMode::measured: return "measured";
    case TraceMode::simulated: return "simulated";
  }
  return "unknown";
}

std::string_view to_string(StateKind kind) {
  switch (kind) {
    case StateKind::compute: return "compute";
    case StateKind::mpi: return "mpi";
    case StateKind::wait: return "wait";
    case StateKind::idle: return "idle";
  }
  return "unknown";
}

std::string rank_file_name(int rank) { return fmt::format("rank-{:05d}.augt", rank); }

}  // namespace augur::trace
