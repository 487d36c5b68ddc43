#include "fit/raw.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string_view>

#include "model/catalog.hpp"
#include "model/model_json.hpp"

namespace augur::fit {
namespace {

constexpr int kRawVersion = 1;

double number_field(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end()) throw std::invalid_argument(std::string(key) + ": missing");
  if (!it->is_number()) throw std::invalid_argument(std::string(key) + ": not a number");
  return it->get<double>();
}

// Range-checked before the cast: converting a double beyond int's range is undefined.
int integer_field(const nlohmann::json& j, const char* key) {
  const double v = number_field(j, key);
  if (v != std::floor(v)) throw std::invalid_argument(std::string(key) + ": not an integer");
  if (std::abs(v) > std::numeric_limits<int>::max()) throw std::invalid_argument(std::string(key) + ": too large");
  return static_cast<int>(v);
}

RoleTimes roles_from_json(const nlohmann::json& j) {
  if (!j.is_object()) throw std::invalid_argument("roles: not a JSON object");
  try {
    return {number_field(j, "root"), number_field(j, "others")};
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("roles.") + e.what());
  }
}

std::string operation_field(const nlohmann::json& j) {
  auto op = j.find("op");
  if (op == j.end() || !op->is_string()) throw std::invalid_argument("op: missing or not a string");
  auto name = op->get<std::string>();
  if (!model::find_operation_info(name))
    throw std::invalid_argument("op: unknown operation '" + name + "' (see the catalog in docs/model-format.md)");
  return name;
}

void check_point(int p, double bytes, int pass) {
  if (p < 1) throw std::invalid_argument("p: must be at least 1");
  if (!std::isfinite(bytes) || bytes < 0) throw std::invalid_argument("bytes: must be a finite number >= 0");
  if (pass < 1) throw std::invalid_argument("pass: must be at least 1");
}

Unmeasurable unmeasurable_from_json(const nlohmann::json& j) {
  Unmeasurable u;
  u.op = operation_field(j);
  u.p = integer_field(j, "p");
  u.bytes = number_field(j, "bytes");
  const auto& error = j.at("not_measurable");
  if (!error.is_string() || error.get<std::string>().empty())
    throw std::invalid_argument("not_measurable: must be the MPI library's error text (a string, not empty)");
  u.error = error.get<std::string>();
  if (j.contains("pass")) u.pass = integer_field(j, "pass");
  check_point(u.p, u.bytes, u.pass);
  return u;
}

Measurement measurement_from_json(const nlohmann::json& j) {
  Measurement m;
  m.op = operation_field(j);
  m.p = integer_field(j, "p");
  m.bytes = number_field(j, "bytes");
  m.min = number_field(j, "min");
  m.median = number_field(j, "median");
  m.mean = number_field(j, "mean");
  m.max = number_field(j, "max");
  m.stddev = number_field(j, "std");
  m.reps = integer_field(j, "reps");
  if (j.contains("skew")) m.skew = number_field(j, "skew");
  if (j.contains("clock_error")) m.clock_error = number_field(j, "clock_error");
  if (j.contains("roles")) m.roles = roles_from_json(j.at("roles"));
  if (j.contains("pass")) m.pass = integer_field(j, "pass");
  if (j.contains("calls")) m.calls = integer_field(j, "calls");
  if (j.contains("state_probe")) m.state_probe = number_field(j, "state_probe");
  if (j.contains("compute_probe")) m.compute_probe = number_field(j, "compute_probe");
  if (j.contains("nodes") != j.contains("ranks_per_node"))
    throw std::invalid_argument(j.contains("nodes") ? "ranks_per_node: missing (nodes and ranks_per_node go together)"
                                                    : "nodes: missing (nodes and ranks_per_node go together)");
  if (j.contains("nodes")) {
    m.nodes = integer_field(j, "nodes");
    m.ranks_per_node = integer_field(j, "ranks_per_node");
  }
  check_measurement(m);
  return m;
}

}  // namespace

void check_measurement(const Measurement& m) {
  auto bad = [](const std::string& what) { throw std::invalid_argument(what); };
  if (m.op.empty()) bad("op: empty");
  check_point(m.p, m.bytes, m.pass);
  for (double v : {m.min, m.median, m.mean, m.max, m.stddev})
    if (!std::isfinite(v) || v < 0) bad("times must be finite and >= 0");
  if (!(m.min <= m.median && m.median <= m.max && m.min <= m.mean && m.mean <= m.max))
    bad("times must satisfy min <= median, mean <= max");
  if (m.reps < 1) bad("reps: must be at least 1");
  if (m.calls < 1) bad("calls: must be at least 1");
  if (m.skew && !(std::isfinite(*m.skew) && *m.skew >= 0)) bad("skew: must be finite and >= 0");
  if (m.clock_error && !(std::isfinite(*m.clock_error) && *m.clock_error >= 0))
    bad("clock_error: must be finite and >= 0");
  if (m.state_probe && !(std::isfinite(*m.state_probe) && *m.state_probe > 0))
    bad("state_probe: must be finite and > 0");
  if (m.compute_probe && !(std::isfinite(*m.compute_probe) && *m.compute_probe > 0))
    bad("compute_probe: must be finite and > 0");
  if (m.placed()) {
    if (m.nodes < 1) bad("nodes: must be at least 1");
    if (m.ranks_per_node < 1) bad("ranks_per_node: must be at least 1");
    if (static_cast<long long>(m.nodes) * m.ranks_per_node != m.p)
      bad("nodes: nodes x ranks_per_node (" + std::to_string(m.nodes) + " x " + std::to_string(m.ranks_per_node) +
          ") must equal p (" + std::to_string(m.p) + ")");
  }
  if (m.roles && !(std::isfinite(m.roles->root) && m.roles->root >= 0 && std::isfinite(m.roles->others) &&
                   m.roles->others >= 0))
    bad("roles: times must be finite and >= 0");
}

