// `augur plot` as a user runs it: the seed's application models on the T3D and the NOW, their
// table and pictures, and the errors for what a model or a machine lacks.
#include <gtest/gtest.h>

#include <string>

#include "augur_runner.hpp"

using namespace augur_test;

namespace {

std::string example(const std::string& name) { return data("../../examples/models/" + name); }

}  // namespace

TEST(PlotCli, MandelOnTwoMachinesWritesTableAndPictures) {
  const auto dir = testing::TempDir() + "plot-mandel";
  auto r = augur("plot " + example("mandel.json") + " --machine t3d --machine now-lam -o " + dir);
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("now-lam d=20                       8"), std::string::npos) << r.out;  // the best p
  EXPECT_NE(r.out.find("Note: now-lam has no compute step"), std::string::npos) << r.out;
  const auto csv = read_text(dir + "/mandel.csv");
  EXPECT_EQ(csv.rfind("machine,d,p,compute_us,barrier_us,total_us,speedup\n", 0), 0u) << csv;
  EXPECT_EQ(count(csv, "\n"), 1u + 2 * 3 * 6);  // 2 machines × 3 sizes × p = 1 … 32
  for (const char* picture : {"mandel-time", "mandel-speedup", "mandel-phases-t3d", "mandel-phases-now-lam"}) {
    EXPECT_NE(read_text(dir + "/" + picture + ".svg").find("<svg"), std::string::npos) << picture;
    EXPECT_EQ(read_text(dir + "/" + picture + ".png").substr(1, 3), "PNG") << picture;
  }
}

TEST(PlotCli, SettingsChangeTheComputeStepAndFixAParameter) {
  const auto dir = testing::TempDir() + "plot-outer";
  auto r = augur("plot " + example("outer.json") + " --machine t3d --set tcompute=0.05 --set d=1000 --no-draw -o " + dir);
  ASSERT_EQ(r.status, 0) << r.out;
  const auto csv = read_text(dir + "/outer.csv");
  EXPECT_EQ(count(csv, "\n"), 1u + 6);
  // p = 1, d = 1000: the fill is 1000·1000·50·0.05 µs.
  EXPECT_NE(csv.find("t3d,1000,1,"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",2500000,"), std::string::npos) << csv;
}

TEST(PlotCli, LifeNeedsSendAndRecvWhichNowLacks) {
  auto r = augur("plot " + example("life.json") + " --machine now-lam --no-draw -o " + testing::TempDir());
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("life.json:13: terms[0].expr: machine 'now-lam' has no model of 'send' (tsend)"), std::string::npos)
      << r.out;
}

TEST(PlotCli, BadInputIsNamed) {
  const auto bad = temp_file("plot-bad.json", "{\"augur_app\": 1, \"name\": \"bad\",\n"
                                              " \"parameters\": {\"p\": {\"values\": [1, 2]}},\n"
                                              " \"phases\": [{\"name\": \"x\", \"expr\": \"tbcastt(p, 8)\"}]}\n");
  auto r = augur("plot " + bad + " --machine t3d");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find(bad + ":3: phases[0].expr: expression 'tbcastt(p, 8)': 'tbcastt': no operation 'bcastt'"),
            std::string::npos)
      << r.out;
  auto set = augur("plot " + example("mandel.json") + " --machine t3d --set nosuch=1 --no-draw");
  EXPECT_EQ(set.status, 2);
  EXPECT_NE(set.out.find("--set nosuch: not a parameter, constant or node term of mandel"), std::string::npos) << set.out;
  auto syntax = augur("plot " + example("mandel.json") + " --machine t3d --set d=");
  EXPECT_EQ(syntax.status, 2);
}
