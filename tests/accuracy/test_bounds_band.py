"""The accuracy suite's band of a prediction, read from augur run's JSON report
(bench/accuracy/bounds_band.py), on synthetic reports."""
import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "accuracy"))
import bounds_band  # noqa: E402


def report(low, avg, high):
    return {"predicted_seconds": avg, "predicted_bounds": {"min": low, "avg": avg, "max": high}}


class BoundsBand(unittest.TestCase):
    def test_the_band_is_relative_to_avg(self):
        self.assertEqual(bounds_band.relative_band(report(0.9, 1.0, 1.2)), (0.9, 1.2))
        self.assertEqual(bounds_band.relative_band(report(1.5, 2.0, 3.0)), (0.75, 1.5))

    def test_a_report_without_the_three_clocks_is_an_error(self):
        for bad in ({"predicted_seconds": 1.0}, {"predicted_bounds": {"min": 1, "avg": 2}},
                    {"predicted_bounds": {"min": 0, "avg": 0, "max": 0}}):
            with self.assertRaises(ValueError):
                bounds_band.relative_band(bad)

    def test_share_inside_and_half_width(self):
        # Median band of three runs: low 0.9, high 1.1, laid around a predicted 2.0 s: [1.8, 2.2].
        bands = [(0.9, 1.1), (0.8, 1.2), (0.95, 1.05)]
        s = bounds_band.summary([1.7, 1.8, 2.0, 2.2, 2.3], 2.0, bands)
        self.assertEqual((s["inside"], s["of"]), (3, 5))
        self.assertAlmostEqual(s["half_width_pct"], 10.0)

    def test_a_band_without_width_holds_only_the_prediction(self):
        s = bounds_band.summary([1.0, 1.5], 1.5, [(1.0, 1.0)])
        self.assertEqual((s["inside"], s["half_width_pct"]), (1, 0.0))


if __name__ == "__main__":
    unittest.main()
