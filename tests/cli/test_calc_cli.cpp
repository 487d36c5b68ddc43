// `augur calc` and `augur machines` as a user runs them: exit codes, printed equations, JSON.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <tuple>

#include <nlohmann/json.hpp>

#include <fmt/format.h>

#include "augur_runner.hpp"
#include "readable_text.hpp"

using augur_test::augur;
using augur_test::temp_file;
using readable_text::first_exponent;

TEST(CalcCli, OneShotPrintsEquationAndTimes) {
  auto r = augur("calc --machine sp2-mpl pingpong 2 217");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("t = "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("217 B <= size < 2049 B"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("avg=64.6 µs"), std::string::npos) << r.out;  // 55 + 217/22.6 µs
}

TEST(CalcCli, AnswersInUnitsForReadingAndNamesTheMPICall) {
  auto r = augur("calc --machine t3d bcast 16 1000ints");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("bcast (MPI_Bcast) on t3d: p = 16, d = 1000 ints of 8 B\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Times: min=686.5 µs avg=686.5 µs max=686.5 µs\n"), std::string::npos) << r.out;
  EXPECT_EQ(first_exponent(r.out), "") << r.out;
  auto list = augur("calc --machine t3d", {.input = "list\n"});
  EXPECT_NE(list.out.find("  isend1 (MPI_Isend): "), std::string::npos) << list.out;
}

TEST(CalcCli, TakesMPIsOwnNamesInAnyCase) {
  const auto bench_name = augur("calc --machine t3d bcast 16 1000ints --json");
  ASSERT_EQ(bench_name.status, 0) << bench_name.out;
  for (const char* name : {"MPI_Bcast", "mpi_bcast"}) {
    const auto r = augur(std::string("calc --machine t3d ") + name + " 16 1000ints --json");
    ASSERT_EQ(r.status, 0) << r.out;
    EXPECT_EQ(nlohmann::json::parse(r.out)["seconds"], nlohmann::json::parse(bench_name.out)["seconds"]) << name;
  }
  const auto isend = augur("calc --machine t3d MPI_Isend 2 8");
  ASSERT_EQ(isend.status, 0) << isend.out;
  EXPECT_NE(isend.out.find("isend1 (MPI_Isend)"), std::string::npos) << isend.out;
  const auto unknown = augur("calc --machine t3d MPI_Bogus 2 8");
  EXPECT_NE(unknown.status, 0);
  EXPECT_NE(unknown.out.find("has no model of 'MPI_Bogus'"), std::string::npos) << unknown.out;
}

TEST(CalcCli, JsonAnswerHasBoundsInOrder) {
  auto r = augur("calc --machine t3d bcast 16 1000ints --json");
  ASSERT_EQ(r.status, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["bytes"], 8000);
  EXPECT_EQ(j["d"], 1000);
  // T3D large bcast: 100 + 2p + 0.2·log(p)·d µs.
  EXPECT_NEAR(j["seconds"]["avg"].get<double>(), (100 + 32 + 0.2 * std::log(16.0) * 1000) * 1e-6, 1e-9);
  EXPECT_LE(j["seconds"]["min"].get<double>(), j["seconds"]["avg"].get<double>());
  EXPECT_LE(j["seconds"]["avg"].get<double>(), j["seconds"]["max"].get<double>());
}

TEST(CalcCli, InteractivePromptAnswersEachLine) {
  auto r = augur("calc --machine sp2-mpl", {.input = "pingpong 2 0\nbogus 2 0\nbarrier 8 0\n"});
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("avg=47 µs"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("error: machine 'sp2-mpl' has no model of 'bogus'"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("avg=252 µs"), std::string::npos) << r.out;  // 84·log2(8) µs
}

TEST(CalcCli, SaysWhenAnAnswerLiesBeyondWhatTheModelMeasured) {
  const auto path = temp_file("augur_calc_measured.json",
                               R"({"augur_model": 1, "machine": {"name": "ranged"}, "provenance": {"source": "test"},
               "units": {"time": "us", "size": "bytes"},
               "operations": {"pingpong": {"regimes": [{"from": 0, "expr": "1 + d/1000"}],
                                           "measured": {"max_bytes": 1048576, "max_processes": 2}}}})");
  auto inside = augur("calc --machine " + path + " pingpong 2 1MiB");
  ASSERT_EQ(inside.status, 0) << inside.out;
  EXPECT_EQ(inside.out.find("Extrapolated"), std::string::npos) << inside.out;
  auto beyond = augur("calc --machine " + path + " pingpong 2 16MiB");
  ASSERT_EQ(beyond.status, 0) << beyond.out;
  EXPECT_NE(beyond.out.find("Extrapolated: the model measured messages up to 1 MiB and groups up to 2"),
            std::string::npos)
      << beyond.out;
  auto json = augur("calc --machine " + path + " pingpong 4 8 --json");
  ASSERT_EQ(json.status, 0) << json.out;
  EXPECT_TRUE(nlohmann::json::parse(json.out).at("extrapolated").get<bool>());
  std::remove(path.c_str());
}

