// The schedule language's expressions: constants, N, rank, table entries and their arithmetic,
// each kept as a constant, an affine function of the rank, or general (sim/program/schedule_expr.hpp).
#include <charconv>

#include <fmt/format.h>

#include "sim/program/schedule_parser.hpp"

namespace augur::sim::schedule_parsing {

bool Parser::starts_expression() const {
  const auto& t = peek();
  return t.kind == TokenKind::number || at("(") || at("-") || at("N") || at("rank") || at_table_entry();
}

bool Parser::at_table_entry() const {
  return peek().kind == TokenKind::identifier && peek(1).kind == TokenKind::symbol && peek(1).text == "[";
}

// NAME[index]: a constant index reads the entry now; any other, when the body is instantiated.
void Parser::table_entry(Expr& e) {
  const Token& name = next();
  auto it = table_ids_.find(name.text);
  if (it == table_ids_.end()) fail(name, fmt::format("unknown table '{}'", name.text));
  next();  // '['
  Expr index;
  index.line = peek().line;
  index.column = peek().column;
  binary(index, 0);
  expect("]", "to close the table's index");
  e.rpn = std::move(index.rpn);
  e.rpn.push_back({'t', static_cast<std::int64_t>(it->second)});
  e.tables = &tables_;
  e.cls = Expr::Class::general;
  if (index.cls != Expr::Class::constant) return;
  std::string why;
  if (!e.evaluate(0, e.value, &why)) fail_at(index.line, index.column, why);
  e.cls = Expr::Class::constant;
  e.rpn = {{'n', e.value}};
}

Expr Parser::expression() {
  Expr e;
  e.line = peek().line;
  e.column = peek().column;
  binary(e, 0);
  return e;
}

// Levels: 0 '^', 1 '+' '-', 2 '*' '/' '%'.
void Parser::binary(Expr& e, int level) {
  static constexpr std::string_view kLevels[] = {"^", "+-", "*/%"};
  if (level == 3) return unary(e);
  binary(e, level + 1);
  while (peek().kind == TokenKind::symbol && peek().text.size() == 1 &&
         kLevels[level].find(peek().text[0]) != std::string_view::npos) {
    const char op = next().text[0];
    Expr rhs;
    rhs.line = peek().line;
    rhs.column = peek().column;
    binary(rhs, level + 1);
    combine(e, rhs, op);
  }
}

void Parser::unary(Expr& e) {
  const Token& t = peek();
  Nesting nesting(*this, t);
  if (accept("-")) {
    unary(e);
    Expr zero;
    std::swap(zero, e);
    e.line = zero.line;
    e.column = zero.column;
    e.rpn = {{'n', 0}};
    combine(e, zero, '-');
    return;
  }
  if (accept("(")) {
    binary(e, 0);
    expect(")", "to close the parenthesis");
    return;
  }
  if (at_table_entry()) return table_entry(e);
  if (accept("rank")) {
    e.cls = Expr::Class::offset;
    e.value = 0;
    e.rpn = {{'r', 0}};
    return;
  }
  std::int64_t v = 0;
  if (accept("N")) {
    v = n_;
  } else if (t.kind == TokenKind::number) {
    next();
    auto [end, ec] = std::from_chars(t.text.data(), t.text.data() + t.text.size(), v);
    if (ec != std::errc() || end != t.text.data() + t.text.size())
      fail(t, fmt::format("'{}' is not an integer", t.text));
  } else {
    fail(t, t.kind == TokenKind::end ? "expected a number, N, rank or a table entry, found the end" :
                                       fmt::format("expected a number, N, rank or a table entry, found '{}'", t.text));
  }
  e.cls = Expr::Class::constant;
  e.value = v;
  e.rpn = {{'n', v}};
}

// a = a op b, keeping the class: constants fold, rank ± constant stays an offset.
void Parser::combine(Expr& a, const Expr& b, char op) {
  using C = Expr::Class;
  Expr joined;
  joined.rpn = a.rpn;
  joined.rpn.insert(joined.rpn.end(), b.rpn.begin(), b.rpn.end());
  joined.rpn.push_back({op, 0});
  joined.cls = C::general;
  joined.tables = a.tables ? a.tables : b.tables;
  if (a.cls == C::constant && b.cls == C::constant) {
    std::string why;
    if (!joined.evaluate(0, joined.value, &why)) fail_at(b.line, b.column, why);
    joined.cls = C::constant;
    joined.rpn = {{'n', joined.value}};
  } else if (a.cls == C::offset && b.cls == C::constant && (op == '+' || op == '-')) {
    joined.cls = C::offset;
    if ((op == '+' ? __builtin_add_overflow(a.value, b.value, &joined.value)
                   : __builtin_sub_overflow(a.value, b.value, &joined.value)))
      fail_at(b.line, b.column, "overflow");
  } else if (a.cls == C::constant && b.cls == C::offset && op == '+') {
    joined.cls = C::offset;
    if (__builtin_add_overflow(a.value, b.value, &joined.value)) fail_at(b.line, b.column, "overflow");
  }
  joined.line = a.line;
  joined.column = a.column;
  a = std::move(joined);
}

std::int64_t Parser::constant(std::string_view what) {
  const Expr e = expression();
  if (e.cls != Expr::Class::constant) fail_at(e.line, e.column, fmt::format("{} must not depend on rank", what));
  return e.value;
}

// --- declarations --------------------------------------------------------------------------

}  // namespace augur::sim::schedule_parsing
