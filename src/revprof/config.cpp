#include "revprof/config.hpp"

#include <cstdlib>
#include <stdexcept>
#include <string>

#include "util/numbers.hpp"

namespace augur::revprof {
namespace {

std::string env(const char* name, const char* fallback = "") {
  const char* v = std::getenv(name);
  return v && *v ? v : fallback;
}

double positive_number(const char* name, const std::string& text) {
  const auto v = util::parse_number(text);
  if (!v || !(*v > 0)) throw std::invalid_argument(std::string(name) + "='" + text + "': expected a number > 0");
  return *v;
}

}  // namespace

Config config_from_environment() {
  Config c;
  c.model = env("AUGUR_MODEL", "generic");
  auto bound = env("AUGUR_BOUND", "avg");
  auto b = model::bound_from_string(bound);
  if (!b) throw std::invalid_argument("AUGUR_BOUND='" + bound + "': expected min, avg or max");
  c.bound = *b;
  auto compute = env("AUGUR_COMPUTE", "measured");
  if (compute == "measured") c.compute = ComputeMode::measured;
  else if (compute == "annotated") c.compute = ComputeMode::annotated;
  else if (compute == "zero") c.compute = ComputeMode::zero;
  else throw std::invalid_argument("AUGUR_COMPUTE='" + compute + "': expected measured, annotated or zero");
  c.compute_scale = positive_number("AUGUR_COMPUTE_SCALE", env("AUGUR_COMPUTE_SCALE", "1"));
  c.trace_dir = env("AUGUR_TRACE");
  auto wtime = env("AUGUR_WTIME", "virtual");
  if (wtime != "virtual" && wtime != "real") throw std::invalid_argument("AUGUR_WTIME='" + wtime + "': expected virtual or real");
  c.virtual_wtime = wtime == "virtual";
  c.report_path = env("AUGUR_REPORT");
  c.measure = env("AUGUR_MEASURE", "0") == "1";
  c.ack_wait_limit = positive_number("AUGUR_ACK_WAIT", env("AUGUR_ACK_WAIT", "0.005"));
  const auto per_node = env("AUGUR_RANKS_PER_NODE", "1");
  const auto k = util::parse_number(per_node);
  if (!k || *k < 1 || *k != static_cast<double>(static_cast<int>(*k)))
    throw std::invalid_argument("AUGUR_RANKS_PER_NODE='" + per_node + "': expected a whole number >= 1");
  c.ranks_per_node = static_cast<int>(*k);
  c.placement = env("AUGUR_PLACEMENT", "block");
  return c;
}

}  // namespace augur::revprof
