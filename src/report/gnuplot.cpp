#include "report/gnuplot.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include <fmt/format.h>

namespace augur::report {
namespace {

struct Row {
  double x, y, low, high;
};

// The lowest positive value drawn, so a band whose lower edge reaches 0 or below stays on a
// logarithmic axis: the band is clipped there rather than stretching the axis over decades.
double positive_floor(const Plot& plot) {
  double lowest = std::numeric_limits<double>::infinity();
  for (const auto& c : plot.curves)
    for (double y : c.y)
      if (y > 0 && std::isfinite(y)) lowest = std::min(lowest, y);
  for (const auto& m : plot.marks)
    for (double y : m.y)
      if (y > 0 && std::isfinite(y)) lowest = std::min(lowest, y);
  return std::isfinite(lowest) ? lowest / 2 : 1;
}

bool drawable(const Plot& plot, double x, double y) {
  if (!std::isfinite(x) || !std::isfinite(y)) return false;
  return (!plot.log_x || x > 0) && (!plot.log_y || y > 0);
}

std::vector<Row> rows(const Plot& plot, const std::vector<double>& x, const std::vector<double>& y,
                      const std::vector<double>& low, const std::vector<double>& high) {
  const bool band = low.size() == x.size() && high.size() == x.size();
  const double floor = positive_floor(plot);
  std::vector<Row> out;
  for (std::size_t i = 0; i < x.size() && i < y.size(); ++i) {
    if (!drawable(plot, x[i], y[i])) continue;
    double lo = band && std::isfinite(low[i]) ? low[i] : y[i];
    double hi = band && std::isfinite(high[i]) ? high[i] : y[i];
    if (plot.log_y) lo = std::max(lo, floor);
    out.push_back({x[i], y[i], lo, hi});
  }
  return out;
}

std::string datablock(const std::string& name, const std::vector<Row>& data) {
  std::string text = "$" + name + " << EOD\n";
  for (const auto& r : data) text += fmt::format("{:.9g} {:.9g} {:.9g} {:.9g}\n", r.x, r.y, r.low, r.high);
  return text + "EOD\n";
}

// Each kind of picture: its file extension and gnuplot terminal, indexed by Picture.
struct PictureKind {
  const char* extension;
  const char* terminal;
};
constexpr PictureKind kPictures[] = {
    {"svg", "set terminal svg size 720,440 dynamic noenhanced font 'Sans,11' background rgb 'white'\n"},
    {"png", "set terminal pngcairo size 960,600 noenhanced font 'Sans,11' background rgb 'white'\n"},
    {"pdf", "set terminal pdfcairo size 6in,3.5in noenhanced font 'Sans,9'\n"},
};

std::string terminal(Picture picture) { return kPictures[static_cast<int>(picture)].terminal; }

std::string axes(const Plot& plot) {
  std::string text = fmt::format("set title {}\nset xlabel {}\nset ylabel {}\n", gnuplot_quote(plot.title),
                                 gnuplot_quote(plot.xlabel), gnuplot_quote(plot.ylabel));
  text += "unset logscale\nunset arrow\nunset label\nset autoscale\n";
  // Many lines would hide under their legend: it moves beside the plot.
  text += plot.curves.size() > 3 ? "set key outside right top\n" : "set key inside left top\n";
  if (plot.log_x) text += "set logscale x 2\n";
  text += "set xtics autofreq\n";
  if (!plot.x_tics.empty()) {
    std::string tics;
    for (const auto& [x, label] : plot.x_tics) tics += fmt::format("{}{} {:.9g}", tics.empty() ? "" : ", ", gnuplot_quote(label), x);
    text += "set xtics (" + tics + ")\n";
  }
  if (plot.log_y) text += "set logscale y 10\n";
  for (double x : plot.x_breaks)
    if (!plot.log_x || x > 0) text += fmt::format("set arrow from {:.9g}, graph 0 to {:.9g}, graph 1 nohead dt 2 lc rgb '#888888'\n", x, x);
  return text;
}

// The plot command and the datablocks it reads; empty when there is nothing to draw.
std::pair<std::string, std::string> series(const Plot& plot, std::size_t index) {
  std::string data, parts;
  auto add = [&](const std::string& part) { parts += (parts.empty() ? "" : ", \\\n     ") + part; };
  for (std::size_t i = 0; i < plot.curves.size(); ++i) {
    const auto& c = plot.curves[i];
    auto r = rows(plot, c.x, c.y, c.low, c.high);
    if (r.empty()) continue;
    auto name = fmt::format("p{}c{}", index, i);
    data += datablock(name, r);
    if (!c.low.empty()) add(fmt::format("${} using 1:3:4 with filledcurves fs transparent solid 0.18 noborder lc {} notitle", name, i + 1));
    add(fmt::format("${} using 1:2 with lines lw 2 lc {} title {}", name, i + 1, gnuplot_quote(c.title)));
  }
  for (std::size_t i = 0; i < plot.marks.size(); ++i) {
    const auto& m = plot.marks[i];
    auto r = rows(plot, m.x, m.y, m.low, m.high);
    if (r.empty()) continue;
    auto name = fmt::format("p{}m{}", index, i);
    data += datablock(name, r);
    const auto colour = m.colour > 0 ? std::to_string(m.colour) : std::string("rgb '#000000'");
    add(fmt::format("${} using 1:2:3:4 with yerrorbars pt 7 ps 0.6 lc {} title {}", name, colour, gnuplot_quote(m.title)));
  }
  if (!parts.empty() && plot.y_reference)
    add(fmt::format("{:.9g} with lines dt 3 lc rgb '#444444' notitle", *plot.y_reference));
  return {data, parts};
}

}  // namespace

Plot make_plot(std::string name, std::string title, std::string xlabel, std::string ylabel, bool log_x, bool log_y) {
  Plot plot;
  plot.name = std::move(name);
  plot.title = std::move(title);
  plot.xlabel = std::move(xlabel);
  plot.ylabel = std::move(ylabel);
  plot.log_x = log_x;
  plot.log_y = log_y;
  return plot;
}

std::string extension(Picture picture) { return kPictures[static_cast<int>(picture)].extension; }

std::string gnuplot_quote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("''") : std::string(1, c);
  return quoted + "'";
}

std::string gnuplot_script(const std::vector<Plot>& plots, Picture picture) {
  std::string script = "# Written by augur; run with gnuplot in the directory the pictures go to.\n" + terminal(picture) +
                       "set grid\nset datafile missing '?'\n";
  for (std::size_t i = 0; i < plots.size(); ++i) {
    const auto& plot = plots[i];
    auto [data, parts] = series(plot, i);
    script += "\n" + data + fmt::format("set output '{}.{}'\n", plot.name, extension(picture)) + axes(plot);
    // An empty picture still gets drawn, so every page that expects one finds it.
    if (parts.empty())
      script += "set xrange [0:1]\nset yrange [0:1]\nunset logscale\nunset arrow\n"
                "set label 'nothing to draw' at graph 0.5, graph 0.5 center\nplot 2 notitle\n";
    else
      script += "plot " + parts + "\n";
    script += "set output\n";
  }
  return script;
}

}  // namespace augur::report
