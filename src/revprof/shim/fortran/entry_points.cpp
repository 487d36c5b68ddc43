// The Fortran names of every wrapped call whose arguments convert one by one (forward.hpp); the
// calls with arrays of requests or statuses, 1-based indices or no arguments are in
// completion.cpp and setup.cpp.
#include <mpi.h>
// Open MPI only: MPICH's mpif.h and `use mpi` call the C library by its MPI_* names, which the
// shim wraps already, and its `use mpi_f08` is mpich_f08.cpp's.
#ifdef OPEN_MPI
#include "revprof/shim/fortran/forward.hpp"


// Point to point.
AUGUR_FORTRAN(mpi_send, MPI_SEND, MPI_Send, 6)
AUGUR_FORTRAN(mpi_ssend, MPI_SSEND, MPI_Ssend, 6)
AUGUR_FORTRAN(mpi_rsend, MPI_RSEND, MPI_Rsend, 6)
AUGUR_FORTRAN(mpi_bsend, MPI_BSEND, MPI_Bsend, 6)
AUGUR_FORTRAN(mpi_buffer_attach, MPI_BUFFER_ATTACH, MPI_Buffer_attach, 2)
AUGUR_FORTRAN(mpi_recv, MPI_RECV, MPI_Recv, 7)
AUGUR_FORTRAN(mpi_sendrecv, MPI_SENDRECV, MPI_Sendrecv, 12)
AUGUR_FORTRAN(mpi_sendrecv_replace, MPI_SENDRECV_REPLACE, MPI_Sendrecv_replace, 9)
AUGUR_FORTRAN(mpi_probe, MPI_PROBE, MPI_Probe, 4)
AUGUR_FORTRAN(mpi_iprobe, MPI_IPROBE, MPI_Iprobe, 5)
AUGUR_FORTRAN(mpi_mprobe, MPI_MPROBE, MPI_Mprobe, 5)
AUGUR_FORTRAN(mpi_improbe, MPI_IMPROBE, MPI_Improbe, 6)
AUGUR_FORTRAN(mpi_mrecv, MPI_MRECV, MPI_Mrecv, 5)
AUGUR_FORTRAN(mpi_imrecv, MPI_IMRECV, MPI_Imrecv, 5)

// Nonblocking and persistent point to point, and single requests.
AUGUR_FORTRAN(mpi_isend, MPI_ISEND, MPI_Isend, 7)
AUGUR_FORTRAN(mpi_issend, MPI_ISSEND, MPI_Issend, 7)
AUGUR_FORTRAN(mpi_irsend, MPI_IRSEND, MPI_Irsend, 7)
AUGUR_FORTRAN(mpi_ibsend, MPI_IBSEND, MPI_Ibsend, 7)
AUGUR_FORTRAN(mpi_irecv, MPI_IRECV, MPI_Irecv, 7)
AUGUR_FORTRAN(mpi_send_init, MPI_SEND_INIT, MPI_Send_init, 7)
AUGUR_FORTRAN(mpi_ssend_init, MPI_SSEND_INIT, MPI_Ssend_init, 7)
AUGUR_FORTRAN(mpi_rsend_init, MPI_RSEND_INIT, MPI_Rsend_init, 7)
AUGUR_FORTRAN(mpi_bsend_init, MPI_BSEND_INIT, MPI_Bsend_init, 7)
AUGUR_FORTRAN(mpi_recv_init, MPI_RECV_INIT, MPI_Recv_init, 7)
AUGUR_FORTRAN(mpi_start, MPI_START, MPI_Start, 1)
AUGUR_FORTRAN(mpi_wait, MPI_WAIT, MPI_Wait, 2)
AUGUR_FORTRAN(mpi_test, MPI_TEST, MPI_Test, 3)
AUGUR_FORTRAN(mpi_request_get_status, MPI_REQUEST_GET_STATUS, MPI_Request_get_status, 3)
AUGUR_FORTRAN(mpi_request_free, MPI_REQUEST_FREE, MPI_Request_free, 1)

