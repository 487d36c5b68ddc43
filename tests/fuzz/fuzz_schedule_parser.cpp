// libFuzzer target: the schedule parser takes any text without crashing; what it rejects it
// rejects with a ScheduleError, and what it accepts has peers inside the world, communicators
// that exist and bodies that can be written back and read again.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "sim/program/schedule.hpp"

namespace {

void require(bool ok) {
  if (!ok) std::abort();
}

void check(const augur::sim::Program& p) {
  using augur::sim::OpKind;
  const int n = p.nranks();
  for (int r = 0; r < n && r < 64; ++r) {
    augur::sim::Op op;
    for (std::uint32_t pc = 0; pc < 4096 && p.fetch(r, pc, op); ++pc) {
      require(op.comm < p.comms().size());
      if (op.kind == OpKind::collective) {
        require(op.name < p.names().size());
        require(op.peer < p.comms()[op.comm].size);
      } else if (op.kind != OpKind::compute && op.kind != OpKind::wait && op.kind != OpKind::sleep &&
                 op.kind != OpKind::until) {
        require(op.peer == augur::sim::kAny || (op.peer >= 0 && op.peer < n));
      }
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    // A small budget: the fuzzer's schedules must not unroll into gigabytes.
    auto program = augur::sim::parse_schedule(text, "fuzz.sched", 1 << 16);
    check(*program);
    if (program->nranks() <= 64) augur::sim::parse_schedule(augur::sim::write_schedule(*program), "again", 1 << 16);
  } catch (const augur::sim::ScheduleError&) {
  }
  return 0;
}
