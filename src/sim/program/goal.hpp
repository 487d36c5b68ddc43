#pragma once
// LogGOPSim's GOAL schedules (docs/goal-format.md): per rank, a graph of send, recv and calc
// vertices where a vertex starts once every vertex it `requires` is done and every vertex it
// `irequires` has started. Independent vertices of one rank run concurrently, so a GOAL schedule
// is kept as its graph, not flattened into a sequence; the kernel runs it as such
// (kernel.hpp's simulate of a GoalProgram).
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sim/program/algorithms.hpp"
#include "sim/program/program.hpp"

namespace augur::sim {

enum class GoalOp : std::uint8_t { send, recv, calc };

struct GoalVertex {
  double value = 0;          // bytes (send, recv) or seconds (calc)
  std::int32_t rank = 0;
  std::int32_t peer = kAny;  // send: the destination; recv: the source, or kAny
  std::int32_t tag = 0;      // recv: kAny matches any tag
  std::uint8_t cpu = 0, nic = 0;
  GoalOp op = GoalOp::calc;
};

// `vertex` requires `on` (starts when `on` is done), or with `started` irequires it (starts
// when `on` has started). Both are vertices of one rank.
struct GoalDependency {
  std::uint32_t vertex = 0, on = 0;
  bool started = false;
};

class GoalProgram {
 public:
  // Vertices in rank order. Throws std::invalid_argument for a dependency that names a vertex
  // outside the list or one of another rank; cycles must have been ruled out (find_cycle).
  GoalProgram(int nranks, std::vector<GoalVertex> vertices, const std::vector<GoalDependency>& dependencies);

  int nranks() const { return nranks_; }
  const std::vector<GoalVertex>& vertices() const { return vertices_; }
  // The vertices of `rank`: [first_vertex(rank), first_vertex(rank + 1)).
  std::uint32_t first_vertex(int rank) const { return rank_first_[rank]; }
  // What waits for `v`: entries dependent << 1 | started.
  std::span<const std::uint32_t> dependents(std::uint32_t v) const {
    return {dependents_.data() + dependents_first_[v], dependents_.data() + dependents_first_[v + 1]};
  }
  std::uint32_t dependency_count(std::uint32_t v) const { return dependency_count_[v]; }
  std::size_t dependency_total() const { return dependents_.size(); }

 private:
  int nranks_;
  std::vector<GoalVertex> vertices_;
  std::vector<std::uint32_t> rank_first_;
  std::vector<std::uint32_t> dependents_first_, dependents_, dependency_count_;
};

// The dependencies (indices into `dependencies`) of one cycle, in order, or none.
std::vector<std::size_t> find_cycle(std::size_t nvertices, const std::vector<GoalDependency>& dependencies);

// GOAL text: throws ScheduleError "file:line: reason" for anything LogGOPSim would not run
// (and for a cycle or an unknown label). Calc times are nanoseconds, LogGOPSim's unit.
std::unique_ptr<GoalProgram> parse_goal(std::string_view text, const std::string& file);
std::unique_ptr<GoalProgram> read_goal_file(const std::string& path);
// Whether `path` names GOAL: a .goal file, or text whose first word is num_ranks.
bool looks_like_goal(const std::string& path);

// GOAL of a GOAL program, or of any program: each rank's operations become a chain (an
// operation requires the one before it, irequires it after a non-blocking one; a wait requires
// the requests it completes), collectives their algorithm's messages. Throws
// std::invalid_argument for what GOAL cannot say.
void write_goal(const GoalProgram& program, std::ostream& out);
void write_goal(const Program& program, const AlgorithmChoice& algorithms, std::ostream& out);

}  // namespace augur::sim
