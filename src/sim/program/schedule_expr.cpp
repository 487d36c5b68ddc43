#include "sim/program/schedule_expr.hpp"

#include <cstdint>
#include <utility>

#include <fmt/format.h>

namespace augur::sim {

bool Expr::evaluate(std::int64_t rank, std::int64_t& out, std::string* why) const {
  auto fault = [&](std::string reason) {
    if (why) *why = std::move(reason);
    return false;
  };
  if (cls == Class::constant) return out = value, true;
  if (cls == Class::offset) return out = rank + value, true;
  std::vector<std::int64_t> stack;
  stack.reserve(rpn.size());
  for (const auto& item : rpn) {
    if (item.op == 'n' || item.op == 'r') {
      stack.push_back(item.op == 'n' ? item.value : rank);
      continue;
    }
    if (item.op == 'u') {
      if (__builtin_sub_overflow(std::int64_t(0), stack.back(), &stack.back())) return fault("overflow");
      continue;
    }
    if (item.op == 't') {
      const auto& table = (*tables)[static_cast<std::size_t>(item.value)];
      const std::int64_t index = stack.back();
      if (index < 0 || static_cast<std::uint64_t>(index) >= table.values.size())
        return fault(fmt::format("index {} is outside table '{}' (0..{})", index, table.name,
                                 static_cast<std::int64_t>(table.values.size()) - 1));
      stack.back() = table.values[static_cast<std::size_t>(index)];
      continue;
    }
    const std::int64_t b = stack.back();
    stack.pop_back();
    std::int64_t& a = stack.back();
    switch (item.op) {
      case '+':
        if (__builtin_add_overflow(a, b, &a)) return fault("overflow");
        break;
      case '-':
        if (__builtin_sub_overflow(a, b, &a)) return fault("overflow");
        break;
      case '*':
        if (__builtin_mul_overflow(a, b, &a)) return fault("overflow");
        break;
      case '^': a ^= b; break;
      case '/':
        if (b == 0) return fault("division by zero");
        if (b == -1 && a == INT64_MIN) return fault("overflow");
        a /= b;
        break;
      case '%':
        if (b == 0) return fault("division by zero");
        if (b == -1) {
          a = 0;
          break;
        }
        a %= b;
        break;
    }
  }
  out = stack.empty() ? 0 : stack.back();
  return true;
}

}  // namespace augur::sim
