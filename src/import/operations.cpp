#include "import/operations.hpp"

#include <algorithm>
#include <array>
#include <cctype>

#include "model/catalog.hpp"

namespace augur::import {
namespace {

struct Named {
  std::string_view benchmark;
  std::string_view operation;
};

// OMB's names without "OSU MPI " and " Latency Test"; the non-blocking forms add "Non-blocking ".
constexpr auto kOmbCollectives = std::to_array<Named>({
    {"All-to-All Personalized Exchange", "alltoall"},
    {"All-to-Allv Personalized Exchange", "alltoallv"},
    {"All-to-Allw Personalized Exchange", "alltoallw"},
    {"All-to-All", "alltoall"},
    {"All-to-Allv", "alltoallv"},
    {"Allgather", "allgather"},
    {"Allgatherv", "allgatherv"},
    {"Allreduce", "allreduce"},
    {"Barrier", "barrier"},
    {"Broadcast", "bcast"},
    {"Gather", "gather"},
    {"Gatherv", "gatherv"},
    {"Reduce", "reduce"},
    {"Scatter", "scatter"},
    {"Scatterv", "scatterv"},
});

constexpr std::string_view kReduceScatter =
    "its size is the whole vector, not the block each process receives, which the model's reduce_scatter takes";

Mapping none(std::string_view why) { return {"", std::string(why), false}; }

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

}  // namespace

Mapping omb_operation(std::string_view name) {
  if (name.starts_with("OSU MPI ")) name.remove_prefix(8);
  if (name == "Latency Test") return {"pingpong", "", true};
  if (name == "Bandwidth Test") return {"stream", "", true, 1};
  if (name == "Bi-Directional Bandwidth Test") return {"bistream", "", true, 2};
  if (name.starts_with("Multiple Bandwidth")) return {"stream", "", false, 1};  // p/2 pairs at once
  constexpr std::string_view suffix = " Latency Test";
  if (!name.ends_with(suffix)) return none("a benchmark the model has no operation for");
  name.remove_suffix(suffix.size());
  std::string prefix;
  if (name.starts_with("Non-blocking ") || name.starts_with("Non-Blocking ")) {
    name.remove_prefix(13);
    prefix = "i";
  }
  if (name.starts_with("Reduce_scatter")) return none(kReduceScatter);
  for (const auto& n : kOmbCollectives)
    if (n.benchmark == name) return {prefix + std::string(n.operation), "", false};
  return none("a benchmark the model has no operation for");
}

Mapping imb_operation(std::string_view name) {
  if (name.starts_with("Multi-")) {
    // Groups of pairs streaming at once are what stream and bistream time at p = all groups'
    // processes; the other operations of the model run alone on the machine.
    auto together = imb_operation(name.substr(6));
    if (together.ways == 0)
      return none("groups running at the same time, which the model's operations (each alone on the machine) do not describe");
    together.groups_together = true;
    return together;
  }
  if (name == "PingPong") return {"pingpong", "", true};
  if (name == "PingPing") return {"exchange", "", true};
  if (name == "Sendrecv") return {"sendrecv", "", true};
  if (name == "Exchange") return {"ringexchange", "", false};
  if (name == "Uniband") return {"stream", "", false, 1};
  if (name == "Biband") return {"bistream", "", false, 2};
  if (name.starts_with("Reduce_scatter")) return none(kReduceScatter);
  if (name.ends_with("_pure")) name.remove_suffix(5);  // IMB-NBC's collective without computation
  const auto op = lower(name);
  const auto* info = model::find_operation_info(op);
  if (info && info->cls != model::OperationClass::point_to_point && info->cls != model::OperationClass::local)
    return {op, "", false};
  return none("a benchmark the model has no operation for");
}

}  // namespace augur::import
