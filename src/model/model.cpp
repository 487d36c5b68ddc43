#include "model/model.hpp"

#include <algorithm>

#include <fmt/format.h>

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

const Operation& Model::at(std::string_view op) const {
  if (const auto* found = find(op)) return *found;
  std::string known;
  for (const auto& [name, _] : operations) known += (known.empty() ? "" : " ") + name;
  throw QueryError(fmt::format("machine '{}' has no model of '{}' (it has: {})", machine.name, op, known));
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
