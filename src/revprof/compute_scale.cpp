#include "revprof/compute_scale.hpp"

#include <fmt/format.h>

#include "model/units.hpp"

namespace augur::revprof {

ComputeScale default_compute_scale(const model::Model* host, const model::Model& target) {
  if (!host) return {1.0, "1: no host model (--host-model) to compare the target with"};
  const auto& h = host->compute;
  const auto& t = target.compute;
  if (!h.knows_step())
    return {1.0, fmt::format("1: the host model '{}' has no compute.seconds_per_step", host->machine.name)};
  if (!t.knows_step())
    return {1.0, fmt::format("1: the target model '{}' has no compute.seconds_per_step", target.machine.name)};
  const double factor = t.seconds_per_step / h.seconds_per_step;
  return {factor, fmt::format("{} = compute step of '{}' ({}) / compute step of '{}' ({})", model::significant(factor),
                              target.machine.name, model::format_seconds(t.seconds_per_step), host->machine.name,
                              model::format_seconds(h.seconds_per_step))};
}

}  // namespace augur::revprof
