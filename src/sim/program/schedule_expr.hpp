#pragma once
// Integer expressions of the schedule language over N (the number of ranks, known when the
// expression is read) and `rank` (the rank running the body). Each remembers whether it is a
// constant, `rank + constant` (a peer one body can share across ranks), or neither.
#include <cstdint>
#include <vector>

namespace augur::sim {

struct Expr {
  enum class Class { constant, offset, general };
  struct Item {
    char op;  // 'n' a number, 'r' rank, else the operator + - * / % ^ or 'u' (negation)
    std::int64_t value;
  };
  Class cls = Class::constant;
  std::int64_t value = 0;  // the constant, or the offset from rank
  std::vector<Item> rpn;   // for general expressions
  int line = 0, column = 0;

  // The value for `rank`; false on division by zero or overflow.
  bool evaluate(std::int64_t rank, std::int64_t& out) const;
};

}  // namespace augur::sim
