#include "revprof/report.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "model/rank_table.hpp"
#include "model/units.hpp"
#include "revprof/compute_band.hpp"

namespace augur::revprof {
namespace {

using model::format_bytes;

nlohmann::json sum_operations(const std::vector<nlohmann::json>& ranks) {
  nlohmann::json total = nlohmann::json::object();
  for (const auto& r : ranks)
    for (const auto& [name, t] : r.at("operations").items()) {
      auto& acc = total[name];
      if (acc.is_null()) acc = nlohmann::json::object();
      for (const char* key : {"count", "bytes", "seconds", "waiting"})
        acc[key] = acc.value(key, 0.0) + t.at(key).get<double>();
    }
  return total;
}

nlohmann::json sum_unmodelled(const std::vector<nlohmann::json>& ranks) {
  std::map<std::string, long> total;
  for (const auto& r : ranks)
    for (const auto& [name, count] : r.at("unmodelled").items()) total[name] += count.get<long>();
  return total;
}

// Per operation, the calls no rank could price, and the reason the lowest rank gives.
nlohmann::json sum_not_priced(const std::vector<nlohmann::json>& ranks) {
  nlohmann::json total = nlohmann::json::object();
  for (const auto& r : ranks) {
    if (!r.contains("not_priced")) continue;
    for (const auto& [name, u] : r.at("not_priced").items()) {
      auto& acc = total[name];
      if (acc.is_null()) acc = {{"calls", 0}, {"reason", u.at("reason")}};
      acc["calls"] = acc["calls"].get<long>() + u.at("calls").get<long>();
    }
  }
  return total;
}

// Per operation, the largest message and group any rank asked beyond the measured range.
nlohmann::json merge_extrapolations(const std::vector<nlohmann::json>& ranks) {
  nlohmann::json total = nlohmann::json::object();
  for (const auto& r : ranks)
    if (r.contains("extrapolated")) add_extrapolations(total, r.at("extrapolated"));
  return total;
}

// The stand-ins any rank used, each once, in the order the ranks first name them.
nlohmann::json merge_stand_ins(const std::vector<nlohmann::json>& ranks) {
  nlohmann::json total = nlohmann::json::array();
  for (const auto& r : ranks) add_stand_ins(total, r.value("substitutions", nlohmann::json::array()));
  return total;
}

// ", on one node" for an entry of a level other than between nodes.
std::string level_words(const nlohmann::json& entry) {
  return entry.contains("level") ? ", " + entry.at("level").get<std::string>() : std::string();
}

nlohmann::json latest_on_each_clock(const std::vector<nlohmann::json>& ranks) {
  std::array<double, 3> latest{};
  for (const auto& r : ranks) {
    const auto& f = r.at("finish_bounds");
    latest = {std::max(latest[0], f.at("min").get<double>()), std::max(latest[1], f.at("avg").get<double>()),
              std::max(latest[2], f.at("max").get<double>())};
  }
  return bounds_to_json(latest);
}

std::string format_stand_in(const nlohmann::json& s) {
  const auto asked = model::mpi_name(s.at("operation").get<std::string>());
  if (s.at("stand_in").is_null()) return fmt::format("  {}{}: not in the model, priced as 0\n", asked, level_words(s));
  return fmt::format("  {}{}: priced as {}\n", asked, level_words(s), model::mpi_name(s.at("stand_in").get<std::string>()));
}

std::string format_extrapolation(const std::string& name, const nlohmann::json& e) {
  std::string beyond;
  if (e.at("bytes") > e.at("measured_bytes"))
    beyond += fmt::format("messages up to {} (measured up to {})", format_bytes(e.at("bytes").get<double>()),
                          format_bytes(e.at("measured_bytes").get<double>()));
  if (e.at("p") > e.at("measured_processes"))
    beyond += fmt::format("{}groups of up to {:.0f} (measured up to {:.0f})", beyond.empty() ? "" : ", ",
                          e.at("p").get<double>(), e.at("measured_processes").get<double>());
  return fmt::format("  {:<26} {}\n", model::mpi_name(e.value("operation", name)) + level_words(e), beyond);
}

std::string seconds(const nlohmann::json& value) { return model::format_seconds(value.get<double>()); }

// "AVG (MIN … MAX)": the three clocks of one run.
std::string bounds_range(const nlohmann::json& bounds) {
  return fmt::format("{} ({} … {})", seconds(bounds.at("avg")), seconds(bounds.at("min")), seconds(bounds.at("max")));
}

// How the band splits, and where the compute's share comes from.
std::string band_line(const nlohmann::json& band, const nlohmann::json& run) {
  std::string source = "the model has no compute.states: compute moves every clock alike";
  if (run.contains("compute_states"))
    source = fmt::format("compute states {} … {} of the measured compute, from the model",
                         model::significant(run["compute_states"].at("fast").get<double>(), 3),
                         model::significant(run["compute_states"].at("slow").get<double>(), 3));
  return fmt::format("Prediction {}\n  ({})\n\n", format_band(band), source);
}

std::string headline(const nlohmann::json& report) {
  const auto& run = report.at("run");
  // A simulated run of many ranks lists only some of them; rank_count says how many there were.
  const auto ranks = report.value("rank_count", report.at("ranks").size());
  if (run.value("measured", false))
    return fmt::format("Measured run time here: {}  ({} ranks)\n\n", seconds(report.at("predicted_seconds")), ranks);
  // A simulated run has one clock; a reverse-profiled one three, whose tables follow --bound.
  const bool three_clocks = report.contains("predicted_bounds");
  std::string predicted = three_clocks ? bounds_range(report.at("predicted_bounds")) : seconds(report.at("predicted_seconds"));
  // A learned program's prediction with the laws at their low and high bounds (augur sim --app).
  if (report.contains("predicted_law_bounds"))
    predicted += fmt::format(" ({} … {} by the laws' bounds)", seconds(report.at("predicted_law_bounds").at("low")),
                             seconds(report.at("predicted_law_bounds").at("high")));
  // A machine of nodes says where the ranks ran: "block, 2 ranks a node".
  const std::string placed = run.contains("placement") ? ", " + run["placement"].get<std::string>() : "";
  std::string out = fmt::format(
      "Predicted run time on {}: {}  ({} {}, compute {}, {} ranks{})\n\n", run.value("machine", "?"), predicted,
      three_clocks ? "tables at bound" : "bound", run.value("bound", "avg"), run.value("compute", "measured"), ranks, placed);
  if (report.contains("predicted_run_seconds"))
    out += fmt::format("The whole command, with the launch (mpirun, MPI_Init and MPI_Finalize: {} measured at {} ranks): {}\n\n",
                       seconds(run["launch"].at("seconds")), run["launch"].at("processes").get<int>(),
                       seconds(report.at("predicted_run_seconds")));
  if (report.contains("band")) out += band_line(report.at("band"), run);
  if (run.value("compute", "measured") == "measured" && run.contains("compute_scale_from"))
    out += fmt::format("Compute scale {}\n\n", run.at("compute_scale_from").get<std::string>());
  return out;
}

std::string rank_table(const nlohmann::json& report, model::RankRows shown) {
  const auto& ranks = report.at("ranks");
  std::vector<model::RankRow> rows;
  for (const auto& r : ranks)
    rows.push_back({r.at("rank").get<int>(), r.at("finish").get<double>(),
                    fmt::format("{:>12} {:>12} {:>12} {:>12}", seconds(r.at("finish")), seconds(r.at("compute")),
                                seconds(r.at("mpi")), seconds(r.at("waiting")))});
  return model::rank_table(fmt::format("{:>12} {:>12} {:>12} {:>12}", "finish", "compute", "MPI", "waiting"), rows,
                           report.value("rank_count", ranks.size()), shown);
}

// Operations by the time spent in them, the costliest first.
std::string operation_table(const nlohmann::json& operations) {
  std::vector<std::pair<std::string, nlohmann::json>> ops;
  for (const auto& [name, t] : operations.items()) ops.emplace_back(name, t);
  std::sort(ops.begin(), ops.end(),
            [](const auto& a, const auto& b) { return a.second.at("seconds") > b.second.at("seconds"); });
  std::string out = fmt::format("{:<26} {:>10} {:>12} {:>12} {:>12}\n", "operation (all ranks)", "calls", "bytes",
                                "time", "waiting");
  for (const auto& [name, t] : ops)
    out += fmt::format("{:<26} {:>10.0f} {:>12} {:>12} {:>12}\n", model::mpi_name(name), t.at("count").get<double>(),
                       format_bytes(t.at("bytes").get<double>()), seconds(t.at("seconds")), seconds(t.at("waiting")));
  return out;
}

std::string warnings(const nlohmann::json& report) {
  std::string out;
  const auto& unmodelled = report.at("unmodelled");
  if (!unmodelled.empty()) {
    out += "\nWarning: these MPI calls ran but their cost was not predicted:\n";
    for (const auto& [name, count] : unmodelled.items())
      out += fmt::format("  {} x{}\n", model::mpi_name(name), count.get<long>());
  }
  if (report.contains("not_priced") && !report["not_priced"].empty()) {
    out += "\nWarning: these MPI calls ran but could not be priced; the prediction leaves their cost out:\n";
    for (const auto& [name, u] : report["not_priced"].items())
      out += fmt::format("  {} x{}: {}\n", model::mpi_name(name), u.at("calls").get<long>(),
                         u.at("reason").get<std::string>());
  }
  if (report.contains("extrapolated") && !report["extrapolated"].empty()) {
    out += "\nWarning: times extrapolated beyond what the model measured (its last regime carried on):\n";
    for (const auto& [name, e] : report["extrapolated"].items()) out += format_extrapolation(name, e);
    // The limit is the budget's, not the machine's: a longer `augur bench` measures further.
    if (const auto& run = report.at("run"); run.contains("budget_note"))
      out += "  The model was measured within a budget: " + run["budget_note"].get<std::string>() + ".\n";
  }
  for (const auto& r : report.at("ranks"))
    if (r.contains("trace_error"))
      out += fmt::format("\nWarning: the trace of rank {} stops early: {}\n", r.at("rank").get<int>(),
                         r.at("trace_error").get<std::string>());
  if (report.contains("substitutions")) out += format_stand_ins(report["substitutions"]);
  return out;
}

}  // namespace

nlohmann::json extrapolations_to_json(const std::map<std::string, timing::Rules::Extrapolation, std::less<>>& asked,
                                      const std::string& level) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [name, e] : asked) {
    nlohmann::json entry = {{"bytes", e.bytes},
                            {"p", e.p},
                            {"measured_bytes", e.measured.max_bytes},
                            {"measured_processes", e.measured.max_processes}};
    if (level.empty()) {
      out[name] = std::move(entry);
      continue;
    }
    entry["operation"] = name;
    entry["level"] = level;
    out[name + ", " + level] = std::move(entry);
  }
  return out;
}

