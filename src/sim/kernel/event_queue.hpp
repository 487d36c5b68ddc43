#pragma once
// The simulator's future: plain 24-byte events, ordered by (time, rank, sequence): ties in time
// go to the lower rank and then to the earlier scheduled, so the same input gives the same run
// to the bit.
//
// Two structures hold them. Events scheduled in non-decreasing time (the common case: ranks in
// step, as in a collective, schedule their next events in the order they run) go to one of a few
// runs of time groups, where pushing costs a few comparisons and memory is touched in order; each
// group of equal times is sorted by (rank, sequence) once, when it reaches the front (partners'
// messages of one step arrive at one time but are sent in their senders' order). The others go
// to a 4-ary heap (four children share a cache line or two; half as deep as a binary one). The
// smallest front is the next event. On a million-rank allreduce the heap alone was 42% of the
// run, bound by cache misses on its 24 MB.
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

namespace augur::sim {

enum class EventType : std::uint8_t {
  resume,   // the rank carries on with its program
  deliver,  // a message's envelope reaches its receiver (payload: the message)
  network,  // the network's next transfer may end (networks with transfers)
  finish,   // a GOAL receive's last overhead may begin (payload: the vertex)
  settle,   // the transfers started or ended at this instant are shared out (after every rank)
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

// Events of non-decreasing time, each time's events together in any order: [head_, sorted_) are
// in order, and none of the rest comes before the last of them. Each group of equal times is
// sorted by (rank, sequence) once, when it reaches the front.
class EventRun {
 public:
  void reserve(std::size_t n) { events_.reserve(n); }
  bool empty() const { return head_ == events_.size(); }
  std::size_t size() const { return events_.size() - head_; }
  const Event& back() const { return events_.back(); }

  // Whether `e` can join the end without breaking the order.
  bool fits(const Event& e) const {
    if (empty()) return true;
    const Event& last = events_.back();
    if (e.time > last.time || !e.before(last)) return true;
    if (e.time < last.time || events_.size() - 1 < sorted_) return false;  // the back group is sorted
    return sorted_ == head_ || !e.before(events_[sorted_ - 1]);
  }
  void push(const Event& e) { events_.push_back(e); }

  // The earliest event; `mutable` state because the front group is sorted when first looked at.
  const Event& front() const {
    if (head_ == sorted_) sort_front_group();
    return events_[head_];
  }

  Event pop() {
    const Event e = front();
    ++head_;
    if (head_ == events_.size()) {
      events_.clear();
      head_ = sorted_ = 0;
    } else if (head_ >= 4096 && 2 * head_ >= events_.size()) {
      // Taken events fill the front half: drop them, so a run that never empties stays bounded.
      events_.erase(events_.begin(), events_.begin() + static_cast<std::ptrdiff_t>(head_));
      sorted_ -= head_;
      head_ = 0;
    }
    return e;
  }

 private:
  void sort_front_group() const {
    const double t = events_[head_].time;
    std::size_t end = head_ + 1, descents = 0;  // often none: messages of a step sent, and arriving, in rank order
    for (; end < events_.size() && events_[end].time == t; ++end)
      descents += events_[end - 1].order > events_[end].order;
    sorted_ = end;
    if (descents == 0) return;
    const auto first = events_.begin() + static_cast<std::ptrdiff_t>(head_);
    const auto last = events_.begin() + static_cast<std::ptrdiff_t>(end);
    if (descents < kMergeFrom) merge_runs(first, last);
    else if (end - head_ < kRadixFrom) std::sort(first, last, by_order);
    else sort_by_rank(first, last);
  }

  static bool by_order(const Event& a, const Event& b) { return a.order < b.order; }

  // A group made of a few in-order runs (each the arrivals of one batch of transfers, or of one
  // route latency, in rank order) is merged run by run: linear for each doubling of the runs'
  // length, where sorting it afresh was a tenth of a torus ring's instructions.
  void merge_runs(std::vector<Event>::iterator first, std::vector<Event>::iterator last) const {
    auto& bounds = bounds_;
    bounds.assign(1, first);
    for (auto it = first + 1; it != last; ++it)
      if (by_order(*it, it[-1])) bounds.push_back(it);
    bounds.push_back(last);
    scratch_.resize(static_cast<std::size_t>(last - first));
    while (bounds.size() > 2) {
      std::size_t kept = 1;
      for (std::size_t i = 0; i + 2 < bounds.size(); i += 2) {
        const auto out = scratch_.begin() + (bounds[i] - first);
        const auto end = std::merge(bounds[i], bounds[i + 1], bounds[i + 1], bounds[i + 2], out, by_order);
        std::copy(out, end, bounds[i]);
        bounds[kept++] = bounds[i + 2];
      }
      if (bounds.size() % 2 == 0) bounds[kept++] = bounds.back();  // an odd run left over
      bounds.resize(kept);
    }
  }

  // Within a group the events were appended in sequence order, so a stable sort by rank gives
  // (rank, sequence) order: two passes of a 12-bit radix sort, linear where std::sort of a
  // million-event group was 15% of the run.
  void sort_by_rank(std::vector<Event>::iterator first, std::vector<Event>::iterator last) const {
    scratch_.resize(static_cast<std::size_t>(last - first));
    radix_pass(first, last, scratch_.begin(), 40);
    radix_pass(scratch_.begin(), scratch_.end(), first, 52);
  }

