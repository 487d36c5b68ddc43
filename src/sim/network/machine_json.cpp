#include "sim/network/machine_json.hpp"

#include <fstream>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "util/duration.hpp"
#include "model/error.hpp"
#include "sim/network/composition.hpp"
#include "sim/network/parasol.hpp"
#include "sim/network/topologies.hpp"

namespace augur::sim {
namespace {

using json = nlohmann::json;

// A JSON value and the path that leads to it, so that a complaint names its field.
struct Field {
  const json& value;
  std::string path;
  const std::string& file;

  [[noreturn]] void fail(const std::string& reason) const { throw model::ModelError(file, path, reason); }
  // A missing field or a list too short is the file's fault, reported as such, never json's own exception.
  Field at(const std::string& key) const {
    if (!value.is_object()) fail("expected an object, found " + std::string(value.type_name()));
    if (!value.contains(key)) fail(fmt::format("missing required field '{}'", key));
    return {value.at(key), path.empty() ? key : path + "." + key, file};
  }
  Field at(std::size_t i) const {
    if (!value.is_array() || i >= value.size()) fail(fmt::format("expected a list of at least {} items", i + 1));
    return {value.at(i), fmt::format("{}[{}]", path, i), file};
  }
  bool has(const std::string& key) const { return value.is_object() && value.contains(key); }

