// Times, sizes and operation names as every text report prints them.
#include <gtest/gtest.h>

#include <limits>

#include "model/catalog.hpp"
#include "model/units.hpp"

namespace {

using namespace augur::model;

TEST(Units, TimesReadInTheUnitThatKeepsThemBetweenOneAndAThousand) {
  EXPECT_EQ(format_seconds(1.5), "1.5 s");
  EXPECT_EQ(format_seconds(12.3456), "12.35 s");
  EXPECT_EQ(format_seconds(4321.9), "4322 s");
  EXPECT_EQ(format_seconds(0.0123456), "12.35 ms");
  EXPECT_EQ(format_seconds(0.000250), "250 µs");
  EXPECT_EQ(format_seconds(2.5e-6), "2.5 µs");
  EXPECT_EQ(format_seconds(4.2e-8), "42 ns");
  EXPECT_EQ(format_seconds(3e-10), "0.3 ns");
  EXPECT_EQ(format_seconds(-0.0021), "-2.1 ms");
}

TEST(Units, RoundingDecidesTheUnit) {
  EXPECT_EQ(format_seconds(0.99996), "1 s");
  EXPECT_EQ(format_seconds(0.00099996), "1 ms");
  EXPECT_EQ(format_seconds(0.0012344), "1.234 ms");
}

TEST(Units, ResidueBelowAPicosecondIsZero) {
  EXPECT_EQ(format_seconds(9.92045e-18), "0 s");
  EXPECT_EQ(format_seconds(-3e-16), "0 s");
  EXPECT_EQ(format_seconds(0), "0 s");
}

TEST(Units, NeverAnExponent) {
  for (double s : {1e-12, 1.234e-11, 7e-9, 1e5, 1.23456789e9})
    EXPECT_EQ(format_seconds(s).find_first_of("eE"), std::string::npos) << s << " " << format_seconds(s);
  EXPECT_EQ(significant(1.5e7), "15000000");
  EXPECT_EQ(significant(0.00012346), "0.0001235");
}

TEST(Units, NotANumberSaysSo) {
  EXPECT_EQ(format_seconds(std::numeric_limits<double>::infinity()), "inf s");
}

TEST(Units, SignificantFiguresDropTrailingZeros) {
  EXPECT_EQ(significant(2.50), "2.5");
  EXPECT_EQ(significant(100), "100");
  EXPECT_EQ(significant(9.99996), "10");
  EXPECT_EQ(significant(0.123456, 3), "0.123");
}

TEST(Units, BytesInPowersOf1024) {
  EXPECT_EQ(format_bytes(0), "0 B");
  EXPECT_EQ(format_bytes(512), "512 B");
  EXPECT_EQ(format_bytes(1023), "1023 B");
  EXPECT_EQ(format_bytes(1024), "1 KiB");
  EXPECT_EQ(format_bytes(1536), "1.5 KiB");
  EXPECT_EQ(format_bytes(65536), "64 KiB");
  EXPECT_EQ(format_bytes(16 * 1048576.0), "16 MiB");
  EXPECT_EQ(format_bytes(3.25 * 1073741824.0), "3.25 GiB");
  EXPECT_EQ(format_bytes(123456789), "117.7 MiB");
  EXPECT_EQ(format_bytes(156.25), "156.2 B");  // a crossover between two laws, not a whole byte
}

TEST(Units, RatesWithSiPrefixes) {
  EXPECT_EQ(format_rate(88.9e6, "B"), "88.9 MB/s");
  EXPECT_EQ(format_rate(8.1e9, "flop"), "8.1 Gflop/s");
  EXPECT_EQ(format_rate(2500, "B"), "2.5 kB/s");
  EXPECT_EQ(format_rate(512, "B"), "512 B/s");
  EXPECT_EQ(format_rate(1.5e13, "B").find_first_of("eE"), std::string::npos);
}

TEST(Units, TimeUnitForATable) {
  EXPECT_EQ(time_unit_for(3.69).name, "s");
  EXPECT_EQ(time_unit_for(0.0369).name, "ms");
  EXPECT_DOUBLE_EQ(time_unit_for(0.0369).seconds, 1e-3);
  EXPECT_EQ(time_unit_for(3.69e-5).name, "µs");
  EXPECT_EQ(time_unit_for(3.69e-9).name, "ns");
  EXPECT_EQ(time_unit_for(0).name, "s");
}

TEST(Units, OperationsReadAsMPIsOwnNames) {
  EXPECT_EQ(mpi_name("isend1"), "MPI_Isend");
  EXPECT_EQ(mpi_name("irecv1"), "MPI_Irecv");
  EXPECT_EQ(mpi_name("isend2"), "MPI_Wait (Isend)");
  EXPECT_EQ(mpi_name("irecv2"), "MPI_Wait (Irecv)");
  EXPECT_EQ(mpi_name("send"), "MPI_Send");
  EXPECT_EQ(mpi_name("sendrecv"), "MPI_Sendrecv");
  EXPECT_EQ(mpi_name("pingpong"), "MPI_Send/MPI_Recv ping-pong");
  EXPECT_EQ(mpi_name("bcast"), "MPI_Bcast");
  EXPECT_EQ(mpi_name("bcast_root"), "MPI_Bcast (root)");
  EXPECT_EQ(mpi_name("gatherv_others"), "MPI_Gatherv (non-root)");
  EXPECT_EQ(mpi_name("reduce_scatter_block"), "MPI_Reduce_scatter_block");
  EXPECT_EQ(mpi_name("iallreduce"), "MPI_Iallreduce");
  EXPECT_EQ(mpi_name("comm_split"), "MPI_Comm_split");
  EXPECT_EQ(mpi_name("MPI_Put"), "MPI_Put");
}

TEST(Units, EveryCatalogOperationHasAnMPIName) {
  for (const auto& info : operation_catalog()) {
    auto name = mpi_name(info.name);
    EXPECT_TRUE(name.starts_with("MPI_") || name == "message transit") << info.name << " -> " << name;
    EXPECT_EQ(name.find_first_of("0123456789"), std::string::npos) << info.name << " -> " << name;
  }
}

}  // namespace
