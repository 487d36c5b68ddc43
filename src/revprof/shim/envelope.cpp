#include "revprof/shim/envelope.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

#include "revprof/shim/datatypes.hpp"

namespace augur::revprof {
namespace {

// Contiguous messages up to this many bytes are staged; larger ones and other layouts travel as
// a derived datatype. Measured here with 1 MiB ping-pongs, staging them too doubled the round
// trip, while the derived datatype matched the plain run (docs/benchmarks.md).
constexpr std::size_t kStageLimit = 16 * 1024;

// Staging memory is reused, so a message costs no allocation once the pools hold as much as
// the program has in flight. Small blocks (a header and a staged message) are chained
// through their own first bytes: taking and returning one is a pointer swap on the hot path of
// every message. Larger buffers are kept in a short list and handed out by best fit.
constexpr std::size_t kSmallBlock = kHeaderBytes + kStageLimit;
constexpr std::size_t kLargeKept = 8;

std::byte* small_free = nullptr;
std::vector<std::pair<std::size_t, std::byte*>> large_free;

std::byte* acquire_storage(std::size_t bytes, std::size_t& capacity) {
  if (bytes <= kSmallBlock) {
    capacity = kSmallBlock;
    if (!small_free) return new std::byte[kSmallBlock];
    std::byte* block = small_free;
    std::memcpy(&small_free, block, sizeof small_free);
    return block;
  }
  auto best = large_free.end();
  for (auto it = large_free.begin(); it != large_free.end(); ++it)
    if (it->first >= bytes && (best == large_free.end() || it->first < best->first)) best = it;
  if (best == large_free.end()) {
    capacity = std::bit_ceil(bytes);
    return new std::byte[capacity];
  }
  capacity = best->first;
  std::byte* buffer = best->second;
  large_free.erase(best);
  return buffer;
}

void release_storage(std::byte* storage, std::size_t capacity) {
  if (capacity == kSmallBlock) {
    std::memcpy(storage, &small_free, sizeof small_free);
    small_free = storage;
    return;
  }
  large_free.emplace_back(capacity, storage);
  if (large_free.size() <= kLargeKept) return;
  // Keep the largest buffers: they serve every smaller message too.
  auto smallest = std::min_element(large_free.begin(), large_free.end());
  delete[] smallest->second;
  large_free.erase(smallest);
}

// Bytes a status says arrived. MPI_Get_count would answer MPI_UNDEFINED past INT_MAX.
MPI_Count received_bytes(const MPI_Status& status) {
  MPI_Count received = 0;
  PMPI_Get_elements_x(&status, MPI_BYTE, &received);
  return received == MPI_UNDEFINED ? 0 : received;
}

MPI_Aint address_of(const void* p) {
  MPI_Aint a = 0;
  PMPI_Get_address(p, &a);
  return a;
}

}  // namespace

Envelope::Envelope(Envelope&& other) noexcept { *this = std::move(other); }

Envelope& Envelope::operator=(Envelope&& other) noexcept {
  if (this == &other) return *this;
  release();
  storage_ = std::exchange(other.storage_, nullptr);
  derived_ = std::exchange(other.derived_, MPI_DATATYPE_NULL);
  span_copy_ = std::move(other.span_copy_);
  capacity_ = other.capacity_;
  staged_ = other.staged_;
  opened_ = other.opened_;
  data_ = other.data_;
  staged_bytes_ = other.staged_bytes_;
  received_bytes_ = other.received_bytes_;
  return *this;
}

void Envelope::release() {
  if (derived_ != MPI_DATATYPE_NULL) {
    int finalized = 0;
    PMPI_Finalized(&finalized);
    if (!finalized) PMPI_Type_free(&derived_);
    derived_ = MPI_DATATYPE_NULL;
  }
  if (storage_) release_storage(storage_, capacity_);
  storage_ = nullptr;
  span_copy_.reset();
}

// The header, in storage of its own, beside `count` elements of `type` at address `data`: one
// derived datatype from MPI_BOTTOM, so the data is not copied.
void Envelope::beside(MPI_Aint data, int count, MPI_Datatype type) {
  storage_ = acquire_storage(kHeaderBytes, capacity_);
  int lengths[2] = {kHeaderBytes, count};
  MPI_Aint displacements[2] = {address_of(storage_), data};
  MPI_Datatype types[2] = {MPI_BYTE, type};
  PMPI_Type_create_struct(2, lengths, displacements, types, &derived_);
  PMPI_Type_commit(&derived_);
}

Envelope Envelope::around(const void* buf, int count, MPI_Datatype type) {
  Envelope e;
  e.data_ = buf;
  const auto& layout = layout_of(type);
  const MPI_Count bytes = std::max(count, 0) * layout.size;
  if (layout.contiguous && bytes <= static_cast<MPI_Count>(kStageLimit)) {
    e.storage_ = acquire_storage(kHeaderBytes + bytes, e.capacity_);
    e.staged_ = true;
    e.staged_bytes_ = static_cast<int>(bytes);
    return e;
  }
  e.beside(address_of(buf), count, type);
  return e;
}

Envelope Envelope::copy_of(const void* buf, int count, MPI_Datatype type, MPI_Comm comm) {
  int packed = 0, position = 0;
  PMPI_Pack_size(count, type, comm, &packed);
  // MPI_Pack_size answers in an int: past INT_MAX bytes it wraps or gives MPI_UNDEFINED.
  const MPI_Count bytes = std::max(count, 0) * layout_of(type).size;
  constexpr MPI_Count kPackable = std::numeric_limits<int>::max() - kHeaderBytes;
  if (bytes > kPackable || packed < 0 || packed > kPackable) return copy_of_span(buf, count, type);
  Envelope e;
  e.storage_ = acquire_storage(kHeaderBytes + packed, e.capacity_);
  e.staged_ = true;
  PMPI_Pack(buf, count, type, e.storage_ + kHeaderBytes, packed, &position, comm);
  e.staged_bytes_ = position;
  return e;
}

Envelope Envelope::copy_of_span(const void* buf, int count, MPI_Datatype type) {
  MPI_Count lb = 0, extent = 0, true_lb = 0, true_extent = 0;
  PMPI_Type_get_extent_x(type, &lb, &extent);
  PMPI_Type_get_true_extent_x(type, &true_lb, &true_extent);
  // Element i lies at i * extent from the first, whose data starts at true_lb.
  const MPI_Count stride = std::max(count - 1, 0) * extent;
  const MPI_Count first = true_lb + std::min<MPI_Count>(stride, 0);
  const MPI_Count span = true_extent + (stride < 0 ? -stride : stride);
  Envelope e;
  e.span_copy_ = std::make_unique_for_overwrite<std::byte[]>(static_cast<std::size_t>(span));
  std::memcpy(e.span_copy_.get(), static_cast<const std::byte*>(buf) + first, static_cast<std::size_t>(span));
  e.beside(address_of(e.span_copy_.get()) - static_cast<MPI_Aint>(first), count, type);
  return e;
}

void Envelope::seal() {
  if (staged_ && data_ && staged_bytes_ > 0) std::memcpy(storage_ + kHeaderBytes, data_, staged_bytes_);
}

Wire Envelope::wire() const {
  if (staged_) return {storage_, kHeaderBytes + staged_bytes_, MPI_BYTE};
  return {MPI_BOTTOM, 1, derived_};
}

bool Envelope::open(MPI_Status& status) {
  int cancelled = 0;
  PMPI_Test_cancelled(&status, &cancelled);
  if (cancelled || empty()) return false;
  if (!opened_) {
    const MPI_Count received = received_bytes(status);
    const MPI_Count data = std::max<MPI_Count>(0, received - kHeaderBytes);
    // A truncated message's status may count the whole message; only what fits the program's
    // buffer is the program's.
    const MPI_Count fits = std::min<MPI_Count>(data, staged_bytes_);
    if (staged_ && fits > 0) std::memcpy(const_cast<void*>(data_), storage_ + kHeaderBytes, fits);
    if (received < kHeaderBytes) header() = {};
    received_bytes_ = data;
    opened_ = true;
  }
  PMPI_Status_set_elements_x(&status, MPI_BYTE, received_bytes_);
  return true;
}

void strip_header_from(MPI_Status& status) {
  if (status.MPI_SOURCE == MPI_PROC_NULL) return;
  const MPI_Count received = received_bytes(status);
  if (received >= kHeaderBytes) PMPI_Status_set_elements_x(&status, MPI_BYTE, received - kHeaderBytes);
}

}  // namespace augur::revprof