model::Compute header_compute(const nlohmann::json& header, const std::string& source) {
  auto it = header.find("compute");
  if (it == header.end()) return {};
  return model::parse_compute(*it, source);
}

HeaderNodes header_nodes(const nlohmann::json& header) {
  HeaderNodes out;
  const auto settings = header.find("settings");
  if (settings == header.end() || !settings->is_object()) return out;
  auto read = [&](const char* key, int& field) {
    if (!settings->contains(key)) return;
    try {
      field = integer_field(*settings, key);
    } catch (const std::invalid_argument&) {
      field = 0;
    }
    if (field < 1) throw std::invalid_argument(std::string("settings.") + key + ": must be an integer >= 1");
  };
  read("ranks_per_node", out.ranks_per_node);
  read("nodes", out.nodes);
  return out;
}

nlohmann::json to_json(const Measurement& m) {
  nlohmann::json j = {{"op", m.op},         {"p", m.p},       {"bytes", m.bytes}, {"min", m.min},
                      {"median", m.median}, {"mean", m.mean}, {"max", m.max},     {"std", m.stddev},
                      {"reps", m.reps}};
  if (m.skew) j["skew"] = *m.skew;
  if (m.clock_error) j["clock_error"] = *m.clock_error;
  if (m.roles) j["roles"] = {{"root", m.roles->root}, {"others", m.roles->others}};
  if (m.pass > 1) j["pass"] = m.pass;
  if (m.calls > 1) j["calls"] = m.calls;
  if (m.state_probe) j["state_probe"] = *m.state_probe;
  if (m.compute_probe) j["compute_probe"] = *m.compute_probe;
  if (m.placed()) {
    j["nodes"] = m.nodes;
    j["ranks_per_node"] = m.ranks_per_node;
  }
  return j;
}

std::string error_headline(const std::string& error) {
  std::string line = error.substr(0, error.find('\n'));
  constexpr std::string_view kStack = ", error stack:";
  if (line.ends_with(kStack)) line.erase(line.size() - kStack.size());
  return line;
}

nlohmann::json to_json(const Unmeasurable& u) {
  nlohmann::json j = {{"op", u.op}, {"p", u.p}, {"bytes", u.bytes}, {"not_measurable", u.error}};
  if (u.pass > 1) j["pass"] = u.pass;
  return j;
}

RawSet parse_raw(std::istream& in, const std::string& source, bool tolerate_truncated_tail) {
  RawSet set;
  std::string line;
  int number = 0;
  bool have_header = false;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty()) continue;
    bool last_line = in.peek() == std::char_traits<char>::eof();
    auto where = source + ":" + std::to_string(number) + ": ";
    nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded()) {
      if (last_line && tolerate_truncated_tail) break;
      throw std::runtime_error(where + "not valid JSON (truncated or corrupted line)");
    }
    if (!have_header) {
      if (!j.is_object() || !j.contains("augur_raw"))
        throw std::runtime_error(where + "augur_raw: the first line must be the header");
      if (j["augur_raw"] != kRawVersion)
        throw std::runtime_error(where + "augur_raw: unsupported version " + j["augur_raw"].dump());
      header_compute(j, source + ":" + std::to_string(number));
      try {
        header_nodes(j);
      } catch (const std::invalid_argument& e) {
        throw std::runtime_error(where + e.what());
      }
      set.header = std::move(j);
      have_header = true;
      continue;
    }
    try {
      if (!j.is_object()) throw std::invalid_argument("record is not a JSON object");
      if (j.contains("not_measurable"))
        set.unmeasurable.push_back(unmeasurable_from_json(j));
      else
        set.points.push_back(measurement_from_json(j));
    } catch (const std::exception& e) {
      throw std::runtime_error(where + e.what());
    }
  }
  if (!have_header) throw std::runtime_error(source + ": empty file (no augur_raw header)");
  return set;
}

RawSet read_raw_file(const std::filesystem::path& path, bool tolerate_truncated_tail) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path.string() + ": cannot open for reading");
  return parse_raw(in, path.string(), tolerate_truncated_tail);
}

RawWriter::RawWriter(const std::filesystem::path& path, const nlohmann::json& header, bool append) {
  out_.open(path, append ? std::ios::app : std::ios::trunc);
  if (!out_) throw std::runtime_error(path.string() + ": cannot open for writing");
  if (!append) {
    nlohmann::json h = header;
    h["augur_raw"] = kRawVersion;
    out_ << h.dump() << '\n' << std::flush;
  }
}

void RawWriter::write(const Measurement& m) {
  check_measurement(m);
  out_ << to_json(m).dump() << '\n' << std::flush;
}

void RawWriter::write(const Unmeasurable& u) {
  if (u.error.empty()) throw std::invalid_argument("not_measurable: the error text is empty");
  check_point(u.p, u.bytes, u.pass);
  out_ << to_json(u).dump() << '\n' << std::flush;
}

}  // namespace augur::fit
