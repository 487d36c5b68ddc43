#include "sim/network/parasol.hpp"

#include <charconv>
#include <fstream>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "util/text.hpp"

namespace augur::sim {
namespace {

std::string_view trim(std::string_view s) { return util::trim(s, " \t\r"); }

// Which blocks may open inside which ("" is the file itself).
const std::map<std::string, std::set<std::string>, std::less<>> kChildren{
    {"", {"machine"}},
    {"machine", {"processor", "topology", "machinecombinations"}},
    {"processor", {"timings", "cache", "combinations"}},
    {"topology", {"procid", "linklist"}},
    {"linklist", {"link"}},
};

class Reader {
 public:
  explicit Reader(const std::string& source) : source_(source) {}

  ParasolMachine read(std::string_view text) {
    for (std::istringstream lines{std::string(text)}; std::getline(lines, current_);) {
      ++line_;
      std::string_view content = current_;
      content = content.substr(0, content.find('#'));
      for (std::size_t at; !content.empty(); content.remove_prefix(at == std::string_view::npos ? content.size() : at + 1)) {
        at = content.find(';');
        if (auto s = trim(content.substr(0, at)); !s.empty()) statement(s);
      }
    }
    if (!done_) fail(blocks_.empty() ? "no `begin machine`" : fmt::format("`begin {}` is never ended", blocks_.back()));
    return std::move(out_);
  }

 private:
  [[noreturn]] void fail(const std::string& reason) const {
    throw ParasolError(fmt::format("{}:{}: {}", source_, line_, reason));
  }

  std::string block() const { return blocks_.empty() ? "" : blocks_.back(); }

  void statement(std::string_view s) {
    if (done_) fail("text after `end machine`");
    if (s.starts_with("begin ")) return open(std::string(trim(s.substr(6))));
    if (s.starts_with("end ")) return close(std::string(trim(s.substr(4))));
    const auto eq = s.find('=');
    if (eq == std::string_view::npos) fail(fmt::format("expected `name = value`, `begin NAME` or `end NAME`, found '{}'", s));
    assign(std::string(trim(s.substr(0, eq))), trim(s.substr(eq + 1)));
  }

  void open(const std::string& name) {
    auto allowed = kChildren.find(block());
    if (allowed == kChildren.end() || !allowed->second.contains(name))
      fail(fmt::format("`begin {}` cannot be inside {}", name, block().empty() ? "the file" : fmt::format("`{}`", block())));
    if (name == "topology" && topologies_++ > 0) fail("only one topology per machine is supported");
    if (name == "processor") processor_ = -1;
    if (name == "link") link_ = Link{}, has_speed_ = false;
    blocks_.push_back(name);
  }

  void close(const std::string& name) {
    if (block() != name) fail(fmt::format("`end {}` does not close {}", name, block().empty() ? "anything" : "`begin " + block() + "`"));
    blocks_.pop_back();
    if (name == "link") end_link();
    if (name == "processor" && processor_ < 0) fail("a processor needs an id");
    if (name == "topology") end_topology();
    if (name == "machine") done_ = true;
  }

  double number(std::string_view v) const {
    double x = 0;
    auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
    if (ec != std::errc() || end != v.data() + v.size()) fail(fmt::format("'{}' is not a number", v));
    return x;
  }
  int whole(std::string_view v, int least) const {
    const double x = number(v);
    if (x != static_cast<int>(x) || x < least || x > (1 << 20)) fail(fmt::format("'{}' is not a whole number from {}", v, least));
    return static_cast<int>(x);
  }
  std::string text(std::string_view v) const {
    if (v.size() < 2 || v.front() != '"' || v.back() != '"') fail(fmt::format("expected a quoted string, found '{}'", v));
    return std::string(v.substr(1, v.size() - 2));
  }
  std::vector<double> numbers(std::string_view v) const {
    std::vector<double> out;
    std::istringstream words{std::string(v)};
    for (std::string w; words >> w;) out.push_back(number(w));
    if (out.empty()) fail("expected numbers");
    return out;
  }

  void assign(const std::string& key, std::string_view value) {
    const auto b = block();
    if (b == "machine") return machine_field(key, value);
    if (b == "processor") return key == "id" ? processor_field(value) : unknown(key);
    if (b == "timings") return (void)(out_.timings[processor_][key] = numbers(value));
    if (b == "cache") return key == "size" || key == "smallloopspeedup" ? (void)number(value) : unknown(key);
    if (b == "combinations" || b == "machinecombinations") return (void)out_.combinations.emplace_back(key, std::string(value));
    if (b == "topology") return topology_field(key, value);
    if (b == "procid") return procid_field(key, value);
    if (b == "link") return link_field(key, value);
    fail(fmt::format("'{} = …' cannot be {}", key, b.empty() ? "outside `begin machine`" : "inside `" + b + "`"));
  }

