#pragma once
// Which send, receive, request, completion and collective records belong to which MPI state of a
// rank, by the rule the trace replay follows (src/sim/program/replay.cpp): a call takes the
// records that start at its begin, in order, as its name says it makes them (a send takes one
// send record, an Irecv one request and the receive it posted, a Wait the completions stamped
// with its begin, a collective the collective record of its name). The OTF2 exporter writes each
// record inside its call, where OTF2 readers (and augur's own import) look for it.
#include <cstdint>
#include <optional>
#include <vector>

#include "trace/trace.hpp"

namespace augur::trace {

struct CallRecords {
  std::optional<std::uint32_t> send, recv, collective, request;  // indices into the rank's vectors
  // The request of the call's receive: an MPI_Irecv's (= request), or an MPI_Isendrecv's second.
  std::optional<std::uint32_t> recv_request;
  std::vector<std::uint32_t> completions;                         // indices into rank.completions
};

struct RankCalls {
  std::vector<CallRecords> of_state;  // one per state
  // Records no state took (a trace without states, or damaged), written at their own times.
  std::vector<bool> send_taken, recv_taken, collective_taken;
  // The request a send or receive record belongs to, as an index into rank.requests.
  std::vector<std::optional<std::uint32_t>> request_of_send, request_of_recv;
};

RankCalls attach_records(const Trace& trace, const RankTrace& rank);

}  // namespace augur::trace
