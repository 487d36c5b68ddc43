#include "revprof/shim/requests.hpp"

#include <algorithm>
#include <limits>
#include <unordered_map>

#include "revprof/shim/runtime.hpp"

namespace augur::revprof {
namespace {

std::unordered_map<MPI_Request, TrackedRequest>& table() {
  static auto* requests = new std::unordered_map<MPI_Request, TrackedRequest>();
  return *requests;
}

}  // namespace

TrackedRequest& track_request(MPI_Request handle, TrackedRequest request) {
  return table().insert_or_assign(handle, std::move(request)).first->second;
}

TrackedRequest* find_request(MPI_Request handle) {
  if (handle == MPI_REQUEST_NULL) return nullptr;
  auto it = table().find(handle);
  return it == table().end() ? nullptr : &it->second;
}

void drop_request(MPI_Request handle) { table().erase(handle); }

std::optional<double> settle(MPI_Request handle, const MPI_Status& status, double& waiting, double& bytes) {
  auto* r = find_request(handle);
  if (!r || !r->active) return std::nullopt;
  double end = 0;
  switch (r->kind) {
    case TrackedRequest::Kind::send:
      end = end_send(r->send, waiting);
      bytes = r->send.bytes;
      break;
    case TrackedRequest::Kind::receive:
      end = end_receive(r->receive, status, waiting);
      bytes = r->receive.bytes;
      break;
    case TrackedRequest::Kind::collective:
      PMPI_Wait(&r->collective.exchange, MPI_STATUS_IGNORE);
      end = collective_finish(r->collective, waiting);
      bytes = r->collective.all[2];
      break;
  }
  if (r->persistent) r->active = false;
  else drop_request(handle);
  return end;
}

void serve_pending_receives() {
  for (auto& [handle, r] : table()) {
    if (r.kind != TrackedRequest::Kind::receive || !r.active || r.receive.stamped) continue;
    int done = 0;
    MPI_Status status;
    PMPI_Request_get_status(handle, &done, &status);
    if (done) take_stamp(r.receive, status);
  }
}

void exchange_starts(CollectiveRecord& c, bool blocking) {
  if (blocking) PMPI_Allreduce(c.mine.data(), c.all.data(), 3, MPI_DOUBLE, MPI_MAX, c.shadow->stamps);
  else PMPI_Iallreduce(c.mine.data(), c.all.data(), 3, MPI_DOUBLE, MPI_MAX, c.shadow->stamps, &c.exchange);
}

double collective_finish(const CollectiveRecord& c, double& waiting) {
  const auto& rules = *runtime().rules;
  double duration = rules.collective_duration(c.op, c.shadow->size, c.all[2], c.is_root);
  timing::CollectiveStarts starts{c.all[0], c.all[1]};
  double end = timing::collective_end(timing::shape_of(c.op), c.is_root, c.start, starts, duration);
  waiting = std::max(0.0, end - c.start - duration);
  return end;
}

}  // namespace augur::revprof
