#include "sim/program/schedule_expr.hpp"

#include <cstdint>

namespace augur::sim {

bool Expr::evaluate(std::int64_t rank, std::int64_t& out) const {
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
      if (__builtin_sub_overflow(std::int64_t(0), stack.back(), &stack.back())) return false;
      continue;
    }
    const std::int64_t b = stack.back();
    stack.pop_back();
    std::int64_t& a = stack.back();
    switch (item.op) {
      case '+':
        if (__builtin_add_overflow(a, b, &a)) return false;
        break;
      case '-':
        if (__builtin_sub_overflow(a, b, &a)) return false;
        break;
      case '*':
        if (__builtin_mul_overflow(a, b, &a)) return false;
        break;
      case '^': a ^= b; break;
      case '/':
        if (b == 0 || (b == -1 && a == INT64_MIN)) return false;
        a /= b;
        break;
      case '%':
        if (b == 0 || b == -1) return a = 0, b != 0;
        a %= b;
        break;
    }
  }
  out = stack.empty() ? 0 : stack.back();
  return true;
}

}  // namespace augur::sim
