#include "revprof/compute_band.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "model/units.hpp"

namespace augur::revprof {
namespace {

double at(const nlohmann::json& bounds, const char* bound) { return bounds.at(bound).get<double>(); }

// The rank that finishes last on `bound`'s clock.
const nlohmann::json& latest_on(const std::vector<nlohmann::json>& ranks, const char* bound) {
  return *std::max_element(ranks.begin(), ranks.end(), [&](const auto& a, const auto& b) {
    return at(a.at("finish_bounds"), bound) < at(b.at("finish_bounds"), bound);
  });
}

nlohmann::json side(double total, double compute) {
  compute = std::clamp(compute, 0.0, std::max(total, 0.0));
  return {{"total", total}, {"compute", compute}, {"communication", total - compute}};
}

// "-1.2 ms … +3.4 ms", or "0 s" when neither side has any.
std::string range(const nlohmann::json& side_below, const nlohmann::json& side_above, const char* part) {
  const auto below = model::format_seconds(side_below.at(part).get<double>());
  const auto above = model::format_seconds(side_above.at(part).get<double>());
  if (below == "0 s" && above == "0 s") return below;
  return fmt::format("-{} … +{}", below, above);
}

}  // namespace

Times compute_factors(const model::Compute& compute) {
  if (!compute.states) return Times::same(1);
  return {{compute.states->fast, 1, compute.states->slow}};
}

nlohmann::json band_split(const std::vector<nlohmann::json>& ranks) {
  if (ranks.empty()) return {{"below", side(0, 0)}, {"above", side(0, 0)}};
  const auto& last_min = latest_on(ranks, "min");
  const auto& last_avg = latest_on(ranks, "avg");
  const auto& last_max = latest_on(ranks, "max");
  const double avg = at(last_avg.at("finish_bounds"), "avg");
  const auto& below = last_min.at("compute_bounds");
  const auto& above = last_max.at("compute_bounds");
  return {{"below", side(avg - at(last_min.at("finish_bounds"), "min"), at(below, "avg") - at(below, "min"))},
          {"above", side(at(last_max.at("finish_bounds"), "max") - avg, at(above, "max") - at(above, "avg"))}};
}

std::string format_band(const nlohmann::json& band) {
  const auto &below = band.at("below"), &above = band.at("above");
  return fmt::format("band around avg: {}; compute {}, communication {}", range(below, above, "total"),
                     range(below, above, "compute"), range(below, above, "communication"));
}

}  // namespace augur::revprof
