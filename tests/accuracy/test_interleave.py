"""The accuracy and applications suites measure and predict in turn: each measured run is
followed at once by its prediction, item after item, round after round, and an item that fails
is left out of later rounds (bench/accuracy/run.py, `interleave`)."""
import contextlib
import importlib.util
import io
import sys
import unittest
from pathlib import Path

RUN = Path(__file__).resolve().parents[2] / "bench" / "accuracy" / "run.py"
sys.path.insert(0, str(RUN.parent))  # its sibling modules


def load_accuracy():
    spec = importlib.util.spec_from_file_location("accuracy_run", RUN)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


accuracy = load_accuracy()


class EveryTry:
    """A steal meter that keeps the first try."""

    def calmest(self, measure):
        return measure()


class Around:
    """A state prober that numbers its probes."""

    def __init__(self):
        self.count = 0

    def around(self, measure):
        self.count += 1
        return measure(), self.count


class Interleave(unittest.TestCase):
    def run_quietly(self, *args, **kwargs):
        with contextlib.redirect_stdout(io.StringIO()) as out:
            done = accuracy.interleave(*args, **kwargs)
        return done, out.getvalue()

    def test_each_measured_run_is_followed_by_its_prediction(self):
        calls = []
        done, out = self.run_quietly(
            ["a", "b"], 2, lambda item, r: calls.append(("measure", item, r)) or f"{item}{r}",
            lambda item, r: calls.append(("predict", item, r)) or f"p{item}{r}", EveryTry(), None)
        self.assertEqual(calls, [("measure", "a", 0), ("predict", "a", 0), ("measure", "b", 0), ("predict", "b", 0),
                                 ("measure", "a", 1), ("predict", "a", 1), ("measure", "b", 1), ("predict", "b", 1)])
        self.assertEqual(done.measured, [["a0", "a1"], ["b0", "b1"]])
        self.assertEqual(done.predicted, [["pa0", "pa1"], ["pb0", "pb1"]])
        self.assertEqual(done.probes, [[None, None], [None, None]])
        self.assertEqual(done.failed, {})
        self.assertEqual(out.count("measured and predicted every input"), 2)

    def test_probes_are_kept_beside_their_runs(self):
        done, _ = self.run_quietly(["a", "b"], 2, lambda item, r: 0, lambda item, r: 0, EveryTry(), Around())
        self.assertEqual(done.probes, [[1, 3], [2, 4]])

    def test_an_item_that_fails_is_left_out_of_later_rounds(self):
        predicted = []

        def predict(item, r):
            if item == "b" and r == 0:
                raise accuracy.Failed("no prediction")
            predicted.append((item, r))
            return r

        done, _ = self.run_quietly(["a", "b", "c"], 2, lambda item, r: r, predict, EveryTry(), None,
                                   give_up=(accuracy.Failed,))
        self.assertEqual(predicted, [("a", 0), ("c", 0), ("a", 1), ("c", 1)])
        self.assertEqual(list(done.failed), [1])
        self.assertEqual(str(done.failed[1]), "no prediction")
        self.assertEqual(done.measured, [[0, 1], [0], [0, 1]])
        self.assertEqual(done.predicted, [[0, 1], [], [0, 1]])

    def test_a_failure_not_given_up_on_ends_the_suite(self):
        def measure(item, r):
            raise accuracy.Failed("the run failed")

        with self.assertRaises(accuracy.Failed):
            self.run_quietly(["a"], 1, measure, lambda item, r: 0, EveryTry(), None)

    def test_show_follows_each_pair(self):
        shown = []
        done, out = self.run_quietly(["a"], 2, lambda item, r: r, lambda item, r: -r, EveryTry(), None,
                                     show=lambda item, r, m, p: shown.append((item, r, m, p)))
        self.assertEqual(shown, [("a", 0, 0, 0), ("a", 1, 1, -1)])
        self.assertEqual(out, "")


if __name__ == "__main__":
    unittest.main()
