#pragma once
// The pass behind critical_path(): each state's earliest end given only its dependencies and
// the undisturbed weights, computed rank by rank in dependency order (Kahn's algorithm, with a
// rank blocked on another waking when that one moves on). Internal to src/analyze.
#include <cstdint>
#include <vector>

#include "analyze/critical_path.hpp"

namespace augur::analyze {

// What decided a state's value: its own rank, a message, or a collective.
struct Pred {
  enum Kind : std::uint8_t { local, message, collective, collective_root } kind = local;
  std::uint32_t ref = 0;  // message or collective instance id
};

class LongestPath {
 public:
  LongestPath(const trace::Trace& t, const Dependencies& d, const MessageCosts& costs, const Scaling& scaling);
  void run();

  double start_value(int r, std::uint32_t i) const;  // the value where state i begins
  double value(int r, std::uint32_t i) const { return v_[r][i]; }
  Pred pred(int r, std::uint32_t i) const { return pred_[r][i]; }
  double message_start(std::uint32_t m) const;  // the value at the send
  double instance_value(std::uint32_t c) const { return inst_value_[c]; }
  std::size_t instance_critical(std::uint32_t c) const { return inst_critical_[c]; }
  const std::vector<double>& busy() const { return busy_; }
  std::uint64_t forced() const { return forced_; }

 private:
  bool step(int r);  // false: blocked
  bool arrive(int r, std::uint32_t i, std::uint32_t c);
  bool messages_ready(int r, std::uint32_t i);
  void settle(int r, std::uint32_t i);
  double own_work(int r, std::uint32_t i) const;
  void collective_terms(int r, std::uint32_t i, std::uint32_t c, double call, double& own, double& v, Pred& p) const;
  double message_weight(const MessageDependency& m) const;
  void drain();
  void enqueue(int r);
  int stuck_rank() const;

  const trace::Trace& t_;
  const Dependencies& d_;
  const MessageCosts& costs_;
  const Scaling& scaling_;
  double t0_;
  std::vector<std::vector<double>> v_;
  std::vector<std::vector<Pred>> pred_;
  std::vector<std::uint32_t> cursor_;
  std::vector<std::int64_t> arrived_at_;  // the collective state a rank has arrived at, else -1
  std::vector<double> inst_value_;
  std::vector<std::uint32_t> inst_arrived_;
  std::vector<std::size_t> inst_critical_;
  std::vector<std::vector<int>> waiters_;       // ranks blocked on a rank's progress
  std::vector<std::vector<int>> inst_waiters_;  // ranks blocked in an instance
  std::vector<int> work_;
  std::vector<bool> queued_;
  std::vector<bool> forced_rank_;
  std::vector<double> busy_;
  std::uint64_t forced_ = 0;
};

}  // namespace augur::analyze
