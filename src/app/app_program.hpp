#pragma once
// An application model's program: what each rank does, as rules in its rank and the process
// count p, so the simulator can run the program at any p (`augur sim --app FILE --ranks P`).
// `augur learn` writes it from traces at a few small counts; it can be written by hand too.
// The JSON form is the "program" section of docs/app-model-format.md.
//
// Every quantity (a compute time, a message size, a loop count, a peer offset) is a Law: a
// muparser expression in p and the model's parameters, with the expressions of its lower and
// upper bounds (from the fitted coefficients' errors) and what the fit said of it.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace augur::app {

struct Law {
  std::string expr;         // the law's value: seconds, bytes, a count or a rank offset
  std::string low, high;    // its bounds; equal to expr when the law is exact
  std::string form;         // readable form, e.g. "a·n²/p" (empty when written by hand)
  std::vector<double> coefficients, errors;  // a, b … and their standard errors
  double cv_error = 0;      // relative cross-validated error of the fit (0: exact)
};

// Who a peer (destination, source or root) is, for the rank running the operation.
struct PeerRule {
  enum class Kind {
    fixed,   // `rank`: one rank, an expression in p ("0", "p-1")
    offset,  // rank + `by`; outside 0..p-1 it wraps around (wrap) or is MPI_PROC_NULL
    grid,    // the neighbour `shift` steps along dimension `dim` of MPI_Dims_create(p, dims),
             // ranks laid out row-major as MPI_Cart_create without reordering (with
             // `first_fastest`, dimension 0 fastest, as LAMMPS numbers its processors); outside
             // the grid MPI_PROC_NULL unless `periodic`
    exclusive_or,  // rank XOR `by`
    any,     // MPI_ANY_SOURCE
    none,    // MPI_PROC_NULL
    reply,   // the source of the rank's latest completed receive (a server answering whoever asked)
  };
  Kind kind = Kind::fixed;
  Law rank;  // fixed
  Law by;    // offset, exclusive_or
  bool wrap = true;  // offset
  int dims = 2, dim = 0, shift = 1;  // grid
  bool periodic = false;              // grid
  bool first_fastest = false;         // grid
};

// The communicator a collective runs on, as MPI_Comm_split by rows or columns of ranks makes it.
struct CommRule {
  enum class Kind {
    world,
    block,   // ranks in blocks of `size` consecutive ranks: 0..size-1, size..2·size-1, … (a grid's rows)
    stride,  // ranks `size` apart: r, r + size, r + 2·size, … (a grid's columns)
  };
  Kind kind = Kind::world;
  Law size;
};

struct ProgramNode {
  enum class Kind { compute, operation, repeat, until };
  Kind kind = Kind::compute;
  // compute: seconds on the machine the traces were made on (or the model the run priced)
  Law seconds;
  // operation: send, ssend, bsend, rsend, isend, recv, irecv, sendrecv, wait, waitall, or a
  // collective's name in the operation catalog (barrier, bcast, allreduce, alltoallv …)
  std::string op;
  PeerRule peer;   // destination, source (recv), or root (collectives with a root: a rank of `comm`)
  CommRule comm;   // collectives
  PeerRule peer2;  // sendrecv: the source
  Law bytes;
  std::int32_t tag = 0, tag2 = 0;  // -1: MPI_ANY_TAG; tag2 is sendrecv's receive tag
  std::int32_t count = 0;          // wait: requests completed, oldest first (0: all)
  // wait: or the requests at these places among the outstanding ones (0 the oldest), ascending:
  // a program that waits for a later request before an earlier one (a receive posted before a
  // send, the send awaited first)
  std::vector<std::uint32_t> positions;
  // repeat: `times` iterations of `body`; with an `index` name, the laws of the body may read it,
  // the iteration's number from 0, so a root, a size or a compute can change from one to the next
  Law times;
  std::string index;
  std::vector<ProgramNode> body;
  // until: `body` again and again until its first operation, a blocking receive, takes a message
  // with tag `tag`; the loop ends right after that receive. The run decides the count (a worker
  // of a task farm); `times`, when given, is the mean count, which the model's phases use.
};

// Ranks `first`..`last` (expressions in p) run `body`; a later group replaces an earlier one for
// the ranks it names, as in the schedule language.
struct RankGroup {
  Law first, last;
  std::vector<ProgramNode> body;
};

// A partial model's blocks of time (learn/time_blocks.hpp) at one count it was learned from: the
// calls they fold, not learned as calls, and their share of that run's time.
struct BlocksOfTime {
  int p = 0;
  double calls = 0;
  double share = 0;
};

struct AppProgram {
  std::vector<RankGroup> groups;
  std::vector<int> measured_ranks;  // the process counts the program was learned from
  std::string machine;              // the machine (model) the compute times were taken on
  std::vector<BlocksOfTime> blocks_of_time;  // a partial model's, by count; empty for a whole one
};

}  // namespace augur::app
