#!/usr/bin/env python3
"""Analysis bounds on an example program's traces: for the predicted (`augur run --trace`) and
the measured (`augur run --measure --trace`) run, `augur analyze` must give an optimistic limit
no higher than the run time, and halving the compute on the critical path (--scale-path 0.5) must not
make the re-simulated run faster than the bound known before simulating, unless the tuned run
matched wildcard receives otherwise (the bound is for the baseline's matching: a farm's master
taking results in another order may beat it). A trace that breaks a bound is kept in
analyze-bounds-failures/ of the working directory.

usage: analyze_bounds.py AUGUR EXAMPLE_BINARY PROCESSES [ARGS...]
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

SLACK = 1e-9  # relative: rounding of sums of doubles


# The launcher of the MPI the programs were built against (an MPICH build's programs started by
# Open MPI's mpirun run as separate one-process jobs).
MPIRUN = os.environ.get("AUGUR_MPIRUN", "mpirun")

def check(augur, trace, label):
    out = subprocess.run([augur, "analyze", trace, "--json", "--scale-path", "0.5"], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"{label}: augur analyze failed:\n{out.stdout}\n{out.stderr}")
    a = json.loads(out.stdout)
    run, limit = a["run_seconds"], a["optimistic_limit_seconds"]
    w = a["what_ifs"][0]
    print(f"{label}: run {run:.9g} s, limit {limit:.9g} s; path x0.5: baseline {w['baseline_seconds']:.9g} s, "
          f"tuned {w['tuned_seconds']:.9g} s, bound {w['bound_seconds']:.9g} s"
          f"{' (receives rematched)' if w['rematched'] else ''}")
    bad = []
    if limit > run * (1 + SLACK):
        bad.append(f"limit {limit} above the run time {run}")
    if w["tuned_seconds"] < w["bound_seconds"] * (1 - SLACK) and not w["rematched"]:
        bad.append(f"tuned run {w['tuned_seconds']} faster than its bound {w['bound_seconds']}")
    return [f"{label}: {b}" for b in bad]


def keep(trace, program, processes, label):
    """A trace that broke a bound, copied beside the test (the working directory) to be analysed again."""
    kept = os.path.abspath(f"analyze-bounds-failures/{os.path.basename(program)}-p{processes}-{label}")
    shutil.rmtree(kept, ignore_errors=True)
    shutil.copytree(trace, kept)
    return kept


def main():
    augur, program, processes, args = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    bad = []
    with tempfile.TemporaryDirectory() as tmp:
        for label, extra in (("predicted", []), ("measured", ["--measure"])):
            trace = f"{tmp}/{label}"
            run = subprocess.run([augur, "run", "--mpirun", MPIRUN, "--machine", "sp2-mpl", *extra, "--trace", trace, "-np", processes,
                                  "--oversubscribe", "--", program, *args], capture_output=True, text=True)
            if run.returncode != 0:
                sys.exit(f"augur run {label} failed:\n{run.stdout}\n{run.stderr}")
            found = check(augur, trace, f"{program} p={processes} {label}")
            if found:
                found.append(f"the trace is kept in {keep(trace, program, processes, label)}")
            bad += found
    if bad:
        sys.exit("\n".join(bad))


if __name__ == "__main__":
    main()
