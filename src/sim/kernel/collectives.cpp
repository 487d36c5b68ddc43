// Collectives, priced whole as the reverse profiler prices them (requests.cpp's
// collective_finish: every member's start is known, then each leaves by its role), or expanded
// into the messages of an algorithm (algorithms.hpp).
#include <algorithm>
#include <limits>
#include <vector>

#include <fmt/format.h>

#include "sim/kernel/engine.hpp"

namespace augur::sim {

void Engine::resolve_algorithms() {
  const bool expand = options_.expand_collectives || !net_.prices_collectives();
  if (!expand) return;
  for (const auto& [collective, name] : options_.algorithms)
    if (!find_algorithm(collective, name))
      throw std::invalid_argument(fmt::format("no algorithm '{}' for {} (augur sim --list-algorithms)", name, collective));
  algorithms_.resize(program_.names().size());
  for (std::size_t i = 0; i < algorithms_.size(); ++i) {
    const auto& collective = program_.names()[i];
    auto chosen = options_.algorithms.find(collective);
    algorithms_[i] = chosen != options_.algorithms.end() ? find_algorithm(collective, chosen->second)
                                                         : default_algorithm(collective);
    if (!algorithms_[i])
      throw std::invalid_argument(
          fmt::format("{} has no algorithm to run it as messages; the {} network cannot price it whole", collective,
                      net_.describe()));
  }
}

bool Engine::collective(int rank, const Op& op) {
  const auto& comm = program_.comms()[op.comm];
  const int me = comm.index_of(rank);
  if (me < 0)
    throw std::invalid_argument(fmt::format("rank {} calls {} on communicator {}, which it is not a member of", rank,
                                            program_.names()[op.name], comm.name));
  auto& rs = ranks_[rank];
  auto& c = collectives_[op.comm];
  if (c.arrived > 0 && c.name != op.name)
    throw std::invalid_argument(fmt::format("on communicator {}, rank {} calls {} while others are in {}", comm.name,
                                            rank, program_.names()[op.name], program_.names()[c.name]));
  if (c.arrived == 0) c = {0, op.name, -std::numeric_limits<double>::infinity(), -1e300, 0};
  ++c.arrived;
  c.latest = std::max(c.latest, rs.now);
  if (op.peer >= 0 && me == op.peer) c.root_start = rs.now;
  c.bytes = std::max(c.bytes, op.value);
  rs.begin = rs.now;
  rs.status = Status::blocked;
  if (c.arrived == comm.size) complete_collective(op.comm);
  return rs.status != Status::blocked;
}

void Engine::complete_collective(std::uint16_t index) {
  const auto& comm = program_.comms()[index];
  const CollectiveInstance c = collectives_[index];
  collectives_[index].arrived = 0;
  const auto& name = program_.names()[c.name];
  const auto shape = timing::shape_of(name);
  const timing::CollectiveStarts starts{c.latest, c.root_start};
  timing::NodesAndRanks placed{comm.size, 1};
  if (net_.places_ranks()) {
    std::vector<int> members(static_cast<std::size_t>(comm.size));
    for (int i = 0; i < comm.size; ++i) members[static_cast<std::size_t>(i)] = comm.member(i);
    placed = net_.shape_of(members);
  }
  for (int i = 0; i < comm.size; ++i) {
    const int m = comm.member(i);
    auto& rs = ranks_[m];
    Op op;
    current_op(m, op);
    const bool is_root = op.peer >= 0 && i == op.peer;
    const double duration = net_.collective_duration(name, comm.size, placed, c.bytes, is_root);
    const double end = std::max(rs.begin, timing::collective_end(shape, is_root, rs.begin, starts, duration));
    account(m, kFixedNames + c.name, rs.begin, end, end - rs.begin - duration, c.bytes);
    if (trace_) trace_->collective(m, rs.begin, end, name, comm.trace_id, op.peer, c.bytes);
    advance(m, end);
    rs.status = Status::ready;
    if (m != running_) push_resume(end, m);
  }
}

bool Engine::expanded_step(int rank, const Op& collective, std::uint32_t step, Op& op) const {
  const auto& comm = program_.comms()[collective.comm];
  const int me = comm.index_of(rank);
  if (me < 0)
    throw std::invalid_argument(fmt::format("rank {} calls {} on communicator {}, which it is not a member of", rank,
                                            program_.names()[collective.name], comm.name));
  const CollectiveCall call{me, comm.size, std::max(0, collective.peer), collective.value};
  if (!algorithms_[collective.name](call, step, op)) return false;
  if (op.peer >= 0) op.peer = comm.member(op.peer);
  if (op.peer2 >= 0) op.peer2 = comm.member(op.peer2);
  op.comm = collective.comm;
  op.flags = kInternal;
  return true;
}

void Engine::end_expansion(int rank, const Op& collective) {
  auto& rs = ranks_[rank];
  rs.step = 0;
  const auto& comm = program_.comms()[collective.comm];
  account(rank, kFixedNames + collective.name, rs.collective_begin, rs.now, rs.collective_waiting, collective.value);
  if (trace_)
    trace_->collective(rank, rs.collective_begin, rs.now, program_.names()[collective.name], comm.trace_id,
                       collective.peer, collective.value);
  ++rs.pc;
}

}  // namespace augur::sim
