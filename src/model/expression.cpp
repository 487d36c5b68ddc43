#include "model/expression.hpp"

#include <cmath>
#include <stdexcept>

#include <muParser.h>

namespace augur::model {
namespace {

// The seeds' fitted models were evaluated in gnuplot and C, where log is the natural logarithm;
// muparser's own `log` is base 10, so it is redefined.
double natural_log(double x) { return std::log(x); }
double floor_of(double x) { return std::floor(x); }
double ceil_of(double x) { return std::ceil(x); }

}  // namespace

struct Expression::Compiled {
  mu::Parser parser;
  double p = 0, d = 0;
};

Expression::Expression(std::string text) : text_(std::move(text)), compiled_(std::make_unique<Compiled>()) {
  auto& parser = compiled_->parser;
  try {
    parser.DefineVar("p", &compiled_->p);
    parser.DefineVar("d", &compiled_->d);
    parser.DefineFun("log", natural_log);
    parser.DefineFun("floor", floor_of);
    parser.DefineFun("ceil", ceil_of);
    parser.SetExpr(text_);
    // Evaluating once makes muparser tokenise the whole text now, so a bad expression fails
    // when the model is loaded rather than at its first query.
    compiled_->p = 2;
    compiled_->d = 1;
    parser.Eval();
  } catch (const mu::Parser::exception_type& e) {
    throw std::invalid_argument("expression '" + text_ + "': " + e.GetMsg());
  }
}

Expression::~Expression() = default;
Expression::Expression(Expression&&) noexcept = default;
Expression& Expression::operator=(Expression&&) noexcept = default;
Expression::Expression(const Expression& other) : Expression(other.text_) {}
Expression& Expression::operator=(const Expression& other) {
  if (this != &other) *this = Expression(other.text_);
  return *this;
}

double Expression::operator()(double p, double d) const {
  compiled_->p = p;
  compiled_->d = d;
  return compiled_->parser.Eval();
}

}  // namespace augur::model
