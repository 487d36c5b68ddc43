#include "sim/network/scaling.hpp"

#include <cmath>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

namespace augur::sim {
namespace {

double* loggops_term(LogGOPSParams& p, std::string_view name) {
  if (name == "L") return &p.L;
  if (name == "o") return &p.o;
  if (name == "g") return &p.g;
  if (name == "G") return &p.G;
  if (name == "O") return &p.O;
  return nullptr;
}

[[noreturn]] void unknown(std::string_view name, std::string_view what, const std::vector<Knob>& known) {
  std::string names;
  for (const auto& k : known) names += (names.empty() ? "" : ", ") + k.name;
  throw std::invalid_argument(fmt::format("parameter '{}': {} has no such parameter (it has: {}, compute)", name,
                                          what, names.empty() ? "none" : names));
}

// "L:core" → ("L", "core"); "L" → ("L", "").
std::pair<std::string_view, std::string_view> split(std::string_view name) {
  const auto colon = name.find(':');
  if (colon == std::string_view::npos) return {name, {}};
  return {name.substr(0, colon), name.substr(colon + 1)};
}

}  // namespace

void check_factor(std::string_view name, double factor) {
  if (!(factor > 0) || !std::isfinite(factor))
    throw std::invalid_argument(fmt::format("parameter '{}': factor {} must be a positive finite number", name, factor));
}

bool is_loggops_knob(std::string_view name) {
  LogGOPSParams p;
  return loggops_term(p, name) != nullptr;
}
bool is_machine_knob(std::string_view name) {
  const auto term = split(name).first;
  return term == "L" || term == "G";
}
bool is_model_knob(std::string_view name) { return name.starts_with("law:") || name == "G"; }

std::vector<Knob> loggops_knobs(const LogGOPSParams& p) {
  std::vector<Knob> out;
  const auto add = [&](std::string name, std::string meaning, double v, std::string unit) {
    if (v > 0) out.push_back({std::move(name), std::move(meaning), v, std::move(unit)});
  };
  add("L", "latency", p.L, "s");
  add("o", "overhead a message (send and receive)", p.o, "s");
  add("g", "gap between messages", p.g, "s");
  add("G", "time per byte (1/bandwidth)", p.G, "s/B");
  add("O", "overhead per byte", p.O, "s/B");
  return out;
}

std::string link_class(const Machine& m, const Link& l) {
  if (is_memory(l)) return "memory";
  if (l.shared || l.ends.size() > 2) return "shared";
  const bool a = l.ends[0] < m.nodes(), b = l.ends[1] < m.nodes();
  return a && b ? "direct" : a || b ? "edge" : "core";
}

std::vector<Knob> machine_knobs(const Machine& m) {
  std::set<std::string> classes;
  double latency = 0, per_byte = 0;  // the first link's, to show a value
  for (const auto& l : m.links) {
    classes.insert(link_class(m, l));
    if (latency == 0) latency = l.latency + m.hop_latency;
    if (per_byte == 0 && l.bandwidth > 0) per_byte = 1 / l.bandwidth;
  }
  std::vector<Knob> out;
  if (latency > 0) out.push_back({"L", "latency of every link", latency, "s"});
  out.push_back({"G", "time per byte (1/bandwidth) of every link", per_byte, "s/B"});
  if (classes.size() < 2) return out;
  for (const auto& c : classes) {
    for (const auto& l : m.links) {
      if (link_class(m, l) != c) continue;
      if (l.latency > 0) out.push_back({"L:" + c, "latency of " + c + " links", l.latency, "s"});
      out.push_back({"G:" + c, "time per byte of " + c + " links", 1 / l.bandwidth, "s/B"});
      break;
    }
  }
  return out;
}

std::vector<Knob> model_knobs(const model::Model& m, bool with_bandwidth) {
  std::vector<Knob> out;
  if (with_bandwidth && m.network.bandwidth > 0)
    out.push_back({"G", "time per byte (1/bandwidth) of the network section", 1 / m.network.bandwidth, "s/B"});
  for (const auto& [name, op] : m.operations) out.push_back({"law:" + name, "law of " + name, 1, "x"});
  return out;
}

Knob compute_knob() { return {"compute", "every compute grain", 1, "x"}; }

LogGOPSParams scaled(LogGOPSParams p, std::string_view name, double factor) {
  check_factor(name, factor);
  double* term = loggops_term(p, name);
  // A term that is 0 here would scale to 0: no parameter of this network.
  if (!term || *term == 0) unknown(name, "the LogGOPS network", loggops_knobs(p));
  *term *= factor;
  return p;
}

Machine scaled(Machine m, std::string_view name, double factor) {
  check_factor(name, factor);
  const auto [term, cls] = split(name);
  if (term != "L" && term != "G") unknown(name, "the machine " + m.name, machine_knobs(m));
  bool any = false;
  for (auto& l : m.links) {
    if (!cls.empty() && link_class(m, l) != cls) continue;
    any = true;
    if (term == "L") l.latency *= factor;
    else l.bandwidth /= factor;
  }
  if (!any) unknown(name, "the machine " + m.name, machine_knobs(m));
  if (term == "L" && cls.empty()) m.hop_latency *= factor;
  return m;
}

model::Model scaled(model::Model m, std::string_view name, double factor) {
  check_factor(name, factor);
  if (name == "G" && m.network.bandwidth > 0) {
    m.network.bandwidth /= factor;
    return m;
  }
  auto it = name.starts_with("law:") ? m.operations.find(name.substr(4)) : m.operations.end();
  if (it == m.operations.end()) unknown(name, "the model of " + m.machine.name, model_knobs(m, true));
  const auto times = [&](const model::Expression& e) {
    return model::Expression(fmt::format("({})*{:.17g}", e.text(), factor));
  };
  for (auto& regime : it->second.regimes) {
    if (auto* fitted = std::get_if<model::FittedForm>(&regime.law)) {
      for (auto& t : fitted->terms) {
        t.coef *= factor;
        t.stderr_ *= factor;
      }
    } else {
      auto& free = std::get<model::FreeForm>(regime.law);
      free.avg = times(free.avg);
      if (free.min) free.min = times(*free.min);
      if (free.max) free.max = times(*free.max);
    }
  }
  return m;
}

}  // namespace augur::sim
