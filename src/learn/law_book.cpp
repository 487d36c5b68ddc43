#include "learn/law_book.hpp"

#include <algorithm>
#include <cstdint>

#include "learn/index_laws.hpp"

namespace augur::learn {

bool exact(const app::Law& law) { return law.cv_error == 0 && law.low == law.expr && law.high == law.expr; }

app::Law bare(const app::Law& law) {
  app::Law out;
  out.expr = out.low = out.high = law.expr;
  return out;
}

app::Law LawBook::law(const std::vector<GroupRun>& at, const std::vector<double>& values, Quantity q,
                      const std::string& where, const std::string& what, PeerGrid grid) {
  const auto law = fit(at, values, q, grid);
  record(where, what, law);
  return exact(law) ? bare(law) : law;
}

app::Law LawBook::fit(const std::vector<GroupRun>& at, const std::vector<double>& values, Quantity q, PeerGrid grid) const {
  std::vector<LawPoint> points;
  for (std::size_t i = 0; i < at.size(); ++i) points.push_back({double(at[i].run->p), at[i].run->n, values[i]});
  auto law = fit_law(points, q, parameter_, grid);
  if (q == Quantity::integer && !exact(law) && indexed_)
    if (auto dealt = dealt_count(at, values)) law = *dealt;
  return law;
}

// A count that deals one of the program's constant counts among the ranks in turn.
std::optional<app::Law> LawBook::dealt_count(const std::vector<GroupRun>& at, const std::vector<double>& values) const {
  std::vector<std::int64_t> totals;
  for (const auto& learned : laws_) {
    const auto& expr = learned.law.expr;
    if (!exact(learned.law) || expr.empty() || expr.find_first_not_of("0123456789") != std::string::npos) continue;
    const auto c = std::stoll(expr);
    if (c >= 2 && std::find(totals.begin(), totals.end(), c) == totals.end()) totals.push_back(c);
  }
  std::vector<std::pair<int, double>> points;
  for (std::size_t i = 0; i < at.size(); ++i) points.emplace_back(at[i].run->p, values[i]);
  const auto text = dealt_count_law(points, totals);
  if (!text) return std::nullopt;
  auto law = bare(app::Law{*text, "", "", "", {}, {}, 0});
  law.form = *text;
  return law;
}

}  // namespace augur::learn
