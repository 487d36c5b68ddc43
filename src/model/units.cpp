#include "model/units.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>

#include <fmt/format.h>

namespace augur::model {
namespace {

constexpr int kFigures = 4;
// A picosecond: far below any clock's resolution or any operation's time, so a smaller time is
// the residue of subtracting two nearly equal ones (finish − compute − MPI), not a time.
constexpr double kNoise = 1e-12;

// `value` rounded to `figures` significant figures, so a unit is chosen for what is printed:
// 0.99996 s reads "1 s", not "1000 ms".
double rounded(double value, int figures) { return std::stod(fmt::format("{:.{}e}", value, figures - 1)); }

std::string drop_trailing_zeros(std::string text) {
  if (text.find('.') == std::string::npos) return text;
  text.erase(text.find_last_not_of('0') + 1);
  if (text.back() == '.') text.pop_back();
  return text;
}

// The model's names that are not an MPI call's own, or that name one part of a call.
constexpr auto kReadableNames = std::to_array<std::pair<std::string_view, std::string_view>>({
    {"isend1", "MPI_Isend"},
    {"irecv1", "MPI_Irecv"},
    {"isend2", "MPI_Wait (Isend)"},
    {"irecv2", "MPI_Wait (Irecv)"},
    {"isendoverlap", "MPI_Isend (not overlapped)"},
    {"irecvoverlap", "MPI_Irecv (not overlapped)"},
    {"recvmin", "MPI_Recv (already arrived)"},
    {"pingpong", "MPI_Send/MPI_Recv ping-pong"},
    {"exchange", "MPI_Isend/MPI_Irecv exchange"},
    {"allsend", "MPI_Send, half to half"},
    {"transit", "message transit"},
    {"stream", "MPI_Isend stream"},
    {"bistream", "MPI_Isend two-way stream"},
    {"ringexchange", "MPI_Isend/MPI_Irecv ring exchange"},
    {"onetomany", "MPI_Send one to many"},
    {"manytoone", "MPI_Recv many to one"},
    {"manytomany", "MPI_Send/MPI_Recv many to many"},
});

constexpr auto kRoles = std::to_array<std::pair<std::string_view, std::string_view>>({
    {"_root", " (root)"},
    {"_others", " (non-root)"},
});

// Lower-case names are MPI's without the prefix: "reduce_scatter" → "MPI_Reduce_scatter".
bool is_lower_case_name(std::string_view name) {
  if (name.empty() || !std::islower(static_cast<unsigned char>(name.front()))) return false;
  for (char c : name)
    if (!std::islower(static_cast<unsigned char>(c)) && !std::isdigit(static_cast<unsigned char>(c)) && c != '_')
      return false;
  return true;
}

}  // namespace

TimeUnit time_unit_for(double seconds) {
  const double a = std::abs(seconds);
  if (a >= 1 || a == 0) return {"s", 1};
  if (a >= 1e-3) return {"ms", 1e-3};
  if (a >= 1e-6) return {"µs", 1e-6};
  return {"ns", 1e-9};
}

std::string significant(double value, int figures) {
  if (!std::isfinite(value)) return fmt::format("{}", value);
  if (value == 0) return "0";
  const int exponent = static_cast<int>(std::floor(std::log10(std::abs(value))));
  const int decimals = std::max(0, figures - 1 - exponent);
  return drop_trailing_zeros(fmt::format("{:.{}f}", value, decimals));
}

std::string format_seconds(double seconds) {
  if (!std::isfinite(seconds)) return significant(seconds) + " s";
  if (std::abs(seconds) < kNoise) return "0 s";
  const double r = rounded(seconds, kFigures);
  const TimeUnit unit = time_unit_for(r);
  return significant(r / unit.seconds, kFigures) + " " + std::string(unit.name);
}

std::string format_duration(double seconds) {
  const long s = std::lround(std::max(0.0, seconds));
  char text[32];
  if (s < 60) std::snprintf(text, sizeof text, "%lds", s);
  else if (s < 3600) std::snprintf(text, sizeof text, "%ldm%02lds", s / 60, s % 60);
  else std::snprintf(text, sizeof text, "%ldh%02ldm", s / 3600, s / 60 % 60);
  return text;
}

std::string format_bytes(double bytes) {
  constexpr auto kUnits = std::to_array<std::pair<std::string_view, double>>(
      {{"TiB", 1099511627776.0}, {"GiB", 1073741824.0}, {"MiB", 1048576.0}, {"KiB", 1024.0}});
  for (auto [unit, scale] : kUnits)
    if (bytes >= scale) return significant(bytes / scale, kFigures) + " " + std::string(unit);
  return significant(bytes, kFigures) + " B";
}

std::string format_rate(double per_second, std::string_view unit) {
  constexpr auto kPrefixes = std::to_array<std::pair<std::string_view, double>>({{"G", 1e9}, {"M", 1e6}, {"k", 1e3}});
  for (auto [prefix, scale] : kPrefixes)
    if (std::abs(per_second) >= scale) return fmt::format("{} {}{}/s", significant(per_second / scale, kFigures), prefix, unit);
  return fmt::format("{} {}/s", significant(per_second, kFigures), unit);
}

std::string mpi_name(std::string_view operation) {
  for (auto [name, readable] : kReadableNames)
    if (operation == name) return std::string(readable);
  for (auto [suffix, role] : kRoles)
    if (operation.ends_with(suffix))
      return mpi_name(operation.substr(0, operation.size() - suffix.size())) + std::string(role);
  if (!is_lower_case_name(operation)) return std::string(operation);
  std::string name = "MPI_" + std::string(operation);
  name[4] = static_cast<char>(std::toupper(static_cast<unsigned char>(name[4])));
  return name;
}

}  // namespace augur::model
