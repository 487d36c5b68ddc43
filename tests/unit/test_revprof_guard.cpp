// The boundary between a program's MPI call and the shim's work around it: nothing the shim
// throws reaches the program, which gets the real call's result, made exactly once.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <string_view>

#include "revprof/guard.hpp"

namespace {

using augur::revprof::guarded;

// Stands for the shim's Call: keeps the real call's result and what could not be priced.
struct FakeCall {
  int real_calls = 0;
  int rc = -1;
  std::string reason;
  template <class Make>
  int real(Make&& make) {
    ++real_calls;
    rc = make();
    return rc;
  }
  bool made() const { return real_calls > 0; }
  int result() const { return rc; }
  void not_priced(std::string_view why) noexcept { reason = why; }
};

constexpr int kRealResult = 17;   // what the real call returns with the shim's arguments
constexpr int kPlainResult = 23;  // and with the program's own

TEST(RevprofGuard, AQuietBodyReturnsTheRealCallsResult) {
  FakeCall call;
  const int rc = guarded(call, [] { return kPlainResult; }, [](FakeCall& c) { return c.real([] { return kRealResult; }); });
  EXPECT_EQ(rc, kRealResult);
  EXPECT_EQ(call.real_calls, 1);
  EXPECT_EQ(call.reason, "");
}

TEST(RevprofGuard, AFailureAfterTheRealCallKeepsItsResultAndDoesNotRepeatIt) {
  FakeCall call;
  const int rc = guarded(call, [] { return kPlainResult; }, [](FakeCall& c) -> int {
    c.real([] { return kRealResult; });
    throw std::runtime_error("send: size must be >= 0 bytes, not -8");
  });
  EXPECT_EQ(rc, kRealResult);
  EXPECT_EQ(call.real_calls, 1);
  EXPECT_EQ(call.reason, "send: size must be >= 0 bytes, not -8");
}

TEST(RevprofGuard, AFailureBeforeTheRealCallMakesItWithTheProgramsArguments) {
  FakeCall call;
  const int rc = guarded(call, [] { return kPlainResult; }, [](FakeCall&) -> int { throw std::bad_alloc(); });
  EXPECT_EQ(rc, kPlainResult);
  EXPECT_EQ(call.real_calls, 1);
  EXPECT_EQ(call.reason, "std::bad_alloc");
}

TEST(RevprofGuard, AnythingThrownStopsAtTheBoundary) {
  FakeCall call;
  const int rc = guarded(call, [] { return kPlainResult; }, [](FakeCall& c) -> int {
    c.real([] { return kRealResult; });
    throw 42;
  });
  EXPECT_EQ(rc, kRealResult);
  EXPECT_EQ(call.reason, "an exception that is not a std::exception");
}

}  // namespace
