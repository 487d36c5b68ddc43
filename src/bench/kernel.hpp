#pragma once
// One repetition of one operation. The harness (measure.cpp) prepares buffers, synchronises the
// group, and then calls `run`, which reads the clock around exactly the part that is timed and
// returns this rank's time; ranks whose time does not count return 0. The repetition's time is
// the maximum over the group: for a collective the last rank to finish, for point-to-point the
// timed side.
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include <mpi.h>

#include "bench/group.hpp"

namespace augur::bench {

// State that lives for one measured point, shared by its repetitions.
struct PointState {
  std::vector<int> counts, displacements;   // for the v- and w-collectives
  std::vector<MPI_Datatype> types;
  MPI_Request pending = MPI_REQUEST_NULL;   // a receive posted before the synchronisation
  MPI_Comm scratch = MPI_COMM_NULL;         // a communicator created before the synchronisation
  MPI_Group half = MPI_GROUP_NULL;          // the even ranks, for comm_create
  std::vector<std::byte> attached;          // the MPI_Bsend buffer
  double work_seconds = 0;                  // computation placed between post and wait
  long handoffs = 0;                        // sendrecv calls so far: every other one swaps buffers
  MPI_Win window = MPI_WIN_NULL;            // the one-sided operations' window
  std::vector<std::byte> window_memory;
};

struct RepContext {
  const Group& group;
  std::uint64_t bytes;  // per process
  std::byte* send;      // this repetition's buffers, room for group.size blocks of `bytes`
  std::byte* recv;
  int rep;
  PointState& state;
  // The root of this call: rank 0, but for one-to-all operations in a back-to-back sequence,
  // whose roots take turns (see chains_roots).
  int root = 0;

  int count() const { return static_cast<int>(bytes); }
  int ints() const;  // bytes / sizeof(int), for the reductions
  MPI_Comm comm() const { return group.comm; }
  int rank() const { return group.rank; }
  int size() const { return group.size; }
};

struct Kernel {
  std::string_view name;
  double (*run)(RepContext&);                   // after the synchronisation
  void (*before_sync)(RepContext&) = nullptr;   // untimed, before every synchronisation
  void (*setup)(RepContext&) = nullptr;         // untimed, once per point, collective
  void (*teardown)(RepContext&) = nullptr;      // untimed, once per point, collective
  // The operation alone, untimed, for the kernels that repeat back to back (whole_call sets it):
  // a sequence of it is timed as a whole, as a clock reading around every call lengthened an
  // 8-byte allreduce's loop by 12%.
  void (*call)(RepContext&) = nullptr;
};

// Seconds since t0 on this rank's clock.
inline double since(double t0) { return MPI_Wtime() - t0; }

// This rank's time of `call`, as the `run` of a kernel whose operation is one call.
template <void (*call)(RepContext&)>
double timed_call(RepContext& c) {
  const double t0 = MPI_Wtime();
  call(c);
  return since(t0);
}

// A kernel timed around one call, `call`, which a back-to-back sequence can repeat as a whole.
template <void (*call)(RepContext&)>
Kernel whole_call(std::string_view name, void (*setup)(RepContext&) = nullptr) {
  return {name, timed_call<call>, nullptr, setup, nullptr, call};
}

// Busy computation for `seconds` that makes no MPI call, so MPI cannot progress meanwhile unless
// the library does so on its own.
void compute_for(double seconds);

std::span<const Kernel> point_to_point_kernels();
std::span<const Kernel> pattern_kernels();
std::span<const Kernel> collective_kernels();
std::span<const Kernel> nonblocking_collective_kernels();
std::span<const Kernel> communicator_kernels();
std::span<const Kernel> one_sided_kernels();

// The kernels made by whole_call: collectives, blocking or not, and the pair exchanges
// (sendrecv, exchange), which both sides run at once like a collective of two. A repetition may
// run several of them back to back (measure.hpp).
bool repeats_back_to_back(const Kernel& kernel);
// Whether a back-to-back sequence of this kernel hands the root on at every call (call i is
// rooted at rank i mod p), so each call waits for the previous one to arrive.
bool chains_roots(const Kernel& kernel);

// The kernel of kOperations[operation]; every operation in the table has one.
const Kernel& kernel_for(int operation);

}  // namespace augur::bench
