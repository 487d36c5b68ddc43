#pragma once
// Plots described as data and written as one gnuplot script with its data inline, so a sheet,
// a machine comparison or an application model is drawn by a single gnuplot run, and the script
// can be kept, read and restyled by hand.
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace augur::report {

// A line y(x), optionally with a band [low, high] around it (the min–max of a law).
struct Curve {
  std::string title;
  std::vector<double> x, y;
  std::vector<double> low, high;  // empty, or as long as x
};

// Points with error bars (measurements: median with min and max).
struct Marks {
  std::string title;
  std::vector<double> x, y, low, high;
  int colour = 0;  // 0: black; k: the colour of the plot's k-th curve (its group size's line)
};

struct Plot {
  std::string name;  // file stem of the picture
  std::string title, xlabel, ylabel;
  bool log_x = false, log_y = false;
  std::vector<Curve> curves;
  std::vector<Marks> marks;
  std::vector<std::pair<double, std::string>> x_tics;  // labelled tics (e.g. "1 KiB"); empty: gnuplot's
  std::vector<double> x_breaks;       // dashed vertical lines (regime breaks)
  std::optional<double> y_reference;  // a horizontal line, e.g. ratio 1
};

// A plot with its names and axes and nothing drawn yet.
Plot make_plot(std::string name, std::string title, std::string xlabel, std::string ylabel, bool log_x, bool log_y);

enum class Picture { svg, png, pdf };  // the order of gnuplot.cpp's kPictures
std::string extension(Picture picture);  // "svg", "png", "pdf"

// The script that draws every plot into NAME.EXT in gnuplot's working directory. Points that
// are not finite (or not positive on a logarithmic axis) are left out.
std::string gnuplot_script(const std::vector<Plot>& plots, Picture picture);

// `text` as a gnuplot single-quoted string.
std::string gnuplot_quote(const std::string& text);

}  // namespace augur::report
