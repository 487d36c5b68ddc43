// The built-in machine models against the equations printed in their sources. Every expected
// value is the published equation written out again here in C++, so a typo in a machines/*.json
// expression, a wrong unit or a misplaced regime boundary shows up as a named failing row.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "model/machines.hpp"
#include "model/model_json.hpp"

// The file's own names, apart from other test files' when a unity build (AUGUR_UNITY) joins them.
namespace test_machines {
namespace {

namespace {

using augur::model::load_machine;
using augur::model::load_model_file;

double ln(double x) { return std::log(x); }
double D(double p) { return std::floor(std::log2(p)); }  // seed 002's D = floor(log2 p)

// One published value: `expected_us` is the source's equation evaluated by hand.
struct Row {
  const char* machine;
  const char* op;
  double p;
  double bytes;
  double expected_us;
  // Equations must match to rounding; the SP2 check values are printed to 0.1 us, so they are
  // allowed half of that.
  double tolerance_us = 0;
};

std::string row_name(const ::testing::TestParamInfo<Row>& info) {
  std::string name = std::string(info.param.op) + "_p" + std::to_string(int(info.param.p)) + "_" +
                     std::to_string(long(info.param.bytes)) + "B";
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

class MachineEquation : public ::testing::TestWithParam<Row> {};

TEST_P(MachineEquation, MatchesPublishedEquation) {
  const Row& row = GetParam();
  const auto model = load_machine(row.machine);
  const double expected = row.expected_us * 1e-6;
  const double tolerance = std::max(row.tolerance_us * 1e-6, 1e-9 * std::abs(expected));
  EXPECT_NEAR(model.seconds(row.op, row.p, row.bytes), expected, tolerance)
      << row.machine << " " << row.op << " p=" << row.p << " bytes=" << row.bytes;

  const auto e = model.estimate(row.op, row.p, row.bytes);
  EXPECT_NEAR(e.avg, expected, tolerance);
  EXPECT_LE(e.min, e.avg);
  EXPECT_LE(e.avg, e.max);
}

// Cray T3D, Appendix B: d in 8-byte ints; small = d <= 32 ints, large beyond. Each row at
// d = 10 ints (80 bytes) and d = 1000 ints (8000 bytes); p = 2 for point-to-point, 16 otherwise.
const std::vector<Row> kT3d = {
    {"t3d", "send", 2, 80, 30 + 0 * 10},            {"t3d", "send", 2, 8000, 30 + 0.09 * 1000},
    {"t3d", "ssend", 2, 80, 80 + 0.5 * 10},         {"t3d", "ssend", 2, 8000, 100 + 0.1 * 1000},
    {"t3d", "rsend", 2, 80, 30 + 0.1 * 10},         {"t3d", "rsend", 2, 8000, 30 + 0.09 * 1000},
    {"t3d", "isend1", 2, 80, 30 + 0.2 * 10},        {"t3d", "isend1", 2, 8000, 30 + 0.09 * 1000},
    {"t3d", "isend2", 2, 80, 10 + 0 * 10},          {"t3d", "isend2", 2, 8000, 10 + 0.001 * 1000},
    {"t3d", "isendoverlap", 2, 80, 3 + 0 * 10},     {"t3d", "isendoverlap", 2, 8000, 3 + 0.0002 * 1000},
    {"t3d", "recv", 2, 80, 60 + 0.7 * 10},          {"t3d", "recv", 2, 8000, 60 + 0.5 * 1000},
    {"t3d", "recvmin", 2, 80, 30 + 0.9 * 10},       {"t3d", "recvmin", 2, 8000, 30 + 0.4 * 1000},
    {"t3d", "irecv1", 2, 80, 30 + 0 * 10},          {"t3d", "irecv1", 2, 8000, 40 + 0 * 1000},
    {"t3d", "irecv2", 2, 80, 40 + 0 * 10},          {"t3d", "irecv2", 2, 8000, 5 + 0.5 * 1000},
    {"t3d", "irecvoverlap", 2, 80, 0.6 + 0.02 * 10}, {"t3d", "irecvoverlap", 2, 8000, 0.5 + 0.005 * 1000},
    {"t3d", "sendrecv", 2, 80, 90 + 1 * 10},        {"t3d", "sendrecv", 2, 8000, 90 + 0.6 * 1000},
    {"t3d", "pingpong", 2, 80, 100 + 1 * 10},       {"t3d", "pingpong", 2, 8000, 100 + 1 * 1000},
    {"t3d", "allsend", 16, 80, 40 + 0.05 * 16 + 0.09 * 10},
    {"t3d", "allsend", 16, 8000, 40 + 0.1 * 16 + 0.1 * 1000},
    {"t3d", "alltoall", 16, 80, 40 + 50 * 16 + 2 * 10},
    {"t3d", "alltoall", 16, 8000, 0 + 40 * 16 + 0.3 * 16 * 1000},
    {"t3d", "gather", 16, 80, 70 + 10 * 16 + 0.7 * 10},
    {"t3d", "gather", 16, 8000, 0 + 200 * ln(16) + 0.0009 * 16 * 16 * 1000},
    {"t3d", "allgather", 16, 80, 40 + 40 * 16 + 1 * 10},
    {"t3d", "allgather", 16, 8000, 0 + 40 * 16 + 0.3 * 16 * 1000},
    {"t3d", "reduce", 16, 80, 300 + 3 * 16 + 2 * 10},
    {"t3d", "reduce", 16, 8000, 300 + 2 * 16 + 0.6 * ln(16) * 1000},
    {"t3d", "allreduce", 16, 80, 300 + 6 * 16 + 2 * ln(16) * 10},
    {"t3d", "allreduce", 16, 8000, 300 + 6 * 16 + 1 * ln(16) * 1000},
    {"t3d", "bcast", 16, 80, 200 + 2 * 16 + 0.6 * 10},
    {"t3d", "bcast", 16, 8000, 100 + 2 * 16 + 0.2 * ln(16) * 1000},
    {"t3d", "barrier", 16, 0, 10 + 8 * ln(16)},
    // 32 ints (256 bytes) is the last small size; 257 bytes is already large.
    {"t3d", "ssend", 2, 256, 80 + 0.5 * 32},
    {"t3d", "ssend", 2, 257, 100 + 0.1 * (257 / 8.0)},
};
INSTANTIATE_TEST_SUITE_P(T3dAppendixB, MachineEquation, ::testing::ValuesIn(kT3d), row_name);

// SP2/MPL ping-pong check values (seed 002), including both sides of every jump.
const std::vector<Row> kSp2PingpongChecks = {
    {"sp2-mpl", "pingpong", 2, 0, 47.0, 0.05},       {"sp2-mpl", "pingpong", 2, 216, 56.2, 0.05},
    {"sp2-mpl", "pingpong", 2, 217, 64.6, 0.05},     {"sp2-mpl", "pingpong", 2, 2048, 145.6, 0.05},
    {"sp2-mpl", "pingpong", 2, 2049, 143.9, 0.05},   {"sp2-mpl", "pingpong", 2, 8192, 353.6, 0.05},
    {"sp2-mpl", "pingpong", 2, 65535, 2310.7, 0.05}, {"sp2-mpl", "pingpong", 2, 65536, 2209.4, 0.05},
};
INSTANTIATE_TEST_SUITE_P(Sp2PingpongCheckValues, MachineEquation, ::testing::ValuesIn(kSp2PingpongChecks),
                         row_name);

const std::vector<Row> kSp2 = {
    {"sp2-mpl", "exchange", 2, 4095, 40 + 4095 / 28.4},
    {"sp2-mpl", "exchange", 2, 4096, -52 + 4096 / 16.2},
    {"sp2-mpl", "exchange", 2, 16384, -52 + 16384 / 16.2},
    {"sp2-mpl", "exchange", 2, 16385, 167 + 16385 / 20.7},
    {"sp2-mpl", "onetomany", 8, 1000, (-5.5 + 15.5 * 8) + (0.031 * 8) * 1000},
    {"sp2-mpl", "manytoone", 8, 1000, (3 + 13.3 * 8) + (0.0285 * 8) * 1000},
    {"sp2-mpl", "manytomany", 8, 1000, (43 + 40 * (8 - 2)) + (0.057 + 0.062 * (8 - 2)) * 1000},
    {"sp2-mpl", "bcast", 16, 216, (9.6 + 14 * D(16)) + (0.0083 + 0.015 * D(16)) * 216},
    {"sp2-mpl", "bcast", 16, 217, (6 + 12 * D(16)) + (0.025 + 0.026 * D(16)) * 217},
    {"sp2-mpl", "bcast", 12, 4000, (6 + 12 * D(12)) + (0.025 + 0.026 * D(12)) * 4000},
    {"sp2-mpl", "allreduce", 16, 216, 97 * D(16) + (0.11 * D(16)) * 216},
    {"sp2-mpl", "allreduce", 16, 217, 114 * D(16) + (0.12 * D(16)) * 217},
    {"sp2-mpl", "allreduce", 16, 2048, 114 * D(16) + (0.12 * D(16)) * 2048},
    {"sp2-mpl", "allreduce", 16, 2049, (-50 + 191 * D(16)) + (0.09 * D(16)) * 2049},
    {"sp2-mpl", "allreduce", 6, 2049, (-50 + 191 * D(6)) + (0.09 * D(6)) * 2049},
    // Barrier 84·log2 p at every power of two up to the 32 nodes measured.
    {"sp2-mpl", "barrier", 2, 0, 84 * 1},
    {"sp2-mpl", "barrier", 4, 0, 84 * 2},
    {"sp2-mpl", "barrier", 8, 0, 84 * 3},
    {"sp2-mpl", "barrier", 16, 0, 84 * 4},
    {"sp2-mpl", "barrier", 32, 0, 84 * 5},
};
INSTANTIATE_TEST_SUITE_P(Sp2Mpl, MachineEquation, ::testing::ValuesIn(kSp2), row_name);

const std::vector<Row> kSp1 = {
    {"sp1-mpl", "pingpong", 2, 216, 43 + 216 / 5.56},
    {"sp1-mpl", "pingpong", 2, 217, 58 + 217 / 7.39},
    {"sp1-mpl", "pingpong", 2, 8192, 58 + 8192 / 7.39},
    {"sp1-mpl", "pingpong", 2, 8193, 228 + 8193 / 8.70},
    {"sp1-mpl", "onetomany", 8, 1000, (-9 + 28 * 8) + (0.114 * 8) * 1000},
    {"sp1-mpl", "manytoone", 8, 1000, (-26 + 40 * std::sqrt(8.0) + 7.6 * 8) + (0.128 + 0.161 * ln(8)) * 1000},
    {"sp1-mpl", "manytomany", 8, 1000, (59 + 58 * (8 - 2)) + (0.231 + 0.280 * (8 - 2)) * 1000},
    {"sp1-mpl", "bcast", 16, 4096, (21 + 25 * D(16)) + (0.117 + 0.118 * D(16)) * 4096},
    {"sp1-mpl", "bcast", 16, 4097,
     (48 * 16 + 1.2 * 16 * 16) + (0.115 + 0.139 * D(16) - 0.02 * D(16) * D(16)) * 4097},
    {"sp1-mpl", "allreduce", 16, 216, (9.5 + 82 * D(16)) + (0.40 * D(16)) * 216},
    {"sp1-mpl", "allreduce", 16, 217, (12 + 112 * D(16)) + (0.30 * D(16)) * 217},
    {"sp1-mpl", "allreduce", 16, 4096, (12 + 112 * D(16)) + (0.30 * D(16)) * 4096},
    {"sp1-mpl", "allreduce", 16, 4097, (160 + 162 * 16) + (-0.23 + 0.43 * std::sqrt(D(16))) * 4097},
    {"sp1-mpl", "barrier", 8, 0, 84 * 3},
};
INSTANTIATE_TEST_SUITE_P(Sp1Mpl, MachineEquation, ::testing::ValuesIn(kSp1), row_name);

const std::vector<Row> kSp2Pvme = {
    {"sp2-pvme", "pingpong", 2, 216, 104 + 216 / 15.9},
    {"sp2-pvme", "pingpong", 2, 217, 120 + 217 / 17.8},
    {"sp2-pvme", "onetomany", 4, 8192, (8 + 32 * 4) + (4 / 30.0 - 0.012) * 8192},
    {"sp2-pvme", "onetomany", 4, 8193, (163 * 4 - 285) + (4 / 21.1) * 8193},
    // Broadcast is the one-to-many law (the source found PVMe has no special broadcast).
    {"sp2-pvme", "bcast", 4, 8192, (8 + 32 * 4) + (4 / 30.0 - 0.012) * 8192},
    {"sp2-pvme", "bcast", 4, 8193, (163 * 4 - 285) + (4 / 21.1) * 8193},
    // Many-to-many has its own law at p = 3 only.
    {"sp2-pvme", "manytomany", 3, 1000, 600 + 1000 / 5.12},
    {"sp2-pvme", "manytomany", 4, 1000, (300 + 750 * (4 - 2)) + (0.072 + (4 - 2) / 4.8) * 1000},
    {"sp2-pvme", "manytomany", 8, 1000, (300 + 750 * (8 - 2)) + (0.072 + (8 - 2) / 4.8) * 1000},
    {"sp2-pvme", "barrier", 8, 0, 1470 + 377 * 3},
};
INSTANTIATE_TEST_SUITE_P(Sp2Pvme, MachineEquation, ::testing::ValuesIn(kSp2Pvme), row_name);

const std::vector<Row> kSpp1000 = {
    {"spp1000", "pingpong", 2, 512, 74 + 512 / 6.44},
    {"spp1000", "pingpong", 2, 513, 136 + 513 / 12.38},
    {"spp1000", "pingpong", 2, 65536, 136 + 65536 / 12.38},
    {"spp1000", "pingpong", 2, 65537, 65537 / 9.39 - 7.78 * std::sqrt(65537.0)},
    {"spp1000", "onetomany", 4, 512, (23 + 36 * 4) + (4 / 14.3) * 512},
    {"spp1000", "onetomany", 4, 513, (33 + 64 * 4) + (4 / 26.0 - 0.008) * 513},
    {"spp1000", "onetomany", 4, 65536, (33 + 64 * 4) + (4 / 26.0 - 0.008) * 65536},
    {"spp1000", "onetomany", 4, 65537, 4 * 65537 / 20.4 - (3.9 + 3.3 * 4) * std::sqrt(65537.0)},
    {"spp1000", "manytomany", 4, 1000, (100 + 85 * (4 - 2)) + ((4 - 1) / 10.0) * 1000},
    {"spp1000", "bcast", 8, 1000, (52 + 8.4 * 8) + 1000 / 23.0},
    {"spp1000", "barrier", 8, 0, 39 + 0.465 * 8 * 8 * 8},
};
INSTANTIATE_TEST_SUITE_P(Spp1000, MachineEquation, ::testing::ValuesIn(kSpp1000), row_name);

// Network of SPARCstation 5s, LAM: d in 4-byte ints; p = 8 (the whole network), d = 100 ints.
const std::vector<Row> kNowLam = {
    {"now-lam", "alltoall", 8, 400, 2000 + 4000 * 8 * 8 + 2 * 8 * 8 * 100},
    {"now-lam", "allsend", 8, 400, 2000 + 1 * 100},
    {"now-lam", "gather", 8, 400, 30000 * ln(8) + 4 * ln(8) * 100},
    {"now-lam", "allgather", 8, 400, 8000 * 8 + 4 * 8 * 8 * 100},
    {"now-lam", "reduce", 8, 400, 20000 * ln(8) + 6 * ln(8) * 100},
    {"now-lam", "allreduce", 8, 400, 10000 + 500 * 8 * 8 + 2 * 100 * 8 * 8},
    {"now-lam", "bcast", 8, 400, 2000 + 700 * 8 * 8 + 1 * 8 * 100},
    {"now-lam", "barrier", 8, 0, 9000 * 8},
};
INSTANTIATE_TEST_SUITE_P(NowLam, MachineEquation, ::testing::ValuesIn(kNowLam), row_name);

// The generic placeholder: tcomms = 10 us per byte, collectives tcomms·d·log p.
const std::vector<Row> kGeneric = {
    {"generic", "bcast", 16, 1000, 10 * 1000 * ln(16)},
    {"generic", "alltoall", 8, 64, 10 * 64 * ln(8)},
    {"generic", "send", 2, 1000, 10 * 1000},
    {"generic", "barrier", 16, 0, 10 * ln(16)},
};
INSTANTIATE_TEST_SUITE_P(Generic, MachineEquation, ::testing::ValuesIn(kGeneric), row_name);

TEST(MachineCatalog, EveryBuiltinMachineIsListedAndLoads) {
  const auto names = augur::model::builtin_machine_names();
  for (const char* name : {"t3d", "now-lam", "sp1-mpl", "sp2-mpl", "sp2-pvme", "spp1000", "generic"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name;
    EXPECT_NO_THROW(load_machine(name)) << name;
  }
}

// The SP models' stated accuracy (better than ±8%) is their spread, so the bounds are ±8%.
TEST(MachineBounds, Sp2BoundsAreTheStatedAccuracy) {
  const auto e = load_machine("sp2-mpl").estimate("pingpong", 2, 1000);
  EXPECT_NEAR(e.min, 0.92 * e.avg, 1e-15);
  EXPECT_NEAR(e.max, 1.08 * e.avg, 1e-15);
}

// The timecalc session of seed 000 (seconds, 4-byte ints): 16 processes, 1000 ints = 4000 bytes.
// The averages are printed to six significant figures, hence half a unit of the last digit.
class TimecalcExample : public ::testing::Test {
 protected:
  augur::model::Model model = load_model_file(AUGUR_TEST_DATA "/timecalc.json");
};

TEST_F(TimecalcExample, BcastAverageMatchesPrintedSession) {
  EXPECT_NEAR(model.seconds("bcast", 16, 4000), 0.000911668, 5e-10);
}

TEST_F(TimecalcExample, AlltoallAverageMatchesPrintedSession) {
  EXPECT_NEAR(model.seconds("alltoall", 16, 4000), 0.00465803, 5e-9);
}

// The printed min/max cannot be reproduced from the printed errors; the format instead widens the
// average by the linear sum of stderr·|basis| (docs/model-format.md, "Bounds").
TEST_F(TimecalcExample, BoundsAreTheLinearSumOfCoefficientErrors) {
  const double bcast_err = 1.23071e-05 + 7.83058e-07 * 16 + 1.75882e-09 * 16 * 1000;
  const auto bcast = model.estimate("bcast", 16, 4000);
  EXPECT_NEAR(bcast.min, bcast.avg - bcast_err, 1e-12);
  EXPECT_NEAR(bcast.max, bcast.avg + bcast_err, 1e-12);

  const double alltoall_err = 4.80534e-07 + 2.9256e-06 * 16 + 8.85081e-09 * 16 * 1000;
  const auto alltoall = model.estimate("alltoall", 16, 4000);
  EXPECT_NEAR(alltoall.min, alltoall.avg - alltoall_err, 1e-12);
  EXPECT_NEAR(alltoall.max, alltoall.avg + alltoall_err, 1e-12);
}

}  // namespace

}  // namespace
}  // namespace test_machines
