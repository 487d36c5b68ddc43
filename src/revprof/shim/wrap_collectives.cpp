// Collectives: the real operation runs unchanged, then the members exchange their virtual start
// times on the shadow communicator and each leaves at the time the rules give for its role.
#include <mpi.h>

#include <numeric>

#include "revprof/shim/requests.hpp"
#include "revprof/shim/runtime.hpp"

using namespace augur::revprof;

namespace {

// A rank's message size (docs/revprof-clocks.md, "Collectives"), worked out from the shadow's
// rank and size once the call's clock has started: work done before it would count as the
// program's compute.
auto bytes_of(MPI_Count count, MPI_Datatype type) {
  return [=](const Shadow&) { return message_bytes(count, type); };
}
// Rooted: the root's size is its whole buffer, the others' their part.
template <class AtRoot, class Elsewhere>
auto rooted(int root, AtRoot at_root, Elsewhere elsewhere) {
  return [=](const Shadow& s) { return s.rank == root ? at_root(s) : elsewhere(s); };
}
// v-variants: the mean over the members.
template <class Count>  // int, or MPI_Count for MPI 4's large-count calls
auto mean_bytes(const Count* counts, MPI_Datatype type) {
  return [=](const Shadow& s) {
    const double total = counts ? std::accumulate(counts, counts + s.size, 0.0) : 0.0;
    return total / s.size * message_bytes(1, type);
  };
}

// Alltoallw: each member's own datatype.
template <class Count>
auto mean_bytes_w(const Count* counts, const MPI_Datatype* types) {
  return [=](const Shadow& s) {
    double total = 0;
    for (int i = 0; counts && types && i < s.size; ++i) total += message_bytes(counts[i], types[i]);
    return total / s.size;
  };
}

// The shadow to exchange start times on, or nullptr for a communicator the shim does not
// track (then the call is not predicted, and the report lists it).
const Shadow* modelled_shadow(Call& call, MPI_Comm comm, std::string_view op) {
  const Shadow* s = shadow_of(comm);
  if (!s) call.unmodelled(op);
  return s;
}

// `root` is -1 for collectives without one; `bytes` gives this rank's message size.
template <class Bytes, class Real>
int blocking(std::string_view op, MPI_Comm comm, int root, Bytes bytes, Real real) {
  return intercept(op, real, [&](Call& call) {
    const Shadow* s = modelled_shadow(call, comm, op);
    int rc = call.real(real);
    if (!s) return rc;
    auto c = make_record(op, *s, root, call.begin(), bytes(*s));
    exchange_starts(c, true);
    Times waiting;
    const Times end = collective_finish(c, waiting);
    trace_collective(c, end, root);
    call.finish(end, waiting, c.all.bytes);
    return rc;
  });
}

template <class Bytes, class Real>
int nonblocking(std::string_view op, MPI_Comm comm, int root, Bytes bytes, MPI_Request* request, Real real) {
  return intercept(op, real, [&](Call& call) {
    const Shadow* s = modelled_shadow(call, comm, op);
    int rc = call.real(real);
    if (!s) return rc;
    TrackedRequest r;
    r.kind = TrackedRequest::Kind::collective;
    r.op = op;
    // The exchange writes into the tracked record, whose address the request table keeps stable.
    auto& tracked = track_request(*request, std::move(r));
    tracked.collective = make_record(op, *s, root, call.begin(), bytes(*s));
    exchange_starts(tracked.collective, false);
    call.finish(call.begin(), {}, 0);
    return rc;
  });
}

}  // namespace

// Each row of the table becomes a wrapper: MPI_<name> with the row's parameters, priced by
// `how` with the row's leading arguments around the real call PMPI_<name>.
#define AUGUR_UNPACK(...) __VA_ARGS__
#define AUGUR_WRAPPER(name, params, args, how, lead) \
  int name params { return how(AUGUR_UNPACK lead, [&] { return P##name args; }); }

extern "C" {

#define AUGUR_COUNT int
#define AUGUR_DISPL int
#define AUGUR_COLLECTIVE(name, params, args, how, lead) AUGUR_WRAPPER(MPI_##name, params, args, how, lead)
#define AUGUR_COUNTLESS(name, params, args, how, lead) AUGUR_WRAPPER(MPI_##name, params, args, how, lead)
#include "revprof/shim/collective_calls.def"
#undef AUGUR_COUNT
#undef AUGUR_DISPL
#undef AUGUR_COLLECTIVE
#undef AUGUR_COUNTLESS

// MPI 4's large-count forms (MPICH 4): the same rows, counts as MPI_Count and displacements as
// MPI_Aint, priced as the int-count forms.
#if MPI_VERSION >= 4
#define AUGUR_COUNT MPI_Count
#define AUGUR_DISPL MPI_Aint
#define AUGUR_COLLECTIVE(name, params, args, how, lead) AUGUR_WRAPPER(MPI_##name##_c, params, args, how, lead)
#define AUGUR_COUNTLESS(name, params, args, how, lead)
#include "revprof/shim/collective_calls.def"
#undef AUGUR_COUNT
#undef AUGUR_DISPL
#undef AUGUR_COLLECTIVE
#undef AUGUR_COUNTLESS
#endif  // MPI_VERSION >= 4

}  // extern "C"
