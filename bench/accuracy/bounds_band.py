"""The band of a prediction: `augur run` keeps min, avg and max clocks side by side in one run
(docs/revprof.md, "Three clocks"), and its JSON report gives the run time on each
(`predicted_bounds`). The suite compares the program's own time, not the whole run's, so the band
is taken relative to avg and laid around the predicted program time."""
import statistics


def relative_band(report):
    """(min / avg, max / avg) of one prediction's JSON report."""
    bounds = report.get("predicted_bounds")
    if not isinstance(bounds, dict) or not all(isinstance(bounds.get(k), (int, float)) for k in ("min", "avg", "max")):
        raise ValueError("report has no predicted_bounds with numbers min, avg and max")
    avg = bounds["avg"]
    if avg <= 0:
        raise ValueError(f"report's predicted_bounds.avg is {avg}, expected > 0")
    return bounds["min"] / avg, bounds["max"] / avg


def summary(measured, predicted, bands):
    """For one input: the share of `measured` times inside [min, max] of the median band of the
    prediction runs (`bands`, each relative_band's answer) laid around the median `predicted`
    time, and the band's half-width, (max - min) / 2 as a percentage of avg."""
    low = statistics.median(b[0] for b in bands)
    high = statistics.median(b[1] for b in bands)
    inside = sum(predicted * low <= t <= predicted * high for t in measured)
    return {"inside": inside, "of": len(measured), "half_width_pct": 100 * (high - low) / 2}
