#pragma once
// The model's network section (the simulator's point-to-point parameters), read off the fitted
// laws of a model: latency is the ping-pong at 0 bytes, bandwidth the inverse slope of the
// ping-pong over the top half of the measured sizes, the overheads the send and the
// already-arrived receive of an empty message, and the eager limit where a standard send starts
// to cost what a synchronous one does. Fields already known are kept.
#include "fit/raw.hpp"
#include "model/model.hpp"

namespace augur::fit {

void derive_network(model::Model& model, const RawSet& raw);

// The largest message a standard send delivers without waiting for its receiver, or 0 when the
// measurements do not show one. `sizes` are the measured sizes of `send`, in any order.
double eager_limit(const model::Model& model, std::vector<double> sizes);

}  // namespace augur::fit
