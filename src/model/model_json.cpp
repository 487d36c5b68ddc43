#include "model/model_json.hpp"

#include <cmath>
#include <fstream>
#include <initializer_list>
#include <set>
#include <sstream>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "model/catalog.hpp"
#include "model/json_node.hpp"
#include "util/whole_file.hpp"

namespace augur::model {
namespace {

using json = nlohmann::json;

using Node = JsonNode<json>;

Machine read_machine(const Node& n) {
  n.object({"name", "description"});
  Machine m{n.required("name").string(), n.optional_string("description")};
  if (m.name.empty()) n.child("name").fail("must not be empty");
  return m;
}

Provenance read_provenance(const Node& n) {
  n.object({"source", "mpi_library", "mpi_version", "date", "measured_by", "settings"});
  Provenance p;
  p.source = n.required("source").string();
  p.mpi_library = n.optional_string("mpi_library");
  p.mpi_version = n.optional_string("mpi_version");
  p.date = n.optional_string("date");
  p.measured_by = n.optional_string("measured_by");
  if (n.has("settings")) {
    auto s = n.child("settings");
    if (!s.value.is_object()) s.fail("expected an object");
    p.settings = s.value;
  }
  return p;
}

Units read_units(const Node& n) {
  n.object({"time", "size", "int_bytes"});
  Units u;
  u.time = n.required("time").string();
  if (u.time != "s" && u.time != "ms" && u.time != "us" && u.time != "ns")
    n.child("time").fail("must be one of s, ms, us, ns (found '" + u.time + "')");
  u.size = n.required("size").string();
  if (u.size != "bytes" && u.size != "ints") n.child("size").fail("must be bytes or ints (found '" + u.size + "')");
  if (n.has("int_bytes")) u.int_bytes = n.child("int_bytes").integer(1, 64);
  else if (u.size == "ints") n.fail("missing required field 'int_bytes' (size is counted in ints)");
  return u;
}

std::vector<CacheSweepPoint> read_cache_sweep(const Node& n) {
  if (!n.value.is_array()) n.fail("expected an array of {bytes, seconds_per_access}, found " + std::string(n.value.type_name()));
  std::vector<CacheSweepPoint> sweep;
  for (std::size_t i = 0; i < n.value.size(); ++i) {
    auto e = n.element(i);
    e.object({"bytes", "seconds_per_access"});
    CacheSweepPoint point{e.required("bytes").positive(), e.required("seconds_per_access").positive()};
    if (!sweep.empty() && point.bytes <= sweep.back().bytes)
      e.child("bytes").fail(fmt::format("must be greater than the previous size ({})", sweep.back().bytes));
    sweep.push_back(point);
  }
  return sweep;
}

// `of` names what the factors multiply. Beyond 1 on either side, the typical time (avg) would
// lie outside [min, max].
StateFactors read_states(const Node& n, std::string_view of = "the law") {
  n.object({"fast", "slow"});
  StateFactors s{n.required("fast").non_negative(), n.required("slow").number()};
  if (s.fast > 1) n.child("fast").fail(fmt::format("must be at most 1, a factor of {} (found {})", of, s.fast));
  if (s.slow < 1) n.child("slow").fail(fmt::format("must be at least 1, a factor of {} (found {})", of, s.slow));
  return s;
}

// A compute factor of 0 would erase the program's compute on the min clock.
StateFactors read_compute_states(const Node& n) {
  const auto s = read_states(n, "the typical compute step");
  if (s.fast <= 0) n.child("fast").fail("must be greater than 0, a factor of the typical compute step (found 0)");
  return s;
}

Compute read_compute(const Node& n) {
  n.object({"seconds_per_step", "relative_speed", "memory_bandwidth", "flops", "cache_sweep", "states"});
  Compute c;
  if (n.has("seconds_per_step")) c.seconds_per_step = n.child("seconds_per_step").positive();
  if (n.has("relative_speed")) c.relative_speed = n.child("relative_speed").positive();
  if (n.has("memory_bandwidth")) c.memory_bandwidth = n.child("memory_bandwidth").positive();
  if (n.has("flops")) c.flops = n.child("flops").positive();
  if (n.has("cache_sweep")) c.cache_sweep = read_cache_sweep(n.child("cache_sweep"));
  if (n.has("states")) c.states = read_compute_states(n.child("states"));
  return c;
}

Network read_network(const Node& n) {
  n.object({"latency", "bandwidth", "eager_limit", "send_overhead", "recv_overhead"});
  Network w;
  auto get = [&](const char* key, double& field) {
    if (n.has(key)) field = n.child(key).non_negative();
  };
  get("latency", w.latency);
  get("bandwidth", w.bandwidth);
  get("eager_limit", w.eager_limit);
  get("send_overhead", w.send_overhead);
  get("recv_overhead", w.recv_overhead);
  return w;
}

Launch read_launch(const Node& n) {
  n.object({"seconds", "processes"});
  return Launch{n.required("seconds").non_negative(), static_cast<int>(n.required("processes").integer(1, 1 << 30))};
}

Expression read_expression(const Node& n) {
  try {
    return Expression(n.string());
  } catch (const std::invalid_argument& e) {
    n.fail(e.what());
  }
}

Basis read_basis(const Node& n) {
  try {
    return Basis::parse(n.string());
  } catch (const std::invalid_argument& e) {
    n.fail(e.what());
  }
}

Alternative read_alternative(const Node& n) {
  n.object({"bases", "cv_error", "chi2", "q"});
  Alternative a;
  auto bases = n.required("bases");
  if (!bases.value.is_array() || bases.value.empty()) bases.fail("expected a non-empty array of basis names");
  for (std::size_t i = 0; i < bases.value.size(); ++i) a.bases.push_back(read_basis(bases.element(i)));
  if (n.has("cv_error")) a.cv_error = n.child("cv_error").non_negative();
  if (n.has("chi2")) a.chi2 = n.child("chi2").non_negative();
  if (n.has("q")) {
    a.q = n.child("q").non_negative();
    if (a.q > 1) n.child("q").fail("must be in [0, 1]");
  }
  return a;
}

FittedForm read_form(const Node& n) {
  n.object({"terms", "chi2", "q", "points", "statistic", "cv_error", "alternatives"});
  FittedForm f;
  auto terms = n.required("terms");
  if (!terms.value.is_array() || terms.value.empty()) terms.fail("expected a non-empty array of terms");
  for (std::size_t i = 0; i < terms.value.size(); ++i) {
    auto t = terms.element(i);
    t.object({"basis", "coef", "stderr"});
    Term term;
    term.basis = read_basis(t.required("basis"));
    term.coef = t.required("coef").number();
    term.stderr_ = t.has("stderr") ? t.child("stderr").non_negative() : 0.0;
    f.terms.push_back(term);
  }
  f.stats.chi2 = n.required("chi2").non_negative();
  f.stats.q = n.required("q").non_negative();
  if (f.stats.q > 1) n.child("q").fail("must be in [0, 1]");
  f.stats.points = n.required("points").integer(1, 1 << 30);
  auto stat = n.required("statistic");
  auto s = statistic_from_string(stat.string());
  if (!s) stat.fail("must be min, median or mean");
  f.stats.statistic = *s;
  if (n.has("cv_error")) f.stats.cv_error = n.child("cv_error").non_negative();
  if (n.has("alternatives")) {
    auto list = n.child("alternatives");
    if (!list.value.is_array()) list.fail("expected an array of laws");
    if (list.value.size() > kMaxAlternatives) list.fail(fmt::format("at most {} laws", kMaxAlternatives));
    for (std::size_t i = 0; i < list.value.size(); ++i) f.stats.alternatives.push_back(read_alternative(list.element(i)));
  }
  return f;
}

Spread read_spread(const Node& n) {
  n.object({"below", "above"});
  Spread s;
  if (n.has("below")) s.below = n.child("below").non_negative();
  if (n.has("above")) s.above = n.child("above").non_negative();
  if (s.below > 1) n.child("below").fail("must be at most 1 (a relative spread)");
  return s;
}

Regime read_regime(const Node& n) {
  n.object({"from", "to", "expr", "min", "max", "form", "spread", "states"});
  Regime r;
  r.from = n.required("from").non_negative();
  if (n.has("to") && !n.child("to").value.is_null()) r.to = n.child("to").non_negative();
  if (r.to <= r.from) n.child("to").fail(fmt::format("must be greater than from ({})", r.from));
  bool has_expr = n.has("expr"), has_form = n.has("form");
  if (has_expr == has_form) n.fail("a regime needs exactly one of 'expr' (free expression) or 'form' (fitted form)");
  if (has_form) {
    if (n.has("min") || n.has("max")) n.fail("'min'/'max' expressions belong to free-expression regimes only");
    r.law = read_form(n.child("form"));
  } else {
    FreeForm f{read_expression(n.child("expr")), std::nullopt, std::nullopt};
    if (n.has("min")) f.min = read_expression(n.child("min"));
    if (n.has("max")) f.max = read_expression(n.child("max"));
    r.law = std::move(f);
  }
  if (n.has("spread")) r.spread = read_spread(n.child("spread"));
  if (n.has("states")) r.states = read_states(n.child("states"));
  return r;
}

MeasuredRange read_measured(const Node& n) {
  n.object({"max_bytes", "max_processes"});
  MeasuredRange r;
  r.max_bytes = n.required("max_bytes").non_negative();
  r.max_processes = n.required("max_processes").integer(1, 1 << 30);
  return r;
}

Operation read_operation(const Node& n, const std::string& name) {
  if (!find_operation_info(name))
    n.fail(fmt::format("unknown operation '{}' (see the operation catalog in docs/model-format.md)", name));
  n.object({"meaning", "regimes", "measured"});
  Operation op;
  op.name = name;
  op.meaning = n.has("meaning") ? n.child("meaning").string() : std::string(find_operation_info(name)->meaning);
  auto regimes = n.required("regimes");
  if (!regimes.value.is_array() || regimes.value.empty()) regimes.fail("expected a non-empty array of regimes");
  for (std::size_t i = 0; i < regimes.value.size(); ++i) {
    auto node = regimes.element(i);
    Regime r = read_regime(node);
    double expected = op.regimes.empty() ? 0.0 : op.regimes.back().to;
    if (r.from < expected) node.child("from").fail(fmt::format("overlaps the previous regime, which ends at {}", expected));
    if (r.from > expected) node.child("from").fail(fmt::format("leaves a gap: the previous regime ends at {}", expected));
    op.regimes.push_back(std::move(r));
  }
  if (n.has("measured")) op.measured = read_measured(n.child("measured"));
  return op;
}

Operations read_operations(const Node& ops) {
  if (!ops.value.is_object() || ops.value.empty()) ops.fail("expected a non-empty object of operations");
  Operations out;
  for (const auto& [name, _] : ops.value.items()) out.emplace(name, read_operation(ops.child(name), name));
  return out;
}

constexpr int kMaxRanksPerNode = 1 << 20;

// The on-node level prices messages between two ranks; a collective's placement is elsewhere.
Operations read_on_node(const Node& n) {
  Operations ops = read_operations(n);
  for (const auto& [name, _] : ops)
    if (const auto cls = find_operation_info(name)->cls; cls != OperationClass::point_to_point && cls != OperationClass::local)
      n.child(name).fail(fmt::format("'{}' is not a point-to-point operation: collectives measured with several ranks a node go in nodes.placements", name));
  return ops;
}

std::map<int, Operations> read_placements(const Node& n, int ranks_per_node) {
  if (!n.value.is_array()) n.fail("expected an array of {ranks_per_node, operations}");
  std::map<int, Operations> out;
  for (std::size_t i = 0; i < n.value.size(); ++i) {
    auto e = n.element(i);
    e.object({"ranks_per_node", "operations"});
    auto k = e.required("ranks_per_node");
    const int per_node = k.integer(2, kMaxRanksPerNode);
    if (per_node > ranks_per_node) k.fail(fmt::format("must be at most the node's size, nodes.ranks_per_node ({})", ranks_per_node));
    if (out.contains(per_node)) k.fail(fmt::format("{} ranks a node is already given", per_node));
    out.emplace(per_node, read_operations(e.required("operations")));
  }
  return out;
}

Nodes read_nodes(const Node& n) {
  n.object({"ranks_per_node", "network", "on_node", "placements"});
  Nodes nodes;
  nodes.ranks_per_node = n.required("ranks_per_node").integer(2, kMaxRanksPerNode);
  if (n.has("network")) nodes.network = read_network(n.child("network"));
  nodes.on_node = read_on_node(n.required("on_node"));
  if (n.has("placements")) nodes.placements = read_placements(n.child("placements"), nodes.ranks_per_node);
  return nodes;
}

Model read_model(const Node& root) {
  root.object({"augur_model", "machine", "provenance", "units", "compute", "network", "launch", "operations", "nodes"});
  auto version = root.required("augur_model");
  if (version.integer(0, 1 << 20) != kFormatVersion)
    version.fail(fmt::format("unsupported format version {} (this augur reads {})", version.value.dump(), kFormatVersion));
  Model m;
  m.machine = read_machine(root.required("machine"));
  m.provenance = read_provenance(root.required("provenance"));
  m.units = read_units(root.required("units"));
  if (root.has("compute")) m.compute = read_compute(root.child("compute"));
  if (root.has("network")) m.network = read_network(root.child("network"));
  if (root.has("launch")) m.launch = read_launch(root.child("launch"));
  m.operations = read_operations(root.required("operations"));
  if (root.has("nodes")) m.nodes = read_nodes(root.child("nodes"));
  return m;
}

json regime_to_json(const Regime& r) {
  json j{{"from", r.from}, {"to", std::isinf(r.to) ? json(nullptr) : json(r.to)}};
  if (const auto* f = std::get_if<FreeForm>(&r.law)) {
    j["expr"] = f->avg.text();
    if (f->min) j["min"] = f->min->text();
    if (f->max) j["max"] = f->max->text();
  } else {
    const auto& form = std::get<FittedForm>(r.law);
    json terms = json::array();
    for (const auto& t : form.terms) terms.push_back({{"basis", t.basis.name()}, {"coef", t.coef}, {"stderr", t.stderr_}});
    j["form"] = {{"terms", terms},
                 {"chi2", form.stats.chi2},
                 {"q", form.stats.q},
                 {"points", form.stats.points},
                 {"statistic", to_string(form.stats.statistic)},
                 {"cv_error", form.stats.cv_error}};
    if (!form.stats.alternatives.empty()) {
      json alternatives = json::array();
      for (const auto& a : form.stats.alternatives) {
        json bases = json::array();
        for (const auto& b : a.bases) bases.push_back(b.name());
        alternatives.push_back({{"bases", bases}, {"cv_error", a.cv_error}, {"chi2", a.chi2}, {"q", a.q}});
      }
      j["form"]["alternatives"] = std::move(alternatives);
    }
  }
  if (r.spread.below != 0 || r.spread.above != 0) j["spread"] = {{"below", r.spread.below}, {"above", r.spread.above}};
  if (r.states) j["states"] = {{"fast", r.states->fast}, {"slow", r.states->slow}};
  return j;
}

}  // namespace

Compute parse_compute(const nlohmann::json& value, const std::string& source, const std::string& path) {
  return read_compute(Node{value, path, source});
}

nlohmann::json to_json(const Compute& c) {
  json j{{"relative_speed", c.relative_speed}};
  if (c.knows_step()) j["seconds_per_step"] = c.seconds_per_step;
  if (c.memory_bandwidth > 0) j["memory_bandwidth"] = c.memory_bandwidth;
  if (c.flops > 0) j["flops"] = c.flops;
  if (!c.cache_sweep.empty()) {
    json sweep = json::array();
    for (const auto& point : c.cache_sweep)
      sweep.push_back({{"bytes", point.bytes}, {"seconds_per_access", point.seconds_per_access}});
    j["cache_sweep"] = sweep;
  }
  if (c.states) j["states"] = {{"fast", c.states->fast}, {"slow", c.states->slow}};
  return j;
}

Model parse_model(std::string_view text, const std::string& source) {
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::parse_error& e) {
    throw ModelError(source, "", fmt::format("not valid JSON (truncated or malformed) at byte {}", e.byte));
  } catch (const json::exception& e) {
    // nlohmann reports numbers that overflow a double (1e999) as out_of_range.
    throw ModelError(source, "", fmt::format("not valid JSON: {}", e.what()));
  }
  return read_model(Node{doc, "", source});
}

