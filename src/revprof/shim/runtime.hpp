#pragma once
// The reverse profiler's state in one process: the target model, the virtual clocks (one per
// bound, revprof/bounds.hpp), the ledger and the trace. One global state, held by a lock when
// the program was given MPI_THREAD_MULTIPLE (ShimLock below); compute may run on any of the
// program's threads (revprof/rank_cpu_clock.hpp).
#include <mpi.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "model/model.hpp"
#include "revprof/bounds.hpp"
#include "revprof/compute_band.hpp"
#include "revprof/compute_clock.hpp"
#include "revprof/config.hpp"
#include "revprof/guard.hpp"
#include "revprof/ledger.hpp"
#include "timing/levels.hpp"
#include "trace/writer.hpp"

namespace augur::revprof {

double thread_cpu_seconds();
double wall_seconds();  // a monotonic clock read through the vDSO

// Intervals shorter than this (wall time) cannot hold a preemption: a scheduler slice is
// milliseconds. Long enough that one CPU-clock reading per longer interval costs under 2%.
inline constexpr double kShortInterval = 50e-6;

class Call;

struct Runtime {
  Config config;
  model::Model model;
  std::optional<BoundRules> rules;  // between nodes: every message of a model of one level
  // A machine of nodes (docs/nodes.md): the on-node level's rules and the collectives by
  // placement; null for a model of one level, which prices as `rules` alone.
  std::unique_ptr<timing::BoundsLevelRules> levels;
  Ledger ledger;
  std::unique_ptr<trace::RankWriter> trace;
  std::string trace_error;  // why the trace stopped early (to_trace)
  int rank = 0, size = 1;
  Times now;               // virtual time at each bound, seconds since MPI_Init returned
  Times link_free;         // when this rank's next message may leave (timing::BasicRules::departure)
  Times compute_factors = Times::same(1);  // a compute second on each clock (compute_band.hpp)
  double origin = 0;       // real time at MPI_Init's return, the earliest over ranks (measure mode)
  ComputeClock compute_clock{wall_seconds, thread_cpu_seconds, {}, kShortInterval};
  bool active = false;     // between Init and Finalize, and the model loaded
  std::string not_predicted;  // why a run is not predicted (then not active)
  bool compute_paused = false;  // MPI_Pcontrol(0)
  bool threaded = false;   // MPI_THREAD_MULTIPLE: calls may come from several threads at once
  // Whether the model prices a poll that finds nothing (the rules' `test`, and `iprobe` else
  // `test`); where it does not, the host's own time of the call counts (finish_poll).
  bool model_prices_test = false, model_prices_iprobe = false;
};

Runtime& runtime();

// The rules that price a message between this rank and world rank `peer` (negative: not known,
// MPI_ANY_SOURCE): the on-node level's when a machine of nodes puts both on one node.
const BoundRules& rules_with(int peer);
// The same for the peer `rank` of communicator `comm` (nullptr or a negative rank: not known).
struct Shadow;
const BoundRules& rules_with(const Shadow* comm, int rank);

// This thread's nesting of the shim's wrappers (a PMPI call may re-enter MPI_*), and its priced
// call in progress, if any.
int& call_depth();
Call*& current_call();

// A program given MPI_THREAD_MULTIPLE may call MPI from several threads at once. The shim's state
// (clock, ledger, trace, requests, communicators, staging pools) is then held by one lock: a
// wrapper takes it for the shim's work and gives it up while the real call, or a wait of the
// shim's own, blocks, so threads that wait for each other's messages still meet. Without
// MPI_THREAD_MULTIPLE both are no-ops.
class ShimLock {
 public:
  ShimLock();
  ~ShimLock();
  ShimLock(const ShimLock&) = delete;
  ShimLock& operator=(const ShimLock&) = delete;

 private:
  bool took_ = false;
};

class ShimUnlocked {
 public:
  ShimUnlocked();
  ~ShimUnlocked();
  ShimUnlocked(const ShimUnlocked&) = delete;
  ShimUnlocked& operator=(const ShimUnlocked&) = delete;

