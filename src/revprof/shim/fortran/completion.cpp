// Fortran names of the calls that take arrays of requests or statuses or give 1-based indices,
// and of MPI_Alltoallw, whose datatypes come as an array.
#include <mpi.h>
// Open MPI only, as entry_points.cpp says.
#ifdef OPEN_MPI
#include "revprof/shim/fortran/arrays.hpp"
#include "revprof/shim/fortran/forward.hpp"


using namespace augur::revprof::fortran;

namespace {

template <int (*Some)(int, MPI_Request*, int*, int*, MPI_Status*)>
void some(MPI_Fint* incount, MPI_Fint* requests, MPI_Fint* outcount, MPI_Fint* indices, MPI_Fint* statuses,
          MPI_Fint* ierror) {
  RequestArray c(requests, *incount);
  StatusArray s(statuses, *incount);
  const int rc = Some(*incount, c.data(), outcount, indices, s.data());
  if (rc == MPI_SUCCESS) {
    c.write_back();
    if (*outcount != MPI_UNDEFINED) {
      s.write_back(*outcount);
      for (int i = 0; i < *outcount; ++i) indices[i] = fortran_index(indices[i]);
    }
  }
  set_error(ierror, rc);
}

std::vector<MPI_Datatype> c_types(const MPI_Fint* fortran, int count) {
  std::vector<MPI_Datatype> c(count);
  for (int i = 0; i < count; ++i) c[i] = PMPI_Type_f2c(fortran[i]);
  return c;
}

int group_size(MPI_Comm comm) {
  int size = 0, inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  if (inter)
    PMPI_Comm_remote_size(comm, &size);
  else
    PMPI_Comm_size(comm, &size);
  return size;
}

// Alltoallw's arrays of Fortran datatype handles as C handles, for the call `f`. With
// MPI_IN_PLACE the send types are not significant and need not be valid handles.
template <class Call>
void with_c_types(void* sbuf, MPI_Fint* stypes, MPI_Fint* rtypes, MPI_Fint comm, Call f) {
  const MPI_Comm c = PMPI_Comm_f2c(comm);
  const int size = group_size(c);
  const void* send = c_buffer(sbuf);
  const bool in_place = send == MPI_IN_PLACE;
  const auto send_types = c_types(stypes, in_place ? 0 : size);
  const auto receive_types = c_types(rtypes, size);
  f(send, in_place ? nullptr : send_types.data(), receive_types.data(), c);
}

}  // namespace

