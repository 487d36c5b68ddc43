#include "revprof/shim/runtime.hpp"

#include "revprof/shim/comms.hpp"

#include <time.h>

#include <algorithm>
#include <mutex>
#include <cstdio>
#include <vector>

#include "util/median.hpp"
#include "revprof/shim/datatypes.hpp"

namespace augur::revprof {

Runtime& runtime() {
  // Never destroyed: MPI may call back into the shim from atexit handlers after static
  // destructors would have run.
  static auto* instance = new Runtime();
  return *instance;
}

const BoundRules& rules_with(int peer) {
  const auto& rt = runtime();
  if (rt.levels && peer >= 0 && rt.levels->placement().same_node(rt.rank, peer)) return rt.levels->on_node();
  return *rt.rules;
}

const BoundRules& rules_with(const Shadow* comm, int rank) {
  return rules_with(comm && rank >= 0 ? world_rank_of(*comm, rank) : -1);
}

double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

double wall_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

double real_now() { return PMPI_Wtime() - runtime().origin; }

Times event_time(const Times& modelled) { return runtime().config.measure ? Times::same(real_now()) : modelled; }

double shown(const Times& t) { return t[runtime().config.bound]; }

double measure_clock_overhead(ComputeClock::Reader clock) {
  // The median, not the least: each interval between MPI calls pays a typical reading.
  std::vector<double> deltas(2001);
  for (auto& d : deltas) {
    double a = clock();
    d = clock() - a;
  }
  return std::clamp(util::median(std::move(deltas)), 0.0, 1e-4);
}

double measure_call_boundary() {
  auto& rt = runtime();
  const Config config = rt.config;
  rt.config.compute = ComputeMode::measured;
  rt.config.compute_scale = 1;
  constexpr int kCalls = 32;
  std::vector<double> per_call(15);
  double in = 1, out = 0;
  rt.compute_clock.start();
  for (auto& each : per_call) {
    const double before = rt.ledger.compute_seconds();
    for (int i = 0; i < kCalls; ++i) MPI_Allreduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_SELF);
    each = (rt.ledger.compute_seconds() - before) / kCalls;
  }
  rt.config = config;
  rt.ledger = Ledger{};
  rt.now = {};
  rt.link_free = {};
  // The median batch: one batch may hold an interrupt. Bounded so a disturbed measurement
  // cannot erase a program's real compute.
  return std::clamp(util::median(std::move(per_call)), 0.0, 200e-9);
}

void stop_trace(std::string_view reason) noexcept {
  auto& rt = runtime();
  try {
    rt.trace_error = reason;
    std::fprintf(stderr, "augur-revprof: rank %d: the trace stops here: %s; the run goes on without it\n", rt.rank,
                 rt.trace_error.c_str());
  } catch (...) {
  }
  rt.trace.reset();  // flushes what it can; never throws
}

void add_compute_seconds(double seconds) {
  auto& rt = runtime();
  // The ledger keeps the compute as measured (avg's); each clock takes it at its own state.
  const Times added = compute_on_each_clock(rt.compute_factors, seconds);
  to_trace([&](trace::RankWriter& t) { t.state(shown(rt.now), shown(rt.now + added), trace::StateKind::compute); });
  rt.now = rt.now + added;
  rt.ledger.compute(seconds);
}

namespace {

bool compute_is_measured() {
  const auto& rt = runtime();
  return rt.config.compute == ComputeMode::measured && !rt.compute_paused;
}

// Host seconds of the program's compute, counted on the target unless the run ignores compute.
void add_measured_compute(double spent) {
  if (!compute_is_measured() || spent <= 0) return;
  add_compute_seconds(spent * runtime().config.compute_scale);
}

void add_compute(bool resume_now) {
  auto& rt = runtime();
  if (rt.config.measure) {
    // Measured run: everything between two MPI calls is the program's own time.
    const double t = real_now(), now = shown(rt.now);
    if (t > now) to_trace([&](trace::RankWriter& w) { w.state(now, t, trace::StateKind::compute); });
    if (t > now) rt.ledger.compute(t - now);
    rt.now = Times::same(std::max(now, t));
    return;
  }
  const double spent = rt.compute_clock.enter();
  if (resume_now) rt.compute_clock.leave();
  add_measured_compute(spent);
}

}  // namespace

void account_compute() { add_compute(true); }
void account_compute_before_call() { add_compute(false); }

void account_clock_reading() {
  auto& rt = runtime();
  if (rt.config.measure) {
    add_compute(true);
    return;
  }
  add_measured_compute(rt.compute_clock.pass());
}