// Collectives.
AUGUR_FORTRAN(mpi_barrier, MPI_BARRIER, MPI_Barrier, 1)
AUGUR_FORTRAN(mpi_bcast, MPI_BCAST, MPI_Bcast, 5)
AUGUR_FORTRAN(mpi_reduce, MPI_REDUCE, MPI_Reduce, 7)
AUGUR_FORTRAN(mpi_allreduce, MPI_ALLREDUCE, MPI_Allreduce, 6)
AUGUR_FORTRAN(mpi_gather, MPI_GATHER, MPI_Gather, 8)
AUGUR_FORTRAN(mpi_gatherv, MPI_GATHERV, MPI_Gatherv, 9)
AUGUR_FORTRAN(mpi_scatter, MPI_SCATTER, MPI_Scatter, 8)
AUGUR_FORTRAN(mpi_scatterv, MPI_SCATTERV, MPI_Scatterv, 9)
AUGUR_FORTRAN(mpi_allgather, MPI_ALLGATHER, MPI_Allgather, 7)
AUGUR_FORTRAN(mpi_allgatherv, MPI_ALLGATHERV, MPI_Allgatherv, 8)
AUGUR_FORTRAN(mpi_alltoall, MPI_ALLTOALL, MPI_Alltoall, 7)
AUGUR_FORTRAN(mpi_alltoallv, MPI_ALLTOALLV, MPI_Alltoallv, 9)
AUGUR_FORTRAN(mpi_reduce_scatter, MPI_REDUCE_SCATTER, MPI_Reduce_scatter, 6)
AUGUR_FORTRAN(mpi_reduce_scatter_block, MPI_REDUCE_SCATTER_BLOCK, MPI_Reduce_scatter_block, 6)
AUGUR_FORTRAN(mpi_scan, MPI_SCAN, MPI_Scan, 6)
AUGUR_FORTRAN(mpi_exscan, MPI_EXSCAN, MPI_Exscan, 6)
AUGUR_FORTRAN(mpi_ibarrier, MPI_IBARRIER, MPI_Ibarrier, 2)
AUGUR_FORTRAN(mpi_ibcast, MPI_IBCAST, MPI_Ibcast, 6)
AUGUR_FORTRAN(mpi_ireduce, MPI_IREDUCE, MPI_Ireduce, 8)
AUGUR_FORTRAN(mpi_iallreduce, MPI_IALLREDUCE, MPI_Iallreduce, 7)
AUGUR_FORTRAN(mpi_igather, MPI_IGATHER, MPI_Igather, 9)
AUGUR_FORTRAN(mpi_iscatter, MPI_ISCATTER, MPI_Iscatter, 9)
AUGUR_FORTRAN(mpi_iallgather, MPI_IALLGATHER, MPI_Iallgather, 8)
AUGUR_FORTRAN(mpi_iallgatherv, MPI_IALLGATHERV, MPI_Iallgatherv, 9)
AUGUR_FORTRAN(mpi_ialltoall, MPI_IALLTOALL, MPI_Ialltoall, 8)
AUGUR_FORTRAN(mpi_ialltoallv, MPI_IALLTOALLV, MPI_Ialltoallv, 10)
AUGUR_FORTRAN(mpi_iscan, MPI_ISCAN, MPI_Iscan, 7)
AUGUR_FORTRAN(mpi_iexscan, MPI_IEXSCAN, MPI_Iexscan, 7)
AUGUR_FORTRAN(mpi_ireduce_scatter_block, MPI_IREDUCE_SCATTER_BLOCK, MPI_Ireduce_scatter_block, 7)
AUGUR_FORTRAN(mpi_neighbor_alltoall, MPI_NEIGHBOR_ALLTOALL, MPI_Neighbor_alltoall, 7)
AUGUR_FORTRAN(mpi_neighbor_allgather, MPI_NEIGHBOR_ALLGATHER, MPI_Neighbor_allgather, 7)

// Communicators and datatypes the shim follows.
AUGUR_FORTRAN(mpi_comm_dup, MPI_COMM_DUP, MPI_Comm_dup, 2)
AUGUR_FORTRAN(mpi_comm_idup, MPI_COMM_IDUP, MPI_Comm_idup, 3)
AUGUR_FORTRAN(mpi_comm_split, MPI_COMM_SPLIT, MPI_Comm_split, 4)
AUGUR_FORTRAN(mpi_comm_split_type, MPI_COMM_SPLIT_TYPE, MPI_Comm_split_type, 5)
AUGUR_FORTRAN(mpi_comm_create, MPI_COMM_CREATE, MPI_Comm_create, 3)
AUGUR_FORTRAN(mpi_cart_create, MPI_CART_CREATE, MPI_Cart_create, 6)
AUGUR_FORTRAN(mpi_cart_sub, MPI_CART_SUB, MPI_Cart_sub, 3)
AUGUR_FORTRAN(mpi_graph_create, MPI_GRAPH_CREATE, MPI_Graph_create, 6)
AUGUR_FORTRAN(mpi_dist_graph_create_adjacent, MPI_DIST_GRAPH_CREATE_ADJACENT, MPI_Dist_graph_create_adjacent, 10)
AUGUR_FORTRAN(mpi_intercomm_create, MPI_INTERCOMM_CREATE, MPI_Intercomm_create, 6)
AUGUR_FORTRAN(mpi_comm_free, MPI_COMM_FREE, MPI_Comm_free, 1)
AUGUR_FORTRAN(mpi_type_free, MPI_TYPE_FREE, MPI_Type_free, 1)

// One-sided calls the shim counts as unmodelled.
AUGUR_FORTRAN(mpi_put, MPI_PUT, MPI_Put, 8)
AUGUR_FORTRAN(mpi_get, MPI_GET, MPI_Get, 8)
AUGUR_FORTRAN(mpi_accumulate, MPI_ACCUMULATE, MPI_Accumulate, 9)
AUGUR_FORTRAN(mpi_win_fence, MPI_WIN_FENCE, MPI_Win_fence, 2)
AUGUR_FORTRAN(mpi_win_lock, MPI_WIN_LOCK, MPI_Win_lock, 4)
AUGUR_FORTRAN(mpi_win_unlock, MPI_WIN_UNLOCK, MPI_Win_unlock, 2)

#endif  // OPEN_MPI
