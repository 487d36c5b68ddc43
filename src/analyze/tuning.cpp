#include "analyze/tuning.hpp"

#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "analyze/shares.hpp"
#include "util/numbers.hpp"
#include "sim/program/message_ops.hpp"

namespace augur::analyze {

std::pair<std::string, double> parse_factor(std::string_view option, std::string_view text) {
  const auto eq = text.rfind('=');
  if (eq == std::string_view::npos || eq == 0)
    throw std::invalid_argument(fmt::format("{} '{}': expected NAME=FACTOR, e.g. solve=0.5", option, text));
  const auto number = text.substr(eq + 1);
  const auto factor = util::parse_number(number);
  if (!factor) throw std::invalid_argument(fmt::format("{} '{}': '{}' is not a number", option, text, number));
  if (!(*factor >= 0)) throw std::invalid_argument(fmt::format("{} '{}': the factor must be 0 or more", option, text));
  return {std::string(text.substr(0, eq)), *factor};
}

std::string Tuning::describe() const {
  std::string out;
  auto add = [&](const std::string& what) { out += (out.empty() ? "" : ", ") + what; };
  for (const auto& [g, f] : grains) add(fmt::format("grain {} x{:g}", g, f));
  for (const auto& [r, f] : ranks) add(fmt::format("rank {} compute x{:g}", r, f));
  for (const auto& [c, f] : bytes) add(fmt::format("{} bytes x{:g}", c, f));
  return out.empty() ? "none" : out;
}

GrainIndex::GrainIndex(const trace::Trace& trace)
    : names_(&trace), ordinal_(trace.ranks.size()), states_(trace.ranks.size()), phase_(trace.ranks.size()) {
  const PhaseLookup lookup(trace);
  std::set<std::string> names;
  for (std::size_t r = 0; r < trace.ranks.size(); ++r) {
    const auto& s = trace.ranks[r].states;
    ordinal_[r].assign(s.size(), 0);
    for (std::uint32_t i = 0; i < s.size(); ++i) {
      // The simulator records no state for an empty grain: skipping them keeps ordinals equal.
      if (s[i].kind != trace::StateKind::compute || !(s[i].end > s[i].begin)) continue;
      ordinal_[r][i] = static_cast<std::uint32_t>(states_[r].size());
      states_[r].push_back(i);
      const auto phase = lookup.empty() ? -1 : lookup.name_at(int(r), s[i].begin);
      phase_[r].push_back(phase);
      if (phase >= 0) names.insert(trace.names[phase]);
    }
  }
  phase_names_.assign(names.begin(), names.end());
}

std::string_view GrainIndex::phase(int rank, std::uint32_t ordinal) const {
  const auto p = ordinal < phase_[rank].size() ? phase_[rank][ordinal] : -1;
  return p < 0 ? std::string_view{} : std::string_view(names_->names[p]);
}

void GrainIndex::borrow_phases(const GrainIndex& other) {
  names_ = other.names_;
  phase_ = other.phase_;
  phase_names_ = other.phase_names_;
}

double compute_factor(const Tuning& tuning, const GrainIndex& grains, int rank, std::uint32_t ordinal) {
  double f = 1;
  if (auto it = tuning.ranks.find(rank); it != tuning.ranks.end()) f *= it->second;
  if (tuning.grains.empty()) return f;
  if (auto it = tuning.grains.find(fmt::format("{}:{}", rank, ordinal)); it != tuning.grains.end()) f *= it->second;
  const auto phase = grains.phase(rank, ordinal);
  if (!phase.empty())
    if (auto it = tuning.grains.find(std::string(phase)); it != tuning.grains.end()) f *= it->second;
  return f;
}

double bytes_factor(const Tuning& tuning, std::string_view call) {
  double f = 1;
  if (auto it = tuning.bytes.find(std::string(call)); it != tuning.bytes.end()) f *= it->second;
  if (auto it = tuning.bytes.find("all"); it != tuning.bytes.end()) f *= it->second;
  return f;
}

Scaling scaling_for(const Tuning& tuning, const GrainIndex& grains, const trace::Trace& trace) {
  Scaling s;
  if (!tuning.grains.empty() || !tuning.ranks.empty())
    s.compute = [&tuning, &grains](int rank, std::uint32_t state) {
      return compute_factor(tuning, grains, rank, grains.ordinal(rank, state));
    };
  if (!tuning.bytes.empty())
    s.bytes = [&tuning, &trace](trace::NameIndex op) { return bytes_factor(tuning, trace.names[op]); };
  return s;
}

namespace {

std::string_view call_of(const sim::Program& p, const sim::Op& op) {
  switch (op.kind) {
    case sim::OpKind::send:
    case sim::OpKind::isend:
    case sim::OpKind::sendrecv: return sim::message_op_of(op.kind, op.mode)->model_name;
    case sim::OpKind::collective: return p.names()[op.name];
    default: return {};
  }
}

std::vector<sim::Op> tuned_body(const sim::FlatProgram& p, int rank, const Tuning& tuning, const GrainIndex& grains) {
  auto body = p.body_of(rank);
  std::uint32_t ordinal = 0;
  for (auto& op : body) {
    if (op.kind == sim::OpKind::compute) {
      if (op.value > 0 && ordinal < grains.count(rank)) op.value *= compute_factor(tuning, grains, rank, ordinal++);
    } else if (!tuning.bytes.empty()) {
      if (const auto call = call_of(p, op); !call.empty()) op.value *= bytes_factor(tuning, call);
    }
  }
  return body;
}

}  // namespace

std::unique_ptr<sim::FlatProgram> tuned_program(const sim::FlatProgram& program, const Tuning& tuning,
                                                const GrainIndex& grains) {
  auto out = std::make_unique<sim::FlatProgram>(program.nranks());
  for (std::size_t c = 1; c < program.comms().size(); ++c) out->add_comm(program.comms()[c]);
  for (const auto& name : program.names()) out->intern(name);
  // Distinct sets in order: each gets back its index, which the bodies' waits refer to.
  for (std::size_t s = 0; s < program.wait_set_count(); ++s) out->add_wait_set(program.wait_set(static_cast<std::int32_t>(s)));
  for (int r = 0; r < program.nranks(); ++r) out->assign(r, r, out->add_body(tuned_body(program, r, tuning, grains)));
  return out;
}

}  // namespace augur::analyze
