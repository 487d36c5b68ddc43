// libFuzzer target: the OTF2 import takes any damage to an archive without crashing. A small
// archive exported by augur is the seed; the input picks one of its files, an offset and a length,
// and its bytes are XORed into that file there (or, with the top bit of the first byte, the file
// is cut to the offset). Whatever the reader accepts obeys the invariants the exporters and the
// replay rely on; what it refuses it refuses with std::runtime_error.
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include "trace/exporters.hpp"
#include "trace/messages.hpp"
#include "trace/native_reader.hpp"
#include "trace/otf2_reader.hpp"
#include "trace/summary.hpp"
#include "trace/synthetic.hpp"

namespace {

namespace fs = std::filesystem;

void require(bool ok) {
  if (!ok) std::abort();
}

struct Seed {
  fs::path dir;
  std::vector<fs::path> files;  // relative to dir
};

// Each process has its own seed directory, removed when it exits: in fork mode every child
// process of libFuzzer makes one.
const fs::path& seed_dir() {
  static const fs::path dir = fs::temp_directory_path() / ("augur-fuzz-otf2-" + std::to_string(::getpid()));
  return dir;
}

void remove_seed_dir() {
  std::error_code ignored;
  fs::remove_all(seed_dir(), ignored);
}

const Seed& seed() {
  static const Seed s = [] {
    Seed out;
    out.dir = seed_dir();
    fs::remove_all(out.dir);
    std::atexit(remove_seed_dir);
    augur::trace::write_synthetic_trace(out.dir / "native", {.ranks = 2, .events = 60});
    augur::trace::export_otf2(augur::trace::read_native_trace(out.dir / "native"), out.dir / "seed");
    for (const auto& e : fs::recursive_directory_iterator(out.dir / "seed"))
      if (e.is_regular_file()) out.files.push_back(fs::relative(e.path(), out.dir / "seed"));
    std::sort(out.files.begin(), out.files.end());
    return out;
  }();
  return s;
}

void damage(const fs::path& file, const std::uint8_t* data, std::size_t size) {
  std::string bytes;
  {
    std::ifstream in(file, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  const bool cut = data[0] & 0x80;
  const std::size_t offset = bytes.empty() ? 0 : (std::size_t(data[1]) << 8 | data[2]) % bytes.size();
  if (cut) bytes.resize(offset);
  for (std::size_t i = 3; i < size && offset + i - 3 < bytes.size(); ++i) bytes[offset + i - 3] ^= char(data[i]);
  std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;
}

void check(const augur::trace::Trace& t) {
  for (const auto& r : t.ranks) {
    for (const auto& s : r.states) require(s.kind != augur::trace::StateKind::mpi || s.op < t.names.size());
    for (const auto& m : r.sends) require(m.dst >= 0 && m.dst < t.nranks());
    for (const auto& m : r.recvs) require(m.src >= 0 && m.src < t.nranks());
    for (const auto& c : r.collectives) require(c.op < t.names.size() && c.root >= -1 && c.root < t.nranks());
  }
  augur::trace::pair_messages(t);
  augur::trace::summarize(t);
}

}  // namespace

// libotf2 (3.0) trusts the sizes written in an anchor file and asks calloc for them (29 GB from
// one damaged byte): where an allocation that large fails, the library is handed a null pointer
// and reports an error, as it would be outside the sanitizer; ASan's default is to abort instead.
extern "C" const char* __asan_default_options() { return "allocator_may_return_null=1"; }

// libotf2 (3.0) keeps what it allocated when it gives up on a damaged archive (the archive of a
// failed OTF2_Reader_Open, buffers of a failed read) and returns no handle to free it by: those
// leaks are the library's and not what this target looks for. Leaks of augur's own code are
// still reported.
extern "C" const char* __lsan_default_suppressions() { return "leak:libopen-trace-format2\n"; }

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 3) return 0;
  const Seed& s = seed();
  const fs::path work = s.dir / "work";
  fs::remove_all(work);
  fs::copy(s.dir / "seed", work, fs::copy_options::recursive);
  damage(work / s.files[(data[0] & 0x7f) % s.files.size()], data, size);
  try {
    check(augur::trace::read_otf2_trace(work));
  } catch (const std::runtime_error&) {
  }
  return 0;
}
