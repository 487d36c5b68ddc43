#include "trace/otf2_reader.hpp"

#include <otf2/otf2.h>

#include <cstdarg>
#include <cstdio>
#include <memory>
#include <stdexcept>

#include <fmt/format.h>

#include "trace/messages.hpp"
#include "trace/otf2_definitions.hpp"
#include "trace/otf2_events.hpp"
#include "trace/otf2_regions.hpp"

namespace augur::trace {

namespace fs = std::filesystem;

namespace {

// The OTF2 library prints its errors to stderr; while reading, the last one is kept instead, to
// go into the reader's own error, which names the file and the place.
class LibraryErrors {
 public:
  LibraryErrors() { previous_ = OTF2_Error_RegisterCallback(keep, this); }
  ~LibraryErrors() { OTF2_Error_RegisterCallback(previous_, nullptr); }
  LibraryErrors(const LibraryErrors&) = delete;
  LibraryErrors& operator=(const LibraryErrors&) = delete;

  std::string reason(OTF2_ErrorCode code) const {
    std::string out = OTF2_Error_GetDescription(code);
    if (!last_.empty() && last_ != out) out += fmt::format(" ({})", last_);
    return out;
  }

 private:
  static OTF2_ErrorCode keep(void* self, const char*, uint64_t, const char*, OTF2_ErrorCode code, const char* format,
                             va_list args) {
    char text[512] = "";
    if (format) std::vsnprintf(text, sizeof text, format, args);
    static_cast<LibraryErrors*>(self)->last_ = text;
    return code;
  }
  OTF2_ErrorCallback previous_;
  std::string last_;
};

struct ReaderCloser {
  void operator()(OTF2_Reader* r) const { OTF2_Reader_Close(r); }
};
using ReaderHandle = std::unique_ptr<OTF2_Reader, ReaderCloser>;

std::string creator(OTF2_Reader* reader) {
  char* name = nullptr;
  if (OTF2_Reader_GetCreator(reader, &name) != OTF2_SUCCESS || !name) return {};
  std::string out = name;
  std::free(name);
  return out;
}

// Definitions local to each location hold the mappings of its local ids to global ones.
void read_local_definitions(OTF2_Reader* reader, const Otf2Definitions& defs) {
  if (OTF2_Reader_OpenDefFiles(reader) != OTF2_SUCCESS) return;  // an archive may have none
  for (const auto& rank : defs.ranks) {
    OTF2_DefReader* local = OTF2_Reader_GetDefReader(reader, rank.location);
    if (!local) continue;
    uint64_t read = 0;
    OTF2_Reader_ReadAllLocalDefinitions(reader, local, &read);
    OTF2_Reader_CloseDefReader(reader, local);
  }
  OTF2_Reader_CloseDefFiles(reader);
}

std::string event_file(const fs::path& anchor, OTF2_LocationRef location) {
  return (anchor.parent_path() / anchor.stem() / fmt::format("{}.evt", location)).string();
}

void note_rank(Trace& trace, int rank, const Otf2Rank& r, const Otf2RankBuilder& b, std::uint64_t read) {
  if (!r.others.empty())
    trace.notes.push_back(fmt::format(
        "rank {} ({}): {} further location(s) (threads) with {} events left out; only location {}, the one "
        "calling MPI, is read", rank, r.name, r.others.size(), r.other_events, r.location));
  if (read > b.events())
    trace.notes.push_back(fmt::format("rank {}: {} events of kinds not read (metrics, threading, I/O, RMA, …) ignored",
                                      rank, read - b.events()));
  for (const auto& [what, n] : b.unmatched()) trace.notes.push_back(fmt::format("rank {}: {} × {}", rank, n, what));
}

void read_events(OTF2_Reader* reader, const fs::path& anchor, const Otf2ArchiveContext& context, Trace& trace,
                 const LibraryErrors& errors) {
  for (const auto& rank : context.defs.ranks) OTF2_Reader_SelectLocation(reader, rank.location);
  read_local_definitions(reader, context.defs);
  if (auto code = OTF2_Reader_OpenEvtFiles(reader); code != OTF2_SUCCESS)
    throw std::runtime_error(fmt::format("{}: cannot open the event files: {}", anchor.string(), errors.reason(code)));
  OTF2_EvtReaderCallbacks* callbacks = OTF2_EvtReaderCallbacks_New();
  Otf2RankBuilder::set_callbacks(callbacks);
  for (std::size_t r = 0; r < context.defs.ranks.size(); ++r) {
    const auto location = context.defs.ranks[r].location;
    Otf2RankBuilder builder(context, trace, static_cast<int>(r));
    OTF2_EvtReader* events = OTF2_Reader_GetEvtReader(reader, location);
    OTF2_ErrorCode code = events ? OTF2_Reader_RegisterEvtCallbacks(reader, events, callbacks, &builder) : OTF2_ERROR_INVALID;
    uint64_t read = 0;
    if (code == OTF2_SUCCESS) code = OTF2_Reader_ReadAllLocalEvents(reader, events, &read);
    if (events) OTF2_Reader_CloseEvtReader(reader, events);
    if (code != OTF2_SUCCESS) {
      OTF2_EvtReaderCallbacks_Delete(callbacks);
      throw std::runtime_error(fmt::format("{}: event {} (rank {}, location {}): {}", event_file(anchor, location),
                                           read + 1, r, location, errors.reason(code)));
    }
    // A file cut at a chunk's end reads without error: the definitions' count tells it is short.
    if (auto it = context.defs.locations.find(location); it != context.defs.locations.end() && it->second.events > read) {
      OTF2_EvtReaderCallbacks_Delete(callbacks);
      throw std::runtime_error(fmt::format("{}: event {} (rank {}, location {}): the file ends after {} of the {} events "
                                           "the definitions announce", event_file(anchor, location), read + 1, r,
                                           location, read, it->second.events));
    }
    builder.finish();
    note_rank(trace, static_cast<int>(r), context.defs.ranks[r], builder, read);
  }
  OTF2_EvtReaderCallbacks_Delete(callbacks);
  OTF2_Reader_CloseEvtFiles(reader);
}

// A receive whose send is not in the archive would wait for ever in a replay: refused, naming them.
void refuse_unmatched_receives(const Trace& trace, const fs::path& anchor) {
  const auto pairing = pair_messages(trace);
  if (pairing.unmatched_recvs == 0) return;
  std::string list;
  int shown = 0;
  for (int r = 0; r < trace.nranks() && shown < 5; ++r)
    for (std::size_t i = 0; i < trace.ranks[r].recvs.size() && shown < 5; ++i) {
      if (pairing.message_of_recv[r][i] != kUnmatched) continue;
      const auto& m = trace.ranks[r].recvs[i];
      list += fmt::format("\n  rank {}: receive from rank {} (tag {}, communicator {}, {} bytes) completed at {} s",
                          r, m.src, m.tag, m.comm, m.bytes, m.end);
      ++shown;
    }
  throw std::runtime_error(fmt::format(
      "{}: {} receive(s) without a matching send; a replay cannot be faithful to this trace:{}{}", anchor.string(),
      pairing.unmatched_recvs, list, pairing.unmatched_recvs > 5 ? "\n  …" : ""));
}

}  // namespace

fs::path otf2_anchor(const fs::path& path) {
  std::error_code ec;
  if (fs::is_regular_file(path, ec)) return path.extension() == ".otf2" ? path : fs::path();
  if (!fs::is_directory(path, ec)) return {};
  fs::path anchor;
  for (const auto& entry : fs::directory_iterator(path, ec)) {
    if (entry.path().extension() != ".otf2" || !entry.is_regular_file(ec)) continue;
    if (!anchor.empty()) return {};  // two archives: which one is meant is for the user to say
    anchor = entry.path();
  }
  return anchor;
}

Trace read_otf2_trace(const fs::path& path) {
  const fs::path anchor = otf2_anchor(path);
  if (anchor.empty()) throw std::runtime_error(fmt::format("{}: no OTF2 anchor file (.otf2) found", path.string()));
  LibraryErrors errors;
  ReaderHandle reader(OTF2_Reader_Open(anchor.c_str()));
  if (!reader) throw std::runtime_error(fmt::format("{}: not a readable OTF2 archive", anchor.string()));
  OTF2_Reader_SetSerialCollectiveCallbacks(reader.get());
  const std::string made_by = creator(reader.get());
  const Otf2Definitions defs = read_otf2_definitions(reader.get(), anchor.string());
  Trace trace;
  trace.header = {TraceMode::measured, "", fmt::format("seconds, OTF2 timer of {} Hz", defs.resolution),
                  made_by.empty() ? std::string("OTF2") : made_by};
  trace.ranks.resize(defs.ranks.size());
  for (std::size_t r = 0; r < defs.ranks.size(); ++r)
    trace.ranks[r].file = fmt::format("{} (location {})", anchor.string(), defs.ranks[r].location);
  // augur's own archives say what a native trace would: its operations' names, the model a run
  // was predicted on, each collective call's size. Score-P names MPI's functions and the host,
  // and counts a collective's bytes over the whole communicator.
  const bool own = made_by == "augur";
  const auto regions = region_meanings(defs, trace, !own);
  Otf2ArchiveContext context{defs, regions};
  for (const auto& [ref, m] : regions)
    if (m.use == RegionUse::compute || m.use == RegionUse::wait || m.use == RegionUse::idle) context.explicit_states = true;
  context.call_sizes = own;
  if (own) trace.header.machine = defs.machine;
  read_events(reader.get(), anchor, context, trace, errors);
  refuse_unmatched_receives(trace, anchor);
  return trace;
}

}  // namespace augur::trace
