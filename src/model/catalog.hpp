#pragma once
// The operation names a model may use. Names follow the seeds (send, recvmin, pingpong,
// isendoverlap …) and extend them to every MPI-3 collective; an unknown name in a model file is
// an error, so a typo cannot silently leave an operation unpredicted.
#include <span>
#include <string_view>

namespace augur::model {

enum class OperationClass { point_to_point, collective, barrier, local };

struct OperationInfo {
  std::string_view name;
  OperationClass cls;
  std::string_view meaning;  // default meaning of the time, when a model does not say
};

std::span<const OperationInfo> operation_catalog();
const OperationInfo* find_operation_info(std::string_view name);
std::string_view to_string(OperationClass);

}  // namespace augur::model
