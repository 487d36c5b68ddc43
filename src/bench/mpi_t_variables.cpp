#include "bench/mpi_t_variables.hpp"

#include <mpi.h>

#include <cctype>
#include <cstring>
#include <string>
#include <vector>

namespace augur::bench {
namespace {

// Names differ in case between libraries (btl_vader_eager_limit, MPIR_CVAR_CH3_EAGER_MAX_MSG_SIZE).
bool shapes_protocol(std::string name) {
  for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const bool about_protocol = name.find("eager") != std::string::npos ||
                              name.find("rndv") != std::string::npos ||
                              name.find("rendezvous") != std::string::npos;
  const bool a_size = name.find("limit") != std::string::npos || name.find("max") != std::string::npos ||
                      name.find("size") != std::string::npos || name.find("threshold") != std::string::npos;
  return about_protocol && a_size;
}

bool integer_type(MPI_Datatype type) {
  return type == MPI_INT || type == MPI_UNSIGNED || type == MPI_UNSIGNED_LONG ||
         type == MPI_UNSIGNED_LONG_LONG || type == MPI_COUNT || type == MPI_LONG || type == MPI_LONG_LONG;
}

template <class T>
long long decode(const unsigned char* raw) {
  T value;
  std::memcpy(&value, raw, sizeof value);
  return static_cast<long long>(value);
}

// Reads a scalar integer variable that is not bound to an MPI object.
bool read_integer(int index, MPI_Datatype type, long long& value) {
  MPI_T_cvar_handle handle;
  int count = 0;
  if (MPI_T_cvar_handle_alloc(index, nullptr, &handle, &count) != MPI_SUCCESS) return false;
  bool ok = false;
  if (count == 1) {
    alignas(16) unsigned char raw[16] = {};  // room for the widest integer type
    ok = MPI_T_cvar_read(handle, raw) == MPI_SUCCESS;
    if (type == MPI_INT) value = decode<int>(raw);
    else if (type == MPI_UNSIGNED) value = decode<unsigned>(raw);
    else if (type == MPI_LONG) value = decode<long>(raw);
    else if (type == MPI_UNSIGNED_LONG) value = decode<unsigned long>(raw);
    else if (type == MPI_COUNT) value = decode<MPI_Count>(raw);
    else value = decode<long long>(raw);
  }
  MPI_T_cvar_handle_free(&handle);
  return ok;
}

}  // namespace

nlohmann::json protocol_control_variables() {
  nlohmann::json found = nlohmann::json::object();
  int provided = 0;
  if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS) return found;
  int count = 0;
  MPI_T_cvar_get_num(&count);
  for (int i = 0; i < count; ++i) {
    char name[256], description[1024];
    int name_length = sizeof name, description_length = sizeof description;
    int verbosity = 0, binding = 0, scope = 0;
    MPI_Datatype type;
    MPI_T_enum enumtype;
    if (MPI_T_cvar_get_info(i, name, &name_length, &verbosity, &type, &enumtype, description, &description_length, &binding,
                            &scope) != MPI_SUCCESS)
      continue;
    if (binding != MPI_T_BIND_NO_OBJECT || !integer_type(type) || !shapes_protocol(name)) continue;
    long long value = 0;
    if (read_integer(i, type, value)) found[name] = value;
  }
  MPI_T_finalize();
  return found;
}

}  // namespace augur::bench
