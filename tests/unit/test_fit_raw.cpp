// Raw records: the optional synchronisation figures survive a round trip and are checked on read.
#include <gtest/gtest.h>

#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "fit/raw.hpp"

namespace {

using augur::fit::parse_raw;

const char* kHeader = R"({"augur_raw":1,"machine":{"name":"m"}})";

std::string file_with(const std::string& record) { return fmt::format("{}\n{}\n", kHeader, record); }

const std::string kRecord =
    R"({"op":"bcast","p":2,"bytes":8,"min":1e-6,"median":2e-6,"mean":2e-6,"max":3e-6,"std":1e-7,"reps":10)";

TEST(RawRecords, SkewAndClockErrorRoundTrip) {
  std::istringstream in(file_with(kRecord + R"(,"skew":1.5e-8,"clock_error":1.2e-7})"));
  const auto set = parse_raw(in, "raw.jsonl");
  ASSERT_EQ(set.points.size(), 1u);
  const auto& m = set.points.front();
  ASSERT_TRUE(m.skew && m.clock_error);
  EXPECT_DOUBLE_EQ(*m.skew, 1.5e-8);
  const auto j = augur::fit::to_json(m);
  EXPECT_DOUBLE_EQ(j.at("skew").get<double>(), 1.5e-8);
  EXPECT_DOUBLE_EQ(j.at("clock_error").get<double>(), 1.2e-7);
}

TEST(RawRecords, RoleTimesOfRootedOperationsRoundTrip) {
  std::istringstream in(file_with(kRecord + R"(,"roles":{"root":1e-6,"others":2.5e-6}})"));
  const auto m = parse_raw(in, "raw.jsonl").points.at(0);
  ASSERT_TRUE(m.roles);
  EXPECT_DOUBLE_EQ(m.roles->root, 1e-6);
  EXPECT_DOUBLE_EQ(augur::fit::to_json(m).at("roles").at("others").get<double>(), 2.5e-6);
  std::istringstream bad(file_with(kRecord + R"(,"roles":{"root":1e-6}})"));
  try {
    parse_raw(bad, "raw.jsonl");
    FAIL() << "accepted roles without others";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("roles.others: missing"), std::string::npos) << e.what();
  }
}

TEST(RawRecords, RecordsWithoutSkewStayWithoutIt) {
  std::istringstream in(file_with(kRecord + "}"));
  const auto m = parse_raw(in, "raw.jsonl").points.at(0);
  EXPECT_FALSE(m.skew.has_value());
  EXPECT_FALSE(augur::fit::to_json(m).contains("skew"));
}

TEST(RawRecords, NegativeOrTextSkewIsRejectedWithItsFieldAndLine) {
  for (const std::string bad : {R"(,"skew":-1e-9})", R"(,"skew":"small"})", R"(,"clock_error":-2})"}) {
    std::istringstream in(file_with(kRecord + bad));
    try {
      parse_raw(in, "raw.jsonl");
      FAIL() << "accepted " << bad;
    } catch (const std::runtime_error& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("raw.jsonl:2"), std::string::npos) << what;
      EXPECT_TRUE(what.find("skew") != std::string::npos || what.find("clock_error") != std::string::npos) << what;
    }
  }
}

// A count field of a record: 1 unless written, written only above 1, and rejected with its name
// below 1 or when it is not an integer.
void expect_count_field(const std::string& field, int augur::fit::Measurement::*member) {
  std::istringstream first(file_with(kRecord + "}"));
  const auto m = parse_raw(first, "raw.jsonl").points.at(0);
  EXPECT_EQ(m.*member, 1);
  EXPECT_FALSE(augur::fit::to_json(m).contains(field));
  std::istringstream third(file_with(kRecord + ",\"" + field + "\":3}"));
  const auto again = parse_raw(third, "raw.jsonl").points.at(0);
  EXPECT_EQ(again.*member, 3);
  EXPECT_EQ(augur::fit::to_json(again).at(field).get<int>(), 3);
  for (const std::string value : {"0", "1.5", "\"2\""}) {
    std::istringstream in(file_with(kRecord + ",\"" + field + "\":" + value + "}"));
    try {
      parse_raw(in, "raw.jsonl");
      FAIL() << "accepted " << field << " " << value;
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(field), std::string::npos) << e.what();
    }
  }
}

