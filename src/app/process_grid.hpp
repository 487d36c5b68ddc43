#pragma once
// The process grid of MPI_Dims_create with no dimension fixed, shared by the program section's
// grid peers (sim/program), the laws that name a grid's side (`dims(p, k, i)` in expressions)
// and augur learn, so that all three agree on the grid at every count.
#include <vector>

namespace augur::app {

// MPI_Dims_create(p, dims): the factors of p as balanced as can be (the smallest spread between
// the largest and the smallest), largest first. p ≥ 1, dims ≥ 1.
std::vector<int> balanced_dims(int p, int dims);

// Dimension `dim` (from 0) of balanced_dims(p, dims), for expressions: the side of the grid a
// 2-D stencil's halo follows (n / dims(p, 2, 1) values along a row). Throws
// std::invalid_argument unless p is an integer from 1 to 2³¹ − 1, dims one from 1 to 8 and dim
// one from 0 to dims − 1.
double grid_side(double p, double dims, double dim);

}  // namespace augur::app
