#pragma once
// Message buffers. Reused buffers stay in the caches, as in a program that sends the same array
// again and again; fresh buffers move through memory larger than the caches, as in a program
// that sends new data each time (the seed's "freshly allocated" buffers, without paying for an
// allocation inside the timed region).
#include <cstddef>
#include <cstdint>
#include <vector>

namespace augur::bench {

class Buffers {
 public:
  explicit Buffers(bool fresh) : fresh_(fresh) {}

  // Room for `block` bytes in each direction; touches the memory so page faults are not timed.
  void reserve(std::uint64_t block);
  std::byte* send(int rep) { return send_.data() + offset(rep); }
  std::byte* recv(int rep) { return recv_.data() + offset(rep); }

 private:
  std::size_t offset(int rep) const;

  bool fresh_;
  std::size_t block_ = 0;
  std::size_t slots_ = 1;
  std::vector<std::byte> send_, recv_;
};

}  // namespace augur::bench
