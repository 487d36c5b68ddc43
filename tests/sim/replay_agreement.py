#!/usr/bin/env python3
"""Replay agreement: `augur run --trace T` then `augur sim T` on the same model must predict the
same total and per-rank finish times within 0.1% (issue 23's acceptance; they are identical when
the simulator prices the trace's calls as the reverse profiler did).

usage: replay_agreement.py AUGUR EXAMPLE_BINARY PROCESSES [ARGS...]
"""
import json
import os
import subprocess
import sys
import tempfile

TOLERANCE = 1e-3


# The launcher of the MPI the programs were built against (an MPICH build's programs started by
# Open MPI's mpirun run as separate one-process jobs).
MPIRUN = os.environ.get("AUGUR_MPIRUN", "mpirun")

def report(text):
    return json.loads(text[text.index("{"):text.rindex("}") + 1])


def main():
    augur, program, processes, args = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    with tempfile.TemporaryDirectory() as tmp:
        trace = f"{tmp}/trace"
        run = subprocess.run([augur, "run", "--mpirun", MPIRUN, "--machine", "sp2-mpl", "--json", "--trace", trace, "-np", processes,
                              "--oversubscribe", "--", program, *args], capture_output=True, text=True)
        if "{" not in run.stdout:
            sys.exit(f"augur run gave no report:\n{run.stdout}\n{run.stderr}")
        sim = subprocess.run([augur, "sim", trace, "--match", "recorded", "--json", "--no-progress"], capture_output=True, text=True)
        if sim.returncode != 0:
            sys.exit(f"augur sim failed:\n{sim.stdout}\n{sim.stderr}")
        a, b = report(run.stdout), report(sim.stdout)
    pairs = [("total", a["predicted_seconds"], b["predicted_seconds"])]
    pairs += [(f"rank {x['rank']}", x["finish"], y["finish"]) for x, y in zip(a["ranks"], b["ranks"])]
    bad = [f"{what}: run {x:.9g} s, sim {y:.9g} s" for what, x, y in pairs if abs(x - y) > TOLERANCE * abs(x)]
    if len(a["ranks"]) != int(processes):
        bad.append(f"the run had {len(a['ranks'])} ranks, not {processes}: another MPI's launcher?")
    if len(a["ranks"]) != len(b["ranks"]):
        bad.append(f"{len(a['ranks'])} ranks run, {len(b['ranks'])} simulated")
    print(f"{program} p={processes}: run {a['predicted_seconds']:.9g} s, sim {b['predicted_seconds']:.9g} s")
    if bad:
        sys.exit("disagreement beyond 0.1%:\n  " + "\n  ".join(bad))


if __name__ == "__main__":
    main()
