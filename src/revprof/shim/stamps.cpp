#include "revprof/shim/stamps.hpp"

#include <array>
#include <list>

#include "revprof/shim/requests.hpp"

namespace augur::revprof {
namespace {

struct Outgoing {
  MPI_Request request = MPI_REQUEST_NULL;
  std::array<double, 2> payload{};
};

// std::list keeps each payload at a fixed address until its send completes.
std::list<Outgoing>& outgoing() {
  static auto* pending = new std::list<Outgoing>();
  return *pending;
}

std::list<std::pair<MPI_Request, double*>>& stale_receipts() {
  static auto* stale = new std::list<std::pair<MPI_Request, double*>>();
  return *stale;
}

void isend_pair(MPI_Comm comm, int dest, int tag, double a, double b) {
  auto& out = outgoing();
  if (out.size() > 64) settle_outgoing(false);
  auto& o = out.emplace_back();
  o.payload = {a, b};
  PMPI_Isend(o.payload.data(), 2, MPI_DOUBLE, dest, tag, comm, &o.request);
}

}  // namespace

void send_stamp(const Shadow& s, int dest, int tag, const Stamp& stamp) {
  isend_pair(s.stamps, dest, tag, stamp.send_start, stamp.rendezvous ? 1.0 : 0.0);
}

Stamp receive_stamp(const Shadow& s, int source, int tag) {
  std::array<double, 2> payload{};
  PMPI_Recv(payload.data(), 2, MPI_DOUBLE, source, tag, s.stamps, MPI_STATUS_IGNORE);
  return {payload[0], payload[1] != 0};
}

void send_post_time(const Shadow& s, int dest, int tag, double post) { isend_pair(s.acks, dest, tag, post, 0); }

PostTimeReceipt::PostTimeReceipt(const Shadow& s, int dest, int tag) : post_(new double[2]{0, 0}) {
  PMPI_Irecv(post_, 2, MPI_DOUBLE, dest, tag, s.acks, &request_);
}

std::optional<double> PostTimeReceipt::collect(double limit) {
  double deadline = PMPI_Wtime() + limit;
  int done = 0;
  while (true) {
    PMPI_Test(&request_, &done, MPI_STATUS_IGNORE);
    if (done) {
      double post = post_[0];
      delete[] post_;
      return post;
    }
    serve_pending_receives();
    if (PMPI_Wtime() > deadline) break;
  }
  stale_receipts().emplace_back(request_, post_);
  return std::nullopt;
}

void settle_outgoing(bool final) {
  auto& out = outgoing();
  double deadline = PMPI_Wtime() + (final ? 1.0 : 0.0);
  do {
    for (auto it = out.begin(); it != out.end();) {
      int done = 0;
      PMPI_Test(&it->request, &done, MPI_STATUS_IGNORE);
      it = done ? out.erase(it) : std::next(it);
    }
    auto& stale = stale_receipts();
    for (auto it = stale.begin(); it != stale.end();) {
      int done = 0;
      PMPI_Test(&it->first, &done, MPI_STATUS_IGNORE);
      if (done) delete[] it->second;
      it = done ? stale.erase(it) : std::next(it);
    }
  } while (final && !(out.empty() && stale_receipts().empty()) && PMPI_Wtime() < deadline);
  if (!final) return;
  // What is still pending belongs to messages the program never received; cancel it so
  // MPI_Finalize does not wait for it.
  for (auto& o : out) {
    PMPI_Cancel(&o.request);
    PMPI_Wait(&o.request, MPI_STATUS_IGNORE);
  }
  out.clear();
  for (auto& [request, buffer] : stale_receipts()) {
    PMPI_Cancel(&request);
    PMPI_Wait(&request, MPI_STATUS_IGNORE);
    delete[] buffer;
  }
  stale_receipts().clear();
}

}  // namespace augur::revprof
