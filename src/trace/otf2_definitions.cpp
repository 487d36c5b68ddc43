#include "trace/otf2_definitions.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include <fmt/format.h>

namespace augur::trace {

namespace {

struct RawGroup {
  OTF2_GroupType type;
  OTF2_Paradigm paradigm;
  std::vector<std::uint64_t> members;
};

struct RawComm {
  OTF2_StringRef name;
  OTF2_GroupRef group;
  OTF2_CommRef parent;
};

struct RawLocationGroup {
  OTF2_StringRef name;
  OTF2_LocationGroupType type;
};

// Definitions as the archive states them, by reference; names are resolved once all are read,
// since OTF2 does not promise a String comes before its first use.
struct Raw {
  std::map<OTF2_StringRef, std::string> strings;
  std::map<OTF2_RegionRef, std::pair<OTF2_StringRef, Otf2Region>> regions;
  std::map<OTF2_LocationGroupRef, RawLocationGroup> location_groups;
  std::map<OTF2_LocationRef, std::pair<OTF2_StringRef, Otf2Location>> locations;
  std::map<OTF2_GroupRef, RawGroup> groups;
  std::map<OTF2_CommRef, RawComm> comms;
  std::map<OTF2_AttributeRef, std::pair<OTF2_StringRef, OTF2_Type>> attributes;
  std::optional<std::pair<OTF2_StringRef, OTF2_StringRef>> machine;  // name, class
  Otf2Definitions* out;

