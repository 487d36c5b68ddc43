#pragma once
// The simulator's future: plain 24-byte events in a 4-ary heap over one vector reserved up
// front, so scheduling never allocates once the simulation runs (four children share a cache
// line or two, and the heap is half as deep as a binary one: a million-rank run is bound by it). Order is (time, rank, sequence):
// ties in time go to the lower rank and then to the earlier scheduled, so the same input gives
// the same run to the bit.
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

  void reserve(std::size_t n) { heap_.reserve(n); }
  bool empty() const { return heap_.empty(); }
  std::size_t size() const { return heap_.size(); }
  const Event& top() const { return heap_.front(); }

  void push(double time, std::uint32_t rank, EventType type, std::uint32_t payload = 0) {
    heap_.push_back({time, std::uint64_t(rank) << 40 | (sequence_++ & kSequenceMask), payload, type});
    sift_up(heap_.size() - 1);
  }

  Event pop() {
    Event e = heap_.front();
    heap_.front() = heap_.back();
    heap_.pop_back();
    if (!heap_.empty()) sift_down(0);
    return e;
  }

  // Whether a rank at `time` comes before everything queued, so it may go on without a round
  // trip through the heap (the same order the heap would give it).
  bool would_run_first(double time, std::uint32_t rank) const {
    if (heap_.empty()) return true;
    const Event& t = heap_.front();
    return time < t.time || (time == t.time && rank < t.rank());
  }

 private:
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
  std::uint64_t sequence_ = 0;
};

}  // namespace augur::sim
