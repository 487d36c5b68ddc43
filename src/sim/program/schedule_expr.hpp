#pragma once
// Integer expressions of the schedule language over N (the number of ranks, known when the
// expression is read), `rank` (the rank running the body) and entries of the schedule's tables
// (`perm[rank]`). Each remembers whether it is a constant, `rank + constant` (a peer one body
// can share across ranks), or neither.
#include <cstdint>
#include <string>
#include <vector>

namespace augur::sim {

// `table NAME = {a, b, …}`: constants declared once, read as NAME[index].
struct Table {
  std::string name;
  std::vector<std::int64_t> values;
};

struct Expr {
  enum class Class { constant, offset, general };
  struct Item {
    char op;  // 'n' a number, 'r' rank, 't' entry of table `value` at the index on the stack,
              // else the operator + - * / % ^ or 'u' (negation)
    std::int64_t value;
  };
  Class cls = Class::constant;
  std::int64_t value = 0;  // the constant, or the offset from rank
  std::vector<Item> rpn;   // for general expressions
  const std::vector<Table>* tables = nullptr;  // those 't' items read
  int line = 0, column = 0;

  // The value for `rank`; false on division by zero, overflow or an index outside its table,
  // with the reason in `why` when given.
  bool evaluate(std::int64_t rank, std::int64_t& out, std::string* why = nullptr) const;
};

}  // namespace augur::sim