  [[noreturn]] void unknown(const std::string& key) const { fail(fmt::format("unknown field '{}' in `{}`", key, block())); }

  void machine_field(const std::string& key, std::string_view value) {
    if (key == "name") out_.machine.name = text(value);
    else if (key == "id" || key == "processors" || key == "topologies") whole(value, 0);
    else unknown(key);
  }

  void processor_field(std::string_view value) {
    processor_ = whole(value, 1);
    if (type_of_.contains(processor_)) fail(fmt::format("processor {} is defined twice", processor_));
    type_of_[processor_] = static_cast<int>(out_.machine.node_types.size());
    out_.machine.node_types.push_back({fmt::format("processor {}", processor_), 1, 1.0});
  }

  void topology_field(const std::string& key, std::string_view value) {
    if (key == "processors") out_.machine.node_type.assign(whole(value, 1), -1);
    else if (key == "links") declared_links_ = whole(value, 0);
    else if (key == "routing") out_.routing = text(value);
    else if (key == "setup") out_.setup = number(value);
    else if (key == "id" || key == "name") return;
    else unknown(key);
  }

  // p[i] = t: hardware processor i (from 1) is of processor type t.
  void procid_field(const std::string& key, std::string_view value) {
    if (!key.starts_with("p[") || !key.ends_with("]")) fail(fmt::format("expected p[i] = type, found '{}'", key));
    const int node = whole(std::string_view(key).substr(2, key.size() - 3), 1);
    if (node > out_.machine.nodes()) fail(fmt::format("processor {} is beyond the topology's {} processors", node, out_.machine.nodes()));
    const int type = whole(value, 1);
    if (!type_of_.contains(type)) fail(fmt::format("no processor type {}", type));
    out_.machine.node_type[node - 1] = type_of_[type];
  }

  // speed is seconds per byte; connect is the number of processors, then their ids from 1.
  void link_field(const std::string& key, std::string_view value) {
    if (key == "latency") link_.latency = number(value);
    else if (key == "speed") link_.bandwidth = 1 / number(value), has_speed_ = number(value) > 0;
    else if (key == "connect") connect(numbers(value));
    else if (key != "id") unknown(key);
  }

  void connect(const std::vector<double>& v) {
    if (v.size() < 3 || v[0] != static_cast<double>(v.size() - 1))
      fail("connect: expected the number of processors, then that many processor ids");
    link_.ends.clear();
    for (std::size_t i = 1; i < v.size(); ++i) {
      if (v[i] < 1 || v[i] > out_.machine.nodes() || v[i] != static_cast<int>(v[i]))
        fail(fmt::format("connect: processor {} is not one of the topology's 1 … {}", v[i], out_.machine.nodes()));
      link_.ends.push_back(static_cast<int>(v[i]) - 1);
    }
    link_.shared = link_.ends.size() > 2;  // a bus is one link
    link_.full_duplex = !link_.shared;
  }

  void end_link() {
    if (link_.ends.empty()) fail("a link needs `connect`");
    if (!has_speed_) fail("a link needs a positive `speed` (seconds per byte)");
    out_.machine.links.push_back(link_);
  }

  void end_topology() {
    auto& m = out_.machine;
    if (m.nodes() == 0) fail("a topology needs `processors`");
    if (m.node_types.empty()) fail("a topology needs a processor type (`begin processor`) before it");
    for (auto& t : m.node_type)
      if (t < 0) t = 0;  // not in procid: the first processor type
    if (declared_links_ >= 0 && declared_links_ != static_cast<int>(m.links.size()))
      fail(fmt::format("the topology declares {} links but lists {}", declared_links_, m.links.size()));
  }

  const std::string& source_;
  std::string current_;
  int line_ = 0;
  std::vector<std::string> blocks_;
  ParasolMachine out_;
  std::map<int, int> type_of_;  // processor id -> node type index
  int processor_ = -1, topologies_ = 0, declared_links_ = -1;
  Link link_;
  bool has_speed_ = false, done_ = false;
};

}  // namespace

ParasolMachine parse_parasol(std::string_view text, const std::string& source) {
  auto out = Reader(source).read(text);
  if (out.machine.nodes() == 0) throw ParasolError(source + ": the machine has no topology");
  try {
    validate(out.machine);
  } catch (const std::invalid_argument& e) {
    throw ParasolError(source + ": " + e.what());
  }
  return out;
}

ParasolMachine load_parasol(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw ParasolError(path + ": cannot open the file for reading");
  std::stringstream text;
  text << in.rdbuf();
  return parse_parasol(text.str(), path);
}

}  // namespace augur::sim
