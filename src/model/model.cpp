#include "model/model.hpp"

#include <algorithm>
#include <cctype>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "model/units.hpp"

namespace augur::model {

double Units::seconds_per_time_unit() const {
  if (time == "ms") return 1e-3;
  if (time == "us") return 1e-6;
  if (time == "ns") return 1e-9;
  return 1.0;
}

const Regime& Operation::regime_for(double bytes) const {
  // Regimes are few (one to five); a linear scan beats a binary search at that size.
  for (const auto& r : regimes)
    if (r.contains(bytes)) return r;
  throw QueryError(fmt::format("{}: {} bytes is outside the model's sizes (up to {} bytes)", name,
                               bytes, regimes.empty() ? 0.0 : regimes.back().to));
}

const Operation* Model::find(std::string_view op) const {
  auto it = operations.find(op);
  return it == operations.end() ? nullptr : &it->second;
}

Model Model::on_node_level() const {
  Model level = *this;
  level.nodes.reset();
  if (!nodes) return level;
  for (const auto& [name, op] : nodes->on_node) level.operations.insert_or_assign(name, op);
  level.network = nodes->network;  // a node's memory is not the network: none of its gap or eager limit
  return level;
}

namespace {

bool same_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
  });
}

// A person asks by MPI's own name ("MPI_Bcast", "mpi_isend"), which the data sheet prints; the
// model keys its operations by the bench's names ("bcast", "isend1").
// A person asks by MPI's own name ("MPI_Bcast", "mpi_isend"), which the data sheet prints; the
// model keys its operations by the bench's names ("bcast", "isend1").
const Operation* named_in(const Operations& operations, std::string_view op) {
  if (auto it = operations.find(op); it != operations.end()) return &it->second;
  for (const auto& [name, operation] : operations)
    if (same_ignoring_case(mpi_name(name), op)) return &operation;
  return nullptr;
}

[[noreturn]] void unknown_operation(const Model& model, std::string_view op, const std::vector<const Operations*>& levels) {
  std::set<std::string> known;
  for (const auto* level : levels)
    for (const auto& [name, _] : *level) known.insert(name);
  std::string names;
  for (const auto& name : known) names += (names.empty() ? "" : " ") + name;
  throw QueryError(fmt::format("machine '{}' has no model of '{}' (it has: {}; or MPI's names of them, such as MPI_Bcast)",
                               model.machine.name, op, names));
}

}  // namespace

const Operation& Model::at(std::string_view op) const {
  if (const auto* found = named_in(operations, op)) return *found;
  unknown_operation(*this, op, {&operations});
}

const Operation& Model::at_any_level(std::string_view op) const {
  std::vector<const Operations*> levels{&operations};
  if (nodes) {
    levels.push_back(&nodes->on_node);
    for (const auto& [k, placed] : nodes->placements) levels.push_back(&placed);
  }
  for (const auto* level : levels)
    if (const auto* found = named_in(*level, op)) return *found;
  unknown_operation(*this, op, levels);
}

std::pair<const Regime*, double> Model::query(const Operation& op, double p, double bytes) const {
  if (!(p >= 1)) throw QueryError(fmt::format("{}: p must be at least 1, not {}", op.name, p));
  if (!(bytes >= 0)) throw QueryError(fmt::format("{}: size must be >= 0 bytes, not {}", op.name, bytes));
  return {&op.regime_for(bytes), bytes / units.bytes_per_size_unit()};
}

double Model::seconds(const Operation& op, double p, double bytes, Bound bound) const {
  const auto [regime, d] = query(op, p, bytes);
  return regime->evaluate(p, d, bound) * units.seconds_per_time_unit();
}

Estimate Model::estimate(const Operation& op, double p, double bytes) const {
  const auto [regime, d] = query(op, p, bytes);
  const Estimate e = regime->estimate(p, d);
  const double unit = units.seconds_per_time_unit();
  return {e.min * unit, e.avg * unit, e.max * unit};
}

}  // namespace augur::model