void add_extrapolations(nlohmann::json& total, const nlohmann::json& more) {
  for (const auto& [key, e] : more.items()) {
    auto& acc = total[key];
    if (acc.is_null()) {
      acc = e;
      continue;
    }
    for (const char* field : {"bytes", "p"}) acc[field] = std::max(acc[field].get<double>(), e.at(field).get<double>());
  }
}

void add_stand_ins(nlohmann::json& total, const nlohmann::json& more) {
  for (const auto& s : more)
    if (std::find(total.begin(), total.end(), s) == total.end()) total.push_back(s);
}

std::string format_stand_ins(const nlohmann::json& used) {
  if (used.empty()) return {};
  std::string out = "\nThe model lacks some operations the program used; what priced them:\n";
  for (const auto& s : used) out += format_stand_in(s);
  return out;
}

nlohmann::json stand_ins_to_json(const std::vector<timing::Rules::StandIn>& used, const std::string& level) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& s : used) {
    nlohmann::json entry = {{"operation", s.operation},
                            {"stand_in", s.priced_as.empty() ? nlohmann::json(nullptr) : nlohmann::json(s.priced_as)}};
    if (!level.empty()) entry["level"] = level;
    out.push_back(std::move(entry));
  }
  return out;
}

nlohmann::json bounds_to_json(const std::array<double, 3>& by_bound) {
  return {{"min", by_bound[0]}, {"avg", by_bound[1]}, {"max", by_bound[2]}};
}

