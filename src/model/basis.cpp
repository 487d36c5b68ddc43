#include "model/basis.hpp"

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "util/text.hpp"

namespace augur::model {
namespace {

double log_of(double p, LogKind kind) {
  switch (kind) {
    case LogKind::natural: return std::log(p);
    case LogKind::base2: return std::log2(p);
    case LogKind::floor_base2: return std::floor(std::log2(p));
  }
  return 0;
}

// Integer powers are by far the common case; std::pow costs several times a multiply.
double power(double x, double e) {
  if (e == 1) return x;
  if (e == 2) return x * x;
  if (e == 3) return x * x * x;
  if (e == 0.5) return std::sqrt(x);
  return std::pow(x, e);
}

std::string exponent_text(double e) {
  return e == 1 ? "" : fmt::format("^{}", e);
}

std::string_view log_name(LogKind kind) {
  switch (kind) {
    case LogKind::natural: return "log(p)";
    case LogKind::base2: return "log2(p)";
    case LogKind::floor_base2: return "floor(log2(p))";
  }
  return "";
}

std::vector<std::string_view> split_factors(std::string_view text) {
  std::vector<std::string_view> factors;
  while (true) {
    auto star = text.find('*');
    factors.push_back(text.substr(0, star));
    if (star == std::string_view::npos) break;
    text.remove_prefix(star + 1);
  }
  return factors;
}

std::string_view trim(std::string_view s) { return util::trim(s, " "); }

// Splits "name^k" into name and k (1 without a caret).
double take_exponent(std::string_view& factor) {
  auto caret = factor.rfind('^');
  if (caret == std::string_view::npos || factor.find(')', caret) != std::string_view::npos) return 1;
  std::string digits(trim(factor.substr(caret + 1)));
  factor = trim(factor.substr(0, caret));
  std::size_t used = 0;
  double e = 0;
  try {
    e = std::stod(digits, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != digits.size() || !std::isfinite(e) || e <= 0)
    throw std::invalid_argument("bad exponent '" + digits + "'");
  return e;
}

}  // namespace

double Basis::operator()(double p, double d) const {
  double v = 1;
  if (p_power != 0) v *= power(p, p_power);
  if (log_power != 0) v *= power(log_of(p, log_kind), log_power);
  if (d_power != 0) v *= d;
  return v;
}

std::string Basis::name() const {
  std::vector<std::string> parts;
  if (p_power == 0.5) parts.push_back("sqrt(p)");
  else if (p_power != 0) parts.push_back(fmt::format("p{}", exponent_text(p_power)));
  if (log_power != 0) parts.push_back(std::string(log_name(log_kind)) + exponent_text(log_power));
  if (d_power != 0) parts.push_back("d");
  if (parts.empty()) return "1";
  std::string text = parts[0];
  for (std::size_t i = 1; i < parts.size(); ++i) text += "*" + parts[i];
  return text;
}

Basis Basis::parse(std::string_view text) {
  Basis b;
  bool seen_p = false, seen_log = false, seen_d = false;
  for (auto raw : split_factors(text)) {
    auto factor = trim(raw);
    if (factor.empty()) throw std::invalid_argument("empty factor in basis '" + std::string(text) + "'");
    if (factor == "1") continue;
    double e = take_exponent(factor);
    auto once = [&](bool& seen, const char* what) {
      if (seen) throw std::invalid_argument(std::string("more than one ") + what + " factor in basis '" +
                                            std::string(text) + "'");
      seen = true;
    };
    if (factor == "p") {
      once(seen_p, "p");
      b.p_power = e;
    } else if (factor == "sqrt(p)") {
      once(seen_p, "p");
      b.p_power = 0.5 * e;
    } else if (factor == "log(p)" || factor == "log2(p)" || factor == "floor(log2(p))") {
      once(seen_log, "logarithm");
      b.log_kind = factor == "log(p)" ? LogKind::natural
                   : factor == "log2(p)" ? LogKind::base2 : LogKind::floor_base2;
      b.log_power = e;
    } else if (factor == "d") {
      once(seen_d, "d");
      if (e != 1) throw std::invalid_argument("d may appear only to the first power");
      b.d_power = 1;
    } else {
      throw std::invalid_argument("unknown factor '" + std::string(factor) +
                                  "' (expected 1, p, p^k, sqrt(p), log(p), log2(p), floor(log2(p)), d)");
    }
  }
  return b;
}

}  // namespace augur::model
