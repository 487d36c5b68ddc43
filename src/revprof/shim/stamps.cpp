#include "revprof/shim/stamps.hpp"

#include <tuple>
#include <deque>
#include <list>
#include <vector>

#include "revprof/shim/requests.hpp"
#include "revprof/shim/runtime.hpp"

namespace augur::revprof {
namespace {

constexpr int kPostTimes = static_cast<int>(std::tuple_size_v<decltype(Times::at)>);

// Post times in flight. Slots are reused once their send completed, so a message
// costs no allocation; completions are collected with one MPI_Testsome per kSweep sends.
// Payloads live in a deque, which keeps their addresses while it grows; the requests sit in one
// array so that MPI_Testsome can look at all of them at once.
class Outgoing {
 public:
  void send(MPI_Comm comm, int dest, int tag, const Times& times) {
    const int slot = free_slot();
    payloads_[slot] = times;
    PMPI_Isend(payloads_[slot].at.data(), kPostTimes, MPI_DOUBLE, dest, tag, comm, &requests_[slot]);
  }

  // Frees the slots whose sends completed.
  void collect() {
    if (requests_.empty()) return;
    int completed = 0;
    indices_.resize(requests_.size());
    PMPI_Testsome(static_cast<int>(requests_.size()), requests_.data(), &completed, indices_.data(),
                  MPI_STATUSES_IGNORE);
    if (completed == MPI_UNDEFINED) return;
    for (int i = 0; i < completed; ++i) free_.push_back(indices_[i]);
  }

  bool empty() const { return free_.size() == requests_.size(); }

  // Sends whose receiver never came: cancelled so MPI_Finalize does not wait for them.
  void cancel_all() {
    for (auto& request : requests_) {
      if (request == MPI_REQUEST_NULL) continue;
      PMPI_Cancel(&request);
      PMPI_Wait(&request, MPI_STATUS_IGNORE);
    }
    free_.clear();
    for (int i = 0; i < static_cast<int>(requests_.size()); ++i) free_.push_back(i);
  }

 private:
  static constexpr std::size_t kSweep = 64;

  int free_slot() {
    if (free_.empty() && requests_.size() >= kSweep) collect();
    if (free_.empty()) {
      requests_.push_back(MPI_REQUEST_NULL);
      payloads_.emplace_back();
      return static_cast<int>(requests_.size()) - 1;
    }
    const int slot = free_.back();
    free_.pop_back();
    return slot;
  }

  std::vector<MPI_Request> requests_;
  std::deque<Times> payloads_;
  std::vector<int> free_, indices_;
};

Outgoing& outgoing() {
  static auto* pending = new Outgoing();
  return *pending;
}

std::list<std::pair<MPI_Request, Times*>>& stale_receipts() {
  static auto* stale = new std::list<std::pair<MPI_Request, Times*>>();
  return *stale;
}

}  // namespace

void send_post_time(const Shadow& s, int dest, int tag, const Times& post) { outgoing().send(s.acks, dest, tag, post); }

PostTimeReceipt::PostTimeReceipt(const Shadow& s, int dest, int tag) : post_(new Times{}) {
  PMPI_Irecv(post_->at.data(), kPostTimes, MPI_DOUBLE, dest, tag, s.acks, &request_);
}

std::optional<Times> PostTimeReceipt::collect(double limit) {
  double deadline = PMPI_Wtime() + limit;
  int done = 0;
  while (true) {
    {
      ShimUnlocked waiting_for_receiver;
      PMPI_Test(&request_, &done, MPI_STATUS_IGNORE);
    }
    if (done) {
      const Times post = *post_;
      delete post_;
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
    out.collect();
    auto& stale = stale_receipts();
    for (auto it = stale.begin(); it != stale.end();) {
      int done = 0;
      PMPI_Test(&it->first, &done, MPI_STATUS_IGNORE);
      if (done) delete it->second;
      it = done ? stale.erase(it) : std::next(it);
    }
  } while (final && !(out.empty() && stale_receipts().empty()) && PMPI_Wtime() < deadline);
  if (!final) return;
  // What is still pending belongs to messages the program never received; cancel it so
  // MPI_Finalize does not wait for it.
  out.cancel_all();
  for (auto& [request, buffer] : stale_receipts()) {
    PMPI_Cancel(&request);
    PMPI_Wait(&request, MPI_STATUS_IGNORE);
    delete buffer;
  }
  stale_receipts().clear();
}

}  // namespace augur::revprof
