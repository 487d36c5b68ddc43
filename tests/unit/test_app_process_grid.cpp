// MPI_Dims_create's grid, shared by grid peers, the laws' dims(p, k, i) and augur learn: its
// factors, and the function as an app model's program reads it.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "app/app_program_json.hpp"
#include "app/process_grid.hpp"
#include "model/error.hpp"
#include "sim/program/app_program.hpp"

using namespace augur;

namespace {

// One group of all ranks sending `bytes` to the next rank, in an app model with n = 256.
app::AppModel sender(const std::string& bytes) {
  return app::parse_app_model(
      "{\"augur_app\": 1, \"name\": \"prog\",\n"
      "\"parameters\": {\"p\": {\"values\": [1, 2]}, \"n\": {\"values\": [256]}},\n"
      "\"phases\": [{\"name\": \"all\", \"expr\": \"1\"}],\n"
      "\"program\": {\"groups\": [{\"ranks\": {\"first\": \"0\", \"last\": \"p-1\"}, \"body\": [\n"
      "{\"op\": \"send\", \"peer\": {\"offset\": \"1\"}, \"bytes\": \"" + bytes + "\"}]}]}}\n",
      "app.json");
}

double bytes_sent(const app::AppModel& app, int p) {
  const auto program = sim::instantiate(app, p);
  sim::Op op;
  EXPECT_TRUE(program->fetch(0, 0, op));
  return op.value;
}

}  // namespace

TEST(AppProcessGrid, DimsAreBalancedAsMpiDimsCreate) {
  using V = std::vector<int>;
  EXPECT_EQ(app::balanced_dims(2, 2), (V{2, 1}));
  EXPECT_EQ(app::balanced_dims(8, 2), (V{4, 2}));
  EXPECT_EQ(app::balanced_dims(16, 2), (V{4, 4}));
  EXPECT_EQ(app::balanced_dims(12, 2), (V{4, 3}));
  EXPECT_EQ(app::balanced_dims(18, 2), (V{6, 3}));
  EXPECT_EQ(app::balanced_dims(72, 2), (V{9, 8}));
  EXPECT_EQ(app::balanced_dims(8, 3), (V{2, 2, 2}));
  EXPECT_EQ(app::balanced_dims(24, 3), (V{4, 3, 2}));
  EXPECT_EQ(app::balanced_dims(64, 3), (V{4, 4, 4}));
  EXPECT_EQ(app::balanced_dims(7, 2), (V{7, 1}));
  EXPECT_EQ(app::balanced_dims(1, 3), (V{1, 1, 1}));
  EXPECT_EQ(app::balanced_dims(65536, 2), (V{256, 256}));
}

TEST(AppProcessGrid, GridSideIsOneDimensionAndRefusesWhatIsNoGrid) {
  EXPECT_EQ(app::grid_side(32, 2, 0), 8);
  EXPECT_EQ(app::grid_side(32, 2, 1), 4);
  EXPECT_EQ(app::grid_side(1, 2, 1), 1);
  EXPECT_EQ(app::grid_side(24, 3, 2), 2);
  EXPECT_THROW(app::grid_side(0, 2, 0), std::invalid_argument);
  EXPECT_THROW(app::grid_side(2.5, 2, 0), std::invalid_argument);
  EXPECT_THROW(app::grid_side(4, 9, 0), std::invalid_argument);
  EXPECT_THROW(app::grid_side(4, 2, 2), std::invalid_argument);
  EXPECT_THROW(app::grid_side(4, 2, -1), std::invalid_argument);
}

// A 2-D stencil's row of n / dims[1] doubles at every count, the grid MPI_Dims_create makes.
TEST(AppProcessGrid, LawsReadTheGridsSides) {
  const auto app = sender("8 * n / dims(p, 2, 1)");
  EXPECT_EQ(bytes_sent(app, 2), 2048);
  EXPECT_EQ(bytes_sent(app, 8), 1024);
  EXPECT_EQ(bytes_sent(app, 32), 512);
  EXPECT_EQ(bytes_sent(app, 64), 256);
  EXPECT_EQ(bytes_sent(app, 12), 683);  // 2048 / 3, rounded
}

TEST(AppProcessGrid, ADimensionOutsideTheGridNamesThePhase) {
  try {
    app::parse_app_model(R"x({"augur_app": 1, "name": "prog", "parameters": {"p": {"values": [4]}},
"phases": [{"name": "all", "expr": "dims(p, 2, 2)"}]})x",
                         "app.json");
    FAIL() << "read a phase with dimension 2 of a 2-D grid";
  } catch (const model::ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("app.json:2: phases[0].expr: expression 'dims(p, 2, 2)': dims(4, 2, 2)"),
              std::string::npos)
        << e.what();
  }
}

TEST(AppProcessGrid, ADimensionOutsideTheGridNamesTheLaw) {
  try {
    sender("dims(p, 2, 2)");
    FAIL() << "read a law with dimension 2 of a 2-D grid";
  } catch (const model::ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("program.groups[0].body[0].bytes: expression 'dims(p, 2, 2)': dims(1, 2, 2)"),
              std::string::npos)
        << e.what();
  }
}
