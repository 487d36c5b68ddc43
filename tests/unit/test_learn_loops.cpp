// A rank's operations compressed into loops: the trees of synthetic programs, one shape whatever
// the loops' counts, every leaf's occurrences, and the time on 100,000 tokens.
#include <gtest/gtest.h>

#include <algorithm>
#include <ctime>
#include <cstdint>
#include <iostream>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "learn/loops.hpp"

namespace {

using augur::learn::compress;
using augur::learn::expand;
using augur::learn::LoopNode;
using augur::learn::LoopOptions;
using augur::learn::same_shape;

// Programs are written one letter a token; in the rank sequences augur learns from, a compute
// ('c') stands between every two calls.
std::vector<std::uint32_t> tokens(const std::string& letters) { return {letters.begin(), letters.end()}; }

std::string rep(int times, const std::string& body) {
  std::string out;
  for (int i = 0; i < times; ++i) out += body;
  return out;
}

std::string shown(const std::vector<LoopNode>& nodes) {
  return augur::learn::describe(nodes, [](std::uint32_t t) { return std::string(1, static_cast<char>(t)); });
}

// Compressed, checked to expand back to the input.
std::vector<LoopNode> loops_of(const std::string& letters, LoopOptions options = {}) {
  const auto input = tokens(letters);
  auto nodes = compress(input, options);
  EXPECT_EQ(expand(nodes), input) << letters;
  return nodes;
}

std::string stencil(int outer, int inner) {
  return "cI" + rep(outer, rep(inner, rep(4, "cR") + rep(4, "cS") + "cW") + "cA") + "cFc";
}

TEST(LearnLoops, StencilNestedLoopsKeepOneShapeAcrossCounts) {
  const auto reference = loops_of(stencil(6, 3));
  for (const int outer : {6, 12, 24}) {
    for (const int inner : {3, 5}) {
      const auto nodes = loops_of(stencil(outer, inner));
      EXPECT_EQ(shown(nodes), "c I repeat " + std::to_string(outer) + " { repeat " + std::to_string(inner) +
                                     " { repeat 4 { c R } repeat 4 { c S } c W } c A } c F c");
      EXPECT_TRUE(same_shape(nodes, reference)) << outer << " × " << inner;
    }
  }
}

TEST(LearnLoops, BodiesLongerThanTheLongestPeriodAreFoundOnceTheirInnerLoopsAre) {
  // 18 tokens a stencil step, 92 an outer iteration: found as loops of loops.
  const auto nodes = loops_of(stencil(10, 5), {.max_period = 8});
  EXPECT_EQ(shown(nodes), "c I repeat 10 { repeat 5 { repeat 4 { c R } repeat 4 { c S } c W } c A } c F c");
  // The call before the loop is its body's first: the run of the two is found before the loop,
  // which is found rotated and an iteration short; its body's 26 tokens are then looked for again
  // and the loop found whole. (With two iterations, the rotated loop is one and is not found.)
  for (const int k : {3, 4, 9}) {
    EXPECT_EQ(shown(loops_of("cIcB" + rep(k, "cBcE" + rep(5, "cDcA") + "cC") + "cFc", {.max_period = 8})),
              "c I c B repeat " + std::to_string(k) + " { c B c E repeat 5 { c D c A } c C } c F c");
  }
}

TEST(LearnLoops, LoopWhoseBodyStartsWithTheTokenAfterIt) {
  for (const int k : {2, 3, 7, 20})
    EXPECT_EQ(shown(loops_of(fmt::format("X{}AD", rep(k, "ABC")))), fmt::format("X repeat {} {{ A B C }} A D", k));
}

TEST(LearnLoops, BodyOfOneToken) {
  for (const int k : {2, 3, 50}) {
    const auto n = std::to_string(k);
    EXPECT_EQ(shown(loops_of("P" + rep(k, "A") + "Q")), "P repeat " + n + " { A } Q");
    EXPECT_EQ(shown(loops_of(rep(k, "A"))), "repeat " + n + " { A }");
    EXPECT_EQ(shown(loops_of("cP" + rep(k, "cA") + "cQc")), "c P repeat " + n + " { c A } c Q c");
  }
}

TEST(LearnLoops, EverySecondIterationAddingAnAllreduceIsALoopInALoop) {
  for (const int k : {2, 3, 6, 12}) {
    const auto n = std::to_string(k);
    EXPECT_EQ(shown(loops_of(rep(k, "ABABC"))), "repeat " + n + " { repeat 2 { A B } C }");
    EXPECT_EQ(shown(loops_of("cI" + rep(k, "cAcBcAcBcC") + "cFc")),
              "c I repeat " + n + " { repeat 2 { c A c B } c C } c F c");
  }
}

TEST(LearnLoops, BodyWithARepeatInsideHasOneFormWhateverTheCount) {
  for (int k = 2; k <= 9; ++k) {
    const auto n = std::to_string(k);
    EXPECT_EQ(shown(loops_of(rep(k, "AAB"))), "repeat " + n + " { repeat 2 { A } B }");
    EXPECT_EQ(shown(loops_of(rep(k, "ABA"))), "repeat " + n + " { A B A }");
    EXPECT_EQ(shown(loops_of(rep(k, "BAA"))), "repeat " + n + " { B repeat 2 { A } }");
  }
}

TEST(LearnLoops, PrologueEndingLikeTheBodyStaysOutsideTheLoop) {
  for (const int k : {2, 3, 8}) {
    const auto n = std::to_string(k);
    // A warm-up call before a loop whose body starts with two of it.
    EXPECT_EQ(shown(loops_of("A" + rep(k, "AAB"))), "A repeat " + n + " { repeat 2 { A } B }");
    EXPECT_EQ(shown(loops_of("cIcX" + rep(k, "cXcXcY") + "cFc")),
              "c I c X repeat " + n + " { repeat 2 { c X } c Y } c F c");
    // A prologue loop of the loop's first token.
    EXPECT_EQ(shown(loops_of(rep(100, "A") + rep(k, "AAAB"))),
              "repeat 100 { A } repeat " + n + " { repeat 3 { A } B }");
  }
}

TEST(LearnLoops, PrologueAndEpilogueAroundTheLoop) {
  for (const int k : {2, 5, 40}) {
    EXPECT_EQ(shown(loops_of("cIcXcY" + rep(k, "cRcScW") + "cZcFc")),
              "c I c X c Y repeat " + std::to_string(k) + " { c R c S c W } c Z c F c");
  }
}

TEST(LearnLoops, SiblingLoopsEndingWithTheSameCallStayApart) {
  const auto reference = loops_of(rep(2, "cXcY") + rep(2, "cZcY"));
  for (const int a : {2, 3, 5}) {
    for (const int b : {2, 3, 5}) {
      const auto nodes = loops_of(rep(a, "cXcY") + rep(b, "cZcY"));
      EXPECT_EQ(shown(nodes),
                "repeat " + std::to_string(a) + " { c X c Y } repeat " + std::to_string(b) + " { c Z c Y }");
      EXPECT_TRUE(same_shape(nodes, reference));
    }
  }
}

TEST(LearnLoops, SequenceWithoutRepeatsStaysFlat) {
  EXPECT_EQ(shown(loops_of("ABCDEFG")), "A B C D E F G");
  EXPECT_EQ(shown(loops_of("ABACABA")), "A B A C A B A");  // square-free
  EXPECT_TRUE(compress(std::vector<std::uint32_t>{}).empty());
  EXPECT_EQ(shown(loops_of("A")), "A");
}

TEST(LearnLoops, LongestPeriodBoundsTheBody) {
  EXPECT_EQ(shown(loops_of(rep(5, "ABC"), {.max_period = 2})), "A B C A B C A B C A B C A B C");
  EXPECT_EQ(shown(loops_of(rep(5, "ABC"), {.max_period = 3})), "repeat 5 { A B C }");
  EXPECT_EQ(shown(loops_of(rep(5, "A"), {.max_period = 0})), "A A A A A");
  EXPECT_EQ(shown(loops_of(rep(5, "ABC"), {.max_period = 4000000000u})), "repeat 5 { A B C }");
}

TEST(LearnLoops, OccurrencesListEveryPositionOfALeaf) {
  const auto nodes = loops_of("XABABABY");
  ASSERT_EQ(shown(nodes), "X repeat 3 { A B } Y");
  EXPECT_EQ(nodes[0].occurrences, (std::vector<std::uint32_t>{0}));
  EXPECT_EQ(nodes[1].body[0].occurrences, (std::vector<std::uint32_t>{1, 3, 5}));
  EXPECT_EQ(nodes[1].body[1].occurrences, (std::vector<std::uint32_t>{2, 4, 6}));
  EXPECT_EQ(nodes[2].occurrences, (std::vector<std::uint32_t>{7}));
  EXPECT_TRUE(nodes[1].occurrences.empty());
}

// Every position once, at a leaf of its token, each leaf's positions ascending.
void expect_occurrences_cover(const std::vector<LoopNode>& nodes, const std::vector<std::uint32_t>& input) {
  std::vector<int> seen(input.size(), 0);
  const auto visit = [&](const auto& self, const std::vector<LoopNode>& level) -> void {
    for (const auto& node : level) {
      if (node.is_loop()) {
        EXPECT_GE(node.times, 2u);
        self(self, node.body);
        continue;
      }
      EXPECT_TRUE(std::is_sorted(node.occurrences.begin(), node.occurrences.end()));
      for (const auto at : node.occurrences) {
        ASSERT_LT(at, input.size());
        EXPECT_EQ(input[at], node.token);
        ++seen[at];
      }
    }
  };
  visit(visit, nodes);
  EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](int n) { return n == 1; }));
}

