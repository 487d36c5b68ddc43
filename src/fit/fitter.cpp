#include "fit/fitter.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>

#include "fit/bounds.hpp"
#include "fit/breakpoints.hpp"
#include "fit/compute_states.hpp"
#include "fit/hypotheses.hpp"
#include "fit/network.hpp"
#include "fit/node_levels.hpp"
#include "fit/pooling.hpp"
#include "fit/least_squares.hpp"
#include "fit/machine_state.hpp"
#include "fit/provenance.hpp"
#include "fit/samples.hpp"
#include "fit/selection.hpp"
#include "model/catalog.hpp"

namespace augur::fit {
namespace {

constexpr double kUnbounded = std::numeric_limits<double>::infinity();

struct Segment {
  double from = 0, to = kUnbounded;  // bytes, the regime's range
  std::vector<Sample> samples;
};

std::vector<Sample> samples_between(const std::vector<Sample>& samples, double lowest, double highest) {
  std::vector<Sample> kept;
  for (const auto& s : samples)
    if (s.bytes >= lowest && s.bytes <= highest) kept.push_back(s);
  return kept;
}

// The seed's split: the threshold size belongs to both fits, and to the small regime in queries.
std::vector<Segment> split_at_threshold(const std::vector<Sample>& samples, double threshold) {
  auto small = samples_between(samples, 0, threshold);
  auto large = samples_between(samples, threshold, kUnbounded);
  if (small.empty() || large.empty()) return {Segment{0, kUnbounded, samples}};
  return {Segment{0, threshold + 1, std::move(small)}, Segment{threshold + 1, kUnbounded, std::move(large)}};
}

std::vector<Segment> split_at_breakpoints(const std::vector<Sample>& samples, const std::vector<double>& starts) {
  std::vector<Segment> segments;
  double from = 0;
  for (std::size_t k = 0; k <= starts.size(); ++k) {
    const double to = k < starts.size() ? starts[k] : kUnbounded;
    Segment segment{from, to, {}};
    for (const auto& s : samples)
      if (s.bytes >= from && s.bytes < to) segment.samples.push_back(s);
    segments.push_back(std::move(segment));
    from = to;
  }
  return segments;
}

bool sizes_matter(const std::string& op, const std::vector<Sample>& samples) {
  const auto* info = model::find_operation_info(op);
  if (info && info->cls == model::OperationClass::barrier) return false;
  return shape_of(samples).d_varies;
}

// An empty message is often no message at all: MPI returns from a zero-count collective, or
// sends only a header, at a fraction of the cost of one byte. Such points get a regime of their
// own, [0, 1), instead of bending the law of the small sizes; this is decided per operation, when
// for every group size the empty message costs under half the smallest non-empty one.
constexpr double kEmptyMessageShare = 0.5;

// One group size's times: at 0 B, if measured, and at each size above 0, upwards.
struct GroupTimes {
  std::optional<double> empty;
  std::map<double, double> sized;
};

std::map<double, GroupTimes> times_by_group(const std::vector<Sample>& samples) {
  std::map<double, GroupTimes> by_group;
  for (const auto& s : samples) {
    auto& times = by_group[s.p];
    if (s.bytes == 0) times.empty = s.y;
    else times.sized[s.bytes] = s.y;
  }
  return by_group;
}

bool empty_messages_are_special(const std::map<double, GroupTimes>& by_group) {
  bool any = false;
  for (const auto& [p, times] : by_group) {
    if (!times.empty || times.sized.empty() || times.sized.begin()->second <= 0) continue;
    if (*times.empty >= kEmptyMessageShare * times.sized.begin()->second) return false;
    any = true;
  }
  return any;
}

// The smallest non-empty size, and the next, when for every group size the smallest costs at
// least twice the next. Open MPI's gather of one byte took 0.35–0.39 µs against 0.08 µs at 2 and
// 3 B in every run on one machine. A regime must span three sizes to show a line
// (breakpoints.hpp), so the 1-byte spike tilted the law of [1, 4) and gave 3 B anywhere from
// 0.003 to 0.04 µs, run by run; a regime of its own leaves the next sizes their law.
constexpr double kLoneSizeRatio = 2;

struct LoneSize {
  double size = 0, next = 0;
};

std::optional<LoneSize> lone_first_size(const std::map<double, GroupTimes>& by_group) {
  std::optional<LoneSize> lone;
  for (const auto& [p, group] : by_group) {
    const auto& times = group.sized;
    if (times.empty()) continue;  // only the empty message was measured at this p
    if (times.size() < 3) return std::nullopt;
    const auto& [size, time] = *times.begin();
    const auto& [next, next_time] = *std::next(times.begin());
    if (!(time >= kLoneSizeRatio * next_time) || (lone && (lone->size != size || lone->next != next)))
      return std::nullopt;
    lone = LoneSize{size, next};
  }
  return lone;
}

std::vector<Segment> detected_segments(const std::vector<Sample>& samples, const FitOptions& options) {
  BreakpointOptions breakpoint_options;
  breakpoint_options.max_segments = options.max_segments;
  return split_at_breakpoints(samples, detect_breakpoints(samples, breakpoint_options));
}

std::vector<Segment> segments_for(const std::vector<Sample>& samples, bool sizes_vary, const FitOptions& options) {
  if (!sizes_vary) return {Segment{0, kUnbounded, samples}};
  if (options.threshold_bytes) return split_at_threshold(samples, *options.threshold_bytes);
  if (!options.detect_breakpoints) return {Segment{0, kUnbounded, samples}};
  const auto by_group = times_by_group(samples);
  if (!empty_messages_are_special(by_group)) return detected_segments(samples, options);
  std::vector<Segment> segments{Segment{0, 1, samples_between(samples, 0, 0)}};
  double from = 1;
  if (const auto lone = lone_first_size(by_group)) {
    segments.push_back(Segment{1, lone->next, samples_between(samples, lone->size, lone->size)});
    from = lone->next;
  }
  for (auto& segment : detected_segments(samples_between(samples, from, kUnbounded), options)) {
    segment.from = std::max(segment.from, from);
    segments.push_back(std::move(segment));
  }
  return segments;
}

model::FittedForm form_of(const SelectedLaw& law, const CandidateSet& candidates, int points,
                          model::Statistic statistic) {
  model::FittedForm form;
  const auto& h = law.fit.hypothesis;
  for (int k = 0; k < h.size; ++k)
    form.terms.push_back({candidates.bases[h.columns[k]], law.fit.coef[k], law.standard_errors[k]});
  form.stats.chi2 = law.fit.chi2;
  form.stats.q = law.q;
  form.stats.points = points;
  form.stats.statistic = statistic;
  form.stats.cv_error = std::isfinite(law.validation.cv_error) ? law.validation.cv_error : 0;
  for (const auto& runner : law.runners_up) {
    model::Alternative alternative;
    for (int k = 0; k < runner.hypothesis.size; ++k) alternative.bases.push_back(candidates.bases[runner.hypothesis.columns[k]]);
    alternative.cv_error = std::isfinite(runner.validation.cv_error) ? runner.validation.cv_error : 0;
    alternative.chi2 = runner.validation.chi2;
    alternative.q = runner.q;
    form.stats.alternatives.push_back(std::move(alternative));
  }
  return form;
}

// Leaving out an end size of three turns a prediction into an extrapolation, so cross-validation
// cannot tell a line in d from a constant there (it kept 17 µs for an exscan regime measured at 15,
// 30 and 92 µs); the χ² rule can.
constexpr std::size_t kFewestSizesToCrossValidate = 4;

Selection selection_for(const Segment& segment, bool d_varies, Selection wanted) {
  return d_varies && distinct_sizes(segment.samples).size() < kFewestSizesToCrossValidate ? Selection::chi2 : wanted;
}

model::Regime fit_regime(const Segment& segment, bool sizes_vary, const MeasuredPasses& measured,
                         const FitOptions& options) {
  auto shape = shape_of(segment.samples);
  shape.d_varies = shape.d_varies && sizes_vary;
  const auto candidates = make_candidates(options.family, shape);
  const WeightedDesign design(segment.samples, candidates.bases);
  const auto rule = selection_for(segment, shape.d_varies, options.selection);
  const auto law = select_law(design, candidates, {rule, options.selection_margin});

  model::Regime regime;
  regime.from = segment.from;
  regime.to = segment.to;
  auto form = form_of(law, candidates, design.points(), options.statistic);
  // The spread is still written, for readers of the file that predate the states.
  regime.spread = covering_spread(segment.samples, form);
  regime.law = std::move(form);
  regime.states = state_factors(measured, regime, options.statistic, options.units);
  return regime;
}

nlohmann::json fit_settings(const FitOptions& options) {
  nlohmann::json s = {{"family", to_string(options.family)},
                      {"selection", to_string(options.selection)},
                      {"statistic", model::to_string(options.statistic)},
                      {"state", to_string(options.state)},
                      {"relative_error_floor", options.relative_error_floor},
                      {"pooled_repetitions", options.pooled_repetitions}};
  if (options.threshold_bytes) s["threshold_bytes"] = *options.threshold_bytes;
  else s["max_segments"] = options.detect_breakpoints ? options.max_segments : 1;
  return s;
}

}  // namespace

std::string_view to_string(Family f) { return f == Family::seed12 ? "seed12" : "wide"; }

std::optional<Family> family_from_string(std::string_view s) {
  if (s == "seed12") return Family::seed12;
  if (s == "wide") return Family::wide;
  return std::nullopt;
}

std::string_view to_string(Selection s) { return s == Selection::chi2 ? "chi2" : "cv"; }

std::optional<Selection> selection_from_string(std::string_view s) {
  if (s == "cv") return Selection::cross_validation;
  if (s == "chi2") return Selection::chi2;
  return std::nullopt;
}

model::Operation fit_operation(const std::vector<Measurement>& points, const FitOptions& options) {
  return fit_operation(points, MeasuredPasses{points, 0}, options);
}

model::Operation fit_operation(const std::vector<Measurement>& points, const MeasuredPasses& measured,
                               const FitOptions& options) {
  if (points.empty()) throw std::invalid_argument("no measurements to fit");
  model::Operation op;
  op.name = points.front().op;
  for (const auto& m : points)
    if (m.op != op.name)
      throw std::invalid_argument("points of '" + m.op + "' mixed with '" + op.name + "'");

  const ErrorModel errors{options.relative_error_floor, options.pooled_repetitions};
  const auto samples = make_samples(points, options.statistic, options.units, errors);
  const bool sizes_vary = sizes_matter(op.name, samples);
  for (const auto& segment : segments_for(samples, sizes_vary, options))
    op.regimes.push_back(fit_regime(segment, sizes_vary, measured, options));
  op.measured = model::MeasuredRange{};
  for (const auto& m : points) {
    op.measured->max_bytes = std::max(op.measured->max_bytes, m.bytes);
    op.measured->max_processes = std::max(op.measured->max_processes, static_cast<double>(m.p));
  }
  return op;
}

// A rooted collective's per-role medians become points of its role operations (bcast_root,
// bcast_others …), when the catalog has them; their spread is the whole operation's, scaled, and
// their pass and state the whole operation's.
void add_role_points(const Measurement& m, std::map<std::string, std::vector<Measurement>>& by_operation) {
  if (!m.roles || !(m.median > 0)) return;
  for (const auto& [suffix, median] : {std::pair{"_root", m.roles->root}, std::pair{"_others", m.roles->others}}) {
    const std::string name = m.op + suffix;
    if (!model::find_operation_info(name) || !(median > 0)) continue;
    const double scale = median / m.median;
    Measurement role{name, m.p, m.bytes, median, median, median, median, m.stddev * scale, m.reps, {}, {}, {}};
    role.pass = m.pass;
    role.nodes = m.nodes;
    role.ranks_per_node = m.ranks_per_node;
    role.state_probe = m.state_probe;
    by_operation[name].push_back(std::move(role));
  }
}

// The points of each operation, with the role operations' points made from them.
std::map<std::string, std::vector<Measurement>> by_operation_of(const std::vector<Measurement>& points) {
  std::map<std::string, std::vector<Measurement>> by_operation;
  for (const auto& m : points) {
    by_operation[m.op].push_back(m);
    add_role_points(m, by_operation);
  }
  return by_operation;
}

// Every operation of one level's records, each fitted to its points pooled over passes.
model::Operations fit_operations(const std::vector<Measurement>& points, const model::MachineStates& states,
                                 const FitOptions& options) {
  const auto by_operation = by_operation_of(pool_repeated_points(points, options.state, states));
  auto passes = by_operation_of(points);
  model::Operations operations;
  for (const auto& [name, pooled] : by_operation) {
    if (!model::find_operation_info(name))
      throw std::runtime_error("operation '" + name +
                               "' is not in the operation catalog (docs/model-format.md lists the names)");
    try {
      operations[name] = fit_operation(pooled, MeasuredPasses{std::move(passes[name]), states.limit}, options);
    } catch (const std::exception& e) {
      throw std::runtime_error("operation '" + name + "': " + e.what());
    }
  }
  return operations;
}

// The bench's state probe is a ping-pong of world ranks 0 and 1 (bench/state_probe.cpp): on one
// node when the job ran several ranks a node. It says how fast that node passed messages, not
// the link: on 2 emulated nodes of 2 it read 0.9 µs in some passes and 2.5 µs in others while
// the ping-pong between the nodes took 6-7 µs in both, and scaled by the probe's ratio that
// ping-pong became 2.0 µs, a time it never took. Records of the levels that cross the link keep
// their measured times.
std::vector<Measurement> unpaced_by_probe(std::vector<Measurement> points) {
  for (auto& m : points) m.state_probe.reset();
  return points;
}

bool probe_on_one_node(const RawSet& raw) {
  try {
    return header_nodes(raw.header).ranks_per_node >= 2;
  } catch (const std::invalid_argument&) {
    return false;  // fit_nodes says what is wrong with the header
  }
}

// The on-node level and the placements of a machine measured across nodes (docs/nodes.md).
model::Nodes fit_nodes(const std::map<int, std::vector<Measurement>>& levels, const RawSet& raw,
                       const model::Model& between, const model::MachineStates& states, const FitOptions& options) {
  model::Nodes nodes;
  int header_size = 0;
  try {
    header_size = header_nodes(raw.header).ranks_per_node;
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(std::string("raw header: ") + e.what());
  }
  nodes.ranks_per_node = node_size(raw.points, header_size);
  for (const auto& [level, points] : levels) {
    if (level == 1) continue;
    if (level != kOnNodeLevel) {
      nodes.placements[level] = fit_operations(probe_on_one_node(raw) ? unpaced_by_probe(points) : points, states, options);
      continue;
    }
    nodes.on_node = fit_operations(points, states, options);
    model::Model on_node = between;  // the on-node laws' network section, read off them as the model's is
    on_node.operations = nodes.on_node;
    on_node.network = {};
    RawSet level_raw;
    level_raw.points = points;
    derive_network(on_node, level_raw);
    nodes.network = on_node.network;
  }
  if (nodes.on_node.empty())
    throw std::runtime_error("measured across nodes but no point-to-point operation between two ranks of one node "
                             "(records with nodes 1 and ranks_per_node 2): the on-node level is missing");
  return nodes;
}

FittedModel fit_model(const RawSet& raw, const FitOptions& options) {
  const auto states = machine_states(raw.points);
  if (raw.points.empty() && !raw.unmeasurable.empty())
    throw std::runtime_error("no measurements to fit: the MPI library could not run any operation the raw data holds (" +
                             error_headline(raw.unmeasurable.front().error) + ")");
  if (raw.points.empty()) throw std::runtime_error("no measurements to fit (the raw data has only a header)");

  model::Model model;
  try {
    auto origin = origin_from_header(raw.header, options.source);
    model.machine = std::move(origin.machine);
    model.provenance = std::move(origin.provenance);
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(std::string("raw header: ") + e.what());
  }
  model.provenance.settings["fit"] = fit_settings(options);
  if (states.probed > 0) model.provenance.settings["machine_states"] = states.to_json();
  model.units = options.units;
  model.compute = header_compute(raw.header, "raw header");
  model.compute.states = compute_states(raw.points);

  const auto levels = split_by_level(raw.points);
  const auto between = levels.find(1);
  if (between == levels.end())
    throw std::runtime_error("measured across nodes but nothing with one rank a node (records without nodes and "
                             "ranks_per_node, or with ranks_per_node 1): the between-nodes level is missing");
  const bool paced = levels.size() == 1 || !probe_on_one_node(raw);
  model.operations = fit_operations(paced ? between->second : unpaced_by_probe(between->second), states, options);
  // What the library could not run is left out of the model, and said so.
  if (auto note = unmeasurable_note(raw.unmeasurable); !note.is_null()) model.provenance.settings["not_measurable"] = note;
  RawSet between_raw;
  between_raw.points = between->second;
  derive_network(model, levels.size() == 1 ? raw : between_raw);
  if (levels.size() > 1) model.nodes = fit_nodes(levels, raw, model, states, options);
  return {std::move(model), states};
}

}  // namespace augur::fit
