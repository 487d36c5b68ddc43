// Parasol's machine format: the two sample machines load, and each kind of broken file gives its
// line and the reason.
#include <gtest/gtest.h>

#include <string>

#include "sim/network/parasol.hpp"
#include "sim/network/routing.hpp"

// The file's own names, apart from other test files' when a unity build (AUGUR_UNITY) joins them.
namespace test_sim_parasol {
namespace {

using namespace augur::sim;

namespace {

const std::string kSamples = std::string(AUGUR_TEST_DATA) + "/../../examples/machines/";

std::string error_of(const std::string& text) {
  try {
    parse_parasol(text, "m.parasol");
  } catch (const ParasolError& e) {
    return e.what();
  }
  return "no error";
}

// A two-processor machine to break one line at a time.
std::string small(const std::string& link = "id = 1; latency = 1e-6; speed = 1e-9; connect = 2 1 2") {
  return "begin machine\nname = \"two\"\nbegin processor\n  id = 1\nend processor\nbegin topology\n"
         "  processors = 2; links = 1\n  begin linklist\n    begin link\n      " + link +
         "\n    end link\n  end linklist\nend topology\nend machine\n";
}

}  // namespace

TEST(SimParasol, TheGCelGridLoads) {
  auto p = load_parasol(kSamples + "gcel.parasol");
  EXPECT_EQ(p.machine.name, "Parsytec GCel");
  EXPECT_EQ(p.machine.nodes(), 512);
  EXPECT_EQ(p.machine.links.size(), 976u);
  EXPECT_EQ(p.routing, "XY");
  EXPECT_DOUBLE_EQ(p.timings.at(1).at("iga")[0], 7.4e-7);
  EXPECT_DOUBLE_EQ(p.machine.links[0].bandwidth, 1 / 9.1e-7);
  auto route = Router(p.machine).route(0, 511);  // corner to corner: 31 + 15 links
  EXPECT_EQ(route.channels.size(), 46u);
  EXPECT_DOUBLE_EQ(route.latency, 46 * 28.5e-6);
  EXPECT_EQ(p.combinations.size(), 2u);
  EXPECT_EQ(p.combinations[1].first, "maxtotalspd");
}

TEST(SimParasol, TheSparcEthernetIsOneSharedLink) {
  auto p = load_parasol(kSamples + "ethernet.parasol");
  EXPECT_EQ(p.machine.nodes(), 8);
  ASSERT_EQ(p.machine.links.size(), 1u);
  EXPECT_TRUE(p.machine.links[0].shared);
  Router r(p.machine);
  EXPECT_EQ(r.route(0, 7).channels, r.route(5, 2).channels);
  EXPECT_DOUBLE_EQ(r.route(0, 7).latency, 30e-3);
}

TEST(SimParasol, BrokenFilesGiveTheLineAndTheReason) {
  EXPECT_EQ(error_of(small()), "no error");
  EXPECT_EQ(error_of(small("id = 1; latency = 1e-6; speed = fast; connect = 2 1 2")), "m.parasol:10: 'fast' is not a number");
  EXPECT_EQ(error_of(small("id = 1; speed = 1e-9; connect = 2 1 3")),
            "m.parasol:10: connect: processor 3 is not one of the topology's 1 … 2");
  EXPECT_EQ(error_of(small("id = 1; speed = 1e-9; connect = 3 1 2")),
            "m.parasol:10: connect: expected the number of processors, then that many processor ids");
  EXPECT_EQ(error_of(small("id = 1; colour = 2")), "m.parasol:10: unknown field 'colour' in `link`");
  EXPECT_EQ(error_of(small("id = 1; connect = 2 1 2")), "m.parasol:11: a link needs a positive `speed` (seconds per byte)");
  EXPECT_EQ(error_of(small("begin cache")), "m.parasol:10: `begin cache` cannot be inside `link`");
  EXPECT_EQ(error_of(small("end linklist")), "m.parasol:10: `end linklist` does not close `begin link`");
  EXPECT_EQ(error_of(small("just words")), "m.parasol:10: expected `name = value`, `begin NAME` or `end NAME`, found 'just words'");
  EXPECT_EQ(error_of("begin machine\nname = \"x\"\n"), "m.parasol:2: `begin machine` is never ended");
  std::string wrong_count = small();
  wrong_count.replace(wrong_count.find("links = 1"), 9, "links = 976");
  EXPECT_EQ(error_of(wrong_count), "m.parasol:13: the topology declares 976 links but lists 1");
}

}  // namespace
}  // namespace test_sim_parasol
