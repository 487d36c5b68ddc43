// libFuzzer target: the native and text trace readers take any bytes without crashing, and
// whatever they accept obeys the invariants the exporters rely on (states end after they begin,
// peers are ranks of the trace, names exist), while damage is reported, never thrown.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "trace/compare.hpp"
#include "trace/messages.hpp"
#include "trace/native_reader.hpp"
#include "trace/summary.hpp"
#include "trace/text_reader.hpp"

namespace {

void require(bool ok) {
  if (!ok) std::abort();
}

void check(const augur::trace::Trace& t) {
  for (const auto& r : t.ranks) {
    for (const auto& s : r.states) {
      require(s.end >= s.begin);
      require(s.kind != augur::trace::StateKind::mpi || s.op < t.names.size());
    }
    for (const auto& m : r.sends) require(m.dst >= 0 && m.dst < t.nranks());
    for (const auto& m : r.recvs) require(m.src >= 0 && m.src < t.nranks() && m.end >= m.post);
    for (const auto& c : r.collectives) require(c.op < t.names.size() && c.end >= c.begin);
  }
  augur::trace::pair_messages(t);
  augur::trace::summarize(t);
  augur::trace::compare_traces(t, t);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  augur::trace::Trace native;
  augur::trace::read_rank_bytes(bytes, "fuzz.augt", native);
  check(native);
  check(augur::trace::read_text_trace(bytes, "fuzz.txt"));
  return 0;
}
