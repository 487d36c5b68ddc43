"""Which state the machine was in during each measured run.

A virtual machine's host may move its processors between places close together and far apart:
on the guest this suite was measured on, an 8-byte ping-pong took 0.12-0.18 us in one state and
0.34-0.50 us in the other, for spells of 5-35 s (docs/bench.md, "Machine states"). A model made
by `augur bench` describes the reference state, the fastest that recurs (docs/fitting.md), and a
communication-bound program measured in the other state runs up to a third longer than in it.

So the suite probes the state right before and right after each measured run: an 8-byte
ping-pong between ranks 0 and 1 timed by augur-bench-mpi, the slower of the two kept, as the
bench's own state probe does around each point. A run is in the reference state when its probe
is within 1.75 times the 10th percentile of all the suite's probes, the rule `augur fit` uses
(src/fit/machine_state.hpp). The table's main columns use every measured run; the
reference-state columns say how far each prediction is from the runs made in the state its model
describes.
"""
import json
import statistics
import tempfile
from pathlib import Path

REFERENCE_QUANTILE = 0.10
OTHER_STATE_RATIO = 1.75
FEWEST_PROBES = 10  # below this the 10th percentile is the fastest probe, too lucky a reference
PROBE_BYTES = 8


def reference_probe(probes):
    """The 10th percentile of the probes, or None with too few probes to tell."""
    values = sorted(p for p in probes if p is not None)
    if len(values) < FEWEST_PROBES:
        return None
    return values[int(REFERENCE_QUANTILE * (len(values) - 1))]


def reference_limit(probes):
    """The probe above which a run was in another state, or None with too few probes to tell."""
    reference = reference_probe(probes)
    return None if reference is None else OTHER_STATE_RATIO * reference


def model_reference_probe(model_path):
    """The reference probe `augur fit` recorded in the model (provenance.settings.machine_states),
    in seconds, or None when the model has none."""
    try:
        model = json.loads(Path(model_path).read_text())
        value = model["provenance"]["settings"]["machine_states"]["reference_probe"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return value if isinstance(value, (int, float)) and value > 0 else None


def state_mismatch(model_probe, probes):
    """A sentence when the model's reference state and the measured runs' differ by more than
    OTHER_STATE_RATIO either way, else None. A bench that spends its whole run in one state takes
    that state for its reference, and cannot tell which it was; the suite, which probes the
    measured runs the same way, can."""
    runs_probe = reference_probe(probes)
    if model_probe is None or runs_probe is None:
        return None
    ratio = model_probe / runs_probe
    if 1 / OTHER_STATE_RATIO <= ratio <= OTHER_STATE_RATIO:
        return None
    slower, longer = ("slower", "long") if ratio > 1 else ("faster", "short")
    return (f"The model describes another state of the machine than the measured runs: its bench's reference "
            f"probe read {1e6 * model_probe:.3g} µs, the runs' {1e6 * runs_probe:.3g} µs ({ratio:.2g} times), so the "
            f"model was made in a {slower} state and predicts communication {longer}.")


def reference_runs(times, probes, limit):
    """The measured times whose probe is within the limit (all of them when there is no limit)."""
    if limit is None:
        return list(times)
    return [t for t, p in zip(times, probes) if p is not None and p <= limit]


def probe_from_raw(path):
    """The 8-byte ping-pong's median in seconds from a raw file of augur-bench-mpi."""
    for line in Path(path).read_text().splitlines():
        record = json.loads(line)
        if record.get("op") == "pingpong" and record.get("bytes") == PROBE_BYTES:
            return record["median"]
    raise RuntimeError(f"{path}: no {PROBE_BYTES}-byte pingpong record")


class Prober:
    """Runs the probe with `launch(cmd)` (the target's mpirun, wrapped as the target needs) and
    keeps every probe value."""

    def __init__(self, bench_binary, mpirun_prefix, launch):
        self.command = mpirun_prefix + [str(bench_binary), "--ops", "pingpong", "--groups", "2",
                                        "--max-size", str(PROBE_BYTES), "--no-compute", "--refine", "0",
                                        "--sync", "barrier"]
        self.launch = launch
        self.values = []

    def probe(self):
        with tempfile.TemporaryDirectory(prefix="augur-state-") as scratch:
            raw = Path(scratch) / "probe.raw.jsonl"
            self.launch(self.command + ["--raw", str(raw)])
            return probe_from_raw(raw)

    def around(self, measure):
        """(measure()'s result, the slower probe of just before and just after it)."""
        before = self.probe()
        result = measure()
        value = max(before, self.probe())
        self.values.append(value)
        return result, value

    def limit(self):
        return reference_limit(self.values)


def summary(rows):
    """A sentence on the errors against the reference-state runs, or None when no row has one."""
    errors = [abs(r["reference_error"]) for r in rows if r.get("reference_error") is not None]
    if not errors:
        return None
    return (f"Against the runs in the reference state only: median absolute error {100 * statistics.median(errors):.1f}% "
            f"(worst {100 * max(errors):.1f}%) over the {len(errors)} inputs that had such runs.")
