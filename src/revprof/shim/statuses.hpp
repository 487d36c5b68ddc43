#pragma once
// Where a wrapped call's real MPI call writes its statuses: into the program's own when it gave
// them, so MPI writes exactly the fields it writes without the shim (a single-completion call
// leaves MPI_ERROR as the program set it, a call MPI leaves a status alone in leaves it alone),
// and into the shim's own when the program passed MPI_STATUS(ES)_IGNORE, since the shim reads
// every completed receive's source and count. The shim then corrects only the count.
#include <mpi.h>

#include <vector>

namespace augur::revprof {

// The standard's empty status, which a call on a null request returns: MPI_ANY_SOURCE,
// MPI_ANY_TAG, MPI_SUCCESS, no data, not cancelled.
inline void make_empty(MPI_Status& status) {
  status.MPI_SOURCE = MPI_ANY_SOURCE;
  status.MPI_TAG = MPI_ANY_TAG;
  status.MPI_ERROR = MPI_SUCCESS;
  PMPI_Status_set_elements_x(&status, MPI_BYTE, 0);
  PMPI_Status_set_cancelled(&status, 0);
}

class StatusOut {
 public:
  explicit StatusOut(MPI_Status* program) : out_(program == MPI_STATUS_IGNORE ? &own_ : program) {}
  MPI_Status* get() { return out_; }
  MPI_Status& operator*() { return *out_; }

 private:
  MPI_Status own_;
  MPI_Status* out_;
};

class StatusesOut {
 public:
  StatusesOut(MPI_Status* program, int count) : out_(program) {
    if (program == MPI_STATUSES_IGNORE) {
      own_.resize(count > 0 ? count : 1);
      out_ = own_.data();
    }
  }
  MPI_Status* get() { return out_; }

 private:
  std::vector<MPI_Status> own_;
  MPI_Status* out_;
};

}  // namespace augur::revprof
