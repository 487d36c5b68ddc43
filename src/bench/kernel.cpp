#include "bench/kernel.hpp"

#include <chrono>
#include <stdexcept>
#include <string>

#include "bench/operation_table.hpp"

namespace augur::bench {

int RepContext::ints() const { return static_cast<int>(bytes / kIntBytes); }

void compute_for(double seconds) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < end) {
  }
}

namespace {

std::vector<const Kernel*> index_kernels() {
  std::vector<const Kernel*> by_operation(kOperations.size(), nullptr);
  for (auto family : {point_to_point_kernels(), pattern_kernels(), collective_kernels(),
                      nonblocking_collective_kernels(), communicator_kernels(), one_sided_kernels()})
    for (const auto& k : family) {
      int index = operation_index(k.name);
      if (index < 0) throw std::logic_error("kernel '" + std::string(k.name) + "' is not in kOperations");
      by_operation[index] = &k;
    }
  for (std::size_t i = 0; i < by_operation.size(); ++i)
    if (!by_operation[i]) throw std::logic_error("no kernel for '" + std::string(kOperations[i].name) + "'");
  return by_operation;
}

}  // namespace

bool chains_roots(const Kernel& kernel) {
  // With one root, a sequence of one-to-all calls pipelines: the root starts the next call
  // before the receivers have the last one, and the mean per call is a throughput. Programs
  // that broadcast a pivot need it before the next root can go on (gauss hands the root on at
  // every row); with the root taking turns, each call waits for the previous one, and the mean
  // per call is the latency from a root to the next, in a warm loop.
  for (std::string_view one_to_all : {"bcast", "scatter", "scatterv", "ibcast", "iscatter", "iscatterv"})
    if (kernel.name == one_to_all) return true;
  return false;
}

bool repeats_back_to_back(const Kernel& kernel) { return kernel.call != nullptr; }

const Kernel& kernel_for(int operation) {
  static const std::vector<const Kernel*> kernels = index_kernels();
  return *kernels.at(operation);
}

}  // namespace augur::bench
