#include "revprof/shim/envelope.hpp"

#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

#include "revprof/shim/datatypes.hpp"

namespace augur::revprof {
namespace {

// Messages up to this many bytes are staged: copying them costs less than building and
// committing a derived datatype.
constexpr int kStageLimit = 16 * 1024;
constexpr int kBlockBytes = kHeaderBytes + kStageLimit;

// Staging blocks are reused, so a message costs no allocation once the pool holds as many
// blocks as the program has messages in flight. Free blocks are chained through their own first
// bytes: taking and returning one is a pointer swap on the hot path of every message.
std::byte* free_list = nullptr;

std::byte* acquire_block() {
  if (!free_list) return new std::byte[kBlockBytes];
  std::byte* block = free_list;
  std::memcpy(&free_list, block, sizeof free_list);
  return block;
}

void return_block(std::byte* block) {
  std::memcpy(block, &free_list, sizeof free_list);
  free_list = block;
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
  pooled_ = other.pooled_;
  staged_ = other.staged_;
  opened_ = other.opened_;
  data_ = other.data_;
  count_ = other.count_;
  type_ = other.type_;
  data_bytes_ = other.data_bytes_;
  return *this;
}

void Envelope::release() {
  if (derived_ != MPI_DATATYPE_NULL) {
    int finalized = 0;
    PMPI_Finalized(&finalized);
    if (!finalized) PMPI_Type_free(&derived_);
    derived_ = MPI_DATATYPE_NULL;
  }
  if (storage_ && pooled_) return_block(storage_);
  else delete[] storage_;
  storage_ = nullptr;
}

Envelope Envelope::around(const void* buf, int count, MPI_Datatype type) {
  Envelope e;
  e.data_ = buf;
  e.count_ = count;
  e.type_ = type;
  e.storage_ = acquire_block();
  e.pooled_ = true;
  const auto& layout = layout_of(type);
  const long long bytes = static_cast<long long>(std::max(count, 0)) * layout.size;
  if (layout.contiguous && bytes <= kStageLimit) {
    e.staged_ = true;
    e.data_bytes_ = static_cast<int>(bytes);
    return e;
  }
  int lengths[2] = {kHeaderBytes, count};
  MPI_Aint displacements[2] = {address_of(e.storage_), address_of(buf)};
  MPI_Datatype types[2] = {MPI_BYTE, type};
  PMPI_Type_create_struct(2, lengths, displacements, types, &e.derived_);
  PMPI_Type_commit(&e.derived_);
  return e;
}

Envelope Envelope::copy_of(const void* buf, int count, MPI_Datatype type, MPI_Comm comm) {
  Envelope e;
  int packed = 0, position = 0;
  PMPI_Pack_size(count, type, comm, &packed);
  e.storage_ = new std::byte[kHeaderBytes + packed];
  e.pooled_ = false;
  e.staged_ = true;
  PMPI_Pack(buf, count, type, e.storage_ + kHeaderBytes, packed, &position, comm);
  e.data_bytes_ = position;
  return e;
}

void Envelope::seal() {
  if (staged_ && data_ && data_bytes_ > 0) std::memcpy(storage_ + kHeaderBytes, data_, data_bytes_);
}

Wire Envelope::wire() const {
  if (staged_) return {storage_, kHeaderBytes + data_bytes_, MPI_BYTE};
  return {MPI_BOTTOM, 1, derived_};
}

bool Envelope::open(MPI_Status& status) {
  int cancelled = 0;
  PMPI_Test_cancelled(&status, &cancelled);
  if (cancelled || empty()) return false;
  if (!opened_) {
    int received = 0;
    PMPI_Get_count(&status, MPI_BYTE, &received);
    const int data = std::max(0, received - kHeaderBytes);
    if (staged_ && data > 0) std::memcpy(const_cast<void*>(data_), storage_ + kHeaderBytes, data);
    if (received < kHeaderBytes) header() = {};
    data_bytes_ = data;
    opened_ = true;
  }
  PMPI_Status_set_elements_x(&status, MPI_BYTE, data_bytes_);
  return true;
}

void strip_header_from(MPI_Status& status) {
  if (status.MPI_SOURCE == MPI_PROC_NULL) return;
  int received = 0;
  PMPI_Get_count(&status, MPI_BYTE, &received);
  if (received >= kHeaderBytes) PMPI_Status_set_elements_x(&status, MPI_BYTE, received - kHeaderBytes);
}

}  // namespace augur::revprof
