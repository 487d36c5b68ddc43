#pragma once
// A basis function of a fitted form: a product p^a · L(p)^b · d^c where L is ln, log2 or
// ⌊log2⌋. This covers the seed's twelve forms and the Extra-P normal form p^i·log2^j(p), and
// evaluates without an expression interpreter (the reverse profiler calls it on every MPI call).
#include <string>
#include <string_view>

namespace augur::model {

enum class LogKind { natural, base2, floor_base2 };

struct Basis {
  double p_power = 0;     // exponent of p (0.5 for √p)
  double log_power = 0;   // exponent of the logarithm of p
  LogKind log_kind = LogKind::natural;
  int d_power = 0;        // 0 or 1: whether the term grows with the data size

  // p = processes, d = data size in the model's size unit.
  double operator()(double p, double d) const;

  // Canonical text: "1", "p", "log(p)", "p^2*d", "sqrt(p)", "log2(p)^2*p", "floor(log2(p))*d" …
  std::string name() const;
  // Parses the text name() produces (and reorderings of its factors); throws
  // std::invalid_argument naming what it could not read.
  static Basis parse(std::string_view text);

  bool operator==(const Basis&) const = default;
};

}  // namespace augur::model
