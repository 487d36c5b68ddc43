#pragma once
// The terms a learned law is made of, functions of the process count p and a problem size n
// (named by the program's parameter, "n" below), and the texts of their weighted sums: a
// muparser expression in p and the parameter name, and a readable form ("c + a·log₂p"). A term
// may divide by a side of MPI_Dims_create's 2-D grid of p, dims(p, 2, k): a 2-D stencil's halo
// follows the side, which no power of p gives (p = 8 is a 4 × 2 grid, p = 32 an 8 × 4 one).
#include <string>
#include <vector>

#include "model/basis.hpp"

namespace augur::learn {

struct Term {
  enum class Division { none, floor, ceil };  // ⌊n/p⌋ and ⌈n/p⌉: a block decomposition's counts

  model::Basis p_part;  // p^a · log2(p)^b; a may be negative (1/p, 1/√p); no d
  double n_power = 0;   // 0, 0.5, 1 or 2
  Division division = Division::none;  // when not none, the term is n/p rounded, p_part unused
  int grid_side = -1;  // when 0 or 1, the term is n^n_power / dims(p, 2, grid_side), p_part unused
  bool grid_times = false;  // … or n^n_power · dims(p, 2, grid_side): a row's ranks, a column's stride

  double operator()(double p, double n) const;
  bool uses_p() const {
    return division != Division::none || grid_side >= 0 || p_part.p_power != 0 || p_part.log_power != 0;
  }
  bool uses_n() const { return division != Division::none || n_power != 0; }
  bool is_constant() const { return !uses_p() && !uses_n(); }
};

Term constant_term();
// 1/p, 1/√p, log₂p, p, p·log₂p, p², 1/p²: how a time or a count changes with p alone (1/p²: a
// pair's share of a fixed total that every rank sends to every other, as in an all-to-all).
std::vector<Term> p_terms();
// n, √n, n², n/p, n/√p, n²/p: the problem size alone or divided among the ranks.
std::vector<Term> n_terms();
// 1/dims(p, 2, 0) and 1/dims(p, 2, 1) with n_power 0, n/dims(p, 2, …) with n_power 1.
std::vector<Term> grid_terms(double n_power);
// The terms of exact integer laws (counts, sizes, offsets), simplest first: p, log₂p, √p, p²,
// 1/dims(p, 2, 0), 1/dims(p, 2, 1), dims(p, 2, 0), dims(p, 2, 1), and with a parameter n, n/p,
// ⌊n/p⌋, ⌈n/p⌉, n², n²/p, √n, n/dims(p, 2, 0), n/dims(p, 2, 1).
std::vector<Term> exact_terms(bool with_parameter);

// Σ coefficients[k]·terms[k] as muparser text, numbers written with 17 significant digits so
// that the text evaluates to the same doubles: "0.0012 + 3.4000000000000003e-05*log2(p)".
std::string sum_expression(const std::vector<Term>& terms, const std::vector<double>& coefficients,
                           const std::string& parameter);
// The same sum for people with letters for the coefficients: c for the constant, then a, b:
// "c + a·log₂p", "a·n²/p".
std::string letter_form(const std::vector<Term>& terms, const std::string& parameter);
// The same sum for people with its coefficients (small integers and halves, as exact laws have):
// "p − 1", "p/2", "8·n²/p", "⌊n/p⌋".
std::string number_form(const std::vector<Term>& terms, const std::vector<double>& coefficients,
                        const std::string& parameter);

}  // namespace augur::learn
