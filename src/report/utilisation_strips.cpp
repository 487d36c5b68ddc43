#include "report/utilisation_strips.hpp"

#include <sstream>
#include <string_view>

#include <nlohmann/json.hpp>

#include "report/timeline.hpp"

namespace augur::report {

std::string script_safe(std::string text) {
  for (std::size_t p = 0; (p = text.find("</", p)) != std::string::npos; p += 3) text.replace(p, 2, "<\\/");
  return text;
}

void add_utilisation_strips(std::string& page, const trace::Utilisation& u, std::size_t links) {
  nlohmann::json lanes = nlohmann::json::array();
  for (auto i : trace::busiest_links(u.links, links))
    if (u.links[i].busy_seconds > 0) lanes.push_back({{"name", u.links[i].name}, {"values", u.links[i].busy}});
  const nlohmann::json data = {
      {"bins", u.bins()}, {"binSeconds", u.bin_seconds}, {"ranks", u.compute}, {"links", std::move(lanes)}};
  std::string strips = kUtilisationStrips;
  strips.replace(strips.find(kUtilisationDataPlaceholder), std::string_view(kUtilisationDataPlaceholder).size(),
                 script_safe(data.dump()));
  page.insert(page.rfind("</body>"), strips);
}

void write_utilisation_html(const trace::Trace& trace, const trace::Utilisation& u, const std::string& title,
                            std::size_t links, std::ostream& out) {
  std::ostringstream timeline;
  write_timeline_html({&trace}, {title, {}}, timeline);
  std::string page = timeline.str();
  add_utilisation_strips(page, u, links);
  out << page;
}

}  // namespace augur::report
