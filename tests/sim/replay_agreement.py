#!/usr/bin/env python3
"""Replay agreement: `augur run --trace T` then `augur sim T` on the same model must predict the
same total and per-rank finish times, to a relative 1e-9: the simulator prices the trace's calls
as the reverse profiler did. The same holds for the trace exported to OTF2 (`augur trace convert
--to otf2`) and replayed from the archive, so the OTF2 round trip loses nothing a replay uses.

With `--machine M --ranks-per-node K` first, both run and replay price on model M at K ranks a
node (a machine of nodes, docs/nodes.md): a message by its two ranks' level, a collective by its
placement, alike in both.

usage: replay_agreement.py [--machine M] [--ranks-per-node K] AUGUR EXAMPLE_BINARY PROCESSES [ARGS...]
"""
import json
import os
import subprocess
import sys
import tempfile

TOLERANCE = 1e-9
PRICING = []  # the model and placement both run and replay price with


# The launcher of the MPI the programs were built against (an MPICH build's programs started by
# Open MPI's mpirun run as separate one-process jobs).
MPIRUN = os.environ.get("AUGUR_MPIRUN", "mpirun")

def report(text):
    return json.loads(text[text.index("{"):text.rindex("}") + 1])


def pricing_options(argv):
    """The leading --machine and --ranks-per-node, and the arguments after them."""
    machine, options = "sp2-mpl", []
    while argv and argv[0] in ("--machine", "--ranks-per-node"):
        if argv[0] == "--machine":
            machine = argv[1]
        else:
            options += argv[:2]
        argv = argv[2:]
    return ["--machine", machine] + options, argv


def main():
    global PRICING
    PRICING, argv = pricing_options(sys.argv[1:])
    augur, program, processes, args = argv[0], argv[1], argv[2], argv[3:]
    with tempfile.TemporaryDirectory() as tmp:
        trace = f"{tmp}/trace"
        run = subprocess.run([augur, "run", "--mpirun", MPIRUN, *PRICING, "--json", "--trace", trace, "-np", processes,
                              "--oversubscribe", "--", program, *args], capture_output=True, text=True)
        if "{" not in run.stdout:
            sys.exit(f"augur run gave no report:\n{run.stdout}\n{run.stderr}")
        archive = f"{tmp}/otf2"
        convert = subprocess.run([augur, "trace", "convert", trace, "-o", archive, "--to", "otf2"], capture_output=True, text=True)
        if convert.returncode != 0:
            sys.exit(f"augur trace convert --to otf2 failed:\n{convert.stdout}\n{convert.stderr}")
        a = report(run.stdout)
        native, otf2 = replay(augur, trace), replay(augur, archive)
    bad = disagreements("sim", a, native) + disagreements("sim of the OTF2 export", a, otf2)
    if len(a["ranks"]) != int(processes):
        bad.append(f"the run had {len(a['ranks'])} ranks, not {processes}: another MPI's launcher?")
    print(f"{program} p={processes}: run {a['predicted_seconds']:.12g} s, sim {native['predicted_seconds']:.12g} s, "
          f"sim of OTF2 {otf2['predicted_seconds']:.12g} s")
    if bad:
        sys.exit(f"disagreement beyond a relative {TOLERANCE:g}:\n  " + "\n  ".join(bad))


def replay(augur, trace):
    sim = subprocess.run([augur, "sim", trace, *PRICING, "--match", "recorded", "--json", "--no-progress"],
                         capture_output=True, text=True)
    if sim.returncode != 0:
        sys.exit(f"augur sim {trace} failed:\n{sim.stdout}\n{sim.stderr}")
    return report(sim.stdout)


def disagreements(kind, run, sim):
    if len(run["ranks"]) != len(sim["ranks"]):
        return [f"{len(run['ranks'])} ranks run, {len(sim['ranks'])} in the {kind}"]
    pairs = [("total", run["predicted_seconds"], sim["predicted_seconds"])]
    pairs += [(f"rank {x['rank']}", x["finish"], y["finish"]) for x, y in zip(run["ranks"], sim["ranks"])]
    return [f"{what}: run {x:.12g} s, {kind} {y:.12g} s" for what, x, y in pairs if abs(x - y) > TOLERANCE * abs(x)]


if __name__ == "__main__":
    main()