Model load_model_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ModelError(path.string(), "", "cannot open the file for reading");
  std::stringstream buffer;
  buffer << in.rdbuf();
  return parse_model(buffer.str(), path.string());
}

namespace {

json operations_to_json(const Operations& operations) {
  json ops = json::object();
  for (const auto& [name, op] : operations) {
    json regimes = json::array();
    for (const auto& r : op.regimes) regimes.push_back(regime_to_json(r));
    ops[name] = {{"meaning", op.meaning}, {"regimes", regimes}};
    if (op.measured)
      ops[name]["measured"] = {{"max_bytes", op.measured->max_bytes}, {"max_processes", op.measured->max_processes}};
  }
  return ops;
}

json network_to_json(const Network& n) {
  return {{"latency", n.latency},
          {"bandwidth", n.bandwidth},
          {"eager_limit", n.eager_limit},
          {"send_overhead", n.send_overhead},
          {"recv_overhead", n.recv_overhead}};
}

json nodes_to_json(const Nodes& nodes) {
  json placements = json::array();
  for (const auto& [per_node, ops] : nodes.placements)
    placements.push_back({{"ranks_per_node", per_node}, {"operations", operations_to_json(ops)}});
  json out{{"ranks_per_node", nodes.ranks_per_node},
           {"network", network_to_json(nodes.network)},
           {"on_node", operations_to_json(nodes.on_node)}};
  if (!placements.empty()) out["placements"] = std::move(placements);
  return out;
}

}  // namespace

nlohmann::json to_json(const Model& m) {
  json ops = operations_to_json(m.operations);
  json units{{"time", m.units.time}, {"size", m.units.size}, {"int_bytes", m.units.int_bytes}};
  json out{
      {"augur_model", kFormatVersion},
      {"machine", {{"name", m.machine.name}, {"description", m.machine.description}}},
      {"provenance",
       {{"source", m.provenance.source},
        {"mpi_library", m.provenance.mpi_library},
        {"mpi_version", m.provenance.mpi_version},
        {"date", m.provenance.date},
        {"measured_by", m.provenance.measured_by},
        {"settings", m.provenance.settings}}},
      {"units", units},
      {"compute", to_json(m.compute)},
      {"network", network_to_json(m.network)},
      {"operations", ops}};
  if (m.launch) out["launch"] = {{"seconds", m.launch->seconds}, {"processes", m.launch->processes}};
  if (m.nodes) out["nodes"] = nodes_to_json(*m.nodes);
  return out;
}

void save_model_file(const Model& model, const std::filesystem::path& path) {
  util::write_whole_file(path, to_json(model).dump(2) + '\n');
}

}  // namespace augur::model
