#include "report/sheet.hpp"

#include <algorithm>
#include <cmath>
#include <variant>

#include <fmt/format.h>

#include "model/catalog.hpp"
#include "model/units.hpp"

namespace augur::report {

std::string pair_time_or_dash(const model::Model& m, const model::Operation* op, double bytes) {
  if (!op) return "-";
  try {
    return model::format_seconds(m.seconds(*op, 2, bytes));
  } catch (const model::QueryError&) {
    return "-";
  }
}

namespace {

// Regime limits are exact byte counts (2049 is not 2 KiB), so they are shown exactly.
std::string exact_bytes(double bytes) {
  for (auto [unit, scale] : {std::pair{"MiB", 1048576.0}, {"KiB", 1024.0}})
    if (bytes >= scale && std::fmod(bytes, scale) == 0) return fmt::format("{:g} {}", bytes / scale, unit);
  return fmt::format("{:g} B", bytes);
}

std::string sizes_text(const model::Regime& r) {
  const bool open_end = std::isinf(r.to);
  if (r.from == 0 && open_end) return "all sizes";
  if (r.from == 0) return "size < " + exact_bytes(r.to);
  if (open_end) return "size ≥ " + exact_bytes(r.from);
  return exact_bytes(r.from) + " ≤ size < " + exact_bytes(r.to);
}

std::string quality_text(const model::Regime& r) {
  const auto* form = std::get_if<model::FittedForm>(&r.law);
  if (!form) return "";
  const auto& s = form->stats;
  auto text = fmt::format("Q = {:.2g}, χ² = {:.3g}, {} points ({})", s.q, s.chi2, s.points, model::to_string(s.statistic));
  if (s.cv_error > 0) text += fmt::format(", cross-validated error {:.2g}%", 100 * s.cv_error);
  return text;
}

// Three digits: runners-up often trail the chosen law by a tenth of a per cent.
std::string score_text(double cv_error, double q) {
  return cv_error > 0 ? fmt::format("{:.3g}%", 100 * cv_error) : fmt::format("Q = {:.2g}", q);
}

// Exponents such as Extra-P's 2/3 to three digits: "p^0.667", not "p^0.6666666666666666".
std::string short_powers(std::string name) {
  for (auto at = name.find('^'); at != std::string::npos; at = name.find('^', at + 1)) {
    const auto end = name.find_first_not_of("0123456789.", at + 1);
    const auto digits = name.substr(at + 1, end == std::string::npos ? std::string::npos : end - at - 1);
    if (digits.empty()) continue;
    name.replace(at + 1, digits.size(), fmt::format("{:.3g}", std::stod(digits)));
  }
  return name;
}

// A law by its shape, coefficients as letters: "a + b·d + c·log2(p)·d".
std::string symbolic_law(const std::vector<model::Basis>& bases) {
  std::string text;
  char letter = 'a';
  for (const auto& basis : bases) {
    auto name = short_powers(basis.name());
    for (auto at = name.find('*'); at != std::string::npos; at = name.find('*', at)) name.replace(at, 1, "·");
    if (!text.empty()) text += " + ";
    text += letter++;
    if (name != "1") text += "·" + name;
  }
  return text;
}

std::string choice_text(const model::Regime& r, const model::Units& units) {
  const auto* form = std::get_if<model::FittedForm>(&r.law);
  if (!form || form->stats.alternatives.empty()) return "";
  const auto& s = form->stats;
  auto text = "chosen: " + readable_equation(r, units) +
              (s.cv_error > 0 ? fmt::format(", cross-validated error {:.3g}%", 100 * s.cv_error)
                              : fmt::format(", Q = {:.2g}", s.q)) +
              "; beaten: ";
  for (std::size_t i = 0; i < s.alternatives.size(); ++i) {
    const auto& a = s.alternatives[i];
    text += fmt::format("{}{} {}", i == 0 ? "" : ", ", symbolic_law(a.bases), score_text(a.cv_error, a.q));
  }
  return text;
}

// The band about the law that min and max draw: the states' factors when the regime has them,
// which replace the spread (docs/model-format.md, "Bounds").
std::string spread_text(const model::Regime& r) {
  const auto s = r.states ? model::Spread{1 - r.states->fast, r.states->slow - 1} : r.spread;
  if (s.below == 0 && s.above == 0) return "";
  return fmt::format("−{:.3g}% / +{:.3g}%", 100 * s.below, 100 * s.above);
}

std::string kind_text(std::string_view name) {
  const auto* info = model::find_operation_info(name);
  return info ? std::string(model::to_string(info->cls)) : "operation";
}

std::string fitted_range_text(const model::Operation& op) {
  if (!op.measured) return "";
  return fmt::format("fitted to messages up to {} and groups up to {} processes; beyond them the last regime is "
                     "extrapolated",
                     model::format_bytes(op.measured->max_bytes), op.measured->max_processes);
}

std::string caption_text(const model::Operation& op, bool measured) {
  const auto* info = model::find_operation_info(op.name);
  const bool barrier = info && info->cls == model::OperationClass::barrier;
  const bool one_group = info && info->cls == model::OperationClass::point_to_point;
  std::string text = barrier ? "Time over the number of processes; the band is the law's min–max"
                             : "Time over message size, one line per group size; the band is the law's min–max, "
                               "dashed lines mark regime breaks";
  if (!measured) return text + ".";
  return text + (barrier || one_group ? "; points are measurements (median, min–max)."
                                      : "; points are measurements (median, min–max) in the colour of their group size.");
}

bool has_points(const SheetOptions& options, const std::string& op) {
  for (const auto& point : options.measured)
    if (point.op == op) return true;
  return false;
}

SheetOperation operation_section(const model::Model& m, const model::Operation& op, bool measured) {
  SheetOperation s{op.name, kind_text(op.name), op.meaning, {}, fitted_range_text(op), picture_stem(op.name),
                   caption_text(op, measured)};
  for (const auto& r : op.regimes)
    s.regimes.push_back(
        {sizes_text(r), readable_equation(r, m.units), quality_text(r), spread_text(r), choice_text(r, m.units)});
  return s;
}

Facts provenance_facts(const model::Model& m) {
  Facts facts{{"machine", m.machine.name}};
  auto add = [&](const char* label, const std::string& value) {
    if (!value.empty()) facts.emplace_back(label, value);
  };
  add("MPI library", m.provenance.mpi_library);
  add("MPI version", m.provenance.mpi_version);
  add("source", m.provenance.source);
  add("date", m.provenance.date);
  add("measured by", m.provenance.measured_by);
  return facts;
}

Facts settings_facts(const nlohmann::json& settings) {
  Facts facts;
  for (const auto& [key, value] : settings.items()) {
    auto text = value.is_string() ? value.get<std::string>() : value.dump();
    if (text.size() > 160) {
      text.resize(157);
      text += "...";
    }
    facts.emplace_back(key, text);
  }
  return facts;
}

std::string units_note(const model::Units& u) {
  auto size = u.size == "ints" ? fmt::format("d counts ints of {} B", u.int_bytes) : std::string("d counts bytes");
  return "Times in µs; " + size + "; p is the number of processes in the group; log is the natural logarithm. "
         "Sizes of regimes are message bytes, from inclusive, to exclusive.";
}

// Where the machine's fast and slow states put the compute, which `augur run` gives the min and
// max clocks: "0.974 … 1.18 × the measured compute (−2.6% … +18%): …".
std::string states_text(const model::StateFactors& s) {
  return fmt::format("{} … {} × the measured compute (−{:.3g}% … +{:.3g}%): the 5th and 95th percentiles of "
                     "the ratios between the bench's compute probes",
                     model::significant(s.fast, 3), model::significant(s.slow, 3), 100 * (1 - s.fast),
                     100 * (s.slow - 1));
}

Facts node_facts(const model::Compute& c) {
  Facts facts;
  if (c.knows_step()) facts.emplace_back("compute step (tcompute)", model::format_seconds(c.seconds_per_step));
  if (c.states) facts.emplace_back("compute states (fast … slow)", states_text(*c.states));
  if (c.relative_speed != 1) facts.emplace_back("relative speed", fmt::format("{:g}", c.relative_speed));
  if (c.flops > 0) facts.emplace_back("flop rate", model::format_rate(c.flops, "flop"));
  if (c.memory_bandwidth > 0) facts.emplace_back("memory bandwidth (triad)", model::format_rate(c.memory_bandwidth, "B"));
  return facts;
}

Facts network_facts(const model::Network& n) {
  Facts facts;
  if (n.latency > 0) facts.emplace_back("latency", model::format_seconds(n.latency));
  if (n.bandwidth > 0) facts.emplace_back("bandwidth", model::format_rate(n.bandwidth, "B"));
  if (n.eager_limit > 0) facts.emplace_back("eager limit", model::format_bytes(n.eager_limit));
  if (n.send_overhead > 0) facts.emplace_back("send overhead", model::format_seconds(n.send_overhead));
  if (n.recv_overhead > 0) facts.emplace_back("receive overhead", model::format_seconds(n.recv_overhead));
  return facts;
}

// A machine of nodes (docs/nodes.md): its node size, and each on-node point-to-point law beside
// its between-nodes one at a short and a long message, in the network's table.
Facts level_facts(const model::Model& m) {
  const auto& nodes = *m.nodes;
  Facts facts{{"ranks a node", fmt::format("{}", nodes.ranks_per_node)}};
  const auto at = [&](const model::Operation* op, double bytes) { return pair_time_or_dash(m, op, bytes); };
  for (const auto& [name, on_node] : nodes.on_node)
    for (const double bytes : {8.0, 65536.0})
      facts.emplace_back(fmt::format("{} {}: on one node / between nodes", model::mpi_name(name), model::format_bytes(bytes)),
                         at(&on_node, bytes) + " / " + at(m.find(name), bytes));
  for (const auto& [label, value] : network_facts(nodes.network)) facts.emplace_back(label + " on one node", value);
  for (const auto& [per_node, ops] : nodes.placements) {
    std::string names;
    for (const auto& [name, _] : ops) names += (names.empty() ? "" : ", ") + model::mpi_name(name);
    facts.emplace_back(fmt::format("measured at {} ranks a node", per_node), names);
  }
  return facts;
}

Facts sweep_facts(const model::Compute& c) {
  Facts facts;
  for (const auto& point : c.cache_sweep)
    facts.emplace_back(model::format_bytes(point.bytes), fmt::format("{:.3g} ns", point.seconds_per_access * 1e9));
  return facts;
}

}  // namespace

std::string picture_stem(const std::string& operation) {
  std::string stem = "op-" + operation;
  std::replace(stem.begin(), stem.end(), '_', '-');  // LaTeX file names and anchors
  return stem;
}

std::vector<const model::Operation*> sheet_order(const model::Model& m) {
  std::vector<const model::Operation*> ops;
  for (const auto& info : model::operation_catalog())
    if (const auto* op = m.find(info.name)) ops.push_back(op);
  return ops;
}

std::string readable_equation(const model::Regime& regime, const model::Units& units) {
  const double to_us = units.seconds_per_time_unit() * 1e6;
  if (const auto* free = std::get_if<model::FreeForm>(&regime.law))
    return to_us == 1 ? free->avg.text() : fmt::format("{:g}·({})", to_us, free->avg.text());
  std::string text;
  for (const auto& t : std::get<model::FittedForm>(regime.law).terms) {
    auto basis = t.basis.name();
    for (auto at = basis.find('*'); at != std::string::npos; at = basis.find('*', at)) basis.replace(at, 1, "·");
    text += fmt::format("{}({:.4g} ± {:.2g})", text.empty() ? "" : " + ", t.coef * to_us, t.stderr_ * to_us);
    if (basis != "1") text += "·" + basis;
  }
  return text.empty() ? "0" : text;
}

Sheet make_sheet(const model::Model& m, const SheetOptions& options) {
  Sheet sheet;
  sheet.title = "MPI data sheet: " + m.machine.name;
  sheet.description = m.machine.description;
  sheet.facts = provenance_facts(m);
  sheet.settings = settings_facts(m.provenance.settings);
  sheet.units_note = units_note(m.units);
  for (const auto* op : sheet_order(m)) sheet.operations.push_back(operation_section(m, *op, has_points(options, op->name)));
  sheet.node = node_facts(m.compute);
  sheet.network = network_facts(m.network);
  if (m.nodes)
    for (auto& fact : level_facts(m)) sheet.network.push_back(std::move(fact));
  sheet.cache_sweep = sweep_facts(m.compute);
  if (!m.compute.cache_sweep.empty()) sheet.node_plot = "node-cache";
  return sheet;
}

}  // namespace augur::report