TEST(CalcCli, AnswersFromAModelMadeInTwoMachineStatesSayWhichStateTheyDescribe) {
  const auto path = temp_file("augur_calc_states.json", R"({"augur_model": 1, "machine": {"name": "drifting"},
               "provenance": {"source": "test", "settings": {"fit": {"state": "reference"},
                 "machine_states": {"probed": 1000, "elsewhere": 300, "reference_probe": 1.4e-7,
                                    "elsewhere_probe": 3.5e-7, "limit": 2.45e-7}}},
               "units": {"time": "us", "size": "bytes"},
               "operations": {"pingpong": {"regimes": [{"from": 0, "expr": "1 + d/1000"}]}}})");
  auto text = augur("calc --machine " + path + " pingpong 2 8");
  ASSERT_EQ(text.status, 0) << text.out;
  EXPECT_NE(text.out.find("Note on the model: While this model was measured, 30% of the measurements"),
            std::string::npos)
      << text.out;
  auto json = augur("calc --machine " + path + " pingpong 2 8 --json");
  ASSERT_EQ(json.status, 0) << json.out;
  EXPECT_NE(nlohmann::json::parse(json.out).at("model_note").get<std::string>().find("describes the faster state"),
            std::string::npos);
  auto built_in = augur("calc --machine sp2-mpl pingpong 2 8");
  EXPECT_EQ(built_in.out.find("Note on the model"), std::string::npos) << built_in.out;
  std::remove(path.c_str());
}

TEST(CalcCli, UnknownMachineFailsWithTheKnownNames) {
  auto r = augur("calc --machine cray-9 bcast 2 0");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.out.find("cray-9"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("sp2-mpl"), std::string::npos) << r.out;
}

TEST(CalcCli, BadSizeAndProcessCountAreUsageErrors) {
  EXPECT_EQ(augur("calc --machine t3d bcast 16 12parsecs").status, 2);
  EXPECT_EQ(augur("calc --machine t3d bcast zero 8").status, 2);
}

TEST(CalcCli, BadModelFileNamesFieldAndExitsNonZero) {
  auto r = augur(std::string("calc --machine ") + AUGUR_TEST_DATA + "/bad_overlap.json pingpong 2 0");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("bad_overlap.json: operations.pingpong.regimes[1].from: overlaps"), std::string::npos)
      << r.out;
}

TEST(MachinesCli, ListsEveryBuiltinMachine) {
  auto r = augur("machines");
  ASSERT_EQ(r.status, 0);
  for (const char* name : {"t3d", "now-lam", "sp1-mpl", "sp2-mpl", "sp2-pvme", "spp1000", "generic"})
    EXPECT_NE(r.out.find(name), std::string::npos) << name;
}

// The catalogue of today's machines (docs/machines-today.md): listed with the year, network and
// ranks a node their provenance gives, and shown with what they lack.
TEST(MachinesCli, ListsTodaysMachinesWithYearNetworkAndRanksANode) {
  auto r = augur("machines");
  ASSERT_EQ(r.status, 0) << r.out;
  const auto row = [&](const std::string& name) {
    const auto at = r.out.find("\n" + name + " ");
    return at == std::string::npos ? std::string() : r.out.substr(at + 1, r.out.find('\n', at + 1) - at - 1);
  };
  for (const auto& [name, year, network, ranks] :
       {std::tuple{"archer2", "2023", "HPE Slingshot", "128"}, std::tuple{"cirrus-ex4000", "2025", "HPE Slingshot 11", "288"},
        std::tuple{"cofc-hpc", "2019", "InfiniBand", "1"}, std::tuple{"oci-optimized3", "2023", "RoCE v2", "1"},
        std::tuple{"csd3-cclake-ib", "2020", "InfiniBand 100 Gb/s", "32"}, std::tuple{"csd3-cclake-roce", "2020", "RoCE 50 Gb/s", "32"},
        std::tuple{"vermilion-proto", "2021", "Ethernet 10 Gb/s", "1"}}) {
    const auto line = row(name);
    ASSERT_FALSE(line.empty()) << name << "\n" << r.out;
    std::istringstream words(line);
    std::string got_name, got_year;
    words >> got_name >> got_year;
    EXPECT_EQ(got_year, year) << line;
    EXPECT_NE(line.find(fmt::format(" {}", network)), std::string::npos) << line;
    EXPECT_NE(line.find(fmt::format(" {} ", ranks)), std::string::npos) << line;
  }
  EXPECT_NE(row("t3d").find("1996"), std::string::npos) << r.out;
  auto one = augur("machines archer2");
  ASSERT_EQ(one.status, 0) << one.out;
  for (const char* want : {"\ndate: 2023-05-30\n", "\nMPI library: Cray MPICH 8.1.23\n", "\nranks_per_node: 128\n", "\nlacks: point-to-point"})
    EXPECT_NE(one.out.find(want), std::string::npos) << want << "\n" << one.out;
}

