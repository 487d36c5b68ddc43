// One-sided communication on the windows the shim follows (windows.hpp): MPI_Put and its kin
// return at once on the virtual clock; their transfers complete at the synchronisation that
// closes the epoch (rma_epoch.hpp), which pays their time. MPI_Win_fence is a collective of the
// window's members; MPI_Win_unlock and MPI_Win_flush wait for the transfers to their target
// alone, whose clock a passive target does not follow; in a post/start/complete/wait epoch the
// origin's complete waits for its targets' posts and the target's wait for its origins'
// completes, whose times travel on the window's own communicator. A window the shim does not
// follow runs unchanged and is reported as not modelled.
#include <mpi.h>

#include "revprof/shim/requests.hpp"
#include "revprof/shim/runtime.hpp"
#include "revprof/shim/stamps.hpp"
#include "revprof/shim/windows.hpp"

using namespace augur::revprof;

namespace {

// Creation and freeing are collective over the window's group: the members meet as they do
// when making a communicator.
template <class Real>
int make_window(std::string_view op, MPI_Comm comm, MPI_Win* win, Real real) {
  return intercept(op, real, [&](Call& call) {
    const int rc = call.real(real);
    if (rc == MPI_SUCCESS) track_window(*win, comm);
    if (const Shadow* s = shadow_of(comm); s && rc == MPI_SUCCESS) finish_synchronising(call, op, *s, call.begin(), false);
    return rc;
  });
}

// `done(issued)` gives when the operation issued at `issued` completes at its target. A request-
// based form (MPI_Rput …) hands `request`, whose Wait then ends when the transfer is done.
template <class Done, class Real>
int one_sided(std::string_view op, MPI_Win win, int target, double bytes, Done done, Real real,
              MPI_Request* request = nullptr) {
  return intercept(op, real, [&](Call& call) {
    Window* w = window_of(win);
    if (!w) call.unmodelled(op);
    const int rc = call.real(real);
    if (!w || rc != MPI_SUCCESS || target == MPI_PROC_NULL) return rc;
    const Times finished = done(call.begin());
    w->epoch.issue(target, finished, bytes);
    if (request) {
      TrackedRequest r;
      r.kind = TrackedRequest::Kind::one_sided;
      r.op = op;
      r.begin = finished;
      track_request(*request, std::move(r));
    }
    call.finish(call.begin(), {}, bytes);
    return rc;
  });
}

auto put_like(double bytes) {
  return [bytes](const Times& issued) {
    auto& rt = runtime();
    return put_done(*rt.rules, rt.link_free, issued, bytes);
  };
}

auto get_like(double bytes) {
  return [bytes](const Times& issued) { return get_done(*runtime().rules, issued, bytes); };
}

auto fetch_like(double sent, double fetched) {
  return [sent, fetched](const Times& issued) {
    auto& rt = runtime();
    return fetch_done(*rt.rules, rt.link_free, issued, sent, fetched);
  };
}

// An epoch's end at the origin: it waits for the transfers `until` gives, then forgets them.
template <class Until, class Settle, class Real>
int completing(std::string_view op, MPI_Win win, Until until, Settle settle, Real real) {
  return intercept(op, real, [&](Call& call) {
    Window* w = window_of(win);
    if (!w) call.unmodelled(op);
    const int rc = call.real(real);
    if (!w || rc != MPI_SUCCESS) return rc;
    const Times end = later(call.begin(), until(w->epoch));
    settle(w->epoch);
    call.finish(end, end - call.begin(), 0);
    return rc;
  });
}

// Unlock and flush: of one target's transfers, or of every target's.
template <class Real>
int closing_one(std::string_view op, MPI_Win win, int rank, Real real) {
  return completing(
      op, win, [rank](const RmaEpoch& e) { return e.done(rank); }, [rank](RmaEpoch& e) { e.settle(rank); }, real);
}

template <class Real>
int closing_all(std::string_view op, MPI_Win win, Real real) {
  return completing(
      op, win, [](const RmaEpoch& e) { return e.done_all(); }, [](RmaEpoch& e) { e.settle_all(); }, real);
}

// Lock and lock_all cost nothing of their own here: implementations defer taking the lock to
// the first transfer or to the unlock, and the model's `put` times a whole lock epoch.
template <class Real>
int opening(std::string_view op, MPI_Win win, Real real) {
  return intercept(op, real, [&](Call& call) {
    if (!window_of(win)) call.unmodelled(op);
    const int rc = call.real(real);
    call.finish(call.begin(), {}, 0);
    return rc;
  });
}

// The tags of the shim's own messages on a window's communicator, which the program never sees:
// a target's post time to each origin, an origin's complete time to each target.
constexpr int kPosted = 1;
constexpr int kCompleted = 2;

// One time per clock from `source`, sent by send_post_time on the window's shadow.
Times receive_time(const Shadow& s, int source, int tag) {
  Times t;
  ShimUnlocked waiting;
  PMPI_Recv(t.at.data(), static_cast<int>(t.at.size()), MPI_DOUBLE, source, tag, s.acks, MPI_STATUS_IGNORE);
  return t;
}

// When a synchronisation call ends, and how much of it was spent waiting.
struct Ended {
  Times end, waiting;
};

// One whose whole time past its begin is waiting (post/start/complete/wait).
Ended waited(const Call& call, const Times& end) { return {end, end - call.begin()}; }

// A synchronisation call on a window: `body(call, window, shadow)`, after the real call
// succeeded on a followed window, says when it ends.
template <class Body, class Real>
int synchronising(std::string_view op, MPI_Win win, Body body, Real real) {
  return intercept(op, real, [&](Call& call) {
    Window* w = window_of(win);
    const Shadow* s = w ? shadow_of(*w) : nullptr;
    if (!s) call.unmodelled(op);
    const int rc = call.real(real);
    if (!s || rc != MPI_SUCCESS) return rc;
    const Ended ended = body(call, *w, *s);
    call.finish(ended.end, ended.waiting, 0);
    return rc;
  });
}

// A target's wait: its origins' completes, each a message away.
Times origins_completed(const Call& call, Window& w, const Shadow& s) {
  Times end = call.begin();
  for (const int origin : w.exposure) end = later(end, receive_time(s, origin, kCompleted) + runtime().rules->transit(0));
  w.exposure.clear();
  return end;
}

}  // namespace

