#pragma once
// The program's compute on the three clocks, and how much of a prediction's band it makes.
//
// The compute measured under the shim is one draw of the machine's speed: on this 2-vCPU guest a
// compute-bound program's runs scatter by 5–10%, and with compute the same on every clock its
// band (from the messages alone) was 0–0.6% wide. The model's compute.states say where the
// machine's fast and slow states put the compute (fit/compute_states.hpp): the min clock takes
// the compute times fast, the max clock times slow, and avg the compute as measured, exactly, so
// that avg predictions do not change. Pure arithmetic, so it is tested without MPI.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/model.hpp"
#include "revprof/bounds.hpp"

namespace augur::revprof {

// What one second of compute adds to each clock: {fast, 1, slow}; 1 on every clock when the
// model has no compute.states (files from before them), so compute moves all clocks alike.
Times compute_factors(const model::Compute& compute);

// `seconds` of compute on each clock.
inline Times compute_on_each_clock(const Times& factors, double seconds) {
  return seconds * factors;
}

// The band of a predicted run, split by side. `latest` is the run's latest finish on each clock
// ({"min", "avg", "max"}, the report's "predicted_bounds"); `ranks` are the ranks' entries in the
// report, each with "finish_bounds" and "compute_bounds" (seconds on each clock). Below: avg − min
// of the latest finishes; above: max − avg. Of each side, "compute" is what compute took off
// (below) or added (above) on the rank that finishes last on the min (max) clock, the first such
// rank in `ranks`, at most the side's total; "communication" is the rest: the MPI calls, their
// waiting for other ranks included. Returns {"below": {"total", "compute", "communication"},
// "above": {…}} in seconds; throws std::invalid_argument when no rank finishes at `latest`.
nlohmann::json band_split(const nlohmann::json& latest, const std::vector<nlohmann::json>& ranks);

// "band around avg: -1.2 ms … +3.4 ms; compute -1.0 ms … +3.0 ms, communication -0.2 ms … +0.4 ms".
std::string format_band(const nlohmann::json& band);

}  // namespace augur::revprof
