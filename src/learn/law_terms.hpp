#pragma once
// The terms a learned law is made of, functions of the process count p and a problem size n
// (named by the program's parameter, "n" below), and the texts of their weighted sums: a
// muparser expression in p and the parameter name, and a readable form ("c + a·log₂p"). A term
// may divide by a side of MPI_Dims_create's 2-D or 3-D grid of p, dims(p, k, i), or by two sides
// of the 3-D one: a stencil's halo follows the block's sides, which no power of p gives (p = 8 is
// a 4 × 2 grid, p = 32 an 8 × 4 one; p = 16 a 4 × 2 × 2 one, p = 32 a 4 × 4 × 2 one).
#include <string>
#include <vector>

#include "model/basis.hpp"

namespace augur::learn {

// The grid whose neighbours a call's peers are: its dimensions (0: none) and the one the peer
// lies along.
struct PeerGrid {
  int dims = 0;
  int dim = -1;
};

struct Term {
  enum class Division { none, floor, ceil };  // ⌊n/p⌋ and ⌈n/p⌉: a block decomposition's counts

  model::Basis p_part;  // p^a · log2(p)^b; a may be negative (1/p, 1/√p); no d
  double n_power = 0;   // 0, 0.5, 1 or 2
  Division division = Division::none;  // when not none, the term is n/p rounded, p_part unused
  // When >= 0, the term is n^n_power / dims(p, grid_dims, grid_side), p_part unused: a halo of a
  // 2-D grid follows one side of the block; with grid_side2 >= 0 it is divided by that side too,
  // n^n_power / (dims(p, 3, a)·dims(p, 3, b)): a face of a 3-D grid's block, the product of its
  // two other sides.
  int grid_side = -1;
  int grid_side2 = -1;
  int grid_dims = 2;
  bool grid_times = false;  // … or n^n_power · dims(p, grid_dims, grid_side): a row's ranks, a column's stride
  // … or n^n_power / (p·dims(p, grid_dims, grid_side)): a rank's block of an all-to-all among
  // a grid's row (its share n/p sent in dims(p, 2, 1) blocks), as a pencil transform's transposes
  bool grid_per_p = false;
  // … or, when grid_split > 0, n^n_power · [dims(p, grid_dims, grid_side) > grid_split]: 1 where
  // that side has more ranks, else 0. A block of calls a rank makes only towards neighbours along
  // a dimension the grid splits (> 1: LAMMPS copies its own ghosts where it does not), or only
  // where its two neighbours there differ (> 2: LAMMPS's second exchange along a dimension)
  int grid_split = 0;

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
// 1/dims(p, 2, 0), 1/dims(p, 2, 1), dims(p, 2, 0), dims(p, 2, 1), then the 3-D grid's
// 1/dims(p, 3, i), 1/(dims(p, 3, a)·dims(p, 3, b)) and dims(p, 3, i); with a parameter n, n/p,
// ⌊n/p⌋, ⌈n/p⌉, n², n²/p, √n, n/dims(p, 2, 0), n/dims(p, 2, 1), n/dims(p, 3, i) and
// n²/(dims(p, 3, a)·dims(p, 3, b)); last the splits [dims(p, 3, i) > 1] and [dims(p, 3, i) > 2],
// which only the count of a block absent at some counts (0 there) needs.
// With `grid` (the call's peers are neighbours along dimension `dim` of a 2-D or 3-D grid) the
// other grid's terms are left out, and on a 3-D grid the face across `dim`, the product of the
// two other sides, comes first: at p = 4, 8, 16 a halo's z-face, 32768/(dims(p, 3, 0)·dims(p, 3, 1)),
// is also 16384/dims(p, 3, 0) and 16384/dims(p, 2, 1) by chance, and parts from both at p = 32.
std::vector<Term> exact_terms(bool with_parameter, PeerGrid grid = {});

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
