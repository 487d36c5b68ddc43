// One-sided communication, on a window made once per point (outside the timed part): what the
// reverse profiler prices a program's windows with (docs/revprof-clocks.md, "One-sided
// communication"). Each times an epoch's transfer together with the synchronisation that
// completes it, since that is where MPI's one-sided components spend their time: here a fence
// after a put took 1.5 µs against 0.16 µs after none.
#include <algorithm>
#include <vector>

#include "bench/kernel.hpp"
#include "bench/kernel_errors.hpp"

namespace augur::bench {
namespace {

constexpr int kOrigin = 0;
constexpr int kTarget = 1;

void make_window(RepContext& c) {
  const auto bytes = std::max<std::uint64_t>(c.bytes, 1);
  c.state.window_memory.assign(bytes, std::byte{0});
  MPI_Win_create(c.state.window_memory.data(), static_cast<MPI_Aint>(bytes), 1, MPI_INFO_NULL, c.comm(),
                 &c.state.window);
  // Not every MPI can make a window on every transport (Open MPI 4.1 over TCP has no one-sided
  // component): the failure is recorded, and the point is not measured.
  if (c.state.window != MPI_WIN_NULL) return_window_errors(c.state.window);
}

void free_window(RepContext& c) {
  if (c.state.window != MPI_WIN_NULL) MPI_Win_free(&c.state.window);
}

// A passive-target epoch of one put: the origin's MPI_Win_lock, MPI_Put and MPI_Win_unlock,
// while the target computes on.
double put(RepContext& c) {
  if (c.rank() != kOrigin) return 0;
  const double t0 = MPI_Wtime();
  MPI_Win_lock(MPI_LOCK_SHARED, kTarget, 0, c.state.window);
  MPI_Put(c.send, c.count(), MPI_BYTE, kTarget, 0, c.count(), MPI_BYTE, c.state.window);
  MPI_Win_unlock(kTarget, c.state.window);
  return since(t0);
}

// Every rank puts d bytes into the next one's window and the fence completes them: a fence
// epoch of a ring's halo.
void open_fence_epoch(RepContext& c) {
  make_window(c);
  if (c.state.window != MPI_WIN_NULL) MPI_Win_fence(0, c.state.window);
}

// At least one byte: a put of none is no transfer, and its fence takes a tenth of one after a
// byte (0.2 µs against 1.65 µs here), a step the law of the sizes above it does not hold.
void put_and_fence(RepContext& c) {
  static const std::byte one{};
  const void* data = c.bytes > 0 ? static_cast<const void*>(c.send) : &one;
  const int count = std::max(c.count(), 1);
  MPI_Put(data, count, MPI_BYTE, (c.rank() + 1) % c.size(), 0, count, MPI_BYTE, c.state.window);
  MPI_Win_fence(0, c.state.window);
}

const std::vector<Kernel> kKernels = {
    {"put", put, nullptr, make_window, free_window},
    {"win_fence", timed_call<put_and_fence>, nullptr, open_fence_epoch, free_window, put_and_fence},
};

}  // namespace

std::span<const Kernel> one_sided_kernels() { return kKernels; }

}  // namespace augur::bench
