#pragma once
// One quantity of a learned program (a compute segment's seconds, a message size, a loop count,
// a peer offset), measured at a few process counts p and problem sizes n, as a law in p and n
// (app::Law): an exact integer law when one reproduces every count, otherwise the law that
// src/fit's cross-validated selection chooses among forms linear in their coefficients
// (constant, a/p, a/√p, a·log₂p, a·p, a·p·log₂p, a·p², a/p², a·n, a·√n, a·n², a·n/p, a·n/√p,
// a·n²/p, c + term, and when both vary, term in n + term in n and p or c + term in p + term in
// n), each coefficient of a law with more than one also required to stand clear of its error,
// since four counts leave noise much room. A fitted law with a negative coefficient is kept from
// falling below zero beyond the data, and a time in p alone from falling faster than 1/p beyond
// the largest count: max(p > P ? t(P)·P/p : 0, law).
#include <string>
#include <vector>

#include "app/app_program.hpp"
#include "learn/law_terms.hpp"

namespace augur::learn {

struct LawPoint {
  double p = 0;
  double n = 0;  // the problem size; 0 when the program has no parameter
  double value = 0;
};

enum class Quantity {
  seconds,  // fitted; bounds clamped at 0
  integer,  // counts, sizes, offsets: an exact integer law is preferred to a fitted one
};

// `parameter` names the problem size in the law's texts ("n"); empty when there is none, and
// then n is ignored and no forms in n are tried. The law's expr, low and high are muparser text
// in p and the parameter only. Throws std::invalid_argument for no points, a value, p or n that
// is not finite, p < 1, n < 0, or a parameter name that is not an identifier or is "p".
// `grid`: the quantity belongs to calls between neighbours on such a grid, so its exact laws are in
// that grid's sides (exact_terms).
app::Law fit_law(const std::vector<LawPoint>& points, Quantity quantity, const std::string& parameter,
                 PeerGrid grid = {});

// A law's expr (or any of its texts) at p and n, evaluated with muparser as an application
// model's reader does. Throws std::invalid_argument for text that is not an expression in p and
// the parameter.
double evaluate_law(const app::Law& law, double p, double n, const std::string& parameter);
double evaluate_expression(const std::string& text, double p, double n, const std::string& parameter);

}  // namespace augur::learn
