"""The accuracy suite tells the runs made in the machine's reference state from the others
(bench/accuracy/machine_state.py)."""
import json
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "accuracy"))
import machine_state  # noqa: E402

FAST, SLOW = 0.14e-6, 0.36e-6


class ReferenceLimit(unittest.TestCase):
    def test_the_limit_is_above_the_fast_state_and_below_the_slow_one(self):
        probes = [FAST * (1 + 0.01 * i) for i in range(12)] + [SLOW] * 8
        limit = machine_state.reference_limit(probes)
        self.assertGreater(limit, max(probes[:12]))
        self.assertLess(limit, SLOW)

    def test_a_lone_lucky_probe_does_not_become_the_reference(self):
        probes = [0.05e-6] + [FAST] * 15 + [SLOW] * 4
        self.assertGreater(machine_state.reference_limit(probes), FAST)

    def test_too_few_probes_tell_nothing(self):
        self.assertIsNone(machine_state.reference_limit([FAST, SLOW, FAST]))
        self.assertIsNone(machine_state.reference_limit([None] * 20))


class ReferenceRuns(unittest.TestCase):
    def test_keeps_the_times_whose_probe_is_within_the_limit(self):
        times = [1.0, 1.3, 1.01, 1.35]
        probes = [FAST, SLOW, FAST, None]
        self.assertEqual(machine_state.reference_runs(times, probes, 2 * FAST), [1.0, 1.01])

    def test_without_a_limit_every_run_counts(self):
        self.assertEqual(machine_state.reference_runs([1.0, 2.0], [None, None], None), [1.0, 2.0])


class ProbeFromRaw(unittest.TestCase):
    def write(self, records):
        path = Path(self.enterContext(tempfile.TemporaryDirectory())) / "probe.raw.jsonl"
        path.write_text("\n".join(json.dumps(r) for r in records) + "\n")
        return path

    def test_reads_the_eight_byte_pingpong(self):
        path = self.write([{"augur_raw": 1}, {"op": "pingpong", "bytes": 4.0, "median": 1e-7},
                           {"op": "pingpong", "bytes": 8.0, "median": 1.5e-7}])
        self.assertEqual(machine_state.probe_from_raw(path), 1.5e-7)

    def test_a_file_without_it_is_an_error_naming_the_file(self):
        path = self.write([{"augur_raw": 1}, {"op": "pingpong", "bytes": 4.0, "median": 1e-7}])
        with self.assertRaisesRegex(RuntimeError, "probe.raw.jsonl"):
            machine_state.probe_from_raw(path)


class StateMismatch(unittest.TestCase):
    def write_model(self, settings):
        path = Path(self.enterContext(tempfile.TemporaryDirectory())) / "model.json"
        path.write_text(json.dumps({"augur_model": 1, "provenance": {"source": "t", "settings": settings}}))
        return path

    def test_reads_the_reference_probe_the_fit_recorded(self):
        path = self.write_model({"machine_states": {"probed": 28107, "elsewhere": 3, "reference_probe": 0.35e-6}})
        self.assertEqual(machine_state.model_reference_probe(path), 0.35e-6)

    def test_a_model_without_the_record_has_no_probe(self):
        self.assertIsNone(machine_state.model_reference_probe(self.write_model({"fit": {}})))
        self.assertIsNone(machine_state.model_reference_probe(self.write_model({"machine_states": {"reference_probe": "x"}})))
        self.assertIsNone(machine_state.model_reference_probe(Path("/nonexistent/model.json")))

    def test_a_model_made_in_the_slow_state_is_named_against_runs_in_the_fast_one(self):
        text = machine_state.state_mismatch(0.35e-6, [FAST] * 12 + [SLOW] * 3)
        self.assertIn("0.35 µs, the runs' 0.14 µs (2.5 times)", text)
        self.assertIn("slower state and predicts communication long", text)

    def test_a_model_made_in_the_fast_state_against_runs_in_the_slow_one(self):
        text = machine_state.state_mismatch(FAST, [SLOW] * 12)
        self.assertIn("faster state and predicts communication short", text)

    def test_the_same_state_or_too_few_probes_say_nothing(self):
        self.assertIsNone(machine_state.state_mismatch(0.15e-6, [FAST] * 9 + [SLOW] * 6))
        self.assertIsNone(machine_state.state_mismatch(SLOW, [FAST] * 9))
        self.assertIsNone(machine_state.state_mismatch(None, [FAST] * 12))


class Summary(unittest.TestCase):
    def test_errors_of_inputs_with_reference_runs_only(self):
        rows = [{"reference_error": 0.02}, {"reference_error": -0.08}, {"reference_error": 0.04}, {}]
        text = machine_state.summary(rows)
        self.assertIn("median absolute error 4.0%", text)
        self.assertIn("worst 8.0%", text)
        self.assertIn("3 inputs", text)
        self.assertIsNone(machine_state.summary([{}, {"reference_error": None}]))


if __name__ == "__main__":
    unittest.main()
