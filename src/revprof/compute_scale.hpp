#pragma once
// The default of `augur run --compute-scale`: how many seconds the target machine takes for one
// second of the host's computation, from the compute steps of the two machines' models.
#include <string>

#include "model/model.hpp"

namespace augur::revprof {

struct ComputeScale {
  double factor = 1.0;
  std::string reason;  // where the factor comes from, for the report
};

// target.compute.seconds_per_step / host.compute.seconds_per_step when there is a host model and
// both models know their step; 1 otherwise, with the reason why.
ComputeScale default_compute_scale(const model::Model* host, const model::Model& target);

}  // namespace augur::revprof
