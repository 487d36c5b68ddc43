#include "trace/call_records.hpp"

#include "trace/operation_name.hpp"

#include <algorithm>
#include <deque>
#include <map>
#include <set>
#include <string>

namespace augur::trace {

namespace {

class Attacher {
 public:
  Attacher(const Trace& trace, const RankTrace& rank) : trace_(trace), rank_(rank) {
    out_.of_state.resize(rank.states.size());
    out_.send_taken.assign(rank.sends.size(), false);
    out_.recv_taken.assign(rank.recvs.size(), false);
    out_.collective_taken.assign(rank.collectives.size(), false);
    out_.request_of_send.resize(rank.sends.size());
    out_.request_of_recv.resize(rank.recvs.size());
    for (std::uint32_t i = 0; i < rank.recvs.size(); ++i) by_post_[rank.recvs[i].post].push_back(i);
    for (std::uint32_t i = 0; i < rank.requests.size(); ++i) made_[rank.requests[i].time].push_back(i);
    for (std::uint32_t i = 0; i < rank.completions.size(); ++i) completed_[rank.completions[i].time].push_back(i);
  }

  RankCalls run() {
    for (std::size_t i = 0; i < rank_.states.size(); ++i)
      if (rank_.states[i].kind == StateKind::mpi) attach(rank_.states[i], out_.of_state[i]);
    return std::move(out_);
  }

 private:
  std::optional<std::uint32_t> send_at(double t) {
    if (next_send_ >= rank_.sends.size() || rank_.sends[next_send_].time != t) return std::nullopt;
    out_.send_taken[next_send_] = true;
    return next_send_++;
  }
  std::optional<std::uint32_t> recv_posted_at(double t, std::int32_t peer = -1) {
    auto it = by_post_.find(t);
    if (it == by_post_.end()) return std::nullopt;
    auto& list = it->second;
    auto pick = peer < 0 ? list.begin()
                         : std::find_if(list.begin(), list.end(), [&](std::uint32_t i) { return rank_.recvs[i].src == peer; });
    if (pick == list.end()) return std::nullopt;
    const auto i = *pick;
    list.erase(pick);
    out_.recv_taken[i] = true;
    return i;
  }
  std::optional<std::uint32_t> request_at(double t) {
    auto it = made_.find(t);
    if (it == made_.end() || it->second.empty()) return std::nullopt;
    const auto i = it->second.front();
    it->second.pop_front();
    return i;
  }

  bool is_null(std::optional<std::uint32_t> request) const {
    return request && rank_.requests[*request].peer == kNullPeer;
  }

  void attach_irecv(const State& s, CallRecords& call, std::optional<std::uint32_t> request) {
    call.recv_request = request;
    if (!is_null(request)) call.recv = recv_posted_at(s.begin, request ? rank_.requests[*request].peer : -1);
    if (call.recv) out_.request_of_recv[*call.recv] = request;
  }

  void attach(const State& s, CallRecords& call) {
    static const std::set<std::string, std::less<>> sends = {"send", "ssend", "rsend", "bsend"};
    // Traces that name operations as MPI does (MPI_Send) have their records where the call is.
    const std::string name = operation_name(trace_.names[s.op]);
    if (sends.contains(name)) {
      call.send = send_at(s.begin);
    } else if (name == "isend1" || name == "isendrecv") {
      call.request = request_at(s.begin);
      if (!is_null(call.request)) call.send = send_at(s.begin);
      if (call.send) out_.request_of_send[*call.send] = call.request;
      // MPI_Isendrecv's trace has an MPI_Isend's records and then an MPI_Irecv's.
      if (name == "isendrecv") attach_irecv(s, call, request_at(s.begin));
    } else if (name == "irecv1") {
      call.request = request_at(s.begin);
      attach_irecv(s, call, call.request);
    } else if (name == "recv") {
      call.recv = recv_posted_at(s.begin);
    } else if (name == "sendrecv") {
      call.send = send_at(s.begin);
      call.recv = recv_posted_at(s.begin);
    } else if (name == "wait" || name == "test") {
      if (auto it = completed_.find(s.begin); it != completed_.end()) {
        call.completions = std::move(it->second);
        completed_.erase(it);
      }
    } else if (next_collective_ < rank_.collectives.size() && rank_.collectives[next_collective_].begin == s.begin &&
               trace_.names[rank_.collectives[next_collective_].op] == trace_.names[s.op]) {
      out_.collective_taken[next_collective_] = true;
      call.collective = next_collective_++;
    }
  }

  const Trace& trace_;
  const RankTrace& rank_;
  RankCalls out_;
  std::map<double, std::deque<std::uint32_t>> by_post_, made_;
  std::map<double, std::vector<std::uint32_t>> completed_;
  std::uint32_t next_send_ = 0, next_collective_ = 0;
};

}  // namespace

RankCalls attach_records(const Trace& trace, const RankTrace& rank) { return Attacher(trace, rank).run(); }

}  // namespace augur::trace
