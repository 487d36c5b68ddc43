#include "trace/trace.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

namespace augur::trace {

std::string ReadProblem::message() const {
  return fmt::format("{}: offset {}: {}", file, offset, reason);
}

NameIndex Trace::intern(std::string_view name) {
  // Traces hold a few dozen distinct names, so a linear search beats keeping a second index.
  for (NameIndex i = 0; i < names.size(); ++i)
    if (names[i] == name) return i;
  names.emplace_back(name);
  return static_cast<NameIndex>(names.size() - 1);
}

std::string_view Trace::label(const State& s) const {
  switch (s.kind) {
    case StateKind::compute: return "COMPUTE";
    case StateKind::wait: return "WAIT";
    case StateKind::idle: return "IDLE";
    case StateKind::mpi: return s.op < names.size() ? std::string_view(names[s.op]) : "MPI";
  }
  return "UNKNOWN";
}

std::uint64_t Trace::event_count() const {
  std::uint64_t n = 0;
  for (const auto& r : ranks)
    n += r.states.size() + r.sends.size() + r.recvs.size() + r.collectives.size() + r.phases.size();
  return n;
}

double Trace::start_time() const {
  double t = std::numeric_limits<double>::infinity();
  for (const auto& r : ranks) {
    if (!r.states.empty()) t = std::min(t, r.states.front().begin);
    if (!r.phases.empty()) t = std::min(t, r.phases.front().time);
    if (!r.sends.empty()) t = std::min(t, r.sends.front().time);
  }
  return std::isfinite(t) ? t : 0.0;
}

double Trace::end_time() const {
  double t = -std::numeric_limits<double>::infinity();
  for (const auto& r : ranks) {
    if (!r.states.empty()) t = std::max(t, r.states.back().end);
    if (!r.phases.empty()) t = std::max(t, r.phases.back().time);
    if (!r.recvs.empty()) t = std::max(t, r.recvs.back().end);
  }
  return std::isfinite(t) ? t : 0.0;
}

std::map<std::int32_t, std::set<int>> Trace::communicator_members() const {
  std::map<std::int32_t, std::set<int>> members;
  for (int r = 0; r < nranks(); ++r) {
    for (const auto& c : ranks[std::size_t(r)].collectives) members[c.comm].insert(r);
    for (const auto& s : ranks[std::size_t(r)].sends) members[s.comm];
    for (const auto& m : ranks[std::size_t(r)].recvs) members[m.comm];
  }
  return members;
}

}  // namespace augur::trace
