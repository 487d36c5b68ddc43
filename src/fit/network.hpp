#pragma once
// The model's network section (the simulator's point-to-point parameters), read off the fitted
// laws of a model: latency is the ping-pong at 0 bytes, bandwidth the inverse slope of the
// ping-pong over the top half of the measured sizes, the overheads the send and the
// already-arrived receive of an empty message. Fields already known are kept.
#include "fit/raw.hpp"
#include "model/model.hpp"

namespace augur::fit {

void derive_network(model::Model& model, const RawSet& raw);

}  // namespace augur::fit
