#include "learn/law_terms.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include <fmt/format.h>

#include "app/process_grid.hpp"

namespace augur::learn {
namespace {

using model::LogKind;

Term term(double p_power, double log_power, double n_power) {
  Term t;
  t.p_part.p_power = p_power;
  t.p_part.log_power = log_power;
  t.p_part.log_kind = LogKind::base2;
  t.n_power = n_power;
  return t;
}

Term division(Term::Division kind) {
  Term t;
  t.division = kind;
  return t;
}

Term grid(int side, double n_power, bool times = false, int dims = 2, int side2 = -1) {
  Term t;
  t.grid_side = side;
  t.grid_side2 = side2;
  t.grid_dims = dims;
  t.n_power = n_power;
  t.grid_times = times;
  return t;
}

// The 3-D grid's terms: n^n_power over one side, and with `faces` over the product of two.
void add_3d_grid_terms(std::vector<Term>& terms, double n_power, bool faces) {
  for (const int side : {0, 1, 2}) terms.push_back(grid(side, n_power, false, 3));
  if (!faces) return;
  for (const auto& [a, b] : {std::pair{0, 1}, std::pair{0, 2}, std::pair{1, 2}}) terms.push_back(grid(a, n_power, false, 3, b));
}

// How one text style writes a term's factors: muparser's or a reader's.
struct Style {
  const char* times;
  const char* floor_open;
  const char* floor_close;
  const char* ceil_open;
  const char* ceil_close;
  const char* root;   // √x or sqrt(x)
  const char* close_root;
  const char* square;
  const char* log2;
  const char* split;  // [x > k], 1 or 0
};

constexpr Style kMuparser{"*", "floor(", ")", "ceil(", ")", "sqrt(", ")", "^2", "log2(p)", "({}>{})"};
constexpr Style kReadable{"·", "⌊", "⌋", "⌈", "⌉", "√", "", "²", "log₂p", "[{} > {}]"};

std::string power_text(const std::string& name, double power, const Style& style) {
  if (power == 1) return name;
  if (power == 0.5) return style.root + name + style.close_root;
  if (power == 2) return name + style.square;
  return fmt::format("{}^{}", name, power);
}

struct TermText {
  std::vector<std::string> numerator;
  std::string denominator;  // empty when none
};

TermText term_text(const Term& t, const std::string& n, const Style& style) {
  TermText text;
  if (t.division == Term::Division::floor) text.numerator.push_back(style.floor_open + n + "/p" + style.floor_close);
  if (t.division == Term::Division::ceil) text.numerator.push_back(style.ceil_open + n + "/p" + style.ceil_close);
  if (t.division != Term::Division::none) return text;
  if (t.n_power != 0) text.numerator.push_back(power_text(n, t.n_power, style));
  if (t.grid_side >= 0) {
    const auto side = fmt::format("dims(p, {}, {})", t.grid_dims, t.grid_side);
    if (t.grid_times) text.numerator.push_back(side);
    else if (t.grid_split > 0) text.numerator.push_back(fmt::format(fmt::runtime(style.split), side, t.grid_split));
    else if (t.grid_per_p) text.denominator = fmt::format("(p{}{})", style.times, side);
    else if (t.grid_side2 < 0) text.denominator = side;
    else text.denominator = fmt::format("({}{}dims(p, {}, {}))", side, style.times, t.grid_dims, t.grid_side2);
    return text;
  }
  if (t.p_part.p_power > 0) text.numerator.push_back(power_text("p", t.p_part.p_power, style));
  if (t.p_part.log_power != 0) text.numerator.push_back(power_text(style.log2, t.p_part.log_power, style));
  if (t.p_part.p_power < 0) text.denominator = power_text("p", -t.p_part.p_power, style);
  return text;
}

// coefficient·term, the coefficient left out when it is 1 and the term has a factor.
std::string product(const std::string& coefficient, bool is_one, const TermText& text, const Style& style) {
  std::string s = is_one && !text.numerator.empty() ? "" : coefficient;
  for (const auto& factor : text.numerator) s += (s.empty() ? "" : style.times) + factor;
  if (!text.denominator.empty()) s += "/" + text.denominator;
  return s;
}

// Joins signed products: "a + b − c", with the first sign written before its term.
std::string join_signed(const std::vector<std::pair<bool, std::string>>& parts, const char* minus) {
  std::string s;
  for (const auto& [negative, text] : parts) {
    if (s.empty()) s = (negative ? std::string(minus) : "") + text;
    else s += std::string(negative ? " " : " + ") + (negative ? std::string(minus) + " " : "") + text;
  }
  return s.empty() ? "0" : s;
}

// A coefficient for people: integers and halves as they are, others to four digits.
std::string readable_number(double x) {
  const bool whole_or_half = std::abs(x) < 1e15 && std::round(2 * x) == 2 * x;
  return whole_or_half ? fmt::format("{}", x) : fmt::format("{:.4g}", x);
}

}  // namespace

double Term::operator()(double p, double n) const {
  if (division == Division::floor) return std::floor(n / p);
  if (division == Division::ceil) return std::ceil(n / p);
  const auto side = [&](int i) { return app::grid_side(p, grid_dims, i); };
  double v = grid_side < 0  ? p_part(p, 1.0)
             : grid_times   ? side(grid_side)
             : grid_split > 0 ? (side(grid_side) > grid_split ? 1.0 : 0.0)
             : grid_per_p   ? 1 / (p * side(grid_side))
             : grid_side2 < 0 ? 1 / side(grid_side)
                              : 1 / (side(grid_side) * side(grid_side2));
  if (n_power == 1) v *= n;
  else if (n_power == 2) v *= n * n;
  else if (n_power != 0) v *= std::pow(n, n_power);
  return v;
}

Term constant_term() { return Term{}; }

std::vector<Term> p_terms() {
  return {term(-1, 0, 0), term(-0.5, 0, 0), term(0, 1, 0), term(1, 0, 0), term(1, 1, 0), term(2, 0, 0), term(-2, 0, 0)};
}

std::vector<Term> n_terms() {
  return {term(0, 0, 1), term(0, 0, 0.5), term(0, 0, 2), term(-1, 0, 1), term(-0.5, 0, 1), term(-1, 0, 2)};
}

std::vector<Term> grid_terms(double n_power) { return {grid(0, n_power), grid(1, n_power)}; }

namespace {

std::vector<Term> exact_terms_of_every_grid(bool with_parameter) {
  std::vector<Term> terms{term(1, 0, 0), term(0, 1, 0), term(0.5, 0, 0), term(2, 0, 0)};
  for (const auto& t : grid_terms(0)) terms.push_back(t);
  for (const int side : {0, 1}) terms.push_back(grid(side, 0, true));
  for (const int side : {0, 1}) {
    auto block = grid(side, 0);
    block.grid_per_p = true;
    terms.push_back(block);
  }
  add_3d_grid_terms(terms, 0, true);
  for (const int side : {0, 1, 2}) terms.push_back(grid(side, 0, true, 3));
  for (const int more_than : {1, 2})
    for (const int side : {0, 1, 2}) {
      auto split = grid(side, 0, false, 3);
      split.grid_split = more_than;
      terms.push_back(split);
    }
  if (!with_parameter) return terms;
  for (const auto& t : {term(0, 0, 1), term(-1, 0, 1), division(Term::Division::floor),
                        division(Term::Division::ceil), term(0, 0, 2), term(-1, 0, 2), term(0, 0, 0.5)})
    terms.push_back(t);
  for (const auto& t : grid_terms(1)) terms.push_back(t);
  add_3d_grid_terms(terms, 1, false);
  for (const auto& [a, b] : {std::pair{0, 1}, std::pair{0, 2}, std::pair{1, 2}}) terms.push_back(grid(a, 2, false, 3, b));
  return terms;
}

}  // namespace

std::vector<Term> exact_terms(bool with_parameter, PeerGrid grid) {
  auto terms = exact_terms_of_every_grid(with_parameter);
  if (grid.dims == 0) return terms;
  std::erase_if(terms, [&](const Term& t) { return t.grid_side >= 0 && t.grid_dims != grid.dims; });
  const auto across = [&](const Term& t) {
    return t.grid_side2 >= 0 && t.grid_side != grid.dim && t.grid_side2 != grid.dim;
  };
  if (grid.dims == 3 && grid.dim >= 0) std::stable_partition(terms.begin(), terms.end(), across);
  return terms;
}

std::string sum_expression(const std::vector<Term>& terms, const std::vector<double>& coefficients,
                           const std::string& parameter) {
  std::vector<std::pair<bool, std::string>> parts;
  for (std::size_t k = 0; k < terms.size(); ++k) {
    const double a = coefficients[k];
    // A negative first coefficient keeps its 1 ("-1*n^2"), so muparser's precedence of the unary
    // minus over ^ cannot matter.
    const bool is_one = std::abs(a) == 1 && !(k == 0 && a < 0);
    const auto text = term_text(terms[k], parameter, kMuparser);
    parts.emplace_back(a < 0, product(fmt::format("{:.17g}", std::abs(a)), is_one, text, kMuparser));
  }
  return join_signed(parts, "-");
}

std::string letter_form(const std::vector<Term>& terms, const std::string& parameter) {
  static constexpr const char* kLetters[] = {"a", "b", "d", "e"};
  std::vector<std::pair<bool, std::string>> parts;
  std::size_t next_letter = 0;
  for (const auto& t : terms) {
    const char* letter = t.is_constant() ? "c" : kLetters[next_letter++ % 4];
    parts.emplace_back(false, product(letter, false, term_text(t, parameter, kReadable), kReadable));
  }
  return join_signed(parts, "−");
}

std::string number_form(const std::vector<Term>& terms, const std::vector<double>& coefficients,
                        const std::string& parameter) {
  std::vector<std::pair<bool, std::string>> parts;
  for (std::size_t k = 0; k < terms.size(); ++k) {
    const double a = std::abs(coefficients[k]);
    auto text = term_text(terms[k], parameter, kReadable);
    const double denominator = 1 / a;  // p/2 rather than 0.5·p
    const bool reciprocal = !text.numerator.empty() && text.denominator.empty() && a < 1 &&
                            denominator == std::round(denominator);
    if (reciprocal) text.denominator = readable_number(denominator);
    parts.emplace_back(coefficients[k] < 0, product(readable_number(a), a == 1 || reciprocal, text, kReadable));
  }
  return join_signed(parts, "−");
}

}  // namespace augur::learn
