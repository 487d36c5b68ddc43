// libFuzzer target: the GOAL reader takes any text without crashing; what it rejects it rejects
// with a ScheduleError, and what it accepts is an acyclic graph of vertices inside the world that
// is written back to text reading to the same graph.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string_view>

#include "sim/program/goal.hpp"
#include "sim/program/schedule_lexer.hpp"

namespace {

void require(bool ok) {
  if (!ok) std::abort();
}

void check(const augur::sim::GoalProgram& p) {
  const auto& vs = p.vertices();
  for (std::uint32_t v = 0; v < vs.size(); ++v) {
    require(vs[v].rank >= 0 && vs[v].rank < p.nranks());
    if (vs[v].op != augur::sim::GoalOp::calc) require(vs[v].peer == augur::sim::kAny || (vs[v].peer >= 0 && vs[v].peer < p.nranks()));
    for (const auto d : p.dependents(v)) require((d >> 1) < vs.size() && vs[d >> 1].rank == vs[v].rank);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    auto program = augur::sim::parse_goal(text, "fuzz.goal");
    check(*program);
    if (program->nranks() <= 4096) {
      std::ostringstream out;
      augur::sim::write_goal(*program, out);
      const auto again = augur::sim::parse_goal(out.str(), "again.goal");
      require(again->vertices().size() == program->vertices().size());
      require(again->dependency_total() == program->dependency_total());
    }
  } catch (const augur::sim::ScheduleError&) {
  }
  return 0;
}
