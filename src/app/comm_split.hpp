#pragma once
// The communicators a split makes of p ranks (app::CommRule): blocks of `size` consecutive ranks
// (a grid's rows: 0..size-1, size..2·size-1, …) or ranks `size` apart (its columns: r, r + size,
// …). The simulator makes them; augur learn checks a trace's communicators against them.
#include <cstdint>
#include <vector>

#include "app/app_program.hpp"

namespace augur::app {

// How many communicators the split makes; `kind` is block or stride, size >= 1.
std::int64_t split_count(CommRule::Kind kind, std::int64_t size, std::int64_t p);
// The communicator that holds `rank`, from 0.
std::int64_t split_index(CommRule::Kind kind, std::int64_t size, std::int64_t rank);
// Its world ranks, ascending. The last communicator is the smallest.
std::vector<int> split_members(CommRule::Kind kind, std::int64_t size, std::int64_t p, std::int64_t index);

}  // namespace augur::app
