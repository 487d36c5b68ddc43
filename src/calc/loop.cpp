#include "calc/loop.hpp"

#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "util/numbers.hpp"
#include "model/units.hpp"

namespace augur::calc {
namespace {

struct Key {
  const char* name;
  double node::LoopCounts::*field;
  const char* meaning;
  bool rate;  // a miss rate, 0..1, rather than a count
};

const std::vector<Key>& keys() {
  static const std::vector<Key> all{
      {"fa", &node::LoopCounts::f_a, "adds", false},          {"fm", &node::LoopCounts::f_m, "multiplies", false},
      {"fma", &node::LoopCounts::f_ma, "multiply-adds", false}, {"fdiv", &node::LoopCounts::f_div, "divides", false},
      {"fsqrt", &node::LoopCounts::f_sqrt, "square roots", false}, {"l", &node::LoopCounts::l, "loads", false},
      {"s", &node::LoopCounts::s, "stores", false},
      {"td", &node::LoopCounts::t_d, "cycles of the loop-carried dependence path", false},
      {"ml", &node::LoopCounts::m_l, "load miss rate", true},   {"ms", &node::LoopCounts::m_s, "store miss rate", true}};
  return all;
}

double parse_value(const std::string& word, const std::string& text) {
  const auto v = util::parse_number(text);
  if (!v) throw std::invalid_argument(fmt::format("loop: '{}': '{}' is not a number", word, text));
  return *v;
}

std::string cycles(double c) { return fmt::format("{:g} cycles", c); }

}  // namespace

node::LoopCounts parse_loop(const std::vector<std::string>& words) {
  node::LoopCounts loop;
  std::set<std::string> seen;
  for (const auto& word : words) {
    const auto eq = word.find('=');
    if (eq == std::string::npos) throw std::invalid_argument(fmt::format("loop: '{}' is not KEY=VALUE (keys: {})", word, kLoopKeys));
    const auto name = word.substr(0, eq);
    const Key* key = nullptr;
    for (const auto& k : keys())
      if (name == k.name) key = &k;
    if (!key) throw std::invalid_argument(fmt::format("loop: '{}': unknown key '{}' (keys: {})", word, name, kLoopKeys));
    if (!seen.insert(name).second) throw std::invalid_argument(fmt::format("loop: '{}': {} is given twice", word, name));
    const double v = parse_value(word, word.substr(eq + 1));
    if (v < 0) throw std::invalid_argument(fmt::format("loop: '{}': {} ({}) cannot be negative", word, name, key->meaning));
    if (key->rate && v > 1) throw std::invalid_argument(fmt::format("loop: '{}': {} ({}) is a fraction, 0 to 1", word, name, key->meaning));
    loop.*(key->field) = v;
  }
  return loop;
}

LoopAnswer ask_loop(const model::Model& machine, const node::LoopCounts& loop) {
  auto node = node::node_for(machine);
  auto bound = node::ma_bound(loop, node);
  return {loop, std::move(node), bound};
}

std::string format_loop(const model::Model& machine, const LoopAnswer& a) {
  const auto& b = a.bound;
  std::string counts;
  for (const auto& k : keys()) counts += fmt::format("{}{}={:g}", counts.empty() ? "" : " ", k.name, a.loop.*(k.field));
  std::string out = fmt::format("loop on {}, node {}\n  {}\n", machine.machine.name, a.node.name, counts);
  out += fmt::format("Node: {}\n", a.node.derivation);
  out += fmt::format("Cycles per iteration:\n  t_f  = {} (arithmetic {:g})\n  t_fx = {}\n  t_m  = {}\n  t_i  = {}\n  t_d  = {}\n",
                     cycles(b.t_f), b.t_f_arith, cycles(b.t_fx), cycles(b.t_m), cycles(b.t_i), cycles(b.t_d));
  out += fmt::format("  t_l  = max = {} ({})\n", cycles(b.t_l), b.limit);
  if (b.flops > 0)
    out += fmt::format("CPF = {:.3f} cycles per flop ({:g} flops an iteration)\nMFLOPS = {:.1f} (bound)\n", b.cpf, b.flops, b.mflops);
  else
    out += "CPF, MFLOPS: none, the loop has no flops\n";
  out += fmt::format("Time: {} per iteration at {:g} MHz\n", model::format_seconds(b.seconds), a.node.clock_hz / 1e6);
  return out;
}

nlohmann::json loop_to_json(const model::Model& machine, const LoopAnswer& a) {
  const auto& b = a.bound;
  nlohmann::json counts = nlohmann::json::object();
  for (const auto& k : keys()) counts[k.name] = a.loop.*(k.field);
  return {{"machine", machine.machine.name},
          {"node", {{"name", a.node.name},
                    {"clock_hz", a.node.clock_hz},
                    {"load_miss_cycles", a.node.load_miss_cycles},
                    {"store_miss_cycles", a.node.store_miss_cycles},
                    {"derivation", a.node.derivation}}},
          {"loop", counts},
          {"cycles", {{"t_f", b.t_f}, {"t_f_arith", b.t_f_arith}, {"t_fx", b.t_fx}, {"t_m", b.t_m}, {"t_i", b.t_i},
                      {"t_d", b.t_d}, {"t_l", b.t_l}}},
          {"limit", b.limit},
          {"flops", b.flops},
          {"cpf", b.flops > 0 ? nlohmann::json(b.cpf) : nlohmann::json(nullptr)},
          {"mflops", b.flops > 0 ? nlohmann::json(b.mflops) : nlohmann::json(nullptr)},
          {"seconds_per_iteration", b.seconds}};
}

}  // namespace augur::calc
