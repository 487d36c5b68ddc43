#pragma once
// The boundary between a program's MPI call and the shim's work around it. That work runs
// inside the program's call: an exception leaving it would unwind through the program's C
// frames and abort the program. Whatever it throws stops here instead: the program gets the
// real MPI call's result, and the call is reported as not priced, with the reason. (A price
// the model cannot give does not throw at all: timing::BasicRules::price_unanswered_as_zero.)
// No MPI here, so the boundary is tested on its own.
#include <exception>

namespace augur::revprof {

// `body(call)` does the shim's work around the real call, which it makes through
// `call.real(make)`, and returns the real call's result. If the body throws, the call is told
// `call.not_priced(reason)` and the real call's result is returned, the real call being made
// with `plain` (the program's own arguments) when the body failed before making it.
// `Call` has: int real(F), bool made(), int result(), void not_priced(std::string_view) noexcept.
template <class Call, class Plain, class Body>
int guarded(Call& call, Plain&& plain, Body&& body) noexcept {
  try {
    return body(call);
  } catch (const std::exception& e) {
    call.not_priced(e.what());
  } catch (...) {
    call.not_priced("an exception that is not a std::exception");
  }
  return call.made() ? call.result() : call.real(plain);
}

}  // namespace augur::revprof