// `augur calc` on a catalogue machine gives what its published file prints (osu_latency's 1.07 us
// at 0 bytes on cofc-hpc, osu_allreduce's 7.93 us at 4 bytes on 256 ranks of archer2) within 5%.
TEST(CalcCli, TodaysMachinesAnswerAsTheirPublishedFiles) {
  auto r = augur("calc --machine cofc-hpc pingpong 2 0 --json");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NEAR(nlohmann::json::parse(r.out)["seconds"]["avg"].get<double>(), 1.07e-6, 0.05 * 1.07e-6);
  auto collective = augur("calc --machine archer2 allreduce 256 4 --json");  // osu_allreduce printed 7.93 us
  ASSERT_EQ(collective.status, 0) << collective.out;
  EXPECT_NEAR(nlohmann::json::parse(collective.out)["seconds"]["avg"].get<double>(), 7.93e-6, 0.05 * 7.93e-6);
}

TEST(MachinesCli, NamesEachOperationAsTheModelAndMPIDo) {
  auto r = augur("machines t3d");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("\n  bcast (MPI_Bcast; 2 regimes): "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n  isend1 (MPI_Isend; 2 regimes): "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n  pingpong (MPI_Send/MPI_Recv ping-pong; 2 regimes): "), std::string::npos) << r.out;
}

TEST(CalcCli, LoopGivesTheBoundsTermsOnThePower2Node) {
  auto r = augur("calc --machine sp2-mpl loop fa=1 fm=0 fma=2 l=2 s=1");  // LFK1
  ASSERT_EQ(r.status, 0) << r.out;
  for (const char* want : {"node power2-thin", "t_f  = 1.5 cycles", "t_m  = 1.5 cycles", "t_i  = 1.5 cycles",
                           "t_l  = max = 1.5 cycles", "CPF = 0.300 cycles per flop", "MFLOPS = 222.3",
                           "Time: 22.49 ns per iteration"})
    EXPECT_NE(r.out.find(want), std::string::npos) << want << "\n" << r.out;
  EXPECT_EQ(first_exponent(r.out), "") << r.out;
}

TEST(CalcCli, LoopJsonHasExactValues) {
  auto r = augur("calc --machine sp2-mpl loop fa=1 fm=1 l=2 s=1 td=3 --json");  // LFK5 with its dependence path
  ASSERT_EQ(r.status, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["limit"], "t_d");
  EXPECT_DOUBLE_EQ(j["cycles"]["t_l"].get<double>(), 3.0);
  EXPECT_DOUBLE_EQ(j["cpf"].get<double>(), 1.5);
  EXPECT_DOUBLE_EQ(j["mflops"].get<double>(), 66.7 / 1.5);
  EXPECT_DOUBLE_EQ(j["seconds_per_iteration"].get<double>(), 3 / 66.7e6);
}

TEST(CalcCli, LoopRejectsBadKeysAndValuesByName) {
  const std::pair<const char*, const char*> cases[] = {{"loop fa=x", "'x' is not a number"},
                                                       {"loop flops=3", "unknown key 'flops'"},
                                                       {"loop l=-2", "cannot be negative"},
                                                       {"loop ml=1.5", "0 to 1"},
                                                       {"loop fa", "is not KEY=VALUE"},
                                                       {"loop s=1 s=2", "given twice"}};
  for (const auto& [args, reason] : cases) {
    auto r = augur(std::string("calc --machine sp2-mpl ") + args);
    EXPECT_NE(r.status, 0) << args;
    EXPECT_NE(r.out.find(reason), std::string::npos) << args << "\n" << r.out;
  }
  auto t3d = augur("calc --machine t3d loop fa=1");
  EXPECT_NE(t3d.status, 0);
  EXPECT_NE(t3d.out.find("compute.flops"), std::string::npos) << t3d.out;
  auto help = augur("calc --help");
  EXPECT_NE(help.out.find("loop fa=1 fm=0 fma=2 l=2 s=1"), std::string::npos) << help.out;
}
