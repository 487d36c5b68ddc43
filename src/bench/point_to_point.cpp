// Point-to-point operations between ranks 0 (sender) and 1 (receiver) of a pair.
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "bench/kernel.hpp"
#include "bench/operation_table.hpp"

namespace augur::bench {
namespace {

constexpr int kTag = 17;
constexpr int kSender = 0;
constexpr int kReceiver = 1;
constexpr int kCalibrationReps = 5;

bool is_sender(const RepContext& c) { return c.rank() == kSender; }
int partner(const RepContext& c) { return 1 - c.rank(); }

void send_plain(RepContext& c) { MPI_Send(c.send, c.count(), MPI_BYTE, kReceiver, kTag, c.comm()); }
void recv_plain(RepContext& c) {
  MPI_Recv(c.recv, c.count(), MPI_BYTE, kSender, kTag, c.comm(), MPI_STATUS_IGNORE);
}

void round_trip(RepContext& c) {
  if (is_sender(c)) {
    send_plain(c);
    MPI_Recv(c.recv, c.count(), MPI_BYTE, kReceiver, kTag, c.comm(), MPI_STATUS_IGNORE);
  } else {
    recv_plain(c);
    MPI_Send(c.send, c.count(), MPI_BYTE, kSender, kTag, c.comm());
  }
}

double pingpong(RepContext& c) {
  const int rounds = pingpong_rounds(c.bytes);
  round_trip(c);
  const double t0 = MPI_Wtime();
  for (int round = 0; round < rounds; ++round) round_trip(c);
  return is_sender(c) ? since(t0) / (2 * rounds) : 0;
}

template <auto Send>
double timed_send(RepContext& c) {
  if (!is_sender(c)) {
    recv_plain(c);
    return 0;
  }
  const double t0 = MPI_Wtime();
  Send(c.send, c.count(), MPI_BYTE, kReceiver, kTag, c.comm());
  return since(t0);
}

void post_receive_early(RepContext& c) {
  if (!is_sender(c)) MPI_Irecv(c.recv, c.count(), MPI_BYTE, kSender, kTag, c.comm(), &c.state.pending);
}

double rsend(RepContext& c) {
  if (!is_sender(c)) {
    MPI_Wait(&c.state.pending, MPI_STATUS_IGNORE);
    return 0;
  }
  const double t0 = MPI_Wtime();
  MPI_Rsend(c.send, c.count(), MPI_BYTE, kReceiver, kTag, c.comm());
  return since(t0);
}

void attach_bsend_buffer(RepContext& c) {
  if (!is_sender(c)) return;
  c.state.attached.resize(c.bytes + MPI_BSEND_OVERHEAD);
  MPI_Buffer_attach(c.state.attached.data(), static_cast<int>(c.state.attached.size()));
}

double bsend(RepContext& c) {
  if (!is_sender(c)) {
    recv_plain(c);
    return 0;
  }
  const double t0 = MPI_Wtime();
  MPI_Bsend(c.send, c.count(), MPI_BYTE, kReceiver, kTag, c.comm());
  const double t = since(t0);
  void* buffer = nullptr;
  int size = 0;
  MPI_Buffer_detach(&buffer, &size);  // waits for the buffered message to leave
  return t;
}

double recv(RepContext& c) {
  if (is_sender(c)) {
    send_plain(c);
    return 0;
  }
  const double t0 = MPI_Wtime();
  recv_plain(c);
  return since(t0);
}

double recvmin(RepContext& c) {
  if (is_sender(c)) {
    send_plain(c);
    return 0;
  }
  int arrived = 0;
  while (!arrived) MPI_Iprobe(kSender, kTag, c.comm(), &arrived, MPI_STATUS_IGNORE);
  const double t0 = MPI_Wtime();
  recv_plain(c);
  return since(t0);
}

// One poll of a program waiting for something that has not happened: an MPI_Test of a receive
// no one sends to, an MPI_Iprobe that finds nothing. A call takes tens of nanoseconds, near the
// clock's resolution, so a batch is timed. The sender takes no part.
constexpr int kPollsPerBatch = 64;
constexpr int kNeverSentTag = kTag + 1;

double test_pending(RepContext& c) {
  if (is_sender(c)) return 0;
  MPI_Request request;
  MPI_Irecv(c.recv, 1, MPI_BYTE, kSender, kNeverSentTag, c.comm(), &request);
  int done = 0;
  const double t0 = MPI_Wtime();
  for (int i = 0; i < kPollsPerBatch; ++i) MPI_Test(&request, &done, MPI_STATUS_IGNORE);
  const double per_poll = since(t0) / kPollsPerBatch;
  MPI_Cancel(&request);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  return per_poll;
}

double iprobe_empty(RepContext& c) {
  if (is_sender(c)) return 0;
  int found = 0;
  const double t0 = MPI_Wtime();
  for (int i = 0; i < kPollsPerBatch; ++i) MPI_Iprobe(kSender, kNeverSentTag, c.comm(), &found, MPI_STATUS_IGNORE);
  return since(t0) / kPollsPerBatch;
}

// Which part of a non-blocking call is timed.
enum class Part { post, wait, not_hidden };

void wait_while_polling(MPI_Request& request) {
  int done = 0;
  while (!done) MPI_Test(&request, &done, MPI_STATUS_IGNORE);
}

// Times one non-blocking operation: its post, the work put between post and wait (for the
// not-hidden part), and its wait.
template <Part part, class Post>
double time_posted(RepContext& c, Post post) {
  MPI_Request request;
  const double t0 = MPI_Wtime();
  post(&request);
  const double posted = MPI_Wtime();
  if (part == Part::not_hidden) compute_for(c.state.work_seconds);
  const double t1 = MPI_Wtime();
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  const double t2 = MPI_Wtime();
  switch (part) {
    case Part::post: return posted - t0;
    case Part::wait: return t2 - t1;
    case Part::not_hidden: return (posted - t0) + (t2 - t1);
  }
  return 0;
}

template <Part part>
double isend(RepContext& c) {
  if (!is_sender(c)) {
    recv_plain(c);
    return 0;
  }
  return time_posted<part>(c, [&](MPI_Request* r) {
    MPI_Isend(c.send, c.count(), MPI_BYTE, kReceiver, kTag, c.comm(), r);
  });
}

template <Part part>
double irecv(RepContext& c) {
  if (is_sender(c)) {
    send_plain(c);
    return 0;
  }
  return time_posted<part>(c, [&](MPI_Request* r) {
    MPI_Irecv(c.recv, c.count(), MPI_BYTE, kSender, kTag, c.comm(), r);
  });
}

// The computation put between post and wait is twice the time the transfer takes without it, so
// a library that progresses in the background could hide all of it; what remains is not hidden.
template <bool sender_timed>
void calibrate_work(RepContext& c) {
  std::array<double, kCalibrationReps> times{};
  for (auto& t : times) {
    MPI_Barrier(c.comm());
    const double t0 = MPI_Wtime();
    MPI_Request request;
    if (is_sender(c)) MPI_Isend(c.send, c.count(), MPI_BYTE, kReceiver, kTag, c.comm(), &request);
    else MPI_Irecv(c.recv, c.count(), MPI_BYTE, kSender, kTag, c.comm(), &request);
    wait_while_polling(request);
    t = since(t0);
  }
  std::sort(times.begin(), times.end());
  double work = 2 * times[kCalibrationReps / 2];
  MPI_Bcast(&work, 1, MPI_DOUBLE, sender_timed ? kSender : kReceiver, c.comm());
  c.state.work_seconds = work;
}

// Both sides of a pair exchange at once, as a collective of two: short ones are timed back to
// back like the collectives (kernel.hpp), as a halo exchange in a program's loop repeats them.
// Every other call sends what the previous one received, as a shift or a systolic loop does:
// that block was just written on this rank, so the partner's copy of it has to move the lines
// between cores, while one send buffer sent again and again stays clean and shared by both
// (64 KiB over shared memory here: 12.2 µs a call with one buffer, 15.6 µs swapping).
void sendrecv(RepContext& c) {
  const bool swapped = c.state.handoffs++ % 2 == 1;
  std::byte* out = swapped ? c.recv : c.send;
  std::byte* in = swapped ? c.send : c.recv;
  MPI_Sendrecv(out, c.count(), MPI_BYTE, partner(c), kTag, in, c.count(), MPI_BYTE, partner(c), kTag, c.comm(),
               MPI_STATUS_IGNORE);
}

void exchange(RepContext& c) {
  std::array<MPI_Request, 2> requests;
  MPI_Irecv(c.recv, c.count(), MPI_BYTE, partner(c), kTag, c.comm(), &requests[0]);
  MPI_Isend(c.send, c.count(), MPI_BYTE, partner(c), kTag, c.comm(), &requests[1]);
  MPI_Waitall(2, requests.data(), MPI_STATUSES_IGNORE);
}

int ssend_call(const void* b, int n, MPI_Datatype t, int to, int tag, MPI_Comm comm) {
  return MPI_Ssend(b, n, t, to, tag, comm);
}
int send_call(const void* b, int n, MPI_Datatype t, int to, int tag, MPI_Comm comm) {
  return MPI_Send(b, n, t, to, tag, comm);
}

const std::vector<Kernel> kKernels = {
    {"pingpong", pingpong},
    {"send", timed_send<send_call>},
    {"ssend", timed_send<ssend_call>},
    {"rsend", rsend, post_receive_early},
    {"bsend", bsend, attach_bsend_buffer},
    {"recv", recv},
    {"recvmin", recvmin},
    {"test", test_pending},
    {"iprobe", iprobe_empty},
    {"isend1", isend<Part::post>},
    {"isend2", isend<Part::wait>},
    {"isendoverlap", isend<Part::not_hidden>, nullptr, calibrate_work<true>},
    {"irecv1", irecv<Part::post>},
    {"irecv2", irecv<Part::wait>},
    {"irecvoverlap", irecv<Part::not_hidden>, nullptr, calibrate_work<false>},
    whole_call<sendrecv>("sendrecv"),
    whole_call<exchange>("exchange"),
};

}  // namespace

std::span<const Kernel> point_to_point_kernels() { return kKernels; }

}  // namespace augur::bench
