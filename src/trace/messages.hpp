#pragma once
// Pairs each rank's send records with the matching receive records. MPI delivers messages
// between one sender and one receiver with the same tag and communicator in the order they were
// sent, so the k-th send with a (source, destination, tag, communicator) signature is matched by
// the k-th receive with it.
#include <cstdint>
#include <vector>

#include "trace/trace.hpp"

namespace augur::trace {

inline constexpr std::int64_t kUnmatched = -1;

struct Message {
  std::int32_t src, dst;
  std::uint32_t send_index, recv_index;  // into ranks[src].sends and ranks[dst].recvs
};

struct MessagePairing {
  std::vector<Message> messages;
  std::vector<std::vector<std::int64_t>> message_of_send;  // per rank, per send: kUnmatched or index
  std::vector<std::vector<std::int64_t>> message_of_recv;
  std::uint64_t unmatched_sends = 0, unmatched_recvs = 0;
};

MessagePairing pair_messages(const Trace& trace);

}  // namespace augur::trace