extern "C" {

int MPI_Win_create(void* base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win* win) {
  return make_window("win_create", comm, win, [&] { return PMPI_Win_create(base, size, disp_unit, info, comm, win); });
}

int MPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void* baseptr, MPI_Win* win) {
  return make_window("win_create", comm, win,
                     [&] { return PMPI_Win_allocate(size, disp_unit, info, comm, baseptr, win); });
}

int MPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void* baseptr,
                            MPI_Win* win) {
  return make_window("win_create", comm, win,
                     [&] { return PMPI_Win_allocate_shared(size, disp_unit, info, comm, baseptr, win); });
}

int MPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win* win) {
  return make_window("win_create", comm, win, [&] { return PMPI_Win_create_dynamic(info, comm, win); });
}

int MPI_Win_free(MPI_Win* win) {
  auto real = [&] { return PMPI_Win_free(win); };
  return intercept("win_free", real, [&](Call& call) {
    const MPI_Win freed = *win;
    const Window* w = window_of(freed);
    const Shadow* s = w ? shadow_of(*w) : nullptr;
    const int rc = call.real(real);
    if (s && rc == MPI_SUCCESS) finish_synchronising(call, "win_free", *s, later(call.begin(), w->epoch.done_all()), false);
    if (rc == MPI_SUCCESS) forget_window(freed);
    return rc;
  });
}

int MPI_Put(const void* origin, int ocount, MPI_Datatype otype, int target, MPI_Aint disp, int tcount,
            MPI_Datatype ttype, MPI_Win win) {
  const double bytes = static_cast<double>(message_bytes(ocount, otype));
  return one_sided("put", win, target, bytes, put_like(bytes),
                   [&] { return PMPI_Put(origin, ocount, otype, target, disp, tcount, ttype, win); });
}