  static void radix_pass(std::vector<Event>::iterator from, std::vector<Event>::iterator to,
                         std::vector<Event>::iterator out, int shift) {
    std::vector<std::size_t> start(kRadix + 1, 0);
    for (auto it = from; it != to; ++it) ++start[((it->order >> shift) & (kRadix - 1)) + 1];
    for (std::size_t b = 1; b <= kRadix; ++b) start[b] += start[b - 1];
    for (auto it = from; it != to; ++it) out[static_cast<std::ptrdiff_t>(start[(it->order >> shift) & (kRadix - 1)]++)] = *it;
  }

  static constexpr std::size_t kRadix = 1 << 12;   // two passes cover the 24 bits of a rank
  static constexpr std::size_t kRadixFrom = 8192;  // smaller groups: std::sort
  static constexpr std::size_t kMergeFrom = 16;    // fewer descents: merge_runs

  mutable std::vector<Event> events_;  // events before head_ are taken
  std::size_t head_ = 0;
  mutable std::size_t sorted_ = 0;
  mutable std::vector<Event> scratch_;
  mutable std::vector<std::vector<Event>::iterator> bounds_;
};

class EventQueue {
 public:
  static constexpr int kMaxRanks = 1 << 24;

  void reserve(std::size_t n) {
    heap_.reserve(n);
    runs_[0].reserve(n);
  }
  bool empty() const { return heap_.empty() && front_run() == kRuns; }
  std::size_t size() const {
    std::size_t n = heap_.size();
    for (const auto& r : runs_) n += r.size();
    return n;
  }
  const Event& top() const { return *first(); }

  void push(double time, std::uint32_t rank, EventType type, std::uint32_t payload = 0) {
    const Event e{time, std::uint64_t(rank) << 40 | (sequence_++ & kSequenceMask), payload, type};
    insert(e);
  }

  // `e` again, at `time`, keeping its place among events of one time (LogGOPSim puts an operation
  // whose processor is busy back in its queue so). To the heap: a run's groups are sorted as if
  // appended in sequence order.
  void push_again(Event e, double time) {
    e.time = time;
    heap_.push_back(e);
    sift_up(heap_.size() - 1);
  }

  Event pop() {
    const auto r = front_run();
    if (r < kRuns && (heap_.empty() || runs_[r].front().before(heap_.front()))) {
      front_ = kUnknown;
      return runs_[r].pop();
    }
    Event e = heap_.front();
    heap_.front() = heap_.back();
    heap_.pop_back();
    if (!heap_.empty()) sift_down(0);
    return e;
  }

  // Whether a rank at `time` comes before everything queued, so it may go on without a round
  // trip through the queue (the same order the queue would give it).
  bool would_run_first(double time, std::uint32_t rank) const {
    const Event* t = first();
    return !t || time < t->time || (time == t->time && rank < t->rank());
  }

 private:
  // An event goes to the run it follows most closely, else to an empty run, else to the heap.
  void insert(const Event& e) {
    std::size_t best = kRuns, spare = kRuns;
    for (std::size_t i = 0; i < kRuns; ++i) {
      if (runs_[i].empty()) {
        spare = std::min(spare, i);
      } else if (runs_[i].fits(e) && (best == kRuns || runs_[best].back().before(runs_[i].back()))) {
        best = i;
      }
    }
    if (best == kRuns) best = spare;
    if (best < kRuns) {
      // The earliest front changes only if the new event comes before it.
      if (front_ != kUnknown && (front_ == kRuns || e.before(runs_[front_].front()))) front_ = best;
      return runs_[best].push(e);
    }
    heap_.push_back(e);
    sift_up(heap_.size() - 1);
  }

  // Several runs, because events often come as a few interleaved in-order streams: messages
  // of one step arriving after one of a few route latencies (on a torus: one, two or three
  // hops) each follow the time of their sends. One run took a fifth of those to the heap.
  static constexpr std::size_t kRuns = 4;

  // The earliest event, or nullptr when there is none.
  const Event* first() const {
    const auto r = front_run();
    if (r == kRuns) return heap_.empty() ? nullptr : &heap_.front();
    const Event& f = runs_[r].front();
    return heap_.empty() || f.before(heap_.front()) ? &f : &heap_.front();
  }

  // The non-empty run with the earliest front, or kRuns; kept until a pop from a run.
  std::size_t front_run() const {
    if (front_ != kUnknown) return front_;
    front_ = kRuns;
    for (std::size_t i = 0; i < kRuns; ++i)
      if (!runs_[i].empty() && (front_ == kRuns || runs_[i].front().before(runs_[front_].front()))) front_ = i;
    return front_;
  }
  static constexpr std::size_t kUnknown = kRuns + 1;

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
  std::array<EventRun, kRuns> runs_;
  mutable std::size_t front_ = kRuns;  // front_run(), or kUnknown
  std::uint64_t sequence_ = 0;
};

}  // namespace augur::sim
