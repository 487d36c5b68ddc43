#pragma once
// One-sided communication on a rank's virtual clocks. MPI_Put and its kin return at once; what
// they move completes at the epoch's next synchronisation (MPI_Win_fence, MPI_Win_unlock,
// MPI_Win_flush), which therefore ends no earlier than the last transfer it closes. An epoch
// keeps, per target rank, when the transfers issued to it complete. Pure arithmetic on the
// timing rules, so it is tested without MPI.
#include <map>

#include "revprof/bounds.hpp"

namespace augur::revprof {

// When a one-sided operation issued at `start` has completed at its target, on each clock, with
// T(d) the rules' one-sided transfer (the model's `put`, else a message's transit):
//  - put, accumulate: the data leave behind what the origin's link still carries (`link_free`,
//    moved on by them), then T(d);
//  - get: T(d), the request's way out being part of what the bench times as a put's flush;
//  - get_accumulate, fetch_and_op, compare_and_swap: the operand as a put, then T of the result.
Times put_done(const BoundRules& rules, Times& link_free, const Times& start, double bytes);
Times get_done(const BoundRules& rules, const Times& start, double bytes);
Times fetch_done(const BoundRules& rules, Times& link_free, const Times& start, double sent, double fetched);

class RmaEpoch {
 public:
  // An operation to `target` of `bytes` that completes at `done`.
  void issue(int target, const Times& done, double bytes);
  // When everything issued to `target` (to every target) has completed; the earliest time when
  // nothing was issued, so that `later(begin, ...)` leaves a call's begin alone.
  Times done(int target) const;
  Times done_all() const;
  // The synchronisation that closes those operations.
  void settle(int target) { pending_.erase(target); }
  void settle_all() {
    pending_.clear();
    bytes_ = 0;
  }
  bool empty() const { return pending_.empty(); }
  // The bytes issued since the epoch's last settle_all (a fence's).
  double bytes() const { return bytes_; }

 private:
  std::map<int, Times> pending_;
  double bytes_ = 0;
};

}  // namespace augur::revprof
