#pragma once
// The operations augur-bench-mpi measures and the shape of each one's sweep. This header needs
// no MPI, so `augur bench` can reject a bad --ops list before any MPI process starts. The names
// are those of the model catalog (src/model/catalog.cpp); docs/bench-method.md says what each
// times.
#include <algorithm>
#include <array>
#include <cstdint>
#include <string_view>

namespace augur::bench {

enum class Groups {
  pair,  // two processes: the point-to-point operations
  all,   // every group size of the sweep
};

enum class Sizes {
  none,   // no message: the time depends on p only (recorded with bytes = 0)
  bytes,  // any byte count (MPI_BYTE)
  ints,   // whole MPI_INTs, because reductions need an arithmetic type
};

struct OperationShape {
  std::string_view name;
  Groups groups;
  Sizes sizes;
};

inline constexpr auto kOperations = std::to_array<OperationShape>({
    {"pingpong", Groups::pair, Sizes::bytes},
    {"send", Groups::pair, Sizes::bytes},
    {"ssend", Groups::pair, Sizes::bytes},
    {"rsend", Groups::pair, Sizes::bytes},
    {"bsend", Groups::pair, Sizes::bytes},
    {"recv", Groups::pair, Sizes::bytes},
    {"recvmin", Groups::pair, Sizes::bytes},
    {"test", Groups::pair, Sizes::none},
    {"iprobe", Groups::pair, Sizes::none},
    {"isend1", Groups::pair, Sizes::bytes},
    {"isend2", Groups::pair, Sizes::bytes},
    {"isendoverlap", Groups::pair, Sizes::bytes},
    {"irecv1", Groups::pair, Sizes::bytes},
    {"irecv2", Groups::pair, Sizes::bytes},
    {"irecvoverlap", Groups::pair, Sizes::bytes},
    {"sendrecv", Groups::pair, Sizes::bytes},
    {"exchange", Groups::pair, Sizes::bytes},
    {"allsend", Groups::all, Sizes::bytes},
    {"onetomany", Groups::all, Sizes::bytes},
    {"manytoone", Groups::all, Sizes::bytes},
    {"manytomany", Groups::all, Sizes::bytes},
    {"barrier", Groups::all, Sizes::none},
    {"bcast", Groups::all, Sizes::bytes},
    {"reduce", Groups::all, Sizes::ints},
    {"allreduce", Groups::all, Sizes::ints},
    {"gather", Groups::all, Sizes::bytes},
    {"gatherv", Groups::all, Sizes::bytes},
    {"scatter", Groups::all, Sizes::bytes},
    {"scatterv", Groups::all, Sizes::bytes},
    {"allgather", Groups::all, Sizes::bytes},
    {"allgatherv", Groups::all, Sizes::bytes},
    {"alltoall", Groups::all, Sizes::bytes},
    {"alltoallv", Groups::all, Sizes::bytes},
    {"alltoallw", Groups::all, Sizes::bytes},
    {"reduce_scatter", Groups::all, Sizes::ints},
    {"reduce_scatter_block", Groups::all, Sizes::ints},
    {"scan", Groups::all, Sizes::ints},
    {"exscan", Groups::all, Sizes::ints},
    {"ibarrier", Groups::all, Sizes::none},
    {"ibcast", Groups::all, Sizes::bytes},
    {"ireduce", Groups::all, Sizes::ints},
    {"iallreduce", Groups::all, Sizes::ints},
    {"igather", Groups::all, Sizes::bytes},
    {"igatherv", Groups::all, Sizes::bytes},
    {"iscatter", Groups::all, Sizes::bytes},
    {"iscatterv", Groups::all, Sizes::bytes},
    {"iallgather", Groups::all, Sizes::bytes},
    {"iallgatherv", Groups::all, Sizes::bytes},
    {"ialltoall", Groups::all, Sizes::bytes},
    {"ialltoallv", Groups::all, Sizes::bytes},
    {"ialltoallw", Groups::all, Sizes::bytes},
    {"ireduce_scatter", Groups::all, Sizes::ints},
    {"ireduce_scatter_block", Groups::all, Sizes::ints},
    {"iscan", Groups::all, Sizes::ints},
    {"iexscan", Groups::all, Sizes::ints},
    {"comm_dup", Groups::all, Sizes::none},
    {"comm_split", Groups::all, Sizes::none},
    {"comm_create", Groups::all, Sizes::none},
    {"comm_free", Groups::all, Sizes::none},
    {"put", Groups::pair, Sizes::bytes},
    {"win_fence", Groups::all, Sizes::bytes},
});

inline constexpr int kIntBytes = 4;  // sizeof(int) on every platform the reductions run on

inline const OperationShape* find_operation_shape(std::string_view name) {
  for (const auto& shape : kOperations)
    if (shape.name == name) return &shape;
  return nullptr;
}

// Operations with a distinguished root (group rank 0), whose root and other ranks are timed
// separately as well: a bcast's root may be done long before the last receiver.
inline bool is_rooted(std::string_view name) {
  constexpr std::array<std::string_view, 12> kRooted{"bcast",  "reduce",  "gather",  "gatherv",  "scatter",
                                                     "scatterv", "ibcast", "ireduce", "igather", "igatherv",
                                                     "iscatter", "iscatterv"};
  for (auto rooted : kRooted)
    if (rooted == name) return true;
  return name == "onetomany" || name == "manytoone";
}

// Back-to-back round trips per repetition, as ping-pong benchmarks (b_eff, OSU, IMB) time them,
// after one untimed round trip: the first message after a pause is slower than the ones of a
// program's loop (Open MPI over TCP here: 11.5 µs one way against 8 µs from the second on), and
// the ping-pong is the one-way time the timing rules use for every message.
// Above 64 KiB a round trip lasts long enough that fewer rounds do (one from 1 MiB on); both
// ranks derive the count from the size.
inline constexpr int kPingPongRounds = 16;
inline constexpr std::uint64_t kAllRoundsUpTo = 64 * 1024;

inline int pingpong_rounds(std::uint64_t bytes) {
  if (bytes <= kAllRoundsUpTo) return kPingPongRounds;
  return static_cast<int>(std::max<std::uint64_t>(1, kPingPongRounds * kAllRoundsUpTo / bytes));
}

// The pair exchanges (`sendrecv`, `exchange`) run as a program's loop runs them, like the
// ping-pong: one untimed call, then calls back to back, timed as a whole. A call timed alone
// after the synchronisation meets a rested link: over TCP through a token bucket here a 64 KiB
// MPI_Sendrecv took 0.12–0.17 ms after a pause and 1.05 ms a step in a ring's loop, where both
// directions share the 1 Gbit/s. Up to 64 KiB a repetition times the ping-pong's 16 rounds;
// above, one call after the untimed one, which has already moved more than 256 KiB, a 1 Gbit/s
// link's allowance of 2 ms.
inline bool is_pair_exchange(std::string_view name) { return name == "sendrecv" || name == "exchange"; }

// The fewest calls a repetition of `name` times back to back at `bytes` (after the untimed one).
inline int fewest_calls_in_a_row(std::string_view name, std::uint64_t bytes) {
  return is_pair_exchange(name) && bytes <= kAllRoundsUpTo ? kPingPongRounds : 1;
}

inline int operation_index(std::string_view name) {
  for (std::size_t i = 0; i < kOperations.size(); ++i)
    if (kOperations[i].name == name) return static_cast<int>(i);
  return -1;
}

}  // namespace augur::bench
