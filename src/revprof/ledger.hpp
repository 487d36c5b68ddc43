#pragma once
// One rank's account of a reverse-profiled run: where its virtual time went (compute, MPI,
// waiting inside MPI), per operation counts, bytes and time, the MPI calls whose cost was not
// predicted and those the model could not price. Pure bookkeeping, so it is tested without MPI.
#include <array>
#include <map>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace augur::revprof {

// Calls of one operation that ran but could not be priced, and why the first of them was not.
struct Unpriced {
  long calls = 0;
  std::string reason;
};

struct OperationTotals {
  long count = 0;
  double bytes = 0;
  double seconds = 0;  // virtual time inside the call
  double waiting = 0;  // part of it spent waiting for other ranks
};

class Ledger {
 public:
  void compute(double seconds) { compute_ += seconds; }
  // An MPI call that took [begin, end) in virtual time, `waiting` of it for partners.
  void call(std::string_view op, double begin, double end, double waiting, double bytes);
  void unmodelled(std::string_view function) { ++unmodelled_[std::string(function)]; }
  // One call of `op` that ran but whose cost is left out: the model could not price it, or the
  // shim's own work around it failed.
  void not_priced(std::string_view op, std::string_view reason);

  double compute_seconds() const { return compute_; }
  double mpi_seconds() const { return mpi_; }
  double waiting_seconds() const { return waiting_; }
  const std::map<std::string, OperationTotals, std::less<>>& operations() const { return ops_; }

  nlohmann::json to_json(int rank, double finish) const;

 private:
  double compute_ = 0, mpi_ = 0, waiting_ = 0;
  std::map<std::string, OperationTotals, std::less<>> ops_;
  // The shim passes operation names as string literals, so a name's address finds its entry in
  // a small direct-mapped table, checked with one string comparison (to stay right for any
  // caller), instead of a walk down the map on every MPI call. Map nodes never move.
  struct Recent {
    const char* address = nullptr;
    std::map<std::string, OperationTotals, std::less<>>::pointer entry = nullptr;
  };
  std::array<Recent, 32> recent_{};
  OperationTotals& totals_of(std::string_view op);
  OperationTotals& remember(Recent& recent, std::string_view op);
  std::map<std::string, long> unmodelled_;
  std::map<std::string, Unpriced, std::less<>> not_priced_;
};

}  // namespace augur::revprof