extern "C" {

void mpi_startall_(MPI_Fint* count, MPI_Fint* requests, MPI_Fint* ierror) {
  RequestArray c(requests, *count);
  const int rc = MPI_Startall(*count, c.data());
  // Open MPI's binding writes the requests back whatever MPI_Startall returned.
  c.write_back();
  set_error(ierror, rc);
}

void mpi_waitall_(MPI_Fint* count, MPI_Fint* requests, MPI_Fint* statuses, MPI_Fint* ierror) {
  RequestArray c(requests, *count);
  StatusArray s(statuses, *count);
  const int rc = MPI_Waitall(*count, c.data(), s.data());
  // On MPI_ERR_IN_STATUS too, Open MPI's binding leaves the requests and statuses as they were.
  if (rc == MPI_SUCCESS) {
    c.write_back();
    s.write_back(*count);
  }
  set_error(ierror, rc);
}

void mpi_testall_(MPI_Fint* count, MPI_Fint* requests, MPI_Fint* flag, MPI_Fint* statuses, MPI_Fint* ierror) {
  RequestArray c(requests, *count);
  StatusArray s(statuses, *count);
  const int rc = MPI_Testall(*count, c.data(), flag, s.data());
  if (rc == MPI_SUCCESS && *flag) {
    c.write_back();
    s.write_back(*count);
  }
  set_error(ierror, rc);
}

void mpi_waitany_(MPI_Fint* count, MPI_Fint* requests, MPI_Fint* index, MPI_Fint* status, MPI_Fint* ierror) {
  RequestArray c(requests, *count);
  Outcome outcome;
  {
    StatusHolder s(status, outcome);
    outcome.rc = MPI_Waitany(*count, c.data(), index, s);
  }
  if (outcome.succeeded()) {
    c.write_back();
    *index = fortran_index(*index);
  }
  set_error(ierror, outcome.rc);
}

void mpi_testany_(MPI_Fint* count, MPI_Fint* requests, MPI_Fint* index, MPI_Fint* flag, MPI_Fint* status,
                  MPI_Fint* ierror) {
  RequestArray c(requests, *count);
  Outcome outcome;
  {
    StatusHolder s(status, outcome);
    outcome.rc = MPI_Testany(*count, c.data(), index, flag, s);
  }
  if (outcome.succeeded()) {
    c.write_back();
    *index = fortran_index(*index);
  }
  set_error(ierror, outcome.rc);
}

void mpi_waitsome_(MPI_Fint* incount, MPI_Fint* requests, MPI_Fint* outcount, MPI_Fint* indices,
                   MPI_Fint* statuses, MPI_Fint* ierror) {
  some<MPI_Waitsome>(incount, requests, outcount, indices, statuses, ierror);
}

void mpi_testsome_(MPI_Fint* incount, MPI_Fint* requests, MPI_Fint* outcount, MPI_Fint* indices,
                   MPI_Fint* statuses, MPI_Fint* ierror) {
  some<MPI_Testsome>(incount, requests, outcount, indices, statuses, ierror);
}

void mpi_alltoallw_(void* sbuf, MPI_Fint* scounts, MPI_Fint* sdispls, MPI_Fint* stypes, void* rbuf,
                    MPI_Fint* rcounts, MPI_Fint* rdispls, MPI_Fint* rtypes, MPI_Fint* comm, MPI_Fint* ierror) {
  with_c_types(sbuf, stypes, rtypes, *comm, [&](const void* send, const MPI_Datatype* st, const MPI_Datatype* rt, MPI_Comm c) {
    set_error(ierror, MPI_Alltoallw(send, scounts, sdispls, st, c_buffer(rbuf), rcounts, rdispls, rt, c));
  });
}

void mpi_ialltoallw_(void* sbuf, MPI_Fint* scounts, MPI_Fint* sdispls, MPI_Fint* stypes, void* rbuf,
                     MPI_Fint* rcounts, MPI_Fint* rdispls, MPI_Fint* rtypes, MPI_Fint* comm, MPI_Fint* request,
                     MPI_Fint* ierror) {
  // Open MPI builds the whole schedule, types included, inside the call, so the converted arrays
  // may go when it returns, as its own binding lets them go.
  with_c_types(sbuf, stypes, rtypes, *comm, [&](const void* send, const MPI_Datatype* st, const MPI_Datatype* rt, MPI_Comm c) {
    MPI_Request r = MPI_REQUEST_NULL;
    set_error(ierror, MPI_Ialltoallw(send, scounts, sdispls, st, c_buffer(rbuf), rcounts, rdispls, rt, c, &r));
    *request = PMPI_Request_c2f(r);
  });
}

}  // extern "C"

AUGUR_FORTRAN_ALIASES(mpi_startall, MPI_STARTALL)
AUGUR_FORTRAN_ALIASES(mpi_waitall, MPI_WAITALL)
AUGUR_FORTRAN_ALIASES(mpi_testall, MPI_TESTALL)
AUGUR_FORTRAN_ALIASES(mpi_waitany, MPI_WAITANY)
AUGUR_FORTRAN_ALIASES(mpi_testany, MPI_TESTANY)
AUGUR_FORTRAN_ALIASES(mpi_waitsome, MPI_WAITSOME)
AUGUR_FORTRAN_ALIASES(mpi_testsome, MPI_TESTSOME)
AUGUR_FORTRAN_ALIASES(mpi_alltoallw, MPI_ALLTOALLW)
AUGUR_FORTRAN_ALIASES(mpi_ialltoallw, MPI_IALLTOALLW)

#endif  // OPEN_MPI
