#!/usr/bin/env python3
"""The two levels of a machine of nodes, measured plainly and by augur bench (docs/emulated-nodes.md).

Starts 2 emulated nodes of 2 ranks (scripts/emulate-nodes) joined at RATE, then, in interleaved
rounds, times a plain ping-pong (tests/nodes/node_probe) across the link (ranks 0 and 2) and
within a node (ranks 0 and 1), and within this host without emulation (mpirun -np 2); then runs
`augur bench -np 4 --quick` across the nodes and `augur bench -np 2 --quick` on the host, and
prints, per size, the plain times (the median over rounds of the median block, and in brackets
the fastest block) beside the bench's records (the median over passes of each pass's median). Needs root, ip netns and Open MPI; stops the nodes however it ends.

  bench/nodes/levels.py [--build build] [--rate 1gbit] [--rounds 3] [--sync window|barrier] [--out DIR]

With --progress-thread it only probes, and adds both ping-pongs of the job across the nodes with
Open MPI's TCP polling moved to a thread of its own (`--mca btl_tcp_progress_thread 1`).
"""
import argparse
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
SIZES = [8, 1024, 65536, 1048576]


def run(cmd, **kw):
    print("+", " ".join(map(str, cmd)), file=sys.stderr)
    return subprocess.run(list(map(str, cmd)), check=True, text=True, capture_output=True, **kw).stdout


def probe(prefix, args, np, peer, program):
    out = run(prefix + ["mpirun", "--allow-run-as-root", "-np", np] + args + [program, peer] + SIZES)
    times = {}
    for line in out.splitlines():
        if line.startswith("pingpong"):
            words = line.split()
            times[int(words[2])] = (float(words[4]), float(words[10].rstrip(")")))
    return times


def bench_levels(raw):
    """{(nodes, ranks_per_node): {bytes: median over passes}} of the pingpong records."""
    by = {}
    for line in list(open(raw))[1:]:
        r = json.loads(line)
        if r.get("op") == "pingpong" and "median" in r:
            by.setdefault((r.get("nodes"), r.get("ranks_per_node")), {}).setdefault(int(r["bytes"]), []).append(r["median"])
    return {k: {b: statistics.median(v) for b, v in sizes.items()} for k, sizes in by.items()}


def us(t):
    if isinstance(t, tuple):
        return f"{us(t[0])} ({us(t[1])})"
    return "–" if t is None else (f"{t * 1e6:.3g} µs" if t < 1e-3 else f"{t * 1e3:.3g} ms")


def medians(plain):
    """Per size: the median over rounds of each round's median block, and the fastest block of all."""
    return {k: {b: (statistics.median(r[b][0] for r in v), min(r[b][1] for r in v)) for b in SIZES}
            for k, v in plain.items()}


def print_thread_table(plain):
    med = medians(plain)
    print("| size | on a node, 2-node job | the same, progress thread | one node alone | across the link | "
          "the same, progress thread |")
    print("| --- | --- | --- | --- | --- | --- |")
    for b in SIZES:
        cells = [med[k][b][0] for k in ("node", "node, thread", "host", "across", "across, thread")]
        print(f"| {b} B | " + " | ".join(us(c) for c in cells) + " |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=str(ROOT / "build"))
    ap.add_argument("--rate", default="1gbit")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--sync", default="window")
    ap.add_argument("--out", default=None)
    ap.add_argument("--progress-thread", action="store_true",
                    help="probe only, with and without btl_tcp_progress_thread (no bench)")
    o = ap.parse_args()
    build = pathlib.Path(o.build).resolve()
    script = ROOT / "scripts" / "emulate-nodes"
    program = build / "tests" / "nodes" / "node_probe"
    augur = build / "bin" / "augur"
    out = pathlib.Path(o.out or tempfile.mkdtemp(prefix="augur-levels-"))
    out.mkdir(parents=True, exist_ok=True)
    nodes = out / "nodes"
    run([script, "start", "--dir", nodes, "--nodes", 2, "--ranks-per-node", 2, "--rate", o.rate])
    try:
        args = (nodes / "mpirun-args").read_text().split()
        inside = [str(script), "exec", "--dir", str(nodes), "--"]
        plain = {"across": [], "node": [], "host": []}
        for _ in range(o.rounds):
            plain["across"].append(probe(inside, args, 4, 2, program))
            plain["node"].append(probe(inside, args, 4, 1, program))
            plain["host"].append(probe([], [], 2, 1, program))
            if o.progress_thread:
                thread = args + ["--mca", "btl_tcp_progress_thread", "1"]
                plain.setdefault("across, thread", []).append(probe(inside, thread, 4, 2, program))
                plain.setdefault("node, thread", []).append(probe(inside, thread, 4, 1, program))
        if o.progress_thread:
            return print_thread_table(plain)
        run(inside + [augur, "bench", "-np", 4, "--quick", "--sync", o.sync, "-o", out / "two-nodes.json", "--overwrite",
                      "-q", "--"] + args)
        run([augur, "bench", "-np", 2, "--quick", "--sync", o.sync, "-o", out / "one-node.json", "--overwrite", "-q"])
    finally:
        run([script, "stop", "--dir", nodes])
    two = bench_levels(out / "two-nodes.raw.jsonl")
    one = bench_levels(out / "one-node.raw.jsonl").get((None, None), {})
    med = medians(plain)
    print("| size | plain, across the link | bench, 2 nodes × 1 | plain, on an emulated node | bench, 1 node × 2 | "
          "plain, on the host | bench on one node |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for b in SIZES:
        cells = [med["across"][b], two.get((2, 1), {}).get(b), med["node"][b], two.get((1, 2), {}).get(b),
                 med["host"][b], one.get(b)]
        print(f"| {b} B | " + " | ".join(us(c) for c in cells) + " |")
    json.dump({"plain": plain, "two_nodes": {f"{k}": v for k, v in two.items()}, "one_node": one},
              open(out / "levels.json", "w"), indent=1)


if __name__ == "__main__":
    main()