int MPI_Get(void* origin, int ocount, MPI_Datatype otype, int target, MPI_Aint disp, int tcount, MPI_Datatype ttype,
            MPI_Win win) {
  const double bytes = static_cast<double>(message_bytes(ocount, otype));
  return one_sided("get", win, target, bytes, get_like(bytes),
                   [&] { return PMPI_Get(origin, ocount, otype, target, disp, tcount, ttype, win); });
}

int MPI_Accumulate(const void* origin, int ocount, MPI_Datatype otype, int target, MPI_Aint disp, int tcount,
                   MPI_Datatype ttype, MPI_Op op, MPI_Win win) {
  const double bytes = static_cast<double>(message_bytes(ocount, otype));
  return one_sided("accumulate", win, target, bytes, put_like(bytes),
                   [&] { return PMPI_Accumulate(origin, ocount, otype, target, disp, tcount, ttype, op, win); });
}

int MPI_Get_accumulate(const void* origin, int ocount, MPI_Datatype otype, void* result, int rcount,
                       MPI_Datatype rtype, int target, MPI_Aint disp, int tcount, MPI_Datatype ttype, MPI_Op op,
                       MPI_Win win) {
  const double sent = static_cast<double>(message_bytes(ocount, otype));
  const double fetched = static_cast<double>(message_bytes(rcount, rtype));
  return one_sided("get_accumulate", win, target, sent + fetched, fetch_like(sent, fetched), [&] {
    return PMPI_Get_accumulate(origin, ocount, otype, result, rcount, rtype, target, disp, tcount, ttype, op, win);
  });
}

int MPI_Fetch_and_op(const void* origin, void* result, MPI_Datatype type, int target, MPI_Aint disp, MPI_Op op,
                     MPI_Win win) {
  const double bytes = static_cast<double>(message_bytes(1, type));
  return one_sided("fetch_and_op", win, target, 2 * bytes, fetch_like(bytes, bytes),
                   [&] { return PMPI_Fetch_and_op(origin, result, type, target, disp, op, win); });
}

int MPI_Compare_and_swap(const void* origin, const void* compare, void* result, MPI_Datatype type, int target,
                         MPI_Aint disp, MPI_Win win) {
  const double bytes = static_cast<double>(message_bytes(1, type));
  return one_sided("compare_and_swap", win, target, 3 * bytes, fetch_like(2 * bytes, bytes),
                   [&] { return PMPI_Compare_and_swap(origin, compare, result, type, target, disp, win); });
}

int MPI_Rput(const void* origin, int ocount, MPI_Datatype otype, int target, MPI_Aint disp, int tcount,
             MPI_Datatype ttype, MPI_Win win, MPI_Request* request) {
  const double bytes = static_cast<double>(message_bytes(ocount, otype));
  return one_sided(
      "rput", win, target, bytes, put_like(bytes),
      [&] { return PMPI_Rput(origin, ocount, otype, target, disp, tcount, ttype, win, request); }, request);
}

int MPI_Rget(void* origin, int ocount, MPI_Datatype otype, int target, MPI_Aint disp, int tcount, MPI_Datatype ttype,
             MPI_Win win, MPI_Request* request) {
  const double bytes = static_cast<double>(message_bytes(ocount, otype));
  return one_sided(
      "rget", win, target, bytes, get_like(bytes),
      [&] { return PMPI_Rget(origin, ocount, otype, target, disp, tcount, ttype, win, request); }, request);
}

// Post/start/complete/wait. A post tells each origin when it was made; a complete ends once the
// transfers to each target are done and each target's post has reached it, then tells each
// target when; a wait ends once every origin's complete has reached it. Start costs nothing of
// its own: MPI may return from it before the targets post.
int MPI_Win_post(MPI_Group group, int assert_flags, MPI_Win win) {
  return synchronising(
      "win_post", win,
      [&](const Call& call, Window& w, const Shadow& s) {
        w.exposure = ranks_in(w, group);
        for (const int origin : w.exposure) send_post_time(s, origin, kPosted, call.begin());
        return waited(call, call.begin());
      },
      [&] { return PMPI_Win_post(group, assert_flags, win); });
}

