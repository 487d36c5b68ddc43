#include "revprof/compute_band.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "model/units.hpp"

namespace augur::revprof {
namespace {

double at(const nlohmann::json& bounds, const char* bound) { return bounds.at(bound).get<double>(); }

// The first of `ranks` that finishes at `latest` on `bound`'s clock: the one that finishes last.
const nlohmann::json& finishing_at(const std::vector<nlohmann::json>& ranks, const nlohmann::json& latest,
                                   const char* bound) {
  const double at_latest = at(latest, bound);
  const auto it = std::find_if(ranks.begin(), ranks.end(),
                               [&](const auto& r) { return at(r.at("finish_bounds"), bound) == at_latest; });
  if (it == ranks.end())
    throw std::invalid_argument(fmt::format("band_split: no rank finishes at the latest {} finish", bound));
  return *it;
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

nlohmann::json band_split(const nlohmann::json& latest, const std::vector<nlohmann::json>& ranks) {
  const double avg = at(latest, "avg");
  const auto& below = finishing_at(ranks, latest, "min").at("compute_bounds");
  const auto& above = finishing_at(ranks, latest, "max").at("compute_bounds");
  return {{"below", side(avg - at(latest, "min"), at(below, "avg") - at(below, "min"))},
          {"above", side(at(latest, "max") - avg, at(above, "max") - at(above, "avg"))}};
}

std::string format_band(const nlohmann::json& band) {
  const auto &below = band.at("below"), &above = band.at("above");
  return fmt::format("band around avg: {}; compute {}, communication {}", range(below, above, "total"),
                     range(below, above, "compute"), range(below, above, "communication"));
}

}  // namespace augur::revprof
