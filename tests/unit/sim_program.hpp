#pragma once
// Programs for the simulator's and the analysis' tests, written as one operation list per rank.
#include <vector>

#include "model/model_json.hpp"
#include "sim/program/program.hpp"

namespace augur_test {

// A program whose rank r runs bodies[r].
inline augur::sim::FlatProgram program(const std::vector<std::vector<augur::sim::Op>>& bodies) {
  augur::sim::FlatProgram p(static_cast<int>(bodies.size()));
  for (int r = 0; r < static_cast<int>(bodies.size()); ++r) p.assign(r, r, p.add_body(bodies[r]));
  return p;
}

// A model whose every cost is a round number of microseconds, so tests work times out by hand:
// send 2 + d/1000, ssend 7 + d/1000, one-way transit (recv) 10 + d/100, recvmin 1, isend1 0.5,
// irecv1 0.25 µs; collectives allreduce 5·log2(p) + d/100, bcast 20; eager up to 4096 B.
inline augur::model::Model toy() {
  return augur::model::parse_model(R"({"augur_model": 1, "machine": {"name": "toy"}, "provenance": {"source": "test"},
      "units": {"time": "us", "size": "bytes"}, "network": {"eager_limit": 4096}, "operations": {
      "send":    {"regimes": [{"from": 0, "expr": "2 + d/1000"}]},
      "ssend":   {"regimes": [{"from": 0, "expr": "7 + d/1000"}]},
      "recv":    {"regimes": [{"from": 0, "expr": "10 + d/100"}]},
      "recvmin": {"regimes": [{"from": 0, "expr": "1"}]},
      "isend1":  {"regimes": [{"from": 0, "expr": "0.5"}]},
      "irecv1":  {"regimes": [{"from": 0, "expr": "0.25"}]},
      "allreduce": {"regimes": [{"from": 0, "expr": "5*log2(p) + d/100"}]},
      "bcast":   {"regimes": [{"from": 0, "expr": "20"}]}}})",
                            "toy");
}

}  // namespace augur_test
