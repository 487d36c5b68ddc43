#include "app/app_model.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "app/app_program_json.hpp"
#include "app/json_position.hpp"
#include "app/scope.hpp"
#include "model/error.hpp"
#include "model/json_node.hpp"

namespace augur::app {
namespace {

// Ordered, so parameters keep the order the file gives them.
using json = nlohmann::ordered_json;

// The node's compute terms, which every app model may use (docs/app-model-format.md).
const std::set<std::string, std::less<>> kNodeTerms{"tcompute", "tflop", "tbyte"};

using Node = model::JsonNode<json>;

bool is_name(const std::string& s) { return std::regex_match(s, std::regex("[A-Za-z_][A-Za-z0-9_]*")); }

std::vector<double> range_values(const Node& n, double from, double to, bool doubling) {
  if (to < from) n.child("to").fail(fmt::format("must not be below from ({})", from));
  if (doubling && from <= 0) n.child("from").fail("must be above 0 for a doubling range");
  const double count = doubling ? std::floor(std::log2(to / from)) + 1 : std::floor(to - from) + 1;
  if (count > kMaxValues) n.fail(fmt::format("gives {:.0f} values; at most {}", count, kMaxValues));
  std::vector<double> values;
  for (double v = from; v <= to * (1 + 1e-12); v = doubling ? v * 2 : v + 1) values.push_back(v);
  return values;
}

Parameter read_parameter(const Node& n, const std::string& name) {
  if (!is_name(name)) n.fail("a parameter's name must be letters, digits and _, not starting with a digit");
  n.object({"values", "from", "to", "scale"});
  Parameter param{name, {}, false};
  if (n.has("values")) {
    if (n.has("from") || n.has("to") || n.has("scale")) n.fail("give either 'values' or 'from' and 'to', not both");
    auto values = n.child("values");
    if (!values.value.is_array() || values.value.empty()) values.fail("expected a non-empty array of numbers");
    if (values.value.size() > kMaxValues) values.fail(fmt::format("at most {} values", kMaxValues));
    for (std::size_t i = 0; i < values.value.size(); ++i) param.values.push_back(values.element(i).number());
    return param;
  }
  const std::string scale = n.has("scale") ? n.child("scale").string() : "linear";
  if (scale != "linear" && scale != "doubling") n.child("scale").fail("must be linear or doubling (found '" + scale + "')");
  param.doubling = scale == "doubling";
  param.values = range_values(n, n.required("from").number(), n.required("to").number(), param.doubling);
  return param;
}

void read_parameters(const Node& n, AppModel& app) {
  if (!n.value.is_object() || n.value.empty()) n.fail("expected an object of parameters, at least 'p'");
  if (!n.has("p")) n.fail("missing the parameter 'p' (processes)");
  std::size_t combinations = 1;
  for (const auto& [name, _] : n.value.items()) {
    auto param = read_parameter(n.child(name), name);
    if (name == "p") {
      for (double p : param.values)
        if (p < 1) n.child("p").fail(fmt::format("process counts must be at least 1 (found {})", p));
      app.processes = std::move(param);
      continue;
    }
    combinations *= param.values.size();
    if (combinations > kMaxCombinations)
      n.child(name).fail(fmt::format("the parameters other than p give more than {} combinations", kMaxCombinations));
    app.parameters.push_back(std::move(param));
  }
}

void read_constants(const Node& n, AppModel& app) {
  if (!n.value.is_object()) n.fail("expected an object of name: number");
  for (const auto& [name, _] : n.value.items()) {
    if (!is_name(name)) n.child(name).fail("a constant's name must be letters, digits and _, not starting with a digit");
    app.constants.push_back({name, n.child(name).number()});
  }
}

std::vector<Definition> read_definitions(const Node& n, bool required) {
  if (!n.value.is_array() || (required && n.value.empty())) n.fail("expected a non-empty array of {name, expr}");
  std::vector<Definition> defs;
  for (std::size_t i = 0; i < n.value.size(); ++i) {
    auto e = n.element(i);
    e.object({"name", "expr"});
    Definition d{e.required("name").string(), e.required("expr").string(), e.path + ".expr"};
    if (!is_name(d.name)) e.child("name").fail("must be letters, digits and _, not starting with a digit");
    for (const auto& other : defs)
      if (other.name == d.name) e.child("name").fail(fmt::format("'{}' is defined twice", d.name));
    defs.push_back(std::move(d));
  }
  return defs;
}

// Every expression compiled once against a scope without a machine, in the order the names are
// defined, so an undefined name or a term used before it is defined is an error here.
void check_expressions(const AppModel& app) {
  Scope scope(nullptr, app.size_unit);
  auto fail = [&](const std::string& field, const std::string& reason) {
    std::string value;
    for (const auto* defs : {&app.terms, &app.phases})
      for (const auto& d : *defs)
        if (d.field == field) value = json(d.expr).dump();
    throw model::ModelError(app.where(value.empty() ? field : value), field, reason);
  };
  auto define = [&](const std::string& field, const std::string& name, double value) {
    if (scope.defines(name)) fail(field, fmt::format("'{}' is already a parameter, constant, term or node term", name));
    scope.define(name, value);
  };
  define("parameters.p", "p", app.processes.values.front());
  for (const auto& param : app.parameters) define("parameters." + param.name, param.name, param.values.front());
  for (const auto& c : app.constants) define("constants." + c.name, c.name, c.value);
  for (const auto& name : kNodeTerms) define("constants", name, 1);
  for (const auto* defs : {&app.terms, &app.phases})
    for (const auto& d : *defs) {
      try {
        scope.compile(d.expr, true);
      } catch (const std::invalid_argument& e) {
        fail(d.field, fmt::format("expression '{}': {}", d.expr, e.what()));
      } catch (const model::QueryError& e) {  // dims() of a value that is no grid
        fail(d.field, fmt::format("expression '{}': {}", d.expr, e.what()));
      }
      if (defs == &app.terms) define(d.field, d.name, 1);
    }
}

void read_structure(const json& root, AppModel& app) {
  const Node n{root, "", app.file};
  n.object({"augur_app", "name", "description", "source", "units", "parameters", "constants", "terms", "phases", "program"});
  auto version = n.required("augur_app");
  if (version.number() != kAppFormatVersion)
    version.fail(fmt::format("unsupported format version {} (this augur reads {})", version.value.dump(), kAppFormatVersion));
  app.name = n.required("name").string();
  if (!is_name(app.name)) n.child("name").fail("must be letters, digits and _ (it names the output files)");
  app.description = n.optional_string("description");
  app.source = n.optional_string("source");
  if (n.has("units")) {
    auto units = n.child("units");
    units.object({"size"});
    app.size_unit = units.required("size").string();
    if (app.size_unit != "bytes" && app.size_unit != "ints") units.child("size").fail("must be bytes or ints");
  }
  read_parameters(n.required("parameters"), app);
  if (n.has("constants")) read_constants(n.child("constants"), app);
  if (n.has("terms")) app.terms = read_definitions(n.child("terms"), false);
  app.phases = read_definitions(n.required("phases"), true);
  if (n.has("program")) app.program = read_program(n.child("program"));
}

}  // namespace

std::string AppModel::where(const std::string& needle) const {
  // A JSON-encoded string value is found as written; a field path by walking its keys.
  const auto at = needle.starts_with("\"") ? text.find(needle) : offset_of_path(text, needle);
  if (at == std::string::npos) return file;
  return fmt::format("{}:{}", file, 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
}

AppModel parse_app_model(std::string_view text, const std::string& file) {
  AppModel app;
  app.file = file;
  app.text = std::string(text);
  json root;
  try {
    root = json::parse(text);
  } catch (const json::parse_error& e) {
    const auto upto = text.substr(0, std::min<std::size_t>(e.byte, text.size()));
    throw model::ModelError(fmt::format("{}:{}", file, 1 + std::count(upto.begin(), upto.end(), '\n')), "",
                            fmt::format("not valid JSON (truncated or malformed) at byte {}", e.byte));
  } catch (const json::exception& e) {
    throw model::ModelError(file, "", fmt::format("not valid JSON: {}", e.what()));
  }
  try {
    read_structure(root, app);
  } catch (const model::ModelError& e) {
    throw model::ModelError(app.where(e.field()), e.field(), e.reason());  // with the line
  }
  check_expressions(app);
  check_program_laws(app);
  return app;
}

AppModel load_app_model(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw model::ModelError(path.string(), "", "cannot open the file for reading");
  std::stringstream buffer;
  buffer << in.rdbuf();
  return parse_app_model(buffer.str(), path.string());
}

}  // namespace augur::app
