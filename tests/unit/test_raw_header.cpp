// The raw file's header carries the node kernels' compute section: the reader checks it with the
// model file's rules and names the line and field of a bad one, and the fitter copies it.
#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>
#include <string>

#include "fit/fitter.hpp"
#include "fit/raw.hpp"

namespace augur::fit {
namespace {

// A header and a barrier measured on 2 … 16 processes, enough points to fit.
std::string raw_text(const std::string& compute) {
  std::string text = R"({"augur_raw":1,"machine":{"name":"node"})";
  if (!compute.empty()) text += R"(,"compute":)" + compute;
  text += "}\n";
  for (int p : {2, 4, 8, 16}) {
    const double t = 1e-6 * p;
    text += nlohmann::json{{"op", "barrier"}, {"p", p},   {"bytes", 0}, {"min", t}, {"median", t},
                           {"mean", t},       {"max", t}, {"std", 0},   {"reps", 5}}
                .dump() +
            "\n";
  }
  return text;
}

RawSet parse(const std::string& text) {
  std::istringstream in(text);
  return parse_raw(in, "run.jsonl");
}

std::string error_of(const std::string& text) {
  try {
    parse(text);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "(accepted)";
}

const std::string kCompute =
    R"({"seconds_per_step":1.6e-9,"memory_bandwidth":1.2e10,"flops":8e9,)"
    R"("cache_sweep":[{"bytes":4096,"seconds_per_access":1e-9},{"bytes":8192,"seconds_per_access":1.1e-9}]})";

TEST(RawHeader, WithoutComputeNothingIsKnown) {
  const auto raw = parse(raw_text(""));
  const auto c = header_compute(raw.header, "run.jsonl");
  EXPECT_FALSE(c.knows_step());
  EXPECT_EQ(c.flops, 0);
  EXPECT_TRUE(c.cache_sweep.empty());
}

TEST(RawHeader, ComputeSectionIsRead) {
  const auto raw = parse(raw_text(kCompute));
  const auto c = header_compute(raw.header, "run.jsonl");
  EXPECT_DOUBLE_EQ(c.seconds_per_step, 1.6e-9);
  EXPECT_DOUBLE_EQ(c.memory_bandwidth, 1.2e10);
  EXPECT_DOUBLE_EQ(c.flops, 8e9);
  ASSERT_EQ(c.cache_sweep.size(), 2u);
}

TEST(RawHeader, BadComputeNamesFileLineAndField) {
  EXPECT_EQ(error_of(raw_text(R"({"flops":-1})")), "run.jsonl:1: compute.flops: must be greater than 0 (found -1)");
  EXPECT_EQ(error_of(raw_text(R"({"cache_sweep":[{"bytes":8192,"seconds_per_access":1e-9},{"bytes":4096,"seconds_per_access":1e-9}]})")),
            "run.jsonl:1: compute.cache_sweep[1].bytes: must be greater than the previous size (8192)");
  EXPECT_EQ(error_of(raw_text(R"("fast")")), "run.jsonl:1: compute: expected an object, found string");
}

TEST(RawHeader, FitterCopiesTheComputeSectionIntoTheModel) {
  const auto model = fit_model(parse(raw_text(kCompute)), FitOptions{}).model;
  EXPECT_DOUBLE_EQ(model.compute.seconds_per_step, 1.6e-9);
  EXPECT_DOUBLE_EQ(model.compute.memory_bandwidth, 1.2e10);
  ASSERT_EQ(model.compute.cache_sweep.size(), 2u);
  EXPECT_DOUBLE_EQ(model.compute.cache_sweep[1].bytes, 8192);
}

TEST(RawHeader, FitterNamesABadComputeSectionInAHeaderBuiltInMemory) {
  auto raw = parse(raw_text(""));
  raw.header["compute"] = {{"memory_bandwidth", 0}};
  try {
    fit_model(raw, FitOptions{});
    FAIL() << "accepted a zero bandwidth";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "raw header: compute.memory_bandwidth: must be greater than 0 (found 0)");
  }
}

}  // namespace
}  // namespace augur::fit
