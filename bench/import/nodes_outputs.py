#!/usr/bin/env python3
"""OSU Micro-Benchmarks output of a machine of two levels, made on 2 emulated nodes (docs/import.md).

Starts 2 emulated nodes of 2 ranks (scripts/emulate-nodes) joined at RATE and runs, with OMB built
by bench/import/make_outputs.sh (WORKDIR/omb/omb-7.4/install): osu_latency and osu_bw with both
ranks on node 1 (a job of its own) and with one rank on each node, osu_allreduce and osu_bcast
on all 4 ranks (2 a node), storing each output in OUT (default tests/data/import/nodes). With
--bench it also runs `augur bench -np 4 --quick` across the nodes (OUT/two-nodes.json). Needs
root, ip netns and Open MPI; stops the nodes however it ends.

  bench/import/nodes_outputs.py [--build build] [--work /work] [--rate 1gbit] [--out DIR] [--bench]
"""
import argparse
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]


def run(cmd, out=None):
    print("+", " ".join(map(str, cmd)), file=sys.stderr)
    text = subprocess.run(list(map(str, cmd)), check=True, text=True, capture_output=True).stdout
    if out:
        pathlib.Path(out).write_text(text)
    return text


def without_rankfile(args):
    """The launch arguments for fewer ranks than the nodes hold: the rankfile places all of them."""
    kept, skip = [], False
    for a in args:
        if skip:
            skip = False
        elif a == "--rankfile":
            skip = True
        else:
            kept.append(a)
    return kept


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=str(ROOT / "build"))
    ap.add_argument("--work", default="/work")
    ap.add_argument("--rate", default="1gbit")
    ap.add_argument("--out", default=str(ROOT / "tests" / "data" / "import" / "nodes"))
    ap.add_argument("--bench", action="store_true")
    o = ap.parse_args()
    omb = pathlib.Path(o.work) / "omb" / "omb-7.4" / "install" / "libexec" / "osu-micro-benchmarks" / "mpi"
    out = pathlib.Path(o.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    script = ROOT / "scripts" / "emulate-nodes"
    nodes = pathlib.Path("/tmp") / "augur-import-nodes"
    run([script, "start", "--dir", nodes, "--nodes", 2, "--ranks-per-node", 2, "--rate", o.rate])
    try:
        args = (nodes / "mpirun-args").read_text().split()
        inside = [str(script), "exec", "--dir", str(nodes), "--", "mpirun", "--allow-run-as-root"]
        pair = without_rankfile(args)
        for name in ("latency", "bw"):
            program = omb / "pt2pt" / f"osu_{name}"
            run(inside + ["-np", 2] + pair + [program, "-m", "1:65536"], out / f"omb-7.4-{name}-1node-2ranks.txt")
            run(inside + ["-np", 2, "--map-by", "node"] + pair + [program, "-m", "1:65536"],
                out / f"omb-7.4-{name}-2nodes-1rank.txt")
        for name in ("allreduce", "bcast"):
            run(inside + ["-np", 4] + args + [omb / "collective" / f"osu_{name}", "-m", "4:16384"],
                out / f"omb-7.4-{name}-2nodes-2ranks.txt")
        if o.bench:
            augur = pathlib.Path(o.build).resolve() / "bin" / "augur"
            run([script, "exec", "--dir", nodes, "--", augur, "bench", "-np", 4, "--quick", "-o", out / "two-nodes.json",
                 "--overwrite", "-q", "--"] + args)
    finally:
        run([script, "stop", "--dir", nodes])


if __name__ == "__main__":
    main()
