#pragma once
// The laws of a program being learned: each quantity fitted over the aligned runs and written
// into the report (Learned::laws) where it is learned, so the report lists every law in the
// program's order. A fit that is only a candidate (a communicator's size tried) is recorded
// only once it is kept.
#include <optional>
#include <string>
#include <vector>

#include "learn/aligned.hpp"
#include "learn/law_fit.hpp"

namespace augur::learn {

// An exact law is written as its expression alone: it has no error to carry.
bool exact(const app::Law& law);
app::Law bare(const app::Law& law);

class LawBook {
 public:
  // `indexed`: counts may also deal a constant of the program among the ranks (dealt_count_law).
  LawBook(const std::string& parameter, std::vector<LawLine>& laws, bool indexed)
      : parameter_(parameter), laws_(laws), indexed_(indexed) {}

  // The law of `values` (one per run of `at`), recorded at `where` as `what`; bare when exact.
  // `grid` as fit_law takes it.
  app::Law law(const std::vector<GroupRun>& at, const std::vector<double>& values, Quantity q, const std::string& where,
               const std::string& what, PeerGrid grid = {});
  // The same law, not recorded.
  app::Law fit(const std::vector<GroupRun>& at, const std::vector<double>& values, Quantity q, PeerGrid grid = {}) const;
  void record(const std::string& where, const std::string& what, const app::Law& law) { laws_.push_back({where, what, law}); }
  const std::string& parameter() const { return parameter_; }

 private:
  std::optional<app::Law> dealt_count(const std::vector<GroupRun>& at, const std::vector<double>& values) const;

  const std::string& parameter_;
  std::vector<LawLine>& laws_;
  bool indexed_;
};

}  // namespace augur::learn
