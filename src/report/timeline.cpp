#include "report/timeline.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string_view>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "model/units.hpp"
#include "trace/messages.hpp"

namespace augur::report {

namespace {

using trace::Trace;

// Labels shared by all traces, so a state has the same colour in both rows of a pair.
class LabelTable {
 public:
  std::uint32_t index(std::string_view label) {
    auto it = std::find(labels_.begin(), labels_.end(), label);
    if (it != labels_.end()) return static_cast<std::uint32_t>(it - labels_.begin());
    labels_.emplace_back(label);
    return static_cast<std::uint32_t>(labels_.size() - 1);
  }
  const std::vector<std::string>& labels() const { return labels_; }

 private:
  std::vector<std::string> labels_;
};

// Appends numbers to a JSON array by hand: nlohmann would hold every number as a json node,
// several times the memory of the text for a million-state trace.
class NumberArray {
 public:
  explicit NumberArray(std::string& out) : out_(out) { out_ += '['; }
  ~NumberArray() { out_ += ']'; }
  void add(double v, int digits) {
    if (!first_) out_ += ',';
    first_ = false;
    fmt::format_to(std::back_inserter(out_), "{:.{}g}", v, digits);
  }
  void add(std::uint64_t v) {
    if (!first_) out_ += ',';
    first_ = false;
    fmt::format_to(std::back_inserter(out_), "{}", v);
  }

 private:
  std::string& out_;
  bool first_ = true;
};

// log2 of predicted over measured duration for each state of `b` paired with `a`; 0 when the
// states cannot be paired (different operation or past the end of the shorter run).
double log_error(const Trace& a, const Trace& b, int rank, std::size_t i) {
  if (rank >= a.nranks()) return 0;
  const auto& sa = a.ranks[rank].states;
  const auto& sb = b.ranks[rank].states;
  if (i >= sa.size() || a.label(sa[i]) != b.label(sb[i])) return 0;
  double da = sa[i].end - sa[i].begin, db = sb[i].end - sb[i].begin;
  if (da <= 0 || db <= 0) return 0;
  return std::clamp(std::log2(db / da), -4.0, 4.0);
}

class TimelineData {
 public:
  TimelineData(const std::vector<const Trace*>& traces, const TimelineOptions& options)
      : traces_(traces), options_(options) {
    origin_ = traces[0]->start_time();
    end_ = traces[0]->end_time();
    for (const auto* t : traces) {
      origin_ = std::min(origin_, t->start_time());
      end_ = std::max(end_, t->end_time());
    }
  }

  std::string json() {
    std::string out = "{\"rows\":[";
    int ranks = 0;
    for (const auto* t : traces_) ranks = std::max(ranks, t->nranks());
    bool first = true;
    for (int r = 0; r < ranks; ++r)
      for (std::size_t k = 0; k < traces_.size(); ++k) {
        if (!std::exchange(first, false)) out += ',';
        row(out, k, r);
      }
    out += "],\"arrows\":";
    arrows(out);
    nlohmann::json meta = {{"title", options_.title}, {"labels", readable_labels()},
                           {"span", end_ - origin_}, {"traces", traces_.size()},
                           {"traceNames", names()}};
    out += ",\"meta\":" + meta.dump() + "}";
    return out;
  }

 private:
  // The page names states as MPI does (MPI_Isend, not the trace's isend1).
  std::vector<std::string> readable_labels() const {
    std::vector<std::string> out;
    for (const auto& label : labels_.labels()) out.push_back(model::mpi_name(label));
    return out;
  }

  std::vector<std::string> names() const {
    std::vector<std::string> n;
    for (std::size_t k = 0; k < traces_.size(); ++k)
      n.push_back(k < options_.trace_names.size() ? options_.trace_names[k]
                                                  : std::string(trace::to_string(traces_[k]->header.mode)));
    return n;
  }

  // Times are seconds since the earliest event, to nine significant digits: enough to place a
  // state to the nanosecond in a one-second run.
  void row(std::string& out, std::size_t k, int rank) {
    const Trace& t = *traces_[k];
    out += fmt::format("{{\"trace\":{},\"rank\":{},\"begin\":", k, rank);
    if (rank >= t.nranks()) {
      out += "[],\"end\":[],\"label\":[],\"error\":[]}";
      return;
    }
    const auto& states = t.ranks[rank].states;
    { NumberArray a(out); for (const auto& s : states) a.add(s.begin - origin_, 9); }
    out += ",\"end\":";
    { NumberArray a(out); for (const auto& s : states) a.add(s.end - origin_, 9); }
    out += ",\"label\":";
    { NumberArray a(out); for (const auto& s : states) a.add(std::uint64_t(labels_.index(t.label(s)))); }
    out += ",\"error\":";
    {
      NumberArray a(out);
      if (k > 0)
        for (std::size_t i = 0; i < states.size(); ++i) a.add(log_error(*traces_[0], t, rank, i), 2);
    }
    out += '}';
  }

  // [source row, send time, destination row, arrival time] per message, flattened.
  void arrows(std::string& out) {
    NumberArray a(out);
    for (std::size_t k = 0; k < traces_.size(); ++k) {
      const Trace& t = *traces_[k];
      auto row_of = [&](int rank) { return std::uint64_t(rank * traces_.size() + k); };
      for (const auto& m : trace::pair_messages(t).messages) {
        a.add(row_of(m.src));
        a.add(t.ranks[m.src].sends[m.send_index].time - origin_, 9);
        a.add(row_of(m.dst));
        a.add(t.ranks[m.dst].recvs[m.recv_index].end - origin_, 9);
      }
    }
  }

  const std::vector<const Trace*>& traces_;
  const TimelineOptions& options_;
  LabelTable labels_;
  double origin_, end_;
};

}  // namespace

void write_timeline_html(const std::vector<const trace::Trace*>& traces, const TimelineOptions& options,
                         std::ostream& out) {
  if (traces.empty() || traces.size() > 2) throw std::invalid_argument("the timeline shows one or two traces");
  std::string_view page = kTimelinePageTemplate;
  auto at = page.find(kTimelineDataPlaceholder);
  std::string data = TimelineData(traces, options).json();
  // The data sits inside a <script> element: "</" must not end it early.
  for (std::size_t p = 0; (p = data.find("</", p)) != std::string::npos; p += 3) data.replace(p, 2, "<\\/");
  out << page.substr(0, at) << data << page.substr(at + std::string_view(kTimelineDataPlaceholder).size());
}

}  // namespace augur::report
