#pragma once
// The simulator's future: plain 24-byte events, ordered by (time, rank, sequence): ties in time
// go to the lower rank and then to the earlier scheduled, so the same input gives the same run
// to the bit.
//
// Two structures hold them. Events scheduled in non-decreasing order (the common case: ranks in
// step, as in a collective, schedule their next events in the order they run) go to a FIFO,
// where pushing and popping cost a comparison and touch memory sequentially; the others go to a
// 4-ary heap (four children share a cache line or two, and it is half as deep as a binary one).
// The smaller front of the two is the next event. On a million-rank allreduce the heap alone was
// 42% of the run, bound by cache misses on its 24 MB.
#include <algorithm>
#include <cstdint>
#include <vector>

namespace augur::sim {

enum class EventType : std::uint8_t {
  resume,   // the rank carries on with its program
  deliver,  // a message's envelope reaches its receiver (payload: the message)
  network,  // the network's next transfer may end (networks with transfers)
};

struct Event {
  double time;
  std::uint64_t order;  // rank << 40 | sequence
  std::uint32_t payload;
  EventType type;

  std::uint32_t rank() const { return static_cast<std::uint32_t>(order >> 40); }
  bool before(const Event& o) const { return time < o.time || (time == o.time && order < o.order); }
};
static_assert(sizeof(Event) == 24);

class EventQueue {
 public:
  static constexpr int kMaxRanks = 1 << 24;

  void reserve(std::size_t n) {
    heap_.reserve(n);
    fifo_.reserve(n);
  }
  bool empty() const { return heap_.empty() && fifo_head_ == fifo_.size(); }
  std::size_t size() const { return heap_.size() + fifo_.size() - fifo_head_; }
  const Event& top() const { return fifo_first() ? fifo_[fifo_head_] : heap_.front(); }

  void push(double time, std::uint32_t rank, EventType type, std::uint32_t payload = 0) {
    const Event e{time, std::uint64_t(rank) << 40 | (sequence_++ & kSequenceMask), payload, type};
    if (fifo_head_ == fifo_.size() || !e.before(fifo_.back())) {
      fifo_.push_back(e);
      return;
    }
    heap_.push_back(e);
    sift_up(heap_.size() - 1);
  }

  Event pop() {
    if (fifo_first()) return pop_fifo();
    Event e = heap_.front();
    heap_.front() = heap_.back();
    heap_.pop_back();
    if (!heap_.empty()) sift_down(0);
    return e;
  }

  // Whether a rank at `time` comes before everything queued, so it may go on without a round
  // trip through the queue (the same order the queue would give it).
  bool would_run_first(double time, std::uint32_t rank) const {
    if (empty()) return true;
    const Event& t = top();
    return time < t.time || (time == t.time && rank < t.rank());
  }

 private:
  bool fifo_first() const {
    if (fifo_head_ == fifo_.size()) return false;
    return heap_.empty() || fifo_[fifo_head_].before(heap_.front());
  }

  Event pop_fifo() {
    const Event e = fifo_[fifo_head_++];
    if (fifo_head_ == fifo_.size()) {
      fifo_.clear();
      fifo_head_ = 0;
    } else if (fifo_head_ >= 4096 && 2 * fifo_head_ >= fifo_.size()) {
      // Taken events fill the front half: drop them, so a FIFO that never empties stays bounded.
      fifo_.erase(fifo_.begin(), fifo_.begin() + static_cast<std::ptrdiff_t>(fifo_head_));
      fifo_head_ = 0;
    }
    return e;
  }

  static constexpr std::uint64_t kSequenceMask = (std::uint64_t(1) << 40) - 1;
  static constexpr std::size_t kArity = 4;

  void sift_up(std::size_t i) {
    Event e = heap_[i];
    while (i > 0) {
      std::size_t parent = (i - 1) / kArity;
      if (!e.before(heap_[parent])) break;
      heap_[i] = heap_[parent];
      i = parent;
    }
    heap_[i] = e;
  }

  void sift_down(std::size_t i) {
    const std::size_t n = heap_.size();
    Event e = heap_[i];
    for (;;) {
      const std::size_t first = kArity * i + 1;
      if (first >= n) break;
      std::size_t child = first;
      const std::size_t last = std::min(first + kArity, n);
      for (std::size_t c = first + 1; c < last; ++c)
        if (heap_[c].before(heap_[child])) child = c;
      if (!heap_[child].before(e)) break;
      heap_[i] = heap_[child];
      i = child;
    }
    heap_[i] = e;
  }

  std::vector<Event> heap_;
  std::vector<Event> fifo_;  // non-decreasing; events before fifo_head_ are taken
  std::size_t fifo_head_ = 0;
  std::uint64_t sequence_ = 0;
};

}  // namespace augur::sim
