#include "learn/learned_check.hpp"

#include <algorithm>
#include <cmath>
#include <initializer_list>

#include <fmt/format.h>

#include "app/app_program_json.hpp"
#include "model/units.hpp"
#include "sim/kernel/kernel.hpp"
#include "sim/program/app_program.hpp"

namespace augur::learn {
namespace {

// Calls whose count or bytes the learned program gets otherwise than the run, or whose time
// parts most, largest first: what to look at when a count is missed.
std::string parting_calls(const sim::Result& traced, const sim::Result& learned) {
  struct Part {
    std::string text;
    double weight;
  };
  std::vector<Part> parts;
  auto names = [&] {
    std::vector<std::string> out;
    for (const auto& entry : traced.operations) out.push_back(entry.first);
    for (const auto& entry : learned.operations)
      if (!traced.operations.contains(entry.first)) out.push_back(entry.first);
    return out;
  }();
  for (const auto& name : names) {
    const auto t = traced.operations.contains(name) ? traced.operations.at(name) : sim::OperationTotals{};
    const auto l = learned.operations.contains(name) ? learned.operations.at(name) : sim::OperationTotals{};
    const bool count = t.count != l.count, bytes = std::abs(t.bytes - l.bytes) > 0.01 * std::max(t.bytes, l.bytes);
    const double seconds = std::abs(t.seconds - l.seconds);
    if (!count && !bytes && seconds <= 0.02 * std::max(t.seconds, l.seconds)) continue;
    parts.push_back({fmt::format("{}: {:.0f} calls, {}, {} in the run; {:.0f} calls, {}, {} learned",
                                 name == "compute" ? name : model::mpi_name(name), t.count, model::format_bytes(t.bytes),
                                 model::format_seconds(t.seconds), l.count, model::format_bytes(l.bytes),
                                 model::format_seconds(l.seconds)),
                     seconds + (count || bytes ? 1e9 : 0)});
  }
  std::stable_sort(parts.begin(), parts.end(), [](const Part& a, const Part& b) { return a.weight > b.weight; });
  std::string out;
  for (std::size_t i = 0; i < parts.size() && i < 6; ++i) out += "\n  " + parts[i].text;
  return out.empty() ? "\n  (every call's count and bytes alike: the computes' laws part)" : out;
}

// The largest cross-validated error of the laws whose field ends in one of `suffixes`.
double largest_error(const app::AppProgram& program, std::initializer_list<const char*> suffixes) {
  double largest = 0;
  app::for_each_law(program, [&](const app::Law& law, const std::string& field) {
    for (const char* suffix : suffixes)
      if (field.ends_with(suffix)) largest = std::max(largest, law.cv_error);
  });
  return largest;
}

// Calls whose number or bytes at a count the program was learned from fall outside what the
// learned program gives with its laws at their bounds, widened by those laws' stated errors. Unlike
// time, these do not depend on the host's noise: a program that calls otherwise than its run is
// wrong however loose its computes' laws are.
std::string structural_parts(const app::AppProgram& program, const sim::Result& traced,
                             const std::vector<const sim::Result*>& learned) {
  // A law's sizes are continuous where a call's are whole bytes: a tenth of a percent is rounding.
  const double counts = largest_error(program, {".repeat", ".mean_times"});
  const double bytes = std::max(1e-3, largest_error(program, {".bytes"}));
  const auto totals = [](const sim::Result& result, const std::string& name) {
    const auto found = result.operations.find(name);
    return found == result.operations.end() ? sim::OperationTotals{} : found->second;
  };
  std::string out;
  for (const auto& [name, t] : traced.operations) {
    if (name == "compute") continue;
    double count_low = 1e300, count_high = 0, bytes_low = 1e300, bytes_high = 0;
    for (const auto* result : learned) {
      const auto l = totals(*result, name);
      count_low = std::min(count_low, l.count), count_high = std::max(count_high, l.count);
      bytes_low = std::min(bytes_low, l.bytes), bytes_high = std::max(bytes_high, l.bytes);
    }
    const bool count = t.count < count_low * (1 - counts) - 1e-9 || t.count > count_high * (1 + counts) + 1e-9;
    const bool size = t.bytes < bytes_low * (1 - bytes) - 1e-9 || t.bytes > bytes_high * (1 + bytes) + 1e-9;
    const auto l = totals(*learned.front(), name);
    if (count || size)
      out += fmt::format("\n  {}: {:.0f} calls, {} in the run; {:.0f} calls, {} learned", model::mpi_name(name), t.count,
                         model::format_bytes(t.bytes), l.count, model::format_bytes(l.bytes));
  }
  for (const auto& [name, l] : learned.front()->operations)
    if (name != "compute" && !traced.operations.contains(name))
      out += fmt::format("\n  {}: none in the run; {:.0f} calls, {} learned", model::mpi_name(name), l.count,
                         model::format_bytes(l.bytes));
  if (!out.empty())
    out = fmt::format(" (allowed: their laws' bounds and ±{:.1f}% in calls, ±{:.1f}% in bytes):", 100 * counts,
                      100 * bytes) + out;
  return out;
}

}  // namespace

double allowed_miss(const app::AppProgram& program, double floor) {
  double largest = floor;
  app::for_each_law(program, [&](const app::Law& law, const std::string&) { largest = std::max(largest, law.cv_error); });
  return largest;
}

std::vector<CountCheck> check_learned(const app::AppModel& model, const std::vector<LearnRun>& runs,
                                      const std::vector<const sim::Program*>& replays, const std::string& parameter,
                                      const NetworkAt& network_at, double floor) {
  std::vector<CountCheck> out;
  const double allowed = allowed_miss(*model.program, floor);
  for (std::size_t k = 0; k < runs.size(); ++k) {
    const auto& run = runs[k];
    const auto network = network_at(run.p);
    const auto traced = sim::simulate(*replays[k], *network);
    sim::AppSettings settings;
    if (!parameter.empty()) settings.parameters[parameter] = run.n;
    CountCheck check{run.label, run.p, traced.predicted, 0, 0, 0, allowed};
    sim::Result learned, at_low, at_high;
    try {
      learned = sim::simulate(*sim::instantiate(model, run.p, settings), *network);
      settings.bound = model::Bound::min;
      at_low = sim::simulate(*sim::instantiate(model, run.p, settings), *network);
      settings.bound = model::Bound::max;
      at_high = sim::simulate(*sim::instantiate(model, run.p, settings), *network);
      check.low = at_low.predicted, check.high = at_high.predicted;
    } catch (const sim::DeadlockError& e) {
      throw LearnError(fmt::format("the learned program deadlocks at p = {}, a count it was learned from ({}): {}",
                                   run.p, run.label, e.what()));
    }
    check.learned = learned.predicted;
    const auto parts = model.program->blocks_of_time.empty()
                           ? structural_parts(*model.program, traced, {&learned, &at_low, &at_high})
                           : std::string();
    if (!parts.empty())
      throw LearnError(fmt::format("the learned program calls otherwise than the run it was learned from at p = {} ({}), "
                                   "whatever the time{}",
                                   run.p, run.label, parts));
    const double low = std::min(check.low, check.learned) * (1 - allowed);
    const double high = std::max(check.high, check.learned) * (1 + allowed);
    if (check.traced < low || check.traced > high)
      throw LearnError(fmt::format(
          "the learned program misses the run it was learned from at p = {} ({}): {} simulated against {} replayed "
          "({:+.1f}%), beyond its laws' bounds ({} … {}) and errors (±{:.1f}%); the calls that part:{}",
          run.p, run.label, model::format_seconds(check.learned), model::format_seconds(check.traced),
          100 * check.miss(), model::format_seconds(check.low), model::format_seconds(check.high), 100 * allowed,
          parting_calls(traced, learned)));
    out.push_back(check);
  }
  return out;
}

}  // namespace augur::learn