TEST(LearnLoops, OccurrencesOfANestedProgramCoverItOnce) {
  const auto input = tokens(stencil(7, 4));
  const auto nodes = compress(input);
  expect_occurrences_cover(nodes, input);
  // The waitall of the stencil step: once per step, 28 steps.
  const auto& step = nodes[2].body[0].body;
  ASSERT_EQ(step[3].token, std::uint32_t{'W'});
  EXPECT_EQ(step[3].occurrences.size(), 28u);
}

TEST(LearnLoops, SameShapeComparesTokensAndNestingNotCounts) {
  EXPECT_TRUE(same_shape(loops_of("X" + rep(3, "AB")), loops_of("X" + rep(9, "AB"))));
  EXPECT_FALSE(same_shape(loops_of("X" + rep(3, "AB")), loops_of("Y" + rep(3, "AB"))));
  EXPECT_FALSE(same_shape(loops_of(rep(3, "AB")), loops_of(rep(3, "ABAB") + "C")));
  EXPECT_FALSE(same_shape(loops_of(rep(3, "AB")), loops_of(rep(3, "AB") + "C")));
  EXPECT_EQ(augur::learn::describe(compress(std::vector<std::uint32_t>{1, 2, 1, 2, 3})), "repeat 2 { 1 2 } 3");
}