  std::string string(OTF2_StringRef ref) const {
    auto it = strings.find(ref);
    return it == strings.end() ? std::string() : it->second;
  }
};

Raw& raw(void* data) { return *static_cast<Raw*>(data); }

OTF2_CallbackCode on_clock(void* data, uint64_t resolution, uint64_t offset, uint64_t, uint64_t) {
  auto& defs = *raw(data).out;
  defs.resolution = resolution;
  defs.offset = offset;
  defs.has_clock = true;
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_string(void* data, OTF2_StringRef self, const char* s) {
  raw(data).strings[self] = s ? s : "";
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_region(void* data, OTF2_RegionRef self, OTF2_StringRef name, OTF2_StringRef, OTF2_StringRef,
                            OTF2_RegionRole role, OTF2_Paradigm paradigm, OTF2_RegionFlag, OTF2_StringRef,
                            uint32_t, uint32_t) {
  raw(data).regions[self] = {name, Otf2Region{{}, role, paradigm}};
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_location_group(void* data, OTF2_LocationGroupRef self, OTF2_StringRef name,
                                    OTF2_LocationGroupType type, OTF2_SystemTreeNodeRef, OTF2_LocationGroupRef) {
  raw(data).location_groups[self] = {name, type};
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_location(void* data, OTF2_LocationRef self, OTF2_StringRef name, OTF2_LocationType,
                              uint64_t events, OTF2_LocationGroupRef group) {
  raw(data).locations[self] = {name, Otf2Location{self, {}, group, events}};
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_group(void* data, OTF2_GroupRef self, OTF2_StringRef, OTF2_GroupType type,
                           OTF2_Paradigm paradigm, OTF2_GroupFlag, uint32_t n, const uint64_t* members) {
  raw(data).groups[self] = {type, paradigm, std::vector<std::uint64_t>(members, members + n)};
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_comm(void* data, OTF2_CommRef self, OTF2_StringRef name, OTF2_GroupRef group,
                          OTF2_CommRef parent, OTF2_CommFlag) {
  raw(data).comms[self] = {name, group, parent};
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_attribute(void* data, OTF2_AttributeRef self, OTF2_StringRef name, OTF2_StringRef, OTF2_Type type) {
  raw(data).attributes[self] = {name, type};
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_system_tree_node(void* data, OTF2_SystemTreeNodeRef, OTF2_StringRef name, OTF2_StringRef node_class,
                                      OTF2_SystemTreeNodeRef parent) {
  if (parent == OTF2_UNDEFINED_SYSTEM_TREE_NODE && !raw(data).machine) raw(data).machine = {{name, node_class}};
  return OTF2_CALLBACK_SUCCESS;
}

void register_callbacks(OTF2_Reader* reader, OTF2_GlobalDefReader* defs, Raw& r) {
  OTF2_GlobalDefReaderCallbacks* cb = OTF2_GlobalDefReaderCallbacks_New();
  OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(cb, on_clock);
  OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb, on_string);
  OTF2_GlobalDefReaderCallbacks_SetRegionCallback(cb, on_region);
  OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(cb, on_location_group);
  OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cb, on_location);
  OTF2_GlobalDefReaderCallbacks_SetGroupCallback(cb, on_group);
  OTF2_GlobalDefReaderCallbacks_SetCommCallback(cb, on_comm);
  OTF2_GlobalDefReaderCallbacks_SetAttributeCallback(cb, on_attribute);
  OTF2_GlobalDefReaderCallbacks_SetSystemTreeNodeCallback(cb, on_system_tree_node);
  OTF2_Reader_RegisterGlobalDefCallbacks(reader, defs, cb, &r);
  OTF2_GlobalDefReaderCallbacks_Delete(cb);
}

// The locations of MPI_COMM_WORLD in rank order: Score-P's MPI group of locations, or, when the
// archive has none, one location per process in the order the processes are defined.
std::vector<OTF2_LocationRef> world_locations(const Raw& r) {
  for (const auto& [ref, g] : r.groups)
    if (g.type == OTF2_GROUP_TYPE_COMM_LOCATIONS && g.paradigm == OTF2_PARADIGM_MPI) return g.members;
  std::vector<OTF2_LocationRef> out;
  for (const auto& [group, lg] : r.location_groups) {
    if (lg.type != OTF2_LOCATION_GROUP_TYPE_PROCESS) continue;
    for (const auto& [ref, loc] : r.locations)
      if (loc.second.group == group) {
        out.push_back(ref);
        break;
      }
  }
  return out;
}

void resolve_ranks(const Raw& r, Otf2Definitions& defs, const std::string& anchor) {
  for (OTF2_LocationRef loc : world_locations(r)) {
    auto it = r.locations.find(loc);
    if (it == r.locations.end())
      throw std::runtime_error(fmt::format("{}: the MPI ranks name location {}, which is not defined", anchor, loc));
    const auto group = it->second.second.group;
    Otf2Rank rank{r.string(r.location_groups.count(group) ? r.location_groups.at(group).name : 0), loc, {}, 0};
    for (const auto& [ref, other] : r.locations)
      if (other.second.group == group && ref != loc) {
        rank.others.push_back(ref);
        rank.other_events += other.second.events;
      }
    defs.ranks.push_back(std::move(rank));
  }
  if (defs.ranks.empty())
    throw std::runtime_error(fmt::format("{}: the archive defines no MPI process (no location group of a process)", anchor));
}

std::vector<std::int32_t> comm_world_ranks(const Raw& r, const RawGroup& g, const Otf2Definitions& defs) {
  std::vector<std::int32_t> out;
  if (g.type == OTF2_GROUP_TYPE_COMM_GROUP) {
    for (auto m : g.members) out.push_back(m < defs.ranks.size() ? std::int32_t(m) : -1);
  } else if (g.type == OTF2_GROUP_TYPE_COMM_LOCATIONS) {
    for (auto m : g.members) {
      auto it = std::find_if(defs.ranks.begin(), defs.ranks.end(), [&](const Otf2Rank& k) { return k.location == m; });
      out.push_back(it == defs.ranks.end() ? -1 : std::int32_t(it - defs.ranks.begin()));
    }
  }
  (void)r;
  return out;
}

// MPI_COMM_WORLD keeps id 0, as in native traces; the others are numbered in definition order.
void resolve_comms(const Raw& r, Otf2Definitions& defs) {
  std::vector<std::int32_t> world(defs.ranks.size());
  std::iota(world.begin(), world.end(), 0);
  std::optional<OTF2_CommRef> world_comm;
  for (const auto& [ref, c] : r.comms) {
    Otf2Comm comm;
    if (auto g = r.groups.find(c.group); g != r.groups.end()) comm.world_ranks = comm_world_ranks(r, g->second, defs);
    if (!world_comm && (r.string(c.name) == "MPI_COMM_WORLD" ||
                        (c.parent == OTF2_UNDEFINED_COMM && comm.world_ranks == world)))
      world_comm = ref;
    defs.comms[ref] = std::move(comm);
  }
  std::int32_t next = 1;
  for (auto& [ref, comm] : defs.comms) comm.id = world_comm && ref == *world_comm ? 0 : next++;
}

}  // namespace

std::optional<std::int32_t> Otf2Definitions::world_rank(OTF2_CommRef comm, std::uint32_t rank) const {
  auto it = comms.find(comm);
  if (it == comms.end() || rank >= it->second.world_ranks.size() || it->second.world_ranks[rank] < 0) return std::nullopt;
  return it->second.world_ranks[rank];
}

Otf2Definitions read_otf2_definitions(OTF2_Reader* reader, const std::string& anchor) {
  Otf2Definitions defs;
  Raw r;
  r.out = &defs;
  OTF2_GlobalDefReader* global = OTF2_Reader_GetGlobalDefReader(reader);
  if (!global) throw std::runtime_error(fmt::format("{}: cannot open the global definitions", anchor));
  register_callbacks(reader, global, r);
  uint64_t read = 0;
  if (auto code = OTF2_Reader_ReadAllGlobalDefinitions(reader, global, &read); code != OTF2_SUCCESS)
    throw std::runtime_error(fmt::format("{}: global definition {}: {}", anchor, read, OTF2_Error_GetDescription(code)));
  OTF2_Reader_CloseGlobalDefReader(reader, global);
  if (!defs.has_clock) throw std::runtime_error(fmt::format("{}: the archive has no clock properties", anchor));
  if (defs.resolution == 0) throw std::runtime_error(fmt::format("{}: the clock's timer resolution is 0", anchor));
  for (auto& [ref, region] : r.regions) {
    region.second.name = r.string(region.first);
    defs.regions[ref] = region.second;
  }
  for (auto& [ref, loc] : r.locations) {
    loc.second.name = r.string(loc.first);
    defs.locations[ref] = loc.second;
  }
  for (const auto& [ref, a] : r.attributes)
    if (a.second == OTF2_TYPE_DOUBLE && r.string(a.first) == kExactTimeAttribute) defs.exact_time = ref;
    else if (a.second == OTF2_TYPE_UINT8 && r.string(a.first) == kWildcardAttribute) defs.wildcard = ref;
    else if (a.second == OTF2_TYPE_UINT64 && r.string(a.first) == kNullRequestAttribute) defs.null_request = ref;
  if (r.machine && r.string(r.machine->second) == "machine") defs.machine = r.string(r.machine->first);
  resolve_ranks(r, defs, anchor);
  resolve_comms(r, defs);
  return defs;
}

}  // namespace augur::trace
