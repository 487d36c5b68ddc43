#include "trace/messages.hpp"

#include <deque>
#include <unordered_map>

namespace augur::trace {

namespace {

struct Signature {
  std::int32_t src, dst, tag, comm;
  bool operator==(const Signature&) const = default;
};

struct SignatureHash {
  std::size_t operator()(const Signature& s) const {
    std::uint64_t h = (std::uint64_t(std::uint32_t(s.src)) << 32) | std::uint32_t(s.dst);
    h ^= ((std::uint64_t(std::uint32_t(s.tag)) << 32) | std::uint32_t(s.comm)) * 0x9e3779b97f4a7c15ULL;
    return std::hash<std::uint64_t>{}(h * 0xbf58476d1ce4e5b9ULL);
  }
};

}  // namespace

MessagePairing pair_messages(const Trace& trace) {
  MessagePairing out;
  auto nranks = trace.ranks.size();
  out.message_of_send.resize(nranks);
  out.message_of_recv.resize(nranks);
  std::unordered_map<Signature, std::deque<std::uint32_t>, SignatureHash> in_flight;
  for (std::size_t src = 0; src < nranks; ++src) {
    const auto& sends = trace.ranks[src].sends;
    out.message_of_send[src].assign(sends.size(), kUnmatched);
    for (std::uint32_t i = 0; i < sends.size(); ++i)
      in_flight[{std::int32_t(src), sends[i].dst, sends[i].tag, sends[i].comm}].push_back(i);
  }
  for (std::size_t dst = 0; dst < nranks; ++dst) {
    const auto& recvs = trace.ranks[dst].recvs;
    out.message_of_recv[dst].assign(recvs.size(), kUnmatched);
    for (std::uint32_t i = 0; i < recvs.size(); ++i) {
      auto it = in_flight.find({recvs[i].src, std::int32_t(dst), recvs[i].tag, recvs[i].comm});
      if (it == in_flight.end() || it->second.empty()) {
        ++out.unmatched_recvs;
        continue;
      }
      std::uint32_t send = it->second.front();
      it->second.pop_front();
      auto index = static_cast<std::int64_t>(out.messages.size());
      out.messages.push_back({recvs[i].src, std::int32_t(dst), send, i});
      out.message_of_send[recvs[i].src][send] = index;
      out.message_of_recv[dst][i] = index;
    }
  }
  for (const auto& [signature, left] : in_flight) out.unmatched_sends += left.size();
  return out;
}

}  // namespace augur::trace