TEST(RawRecords, PassIsOneUnlessWrittenAndIsWrittenOnlyAfterTheFirst) {
  expect_count_field("pass", &augur::fit::Measurement::pass);
}

TEST(RawRecords, CallsPerRepetitionIsOneUnlessWrittenAndIsWrittenOnlyAboveOne) {
  expect_count_field("calls", &augur::fit::Measurement::calls);
}

// An optional probe of the machine (seconds): absent unless written, written as read, and
// refused unless positive, with an error naming the field.
void expect_probe_field(const std::string& field, std::optional<double> augur::fit::Measurement::*member) {
  std::istringstream without(file_with(kRecord + "}"));
  const auto plain = parse_raw(without, "raw.jsonl").points.at(0);
  EXPECT_FALSE((plain.*member).has_value());
  EXPECT_FALSE(augur::fit::to_json(plain).contains(field));
  std::istringstream with(file_with(kRecord + ",\"" + field + "\":1.5e-7}"));
  const auto probed = parse_raw(with, "raw.jsonl").points.at(0);
  ASSERT_TRUE((probed.*member).has_value());
  EXPECT_DOUBLE_EQ(*(probed.*member), 1.5e-7);
  EXPECT_DOUBLE_EQ(augur::fit::to_json(probed).at(field).get<double>(), 1.5e-7);
  for (const std::string bad : {"0", "-1e-7", "\"fast\""}) {
    std::istringstream in(file_with(kRecord + ",\"" + field + "\":" + bad + "}"));
    try {
      parse_raw(in, "raw.jsonl");
      FAIL() << "accepted " << field << " " << bad;
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(field), std::string::npos) << e.what();
    }
  }
}

TEST(RawRecords, TheStateProbeRoundTripsAndMustBePositive) {
  expect_probe_field("state_probe", &augur::fit::Measurement::state_probe);
}

TEST(RawRecords, TheComputeProbeRoundTripsAndMustBePositive) {
  expect_probe_field("compute_probe", &augur::fit::Measurement::compute_probe);
}

}  // namespace

namespace {

TEST(RawRecords, APointTheLibraryCouldNotRunKeepsItsErrorApartFromTheTimes) {
  const std::string record = R"({"op":"put","p":2,"bytes":0,"not_measurable":"MPI_ERR_WIN: invalid window","pass":3})";
  std::istringstream in(fmt::format("{}\n{}\n{}}}\n", kHeader, record, kRecord));
  const auto set = parse_raw(in, "raw.jsonl");
  ASSERT_EQ(set.points.size(), 1u);
  ASSERT_EQ(set.unmeasurable.size(), 1u);
  const auto& u = set.unmeasurable.front();
  EXPECT_EQ(u.op, "put");
  EXPECT_EQ(u.p, 2);
  EXPECT_EQ(u.error, "MPI_ERR_WIN: invalid window");
  EXPECT_EQ(u.pass, 3);
  EXPECT_EQ(augur::fit::to_json(u), nlohmann::json::parse(record));

  for (const auto& [bad, field] : std::vector<std::pair<std::string, std::string>>{
           {R"({"op":"put","p":2,"bytes":0,"not_measurable":""})", "not_measurable"},
           {R"({"op":"put","p":2,"bytes":0,"not_measurable":53})", "not_measurable"},
           {R"({"op":"putt","p":2,"bytes":0,"not_measurable":"x"})", "op"},
           {R"({"op":"put","p":0,"bytes":0,"not_measurable":"x"})", "p"},
           {R"({"op":"put","p":2,"not_measurable":"x"})", "bytes"}}) {
    std::istringstream damaged(file_with(bad));
    try {
      parse_raw(damaged, "raw.jsonl");
      FAIL() << "accepted " << bad;
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("raw.jsonl:2: " + field + ":"), std::string::npos) << e.what();
    }
  }
}

TEST(RawRecords, AnErrorsHeadlineIsItsFirstLineWithoutMpichsStackAnnouncement) {
  using augur::fit::error_headline;
  EXPECT_EQ(error_headline("MPI_ERR_WIN: invalid window"), "MPI_ERR_WIN: invalid window");
  EXPECT_EQ(error_headline("Invalid count, error stack:\ninternal_Bcast(107): MPI_Bcast failed"), "Invalid count");
  EXPECT_EQ(error_headline("first\nsecond"), "first");
}

}  // namespace
