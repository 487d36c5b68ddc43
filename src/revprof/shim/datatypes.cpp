#include "revprof/shim/datatypes.hpp"

#include <array>
#include <cstdint>
#include <type_traits>

namespace augur::revprof {
namespace {

struct Entry {
  MPI_Datatype type = MPI_DATATYPE_NULL;
  Layout layout;
};

// Direct-mapped: programs use a handful of datatypes, so a small table nearly always hits.
std::array<Entry, 32> cache;

// Open MPI's handles are pointers, MPICH's integers.
template <class Handle>
std::uintptr_t key_of(Handle type) {
  if constexpr (std::is_pointer_v<Handle>) return reinterpret_cast<std::uintptr_t>(type);
  else return static_cast<std::uintptr_t>(type);
}

Entry& slot_of(MPI_Datatype type) {
  const auto key = key_of(type);
  return cache[(key ^ key >> 5 ^ key >> 11) % cache.size()];
}

Layout ask(MPI_Datatype type) {
  Layout l;
  if (type == MPI_DATATYPE_NULL) return l;
  // MPI_Type_size would give MPI_UNDEFINED for an element of more than INT_MAX bytes.
  PMPI_Type_size_x(type, &l.size);
  if (l.size < 0) l.size = 0;  // MPI_UNDEFINED: no size an MPI_Count can hold
  MPI_Count lb = 0, extent = 0, true_lb = 0, true_extent = 0;
  PMPI_Type_get_extent_x(type, &lb, &extent);
  PMPI_Type_get_true_extent_x(type, &true_lb, &true_extent);
  l.contiguous = lb == 0 && true_lb == 0 && extent == l.size && true_extent == l.size;
  return l;
}

// Whether a datatype's layout may be kept for its handle (datatypes.hpp says why not all are).
bool keeps(MPI_Datatype type) {
#if defined(MPICH) && !defined(OPEN_MPI)
  if (type == MPI_DATATYPE_NULL) return true;
  int integers = 0, addresses = 0, types = 0, combiner = MPI_UNDEFINED;
  PMPI_Type_get_envelope(type, &integers, &addresses, &types, &combiner);
  return combiner == MPI_COMBINER_NAMED;
#else
  (void)type;
  return true;
#endif
}

}  // namespace

Layout layout_of(MPI_Datatype type) {
  auto& e = slot_of(type);
  if (e.type == type) return e.layout;
  const Layout asked = ask(type);
  if (keeps(type)) e = {type, asked};
  return asked;
}

void forget_layout(MPI_Datatype type) {
  auto& e = slot_of(type);
  if (e.type == type) e = {};
}

}  // namespace augur::revprof