 private:
  bool gave_ = false;
};

// The CPU time that reading the thread clock itself adds between two readings: a system call
// on most kernels, about a microsecond in a virtual machine. Subtracted from every compute
// interval that was timed with that clock (compute_clock.hpp).
double measure_clock_overhead(ComputeClock::Reader clock);

// What the interposer's own work around each call (the program's call reaching the wrapper, the
// wrapper's work before the clock reading, the return after the last one) adds to the compute
// between two calls: 20-30 ns, a quarter of the compute of a program calling MPI every
// microsecond. Measured by timing back-to-back intercepted calls on MPI_COMM_SELF, which have
// nothing between them; the run's ledger and virtual clock are reset afterwards. Call it while
// prediction is active and before the trace is opened.
double measure_call_boundary();

// Real seconds since the run's origin: the clock of measured runs.
double real_now();

// In a measured run every event takes the real time; in a predicted one the modelled time.
Times event_time(const Times& modelled);
// The clock the program's MPI_Wtime, the ledger and the trace's timeline follow: --bound's.
double shown(const Times& t);

// Adds to the trace, when there is one. The trace is the shim's own output: one that cannot
// be written (a full disk) is closed where it stopped, with a message, and the run goes on
// without it; the report says so.
void stop_trace(std::string_view reason) noexcept;
template <class Write>
void to_trace(Write&& write) noexcept {
  auto& rt = runtime();
  if (!rt.trace) return;
  try {
    write(*rt.trace);
  } catch (const std::exception& e) {
    stop_trace(e.what());
  } catch (...) {
    stop_trace("an exception that is not a std::exception");
  }
}

// Brings the virtual clock up to date with the compute done since the program left MPI (or last
// called this); the program's own time then runs again from here.
void account_compute();
// The same at the start of an intercepted call, whose end (Call's destructor) resumes the
// program's time: one clock reading fewer on every call.
void account_compute_before_call();
// The program read the clock (MPI_Wtime): the call is part of its own time, so the compute since
// it last left MPI counts with the call's own cost on the host, nothing taken off. A loop that
// waits on the clock then advances its virtual time at the rate it runs (docs/revprof-clocks.md).
void account_clock_reading();
// Adds `seconds` of the program's compute on the target to every clock, times the model's
// compute state on each (compute_band.hpp).
void add_compute_seconds(double seconds);

// Marks entry into and exit from an intercepted call. While a call is inside, nested MPI_*
// calls made by the MPI library itself pass straight through.
class Call {
 public:
  explicit Call(std::string_view op);
  ~Call();
  Call(const Call&) = delete;
  Call& operator=(const Call&) = delete;

  // Makes the real MPI call and keeps its result, which the program gets whatever the shim's
  // own work does afterwards (guarded, revprof/guard.hpp).
  template <class Make>
  int real(Make&& make) {
    {
      ShimUnlocked blocking;
      result_ = make();
    }
    made_ = true;
    return result_;
  }
  // The same, keeping the shim's lock (ShimLock): a call that completes requests must settle
  // them before another thread's new request can take a freed handle. It must not block.
  template <class Make>
  int real_holding(Make&& make) {
    result_ = make();
    made_ = true;
    return result_;
  }
  bool made() const { return made_; }
  int result() const { return result_; }
  // The call runs but its cost is left out of the prediction; the report counts it under its
  // operation with the first reason given.
  void not_priced(std::string_view reason) noexcept;

  bool modelled() const { return modelled_; }
  const Times& begin() const { return begin_; }
  // Ends the call at virtual time `end` (never before its begin), `waiting` of it spent waiting.
  void finish(const Times& end, const Times& waiting, double bytes);
  // The call runs unchanged and its cost is not predicted (e.g. on an intercommunicator).
  void unmodelled(std::string_view function);

 private:
  ShimLock lock_;  // first: taken before the call's work, given up after the destructor's
  std::string_view op_;
  Times begin_;
  bool modelled_ = false;
  bool finished_ = false;
  bool made_ = false;
  bool priced_ = true;
  int result_ = MPI_SUCCESS;
};

// Stops predicting a run that has started: the program runs on unchanged and the report gives
// `why` instead of a prediction.
void refuse_prediction(const std::string& why);

// Ends a call that found nothing done after one poll's time on the model's machine: an
// MPI_Test* whose requests are pending (Poll::test), an MPI_Iprobe of no message (Poll::iprobe).
// A model without the poll's operation gets the host's own time of the call, counted as compute.
enum class Poll { test, iprobe };
void finish_poll(Call& call, Poll kind);
// That poll's time on each clock from the call's begin.
Times poll_seconds(Poll kind);

// Runs an intercepted call, the shim's work around it guarded (revprof/guard.hpp). A call
// that is not priced (outside a predicted run, or made by the MPI library itself inside
// another intercepted call) is `plain`: the real call with the program's own arguments.
template <class Plain, class Body>
int intercept(std::string_view op, Plain&& plain, Body&& body) noexcept {
  Call call(op);
  if (!call.modelled()) {
    ShimUnlocked blocking;
    return plain();
  }
  return guarded(call, plain, body);
}

// The same for the calls that complete requests, whose body runs even when the call is not
// priced: a request the shim follows is settled (its envelope opened, its data given to the
// program) whoever waits for it.
template <class Plain, class Body>
int intercept_completion(std::string_view op, Plain&& plain, Body&& body) noexcept {
  Call call(op);
  return guarded(call, plain, body);
}

// What the model could not price, told by the rules (price_unanswered_as_zero): counted
// against the call in progress, or, outside any, against the requests the shim completes in
// the background (MPI_Finalize, MPI_Buffer_detach).
void note_not_priced(std::string_view reason) noexcept;

// Counts a call that runs unchanged and whose cost is not predicted.
void note_unmodelled(std::string_view function);

// Bytes of `count` elements of `type`, past INT_MAX when the message is that large.
MPI_Count message_bytes(MPI_Count count, MPI_Datatype type);

}  // namespace augur::revprof