TEST(LearnLoops, RandomSequencesExpandBackToThemselves) {
  std::mt19937 random(48);
  for (int trial = 0; trial < 300; ++trial) {
    const auto letters = 1 + trial % 4;
    std::uniform_int_distribution<std::uint32_t> letter(0, static_cast<std::uint32_t>(letters));
    std::vector<std::uint32_t> input(random() % 400);
    for (auto& t : input) t = letter(random);
    const auto nodes = compress(input, {.max_period = 1 + static_cast<std::uint32_t>(random() % 64)});
    ASSERT_EQ(expand(nodes), input) << "trial " << trial;
    expect_occurrences_cover(nodes, input);
  }
}

// Processor time, not wall time: the figure should not depend on what else the machine runs.
double seconds_to_compress(const std::vector<std::uint32_t>& input, std::vector<LoopNode>& nodes) {
  const auto start = std::clock();
  nodes = compress(input);
  return double(std::clock() - start) / CLOCKS_PER_SEC;
}

TEST(LearnLoops, HundredThousandTokensOfTwoNestedLoops) {
  const std::string body = "cRcRcScScWcX";  // 12 tokens
  const auto input = tokens("cI" + rep(413, rep(20, body) + "cA") + "cFc");
  std::vector<LoopNode> nodes;
  const auto took = seconds_to_compress(input, nodes);
  std::cout << input.size() << " tokens in two nested loops compressed in " << took << " s of processor time\n";
  EXPECT_EQ(shown(nodes), "c I repeat 413 { repeat 20 { repeat 2 { c R } repeat 2 { c S } c W c X } c A } c F c");
  EXPECT_EQ(expand(nodes), input);
}

TEST(LearnLoops, HundredThousandTokensWithoutRepeats) {
  std::vector<std::uint32_t> input(100000);
  std::iota(input.begin(), input.end(), 0u);
  std::shuffle(input.begin(), input.end(), std::mt19937(48));
  std::vector<LoopNode> nodes;
  const auto took = seconds_to_compress(input, nodes);
  std::cout << input.size() << " tokens without repeats compressed in " << took << " s of processor time\n";
  EXPECT_EQ(nodes.size(), input.size());
}

TEST(LearnLoops, HundredThousandRandomTokensOfFewKinds) {
  std::mt19937 random(48);
  std::uniform_int_distribution<std::uint32_t> letter(0, 3);
  std::vector<std::uint32_t> input(100000);
  for (auto& t : input) t = letter(random);
  std::vector<LoopNode> nodes;
  const auto took = seconds_to_compress(input, nodes);
  std::cout << input.size() << " random tokens of 4 kinds compressed in " << took << " s of processor time\n";
  EXPECT_EQ(expand(nodes), input);
}

}  // namespace
