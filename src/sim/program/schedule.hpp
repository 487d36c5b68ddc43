#pragma once
// The schedule language (docs/schedule-format.md): per-rank programs written by hand or by a
// generator, e.g.
//   ranks 1024
//   rank 0 { repeat 10 { bcast 16 root=0 } }
//   ranks 1..N-1 { repeat 10 { bcast 16 root=0 } }
// Bodies whose peers are constants or `rank ± constant` are stored once for all their ranks.
#include <memory>
#include <string>
#include <string_view>

#include "sim/program/program.hpp"
#include "sim/program/schedule_lexer.hpp"

namespace augur::sim {

// Throws ScheduleError "file:line:column: reason" for anything it cannot run, including
// loops and per-rank bodies that would store more than `max_operations` operations (32 bytes each).
inline constexpr std::size_t kDefaultMaxOperations = std::size_t(1) << 26;
std::unique_ptr<FlatProgram> parse_schedule(std::string_view text, const std::string& file,
                                            std::size_t max_operations = kDefaultMaxOperations);
std::unique_ptr<FlatProgram> read_schedule_file(const std::string& path);

// The schedule of a program, one body per rank (for programs of up to `max_ranks` ranks).
std::string write_schedule(const Program& program, int max_ranks = 4096);

}  // namespace augur::sim
