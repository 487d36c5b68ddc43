// Every message of a trace as one CSV row, for the tools people compute with (pandas, R, a
// spreadsheet) and for comparing simulators message by message (bench/simgrid/compare.py).
// Rows follow the receivers' order: rank by rank, each receive in the order its rank made it.
#include <fstream>
#include <stdexcept>
#include <system_error>

#include <fmt/format.h>

#include "trace/exporters.hpp"
#include "trace/messages.hpp"

namespace augur::trace {

Files export_messages(const Trace& trace, const std::filesystem::path& out) {
  const MessagePairing pairing = pair_messages(trace);
  // Written beside and renamed when whole, so an interrupted export leaves no partial file.
  auto partial = out;
  partial += ".partial";
  {
    std::ofstream file(partial);
    if (!file) throw std::runtime_error(fmt::format("{}: cannot create", out.string()));
    file << "sender,receiver,tag,communicator,bytes,send_time,receive_posted,receive_end\n";
    for (const auto& rank : pairing.message_of_recv)
      for (const auto index : rank) {
        if (index == kUnmatched) continue;
        const Message& m = pairing.messages[static_cast<std::size_t>(index)];
        const SendEvent& s = trace.ranks[m.src].sends[m.send_index];
        const RecvEvent& r = trace.ranks[m.dst].recvs[m.recv_index];
        file << fmt::format("{},{},{},{},{},{:.17g},{:.17g},{:.17g}\n", m.src, m.dst, r.tag, r.comm, r.bytes, s.time,
                            r.post, r.end);
      }
    if (!file.flush()) throw std::runtime_error(fmt::format("{}: cannot write", out.string()));
  }
  std::error_code ec;
  std::filesystem::rename(partial, out, ec);
  if (ec) throw std::runtime_error(fmt::format("{}: cannot write: {}", out.string(), ec.message()));
  return {out};
}

}  // namespace augur::trace
