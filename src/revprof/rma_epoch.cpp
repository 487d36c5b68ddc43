#include "revprof/rma_epoch.hpp"

#include <limits>

namespace augur::revprof {

Times put_done(const BoundRules& rules, Times& link_free, const Times& start, double bytes) {
  return rules.departure(link_free, start, bytes) + rules.one_sided_transfer(bytes);
}

Times get_done(const BoundRules& rules, const Times& start, double bytes) {
  return start + rules.one_sided_transfer(bytes);
}

Times fetch_done(const BoundRules& rules, Times& link_free, const Times& start, double sent, double fetched) {
  return put_done(rules, link_free, start, sent) + rules.one_sided_transfer(fetched);
}

namespace {

constexpr Times kNothingPending = Times::same(-std::numeric_limits<double>::infinity());

}  // namespace

void RmaEpoch::issue(int target, const Times& done, double bytes) {
  bytes_ += bytes;
  auto [it, fresh] = pending_.try_emplace(target, done);
  if (!fresh) it->second = later(it->second, done);
}

Times RmaEpoch::done(int target) const {
  const auto it = pending_.find(target);
  return it == pending_.end() ? kNothingPending : it->second;
}

Times RmaEpoch::done_all() const {
  Times last = kNothingPending;
  for (const auto& [target, done] : pending_) last = later(last, done);
  return last;
}

}  // namespace augur::revprof
