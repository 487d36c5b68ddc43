#include "report/link_table.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "model/units.hpp"

namespace augur::report {
namespace {

// Names hold multi-byte arrows, which fmt pads by bytes, not by the characters a terminal shows.
std::size_t shown_width(const std::string& text) {
  std::size_t shown = 0;
  for (unsigned char c : text) shown += (c & 0xC0) != 0x80;
  return shown;
}

std::string padded(const std::string& text, std::size_t width) {
  return text + std::string(width - std::min(width, shown_width(text)), ' ');
}

}  // namespace

std::string busiest_links_table(const trace::Utilisation& u, std::size_t rows) {
  if (u.links.empty()) return "";
  const double run = u.run_seconds();
  const auto busiest = trace::busiest_links(u.links, rows);
  std::size_t used = 0;
  for (const auto& l : u.links) used += l.busy_seconds > 0;
  std::string out = fmt::format("Busiest links ({} of {} link directions carried data over the {} run):\n", used,
                                u.links.size(), model::format_seconds(run));
  if (used == 0) return out;
  std::size_t width = 4;
  for (auto i : busiest) width = std::max(width, shown_width(u.links[i].name));
  out += fmt::format("  {} {:>7} {:>10} {:>10} {:>15}\n", padded("link", width), "busy", "busy time", "carried",
                     "bandwidth used");
  for (auto i : busiest) {
    const auto& l = u.links[i];
    if (l.busy_seconds == 0) break;
    out += fmt::format("  {} {:>6.1f}% {:>10} {:>10} {:>14.1f}%\n", padded(l.name, width), 100 * trace::busy_share(l, run),
                       model::format_seconds(l.busy_seconds), model::format_bytes(l.bytes), 100 * trace::bandwidth_share(l, run));
  }
  return out;
}

}  // namespace augur::report