nlohmann::json make_report(const std::vector<nlohmann::json>& ranks, const nlohmann::json& run) {
  double finish = 0;
  for (const auto& r : ranks) finish = std::max(finish, r.at("finish").get<double>());
  nlohmann::json report = {{"predicted_seconds", finish},
                           {"run", run},
                           {"ranks", ranks},
                           {"operations", sum_operations(ranks)},
                           {"unmodelled", sum_unmodelled(ranks)},
                           {"not_priced", sum_not_priced(ranks)},
                           {"extrapolated", merge_extrapolations(ranks)},
                           {"substitutions", merge_stand_ins(ranks)}};
  if (!ranks.empty() && std::all_of(ranks.begin(), ranks.end(), [](const auto& r) { return r.contains("finish_bounds"); }))
    report["predicted_bounds"] = latest_on_each_clock(ranks);
  if (report.contains("predicted_bounds") &&
      std::all_of(ranks.begin(), ranks.end(), [](const auto& r) { return r.contains("compute_bounds"); }))
    report["band"] = band_split(report.at("predicted_bounds"), ranks);
  // The span above is MPI_Init's return to MPI_Finalize; the whole command adds the launch.
  if (run.contains("launch")) report["predicted_run_seconds"] = finish + run["launch"].at("seconds").get<double>();
  return report;
}

