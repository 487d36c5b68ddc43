"""The accuracy suite measures a run again when the hypervisor took too much of the processors
during it, and keeps the calmest try (bench/accuracy/steal.py)."""
import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "accuracy"))
import steal  # noqa: E402


class FakeStat:
    """/proc/stat readings in which each measured interval has the given steal share of 100 ticks."""

    def __init__(self, shares):
        self.readings = []
        steal_ticks, total = 0, 0
        self.readings.append((steal_ticks, total))
        for share in shares:
            steal_ticks += round(100 * share)
            total += 100
            self.readings.append((steal_ticks, total))
            self.readings.append((steal_ticks, total))  # the next try starts where this one ended
        self.at = 0

    def ticks(self):
        reading = self.readings[self.at]
        self.at += 1
        return reading


def measure_with(shares, most, tries=3):
    stat = FakeStat(shares)
    original = steal.ticks
    steal.ticks = stat.ticks
    try:
        meter = steal.Meter(most=most, tries=tries)
        results = iter(range(100))
        kept = meter.calmest(lambda: next(results))
        return kept, meter
    finally:
        steal.ticks = original


class CalmestTry(unittest.TestCase):
    def test_a_calm_run_is_measured_once(self):
        kept, meter = measure_with([0.02], most=0.10)
        self.assertEqual(kept, 0)
        self.assertEqual(meter.repeated, 0)
        self.assertAlmostEqual(meter.shares[0], 0.02)

    def test_a_disturbed_run_is_measured_again_until_calm(self):
        kept, meter = measure_with([0.40, 0.05], most=0.10)
        self.assertEqual(kept, 1)
        self.assertEqual(meter.repeated, 1)
        self.assertAlmostEqual(meter.shares[0], 0.05)

    def test_when_every_try_is_disturbed_the_calmest_is_kept(self):
        kept, meter = measure_with([0.40, 0.20, 0.30], most=0.10)
        self.assertEqual(kept, 1)
        self.assertEqual(meter.repeated, 2)
        self.assertEqual(meter.shares, [0.20])
        self.assertIn("2 repeats", meter.note())

    def test_without_a_limit_nothing_is_repeated(self):
        kept, meter = measure_with([0.90], most=None)
        self.assertEqual((kept, meter.repeated), (0, 0))
        self.assertNotIn("measured again", meter.note())


if __name__ == "__main__":
    unittest.main()