  void only(std::initializer_list<const char*> allowed) const {
    if (!value.is_object()) fail("expected an object, found " + std::string(value.type_name()));
    const std::set<std::string_view> known(allowed.begin(), allowed.end());
    for (const auto& [key, _] : value.items())
      if (!known.contains(key)) fail(fmt::format("unknown field '{}'", key));
  }
  std::string string() const {
    if (!value.is_string()) fail("expected a string, found " + std::string(value.type_name()));
    return value.get<std::string>();
  }
  int whole(int least) const {
    if (!value.is_number_integer() || value.get<long long>() < least || value.get<long long>() > (1 << 24))
      fail(fmt::format("expected a whole number from {} to 16777216", least));
    return value.get<int>();
  }
  double positive() const {
    if (!value.is_number() || !(value.get<double>() > 0)) fail("expected a positive number");
    return value.get<double>();
  }
  // A number of seconds, or a string such as "1.5us".
  double seconds() const {
    if (value.is_number() && value.get<double>() >= 0) return value.get<double>();
    auto s = value.is_string() ? util::parse_seconds(value.get<std::string>()) : std::nullopt;
    if (!s) fail("expected a time: seconds, or a string such as \"1.5us\"");
    return *s;
  }
  double bandwidth() const {
    if (value.is_number()) return positive();
    try {
      return parse_bandwidth(string());
    } catch (const std::invalid_argument& e) {
      fail(e.what());
    }
  }
};

NodeType node_type(const Field& f) {
  f.only({"name", "cores", "speed"});
  NodeType t;
  if (f.has("name")) t.name = f.at("name").string();
  if (f.has("cores")) t.cores = f.at("cores").whole(1);
  if (f.has("speed")) t.speed = f.at("speed").positive();
  return t;
}

int type_index(const Machine& m, const Field& f) {
  const auto name = f.string();
  for (std::size_t t = 0; t < m.node_types.size(); ++t)
    if (m.node_types[t].name == name) return static_cast<int>(t);
  f.fail(fmt::format("no node type is called '{}'", name));
}

// "nodes": a count, or a list of type names and {"type": name, "count": n} runs.
void read_nodes(Machine& m, const Field& f) {
  if (f.value.is_number()) return m.node_type.assign(f.whole(1), 0);
  if (!f.value.is_array()) f.fail("expected a count or a list of node types");
  for (std::size_t i = 0; i < f.value.size(); ++i) {
    const auto item = f.at(i);
    if (item.value.is_string()) {
      m.node_type.push_back(type_index(m, item));
      continue;
    }
    item.only({"type", "count"});
    m.node_type.insert(m.node_type.end(), item.has("count") ? item.at("count").whole(1) : 1,
                       type_index(m, item.at("type")));
  }
}

// "n3" is compute node 3, "s0" the first switch; in a composed machine "p1.s0" is part 1's first switch.
int vertex(const Machine& m, const Field& f, const Composition* parts) {
  const auto name = f.string();
  if (parts && name.starts_with("p")) {
    try {
      return parts->part_vertex(name);
    } catch (const std::invalid_argument& e) {
      f.fail(e.what());
    }
  }
  const bool node = name.starts_with("n"), sw = name.starts_with("s");
  int index = -1;
  if ((node || sw) && name.size() > 1 && name.find_first_not_of("0123456789", 1) == std::string::npos)
    index = std::stoi(name.substr(1));
  if (index < 0 || index >= (node ? m.nodes() : m.switches))
    f.fail(fmt::format("'{}' is not a vertex: n0 … n{}{}", name, m.nodes() - 1,
                       m.switches ? fmt::format(" or s0 … s{}", m.switches - 1) : std::string(" (no switches)")));
  return node ? index : m.nodes() + index;
}

Link link(const Machine& m, const Field& f, const Composition* parts = nullptr) {
  f.only({"connect", "latency", "bandwidth", "duplex", "shared"});
  Link l;
  const auto ends = f.at("connect");
  if (!ends.value.is_array() || ends.value.size() < 2) ends.fail("expected a list of at least two vertices");
  for (std::size_t i = 0; i < ends.value.size(); ++i) l.ends.push_back(vertex(m, ends.at(i), parts));
  if (f.has("latency")) l.latency = f.at("latency").seconds();
  if (!f.has("bandwidth")) f.fail("missing required field 'bandwidth'");
  l.bandwidth = f.at("bandwidth").bandwidth();
  if (f.has("duplex")) {
    const auto d = f.at("duplex").string();
    if (d != "full" && d != "half") f.at("duplex").fail("expected \"full\" or \"half\"");
    l.full_duplex = d == "full";
  }
  if (f.has("shared")) {
    if (!f.at("shared").value.is_boolean()) f.at("shared").fail("expected true or false");
    l.shared = f.at("shared").value.get<bool>();
  }
  if (l.ends.size() > 2 && !l.shared) f.at("connect").fail("more than two vertices needs \"shared\": true (a bus)");
  return l;
}

void read_links(Machine& m, const Field& root, const Composition* parts = nullptr) {
  if (!root.has("links")) return;
  const auto links = root.at("links");
  if (!links.value.is_array()) links.fail("expected a list of links");
  for (std::size_t i = 0; i < links.value.size(); ++i) m.links.push_back(link(m, links.at(i), parts));
}

std::vector<int> whole_list(const Field& f, int least) {
  if (!f.value.is_array()) f.fail("expected a list of whole numbers");
  std::vector<int> out;
  for (std::size_t i = 0; i < f.value.size(); ++i) out.push_back(f.at(i).whole(least));
  return out;
}

void read_routing(Machine& m, const Field& root) {
  if (!root.has("routing")) return;
  const auto r = root.at("routing").string();
  if (r == "shortest") m.routing = Routing::shortest;
  else if (r == "dimension_order") m.routing = Routing::dimension_order;
  else if (r == "up_down") m.routing = Routing::up_down;
  else root.at("routing").fail("expected \"shortest\", \"dimension_order\" or \"up_down\"");
  if (root.has("dims")) m.dims = whole_list(root.at("dims"), 1);
  if (root.has("wraps")) {
    if (!root.at("wraps").value.is_boolean()) root.at("wraps").fail("expected true or false");
    m.wraps = root.at("wraps").value.get<bool>();
  }
  if (root.has("levels")) m.level = whole_list(root.at("levels"), 0);
}

// The graph given link by link.
void read_graph(Machine& m, const Field& root) {
  if (root.has("node_types")) {
    const auto types = root.at("node_types");
    if (!types.value.is_array() || types.value.empty()) types.fail("expected a list of node types");
    for (std::size_t i = 0; i < types.value.size(); ++i) m.node_types.push_back(node_type(types.at(i)));
  } else {
    m.node_types = {NodeType{}};
  }
  if (!root.has("nodes")) root.fail("missing required field 'nodes' (or give a \"topology\")");
  read_nodes(m, root.at("nodes"));
  if (root.has("switches")) m.switches = root.at("switches").whole(0);
  read_links(m, root);
  read_routing(m, root);
}

// Generated parts side by side (composition.hpp), joined by the file's own switches and links.
Machine read_parts(const Field& root) {
  for (const char* graph : {"topology", "node_types", "nodes", "routing", "dims", "wraps", "levels"})
    if (root.has(graph)) root.at(graph).fail("not allowed beside \"parts\", which generate the graph");
  const auto list = root.at("parts");
  if (!list.value.is_array() || list.value.empty()) list.fail("expected a list of topologies such as \"fattree:4,2\"");
  std::vector<Machine> parts;
  long long vertices = 0;
  for (std::size_t i = 0; i < list.value.size(); ++i) {
    try {
      parts.push_back(generate_topology(list.at(i).string()));
    } catch (const std::invalid_argument& e) {
      list.at(i).fail(e.what());
    }
    // As for one generated topology: past a million vertices the graph alone takes gigabytes.
    if ((vertices += parts.back().vertices()) > (1 << 20)) list.at(i).fail("the parts have more than 1,048,576 vertices");
  }
  auto composition = compose(parts, root.has("switches") ? root.at("switches").whole(0) : 0);
  read_links(composition.machine, root, &composition);
  return std::move(composition.machine);
}

std::vector<int> mapping_file(const std::filesystem::path& path, const Field& f) {
  std::ifstream in(path);
  if (!std::filesystem::is_regular_file(path) || !in) f.fail(fmt::format("cannot open mapping file '{}'", path.string()));
  std::vector<int> nodes;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    line = line.substr(0, line.find('#'));
    std::istringstream words(line);
    int node;
    while (words >> node) nodes.push_back(node);
    if (!words.eof()) f.fail(fmt::format("{} line {}: expected node numbers", path.string(), number));
  }
  return nodes;
}

void read_mapping(Machine& m, const Field& f, const std::filesystem::path& directory) {
  if (f.value.is_array()) {
    m.mapping = Mapping::file;
    m.rank_nodes = whole_list(f, 0);
  } else if (f.value.is_object()) {
    f.only({"file"});
    m.mapping = Mapping::file;
    m.rank_nodes = mapping_file(directory / f.at("file").string(), f.at("file"));
  } else {
    const auto name = f.string();
    if (name != "block" && name != "round-robin") f.fail("expected \"block\", \"round-robin\", a list or {\"file\": …}");
    m.mapping = name == "block" ? Mapping::block : Mapping::round_robin;
  }
}

Machine read(const Field& root, const std::filesystem::path& directory) {
  root.only({"augur_machine", "name", "description", "topology", "parts", "node_type", "node_types", "nodes", "switches",
             "links", "routing", "dims", "wraps", "levels", "hop_latency", "mapping"});
  if (!root.has("augur_machine") || root.at("augur_machine").value != 1)
    root.fail("missing \"augur_machine\": 1 (the format's version)");
  Machine m;
  if (root.has("topology")) {
    for (const char* graph : {"node_types", "nodes", "switches", "links", "routing", "dims", "wraps", "levels"})
      if (root.has(graph)) root.at(graph).fail("not allowed beside \"topology\", which generates the graph");
    try {
      m = generate_topology(root.at("topology").string());
    } catch (const std::invalid_argument& e) {
      root.at("topology").fail(e.what());
    }
    if (root.has("node_type")) m.node_types = {node_type(root.at("node_type"))};
  } else if (root.has("parts")) {
    m = read_parts(root);
    if (root.has("node_type")) m.node_types.assign(m.node_types.size(), node_type(root.at("node_type")));
  } else {
    read_graph(m, root);
  }
  if (root.has("name")) m.name = root.at("name").string();
  if (root.has("hop_latency")) m.hop_latency = root.at("hop_latency").seconds();
  if (root.has("mapping")) read_mapping(m, root.at("mapping"), directory);
  return m;
}

}  // namespace

Machine parse_machine(std::string_view text, const std::string& source, const std::filesystem::path& directory) {
  json document;
  try {
    document = json::parse(text);
  } catch (const json::exception& e) {  // parse_error, and out_of_range for a number past a double
    throw model::ModelError(source, "", fmt::format("not valid JSON: {}", e.what()));
  }
  auto m = read(Field{document, "", source}, directory);
  try {
    validate(m);
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    const auto colon = what.find(": ");
    throw model::ModelError(source, what.substr(0, colon), what.substr(colon + 2));
  }
  return m;
}

Machine load_machine(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw model::ModelError(path.string(), "", "cannot open the file for reading");
  std::stringstream text;
  text << in.rdbuf();
  return parse_machine(text.str(), path.string(), path.parent_path());
}

// A name such as torus:8x8 has a colon and no such file; a path is read as a machine file, in
// Parasol's format when it ends in .parasol.
Machine machine_from_argument(std::string_view argument) {
  const std::filesystem::path path{std::string(argument)};
  if (argument.find(':') != std::string_view::npos && !std::filesystem::exists(path)) return generate_topology(argument);
  if (path.extension() == ".parasol") return load_parasol(path.string()).machine;
  return load_machine(path);
}

}  // namespace augur::sim
