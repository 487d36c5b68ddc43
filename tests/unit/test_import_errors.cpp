// Bad benchmark output: each error names the file, the line and the reason.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "import/imb_reader.hpp"
#include "import/omb_reader.hpp"
#include "import/raw_records.hpp"

// The file's own names, apart from other test files' when a unity build (AUGUR_UNITY) joins them.
namespace test_import_errors {
namespace {

namespace {

using augur::import::ImportError;

// The reader's error on `text`, or "no error".
std::string error_of(augur::import::Document (*read)(std::istream&, const std::string&), const std::string& text,
                     const std::string& source) {
  std::istringstream in(text);
  try {
    read(in, source);
  } catch (const ImportError& e) {
    return e.what();
  }
  return "no error";
}

std::string omb_error(const std::string& text) { return error_of(augur::import::read_omb, text, "omb.txt"); }
std::string imb_error(const std::string& text) { return error_of(augur::import::read_imb, text, "imb.txt"); }

const std::string kOmbHead = "# OSU MPI Latency Test v7.4\n# Datatype: MPI_CHAR.\n# Size       Avg Latency(us)\n";

const std::string kImbHead =
    "#----------------------------------------------------------------\n"
    "#    Intel(R) MPI Benchmarks 2021.7, MPI-1 part\n"
    "#----------------------------------------------------------------\n"
    "# Date                  : Sun Dec  6 04:00:00 2026\n"
    "# Machine               : x86_64\n"
    "\n"
    "# Minimum message length in bytes:   0\n"
    "# Maximum message length in bytes:   4\n"
    "\n"
    "#---------------------------------------------------\n"
    "# Benchmarking PingPong \n"
    "# #processes = 2 \n"
    "#---------------------------------------------------\n"
    "       #bytes #repetitions      t[usec]   Mbytes/sec\n";

TEST(ImportErrors, OmbGoodInputParses) {
  EXPECT_EQ(omb_error(kOmbHead + "1   1.50\n2   1.60\n"), "no error");
}

TEST(ImportErrors, OmbRowCutOffNamesTheLine) {
  EXPECT_EQ(omb_error("# OSU MPI Allreduce Latency Test v7.4\n# Size  Avg Latency(us)  Min Latency(us)  Max Latency(us)  Iterations\n"
                      "4   1.0   0.9   1.1   1000\n8   1.2"),
            "omb.txt:4: the row ends after 2 of its 5 columns: the file is cut off");
}

TEST(ImportErrors, OmbHeaderWithoutRowsIsTruncated) {
  EXPECT_EQ(omb_error(kOmbHead), "omb.txt:1: OSU MPI Latency Test: a table header without rows (truncated?)");
}

TEST(ImportErrors, OmbNegativeTime) {
  EXPECT_EQ(omb_error(kOmbHead + "1   1.50\n2   -1.60\n"), "omb.txt:5: latency: negative time -1.60 µs");
}

TEST(ImportErrors, OmbOtherUnits) {
  EXPECT_EQ(omb_error("# OSU MPI Latency Test v7.4\n# Size       Latency (ms)\n1  0.002\n"),
            "omb.txt:2: column 'Latency (ms)' is not one OMB prints (another tool's output, or other units?)");
}

TEST(ImportErrors, OmbAnotherToolsFile) {
  EXPECT_EQ(omb_error("{\"augur_raw\":1}\n{\"op\":\"bcast\"}\n"),
            "omb.txt:1: a line of data before any '# OSU MPI … Test' line: not OSU Micro-Benchmarks output");
  EXPECT_EQ(omb_error("# just a comment\n"), "omb.txt:1: no '# OSU MPI … Test' line: not OSU Micro-Benchmarks output");
}

TEST(ImportErrors, OmbNotANumber) {
  EXPECT_EQ(omb_error(kOmbHead + "1   1.5x\n"), "omb.txt:4: latency: '1.5x' is not a number");
}

TEST(ImportErrors, OmbSizesMustGrow) {
  EXPECT_EQ(omb_error(kOmbHead + "2   1.50\n1   1.60\n"), "omb.txt:5: size 1 after size 2: sizes must grow down a table");
}

TEST(ImportErrors, OmbGpuRunIsRefused) {
  const auto e = omb_error("# OSU MPI-CUDA Latency Test v7.4\n# Size  Latency (us)\n1  2.0\n");
  EXPECT_EQ(e.rfind("omb.txt:1: OSU MPI-CUDA Latency Test: a run on GPU buffers", 0), 0u) << e;
  const auto buffers = omb_error(
      "# OSU MPI Latency Test v5.3\n# Send Buffer on DEVICE (D) and Receive Buffer on DEVICE (D)\n# Size  Latency (us)\n1  2.0\n");
  EXPECT_EQ(buffers.rfind("omb.txt:2: OSU MPI Latency Test: a run on GPU buffers", 0), 0u) << buffers;
}

TEST(ImportErrors, OmbCollectiveWithoutProcessCountNeedsTheOption) {
  std::istringstream in("# OSU MPI Allreduce Latency Test v7.4\n# Size  Avg Latency(us)\n4  1.0\n");
  const auto doc = augur::import::read_omb(in, "ar.txt");
  try {
    augur::import::to_raw({doc}, {.processes = 0, .machine_name = {}});
    FAIL() << "no error";
  } catch (const ImportError& e) {
    EXPECT_STREQ(e.what(), "ar.txt:1: OSU MPI Allreduce Latency Test: the file does not say how many processes ran it; give --processes N");
  }
  EXPECT_EQ(augur::import::to_raw({doc}, {.processes = 8, .machine_name = {}}).raw.points.at(0).p, 8);
}

TEST(ImportErrors, ImbGoodInputParses) {
  EXPECT_EQ(imb_error(kImbHead + "            0         1000         0.21         0.00\n"
                                 "            4         1000         0.25        16.00\n"),
            "no error");
}

TEST(ImportErrors, ImbTableShortOfTheMaximumLengthIsCutOff) {
  EXPECT_EQ(imb_error(kImbHead + "            0         1000         0.21         0.00\n"
                                 "            2         1000         0.25        16.00\n"),
            "imb.txt:16: PingPong: the table stops at 2 bytes, short of the maximum message length 4 the banner gives (the file is cut off)");
}

TEST(ImportErrors, ImbMultiGroupsBeyondAnyProcessCount) {
  auto multi = kImbHead.substr(0, kImbHead.find("# Benchmarking"));
  multi += "# Benchmarking Multi-Uniband\n# ( 100000 groups of 1000 processes each running simultaneous )\n";
  EXPECT_EQ(imb_error(multi), "imb.txt:12: 100000 groups of 1000 processes: more than 16777216 processes");
}

TEST(ImportErrors, ImbRowCutOff) {
  EXPECT_EQ(imb_error(kImbHead + "            0         1000         0.21         0.00\n            4         100"),
            "imb.txt:16: the row ends after 2 of its 4 columns: the file is cut off");
}

TEST(ImportErrors, ImbNegativeTimeAndOtherUnits) {
  EXPECT_EQ(imb_error(kImbHead + "            0         1000        -0.21         0.00\n"), "imb.txt:15: t[usec]: negative time -0.21 µs");
  auto msec = kImbHead;
  msec.replace(msec.find("t[usec]"), 7, "t[msec]");
  EXPECT_EQ(imb_error(msec + "            0         1000         0.21         0.00\n"),
            "imb.txt:14: column 't[msec]' is not one IMB prints (another tool's output, or other units?)");
}

TEST(ImportErrors, ImbAnotherToolsFile) {
  EXPECT_EQ(imb_error("# OSU MPI Latency Test v7.4\n# Size  Latency (us)\n1  2.0\n"),
            "imb.txt:3: a line before the 'Intel(R) MPI Benchmarks' banner: not IMB output");
}

TEST(ImportErrors, ImbTimeOutRowIsANoteNotAnError) {
  std::istringstream in(kImbHead + "            0         1000         0.21         0.00\n"
                                   "            4 time-out.; Time limit (secs_per_sample * msg_sizes_list_len) is over;\n");
  const auto doc = augur::import::read_imb(in, "imb.txt");
  ASSERT_EQ(doc.notes.size(), 1u);
  EXPECT_EQ(doc.notes[0], "imb.txt:16: PingPong at 4 bytes: time-out.;");
  EXPECT_EQ(doc.tables.at(0).rows.size(), 1u);
}

// IMB 2018's banner (src/IMB_g_info.c of v2018.1) names the version with its update; the tables
// are laid out as 2021's.
TEST(ImportErrors, Imb2018BannerGivesItsVersion) {
  auto text = kImbHead;
  text.replace(text.find("Intel(R) MPI Benchmarks 2021.7, MPI-1 part"), 42, "Intel (R) MPI Benchmarks 2018 Update 1, MPI-1 part    ");
  std::istringstream in(text + "            0         1000         0.21         0.00\n            4         1000         0.25        16.00\n");
  const auto doc = augur::import::read_imb(in, "imb2018.txt");
  EXPECT_EQ(doc.version, "2018 Update 1");
  ASSERT_EQ(doc.tables.size(), 1u);
  EXPECT_EQ(doc.tables[0].rows.size(), 2u);
}

}  // namespace

}  // namespace
}  // namespace test_import_errors
