#pragma once
// A free expression in p (processes) and d (data size in the model's size unit), compiled once
// with muparser. `log` is the natural logarithm (as in gnuplot and C, which the seeds used);
// log2, log10, sqrt, floor, ceil, abs, min, max and the ternary `c ? a : b` are available.
#include <memory>
#include <string>

namespace mu { class Parser; }

namespace augur::model {

class Expression {
 public:
  // Throws std::invalid_argument with muparser's reason if the text does not parse or names a
  // variable other than p and d.
  explicit Expression(std::string text);
  ~Expression();
  Expression(const Expression& other);
  Expression& operator=(const Expression& other);
  Expression(Expression&&) noexcept;
  Expression& operator=(Expression&&) noexcept;

  // Not safe to call from two threads at once on the same object (muparser binds variables by
  // address); copies are independent.
  double operator()(double p, double d) const;
  const std::string& text() const { return text_; }

 private:
  struct Compiled;
  std::string text_;
  std::unique_ptr<Compiled> compiled_;
};

}  // namespace augur::model