nlohmann::json trace_bounds(const nlohmann::json& report) {
  nlohmann::json ranks = nlohmann::json::array();
  for (const auto& r : report.at("ranks")) ranks.push_back({{"rank", r.at("rank")}, {"finish", r.at("finish_bounds")}});
  return {{"timeline_bound", report.at("run").at("bound")},
          {"predicted_seconds", report.at("predicted_bounds")},
          {"ranks", ranks}};
}

nlohmann::json make_unpredicted_report(const std::string& reason, const nlohmann::json& run) {
  nlohmann::json settings = run;
  settings["not_predicted"] = reason;
  return {{"predicted_seconds", nullptr},
          {"run", settings},
          {"ranks", nlohmann::json::array()},
          {"operations", nlohmann::json::object()},
          {"unmodelled", nlohmann::json::object()},
          {"not_priced", nlohmann::json::object()},
          {"extrapolated", nlohmann::json::object()},
          {"substitutions", nlohmann::json::array()}};
}

bool is_predicted(const nlohmann::json& report) { return !report.at("run").contains("not_predicted"); }

nlohmann::json pending_report() { return {{"augur_report", "pending"}}; }

nlohmann::json unwritten_report(const std::string& reason) {
  return {{"augur_report", "unwritten"}, {"reason", reason}};
}

ReportState report_state(const nlohmann::json& file) {
  const auto state = file.is_object() ? file.value("augur_report", "") : "";
  return state == "pending" ? ReportState::pending : state == "unwritten" ? ReportState::unwritten : ReportState::report;
}

std::string format_report(const nlohmann::json& report, model::RankRows shown) {
  const auto& run = report.at("run");
  if (!is_predicted(report))
    return fmt::format("Not predicted: {}. The program ran unchanged; its run time on {} is not known.\n",
                       run.at("not_predicted").get<std::string>(), run.value("machine", "the target"));
  std::string out = headline(report) + rank_table(report, shown) + "\n" +
                    operation_table(report.at("operations")) + warnings(report);
  if (run.contains("model_note")) out += "\nNote on the model: " + run["model_note"].get<std::string>() + "\n";
  return out;
}

std::pair<nlohmann::json, nlohmann::json> priced_beyond_the_model(const timing::BoundsRules& rules,
                                                                  const timing::BoundsLevelRules* levels) {
  auto extrapolated = extrapolations_to_json(rules.extrapolations());
  auto stand_ins = stand_ins_to_json(rules.stand_ins_used());
  if (levels)
    for (const auto& [level, each] : levels->each_level()) {
      add_extrapolations(extrapolated, extrapolations_to_json(each->extrapolations(), level));
      add_stand_ins(stand_ins, stand_ins_to_json(each->stand_ins_used(), level));
    }
  return {std::move(extrapolated), std::move(stand_ins)};
}

}  // namespace augur::revprof
