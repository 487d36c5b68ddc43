// describe_file: what augur takes a file for, from its name and first bytes.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "trace/exporters.hpp"
#include "trace/file_kind.hpp"
#include "trace/native_reader.hpp"
#include "trace/synthetic.hpp"

namespace {

namespace fs = std::filesystem;
using augur::trace::describe_file;
using augur::trace::FileKind;

class FileKindTest : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = fs::temp_directory_path() / ("augur-file-kind-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    augur::trace::SyntheticTraceSpec spec;
    spec.ranks = 2;
    spec.events = 100;
    augur::trace::write_synthetic_trace(dir_ / "run", spec);
  }
  static void TearDownTestSuite() { fs::remove_all(dir_); }

  static fs::path file(const std::string& name, const std::string& bytes) {
    std::ofstream(dir_ / name, std::ios::binary) << bytes;
    return dir_ / name;
  }
  static FileKind kind(const fs::path& path) { return describe_file(path).kind; }

  static inline fs::path dir_;
};

TEST_F(FileKindTest, AugursOwnTracesAndSchedules) {
  EXPECT_EQ(kind(dir_ / "run"), FileKind::native_trace);
  EXPECT_EQ(kind(dir_ / "run" / "rank-00001.augt"), FileKind::native_trace);
  EXPECT_EQ(kind(file("seed.txt", "\n$types\nP BARRIER\n")), FileKind::text_trace);
  EXPECT_EQ(kind(file("ring.sched", "# a ring\n\nranks 4\nranks 0..N-1 { sendrecv rank+1 rank-1 8 }\n")),
            FileKind::schedule);
}

TEST_F(FileKindTest, TheExportersFormatsAreNamed) {
  const auto run = augur::trace::read_native_trace(dir_ / "run");
  augur::trace::export_otf2(run, dir_ / "otf2");
  augur::trace::export_chrome_json(run, dir_ / "run.json");
  augur::trace::export_paraver(run, dir_ / "pv");
  EXPECT_EQ(kind(dir_ / "otf2" / "traces.otf2"), FileKind::otf2);
  EXPECT_EQ(kind(dir_ / "otf2"), FileKind::otf2);
  EXPECT_EQ(kind(dir_ / "otf2" / "traces" / "0.evt"), FileKind::otf2);
  const auto events = describe_file(dir_ / "otf2" / "traces");
  EXPECT_EQ(events.kind, FileKind::otf2);
  EXPECT_NE(events.what.find((dir_ / "otf2" / "traces.otf2").string()), std::string::npos) << events.what;
  EXPECT_EQ(kind(dir_ / "run.json"), FileKind::chrome_json);
  EXPECT_EQ(kind(file("array.json", "[{\"name\": \"a\", \"ph\": \"B\", \"ts\": 0}]")), FileKind::chrome_json);
  EXPECT_EQ(kind(dir_ / "pv.prv"), FileKind::paraver);
  EXPECT_EQ(kind(dir_ / "pv.pcf"), FileKind::paraver);
  EXPECT_EQ(kind(dir_ / "pv.row"), FileKind::paraver);
}

TEST_F(FileKindTest, AugursJsonFilesByTheirVersionField) {
  EXPECT_EQ(kind(file("m.json", "{\n  \"machine\": {\"name\": \"x\"},\n  \"augur_model\": 1\n}\n")), FileKind::model);
  EXPECT_EQ(kind(file("a.json", "{\"augur_app\": 1, \"name\": \"x\"}")), FileKind::app_model);
  EXPECT_EQ(kind(file("t.json", "{\"augur_machine\": 1}\n")), FileKind::machine);
  EXPECT_EQ(kind(file("r.jsonl", "{\"augur_raw\": 1}\n{\"op\": \"bcast\"}\n")), FileKind::raw);
  EXPECT_EQ(kind(file("lines.jsonl", "{\"op\": \"bcast\"}\n{\"op\": \"send\"}\n")), FileKind::json_lines);
  EXPECT_EQ(kind(file("other.json", "{\"name\": \"package\", \"version\": \"1.0\"}")), FileKind::json);
  // A field deeper down names nothing: only the top level's fields decide.
  EXPECT_EQ(kind(file("nested.json", "{\"x\": {\"augur_model\": 1}}")), FileKind::json);
  EXPECT_EQ(kind(file("broken.json", "{\"augur_modle\": 1,")), FileKind::malformed_json);
  // Damage after the deciding field still tells the kind: the reader's error then says where.
  EXPECT_EQ(kind(file("damaged.json", "{\"augur_model\": 1, \"machine\": ")), FileKind::model);
}

TEST_F(FileKindTest, WhatIsNoneOfAugursFiles) {
  EXPECT_EQ(kind(dir_ / "nosuch"), FileKind::missing);
  EXPECT_EQ(kind(file("empty", "")), FileKind::empty);
  const auto elf = describe_file(file("program", std::string("\x7f" "ELF\x02\x01\x01\0\0\0", 10)));
  EXPECT_EQ(elf.kind, FileKind::binary);
  EXPECT_NE(elf.what.find("ELF"), std::string::npos) << elf.what;
  EXPECT_EQ(describe_file(file("data.bin", std::string("ab\0cd", 5))).what, "a binary file");
  const auto text = describe_file(file("notes.txt", "\n  total time 12 s\n"));
  EXPECT_EQ(text.kind, FileKind::text);
  EXPECT_EQ(text.what, "a text file starting 'total time 12 s'");
  fs::create_directories(dir_ / "plain");
  EXPECT_EQ(kind(dir_ / "plain"), FileKind::directory);
  EXPECT_EQ(kind("/dev/null"), FileKind::binary);  // a device: never read
}

}  // namespace
