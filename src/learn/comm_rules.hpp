#pragma once
// Which communicator a collective runs on, as a rule in the rank and p: the world, blocks of
// consecutive ranks (the rows of a process grid, MPI_Comm_split by rank / C) or ranks a fixed
// stride apart (its columns, by rank mod C). A rule is kept only if it gives every member's
// communicator in every run exactly; its size per run then becomes a law in p (alignment.cpp).
#include <vector>

#include "app/app_program.hpp"

namespace augur::learn {

// One run's communicators of one collective: each member rank and its communicator's world ranks.
struct CommSamples {
  int p = 0;
  std::vector<int> ranks;
  std::vector<const std::vector<int>*> members;  // ascending
};

struct Split {
  app::CommRule::Kind kind = app::CommRule::Kind::world;
  std::vector<double> sizes;  // per run: the block's ranks or the stride
};

// The splits that reproduce every sample, block before stride (a split into communicators of
// one rank each is both); the world alone when every communicator is all the ranks.
std::vector<Split> comm_splits(const std::vector<CommSamples>& runs);

}  // namespace augur::learn