// The shim is loaded with the program (LD_PRELOAD), so its thread-locals can live in the static
// TLS block: a read on every call is then one load, not a call to __tls_get_addr.
#define AUGUR_SHIM_THREAD_LOCAL thread_local __attribute__((tls_model("initial-exec")))

int& call_depth() {
  AUGUR_SHIM_THREAD_LOCAL int depth = 0;
  return depth;
}

Call*& current_call() {
  AUGUR_SHIM_THREAD_LOCAL Call* call = nullptr;
  return call;
}

namespace {

std::mutex& shim_mutex() {
  static auto* m = new std::mutex();
  return *m;
}

AUGUR_SHIM_THREAD_LOCAL bool holds_shim_lock = false;

}  // namespace

ShimLock::ShimLock() {
  if (!runtime().threaded || holds_shim_lock) return;
  shim_mutex().lock();
  holds_shim_lock = took_ = true;
}

ShimLock::~ShimLock() {
  if (!took_) return;
  holds_shim_lock = false;
  shim_mutex().unlock();
}

ShimUnlocked::ShimUnlocked() {
  if (!runtime().threaded || !holds_shim_lock) return;
  holds_shim_lock = false;
  gave_ = true;
  shim_mutex().unlock();
}

ShimUnlocked::~ShimUnlocked() {
  if (!gave_) return;
  shim_mutex().lock();
  holds_shim_lock = true;
}

Call::Call(std::string_view op) : op_(op) {
  auto& rt = runtime();
  modelled_ = rt.active && call_depth() == 0;
  ++call_depth();
  if (!modelled_) return;
  current_call() = this;
  account_compute_before_call();
  begin_ = rt.now;
}

void Call::not_priced(std::string_view reason) noexcept {
  if (!modelled_ || !priced_) return;
  priced_ = false;
  try {
    runtime().ledger.not_priced(op_, reason);
  } catch (...) {
    // Out of memory for the ledger's entry: the call goes uncounted, the program on.
  }
}

void note_not_priced(std::string_view reason) noexcept {
  auto& rt = runtime();
  if (auto* call = current_call()) {
    call->not_priced(reason);
    return;
  }
  try {
    rt.ledger.not_priced("requests the shim completed in the background", reason);
  } catch (...) {
  }
}

void Call::finish(const Times& end, const Times& waiting, double bytes) {
  auto& rt = runtime();
  finished_ = true;
  if (!modelled_) return;
  rt.now = later(event_time(end), begin_);
  const double begin = shown(begin_), until = shown(rt.now);
  // A size MPI refused (a negative count) is no bytes moved.
  rt.ledger.call(op_, begin, until, shown(waiting), std::max(bytes, 0.0));
  to_trace([&](trace::RankWriter& t) { t.state(begin, until, trace::StateKind::mpi, t.name_id(op_)); });
}

void Call::unmodelled(std::string_view function) {
  if (!modelled_) return;
  runtime().ledger.unmodelled(function);
  modelled_ = false;
}

Call::~Call() {
  auto& rt = runtime();
  if (current_call() == this) current_call() = nullptr;
  if (modelled_ && !finished_) {
    try {
      finish(rt.now, {}, 0);
    } catch (...) {
      // Only the ledger's allocation can fail here; a destructor must not throw.
    }
  }
  --call_depth();
  // Time the MPI library itself burned (polling, copying) is not the program's compute.
  if (modelled_) rt.compute_clock.leave();
}

Times poll_seconds(Poll kind) {
  auto& rt = runtime();
  const auto& rules = *rt.rules;
  const bool priced = kind == Poll::test ? rt.model_prices_test : rt.model_prices_iprobe;
  // Without compute the rules' 0 stands, and the report names the missing operation.
  if (priced || !compute_is_measured()) return kind == Poll::test ? rules.test_poll() : rules.iprobe_poll();
  return compute_on_each_clock(rt.compute_factors, rt.compute_clock.count_call() * rt.config.compute_scale);
}

void finish_poll(Call& call, Poll kind) {
  if (!call.modelled()) return;
  call.finish(call.begin() + poll_seconds(kind), {}, 0);
}

void note_unmodelled(std::string_view function) {
  auto& rt = runtime();
  ShimLock lock;
  if (rt.active && call_depth() == 0) rt.ledger.unmodelled(function);
}

MPI_Count message_bytes(MPI_Count count, MPI_Datatype type) {
  if (count <= 0 || type == MPI_DATATYPE_NULL) return 0;
  return count * layout_of(type).size;
}

}  // namespace augur::revprof