int MPI_Win_start(MPI_Group group, int assert_flags, MPI_Win win) {
  return synchronising(
      "win_start", win,
      [&](const Call& call, Window& w, const Shadow&) {
        w.access = ranks_in(w, group);
        return waited(call, call.begin());
      },
      [&] { return PMPI_Win_start(group, assert_flags, win); });
}

int MPI_Win_complete(MPI_Win win) {
  return synchronising(
      "win_complete", win,
      [&](const Call& call, Window& w, const Shadow& s) {
        const auto& rules = *runtime().rules;
        Times end = call.begin();
        for (const int target : w.access) {
          end = later(end, w.epoch.done(target));
          end = later(end, receive_time(s, target, kPosted) + rules.transit(0));
          w.epoch.settle(target);
        }
        for (const int target : w.access) send_post_time(s, target, kCompleted, end);
        w.access.clear();
        return waited(call, end);
      },
      [&] { return PMPI_Win_complete(win); });
}

int MPI_Win_wait(MPI_Win win) {
  return synchronising(
      "win_wait", win,
      [](const Call& call, Window& w, const Shadow& s) { return waited(call, origins_completed(call, w, s)); },
      [&] { return PMPI_Win_wait(win); });
}

// A test that finds the epoch still open is a poll; one that finds it closed ends as a wait.
int MPI_Win_test(MPI_Win win, int* flag) {
  return synchronising(
      "win_test", win,
      [&](const Call& call, Window& w, const Shadow& s) {
        if (!*flag) return Ended{call.begin() + poll_seconds(Poll::test), {}};
        return waited(call, origins_completed(call, w, s));
      },
      [&] { return PMPI_Win_test(win, flag); });
}

int MPI_Win_fence(int assert_flags, MPI_Win win) {
  return synchronising(
      "win_fence", win,
      [](const Call& call, Window& w, const Shadow& s) {
        // The bench's win_fence holds the epoch's transfers, priced at the most bytes a member
        // put; a barrier standing in for it begins once this rank's transfers are done.
        const auto& rules = *runtime().rules;
        const Times start = rules.fence_holds_transfers() ? call.begin() : later(call.begin(), w.epoch.done_all());
        auto c = make_record("win_fence", s, -1, start, w.epoch.bytes());
        w.epoch.settle_all();
        exchange_starts(c, true);
        Ended ended;
        ended.end = collective_finish(c, ended.waiting);
        // The replay finds a collective's record by its call's begin.
        c.start = call.begin();
        trace_collective(c, ended.end, -1);
        return ended;
      },
      [&] { return PMPI_Win_fence(assert_flags, win); });
}

int MPI_Win_lock(int lock_type, int rank, int assert_flags, MPI_Win win) {
  return opening("win_lock", win, [&] { return PMPI_Win_lock(lock_type, rank, assert_flags, win); });
}

int MPI_Win_lock_all(int assert_flags, MPI_Win win) {
  return opening("win_lock_all", win, [&] { return PMPI_Win_lock_all(assert_flags, win); });
}

int MPI_Win_unlock(int rank, MPI_Win win) {
  return closing_one("win_unlock", win, rank, [&] { return PMPI_Win_unlock(rank, win); });
}

int MPI_Win_unlock_all(MPI_Win win) {
  return closing_all("win_unlock_all", win, [&] { return PMPI_Win_unlock_all(win); });
}

int MPI_Win_flush(int rank, MPI_Win win) {
  return closing_one("win_flush", win, rank, [&] { return PMPI_Win_flush(rank, win); });
}

int MPI_Win_flush_all(MPI_Win win) {
  return closing_all("win_flush_all", win, [&] { return PMPI_Win_flush_all(win); });
}

}  // extern "C"
