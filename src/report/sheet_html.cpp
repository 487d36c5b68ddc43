// The sheet as one HTML page with nothing outside it: no scripts, no fonts, no links to fetch.
#include <string_view>

#include <fmt/format.h>

#include "util/markup_escape.hpp"
#include "report/sheet.hpp"

namespace augur::report {
namespace {

constexpr std::string_view kStyle = R"(
body { font-family: sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
h1 { margin-bottom: 0.2rem; } h2 { border-bottom: 1px solid #ccc; margin-top: 2.5rem; }
table { border-collapse: collapse; margin: 0.8rem 0; } td, th { padding: 0.25rem 0.6rem; text-align: left;
  vertical-align: top; border-bottom: 1px solid #e4e4e4; } th { background: #f3f3f3; }
td.eq { font-family: monospace; font-size: 0.95rem; } td.sizes { white-space: nowrap; } .note { color: #555; } section.op { margin-top: 2rem; }
figure { margin: 0.5rem 0; } figure svg { max-width: 100%; height: auto; } figcaption { color: #555; font-size: 0.9rem; }
)";

std::string escape(std::string_view text) { return util::markup_escaped(text); }

void replace_all(std::string& text, std::string_view from, std::string_view to) {
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
}

// gnuplot's SVG without its XML prolog, and with its ids made unique on the page: every picture
// defines the same point shapes under the same ids.
std::string inline_svg(std::string svg, const std::string& prefix) {
  auto start = svg.find("<svg");
  if (start == std::string::npos) return "";
  svg.erase(0, start);
  replace_all(svg, "id=\"", "id=\"" + prefix + "-");
  replace_all(svg, "href=\"#", "href=\"#" + prefix + "-");
  replace_all(svg, "url(#", "url(#" + prefix + "-");
  return svg;
}

std::string facts_table(const Facts& facts) {
  std::string html = "<table class=\"facts\">\n";
  for (const auto& [key, value] : facts) html += fmt::format("<tr><th>{}</th><td>{}</td></tr>\n", escape(key), escape(value));
  return html + "</table>\n";
}

std::string figure(const std::string& stem, const std::string& caption, const std::map<std::string, std::string>& svgs) {
  auto it = svgs.find(stem);
  std::string picture = it == svgs.end() ? "" : inline_svg(it->second, stem);
  if (picture.empty()) picture = "<p class=\"note\">(no picture)</p>";
  return fmt::format("<figure>\n{}\n<figcaption>{}</figcaption>\n</figure>\n", picture, escape(caption));
}

std::string summary(const Sheet& sheet) {
  std::string html = "<h2>Summary</h2>\n<table class=\"summary\">\n"
                     "<tr><th>operation</th><th>sizes</th><th>t (µs)</th><th>fit</th><th>spread</th></tr>\n";
  for (const auto& op : sheet.operations)
    for (std::size_t i = 0; i < op.regimes.size(); ++i) {
      const auto& r = op.regimes[i];
      auto name = i == 0 ? fmt::format("<a href=\"#{}\">{}</a>", op.plot, escape(op.name)) : std::string();
      html += fmt::format("<tr><td>{}</td><td class=\"sizes\">{}</td><td class=\"eq\">{}</td><td>{}</td><td>{}</td></tr>\n", name,
                          escape(r.sizes), escape(r.equation), escape(r.quality.empty() ? "published" : r.quality),
                          escape(r.spread));
    }
  return html + "</table>\n";
}

std::string operation(const SheetOperation& op, const std::map<std::string, std::string>& svgs) {
  std::string html = fmt::format("<section class=\"op\" id=\"{}\">\n<h3>{}</h3>\n<p>{}: {}</p>\n", op.plot,
                                 escape(op.name), escape(op.kind), escape(op.meaning));
  html += "<table>\n<tr><th>sizes</th><th>t (µs)</th><th>fit</th><th>spread</th></tr>\n";
  for (const auto& r : op.regimes)
    html += fmt::format("<tr><td class=\"sizes\">{}</td><td class=\"eq\">{}</td><td>{}</td><td>{}</td></tr>\n", escape(r.sizes),
                        escape(r.equation), escape(r.quality.empty() ? "published" : r.quality), escape(r.spread));
  html += "</table>\n";
  // Under the chosen forms, the laws each beat in its regime's selection.
  for (const auto& r : op.regimes)
    if (!r.choice.empty())
      html += fmt::format("<p class=\"choice\"><span class=\"sizes\">{}</span>: {}</p>\n", escape(r.sizes), escape(r.choice));
  if (!op.fitted_range.empty()) html += "<p class=\"note\">" + escape(op.fitted_range) + "</p>\n";
  return html + figure(op.plot, op.caption, svgs) + "</section>\n";
}

std::string node(const Sheet& sheet, const std::map<std::string, std::string>& svgs) {
  std::string html = "<h2>Node</h2>\n";
  html += sheet.node.empty() ? "<p class=\"note\">The model does not characterise the node.</p>\n" : facts_table(sheet.node);
  if (!sheet.cache_sweep.empty()) {
    html += "<h3>Cache sweep</h3>\n" + facts_table(sheet.cache_sweep);
    html += figure(sheet.node_plot, "Time of one dependent load over the working set; steps show the cache levels.", svgs);
  }
  html += "<h2>Network</h2>\n";
  html += sheet.network.empty() ? "<p class=\"note\">The model gives no network parameters.</p>\n" : facts_table(sheet.network);
  return html;
}

}  // namespace

void write_sheet_html(const Sheet& sheet, const std::map<std::string, std::string>& svgs, std::ostream& out) {
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" << escape(sheet.title)
      << "</title>\n<style>" << kStyle << "</style>\n</head>\n<body>\n<h1>" << escape(sheet.title) << "</h1>\n";
  if (!sheet.description.empty()) out << "<p>" << escape(sheet.description) << "</p>\n";
  out << facts_table(sheet.facts);
  if (!sheet.settings.empty()) out << "<h3>Measurement settings</h3>\n" << facts_table(sheet.settings);
  out << "<p class=\"note\">" << escape(sheet.units_note) << "</p>\n" << summary(sheet) << "<h2>Operations</h2>\n";
  for (const auto& op : sheet.operations) out << operation(op, svgs);
  out << node(sheet, svgs) << "<p class=\"note\">Written by augur sheet.</p>\n</body>\n</html>\n";
}

}  // namespace augur::report
