#pragma once
// A whole trace in memory: every rank's states, point-to-point records, collectives and phase
// marks, with names unified across ranks. Readers build it; exporters, compare, summary and the
// timeline read it.
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "trace/format.hpp"

namespace augur::trace {

// Index into Trace::names.
using NameIndex = std::uint32_t;

struct State {
  double begin, end;
  NameIndex op;  // meaningful for StateKind::mpi; the label of other kinds is the kind itself
  StateKind kind;
};

struct SendEvent {
  double time;
  std::int32_t dst, tag, comm;
  std::uint64_t bytes;
};

struct RecvEvent {
  double post, end;
  std::int32_t src, tag, comm;  // the matched source and tag
  std::uint64_t bytes;
  std::uint8_t wildcard = 0;  // kAnySource, kAnyTag: what the program left open (version 2)
};

// A request's making or completion (version 2): `time` is the call's begin.
struct RequestEvent {
  double time;
  std::uint32_t id;
  std::int32_t peer = 0;  // made: its world peer, −1 any source, kNullPeer for MPI_PROC_NULL
};

struct CollectiveEvent {
  double begin, end;
  NameIndex op;
  std::int32_t comm, root;
  std::uint64_t bytes;
};

struct PhaseMark {
  double time;
  NameIndex name;
  bool begin;
};

struct RankTrace {
  std::string file;  // where the rank came from, for error messages
  std::vector<State> states;
  std::vector<SendEvent> sends;
  std::vector<RecvEvent> recvs;
  std::vector<CollectiveEvent> collectives;
  std::vector<PhaseMark> phases;
  std::vector<RequestEvent> requests, completions;  // version 2; empty in older traces
  std::vector<std::uint32_t> state_lines;  // source line of each state, for text traces only
};

// Damage found while reading; everything before `offset` in `file` was kept.
struct ReadProblem {
  std::string file;
  std::uint64_t offset;
  std::string reason;
  std::string message() const;
};

struct Trace {
  TraceHeader header;
  std::vector<std::string> names;
  std::vector<RankTrace> ranks;
  std::vector<ReadProblem> problems;
  // What a reader left out or assumed without the trace being damaged (OTF2 input: threads not
  // read, events of kinds not read, events it could not place), for the commands to print.
  std::vector<std::string> notes;

  int nranks() const { return static_cast<int>(ranks.size()); }
  NameIndex intern(std::string_view name);
  // "COMPUTE", "WAIT", "IDLE", or the MPI operation's name: the seed's state names.
  std::string_view label(const State& s) const;
  std::uint64_t event_count() const;
  double start_time() const;
  double end_time() const;
  // Each communicator the records name, with its members: the ranks with collective records on
  // it (a trace names communicators by number only; one only messages use has none known).
  std::map<std::int32_t, std::set<int>> communicator_members() const;
};

}  // namespace augur::trace
