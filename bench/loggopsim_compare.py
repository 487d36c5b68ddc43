#!/usr/bin/env python3
"""Runs the same GOAL schedules in LogGOPSim and in `augur sim --network loggops` and prints each
rank's end time from both (ns), with the largest difference per schedule.

    bench/loggopsim_compare.py LOGGOPSIM_SRC AUGUR [L o g G O S [SIZE [RANKS]]]

LOGGOPSIM_SRC is a LogGOPSim checkout's src/ with LogGOPSim/LogGOPSim, LogGOPSim/txt2bin and
Schedgen/schedgen built; the parameters are LogGOPSim's integers (ns), default 5000 1000 2000 1 0
1000, messages of SIZE = 1001 bytes on RANKS = 16 (up to 16 ranks each rank's time, beyond the
latest, as LogGOPSim prints them). The schedules: a halo, an eager and a rendezvous pipeline, a token ring, written here, and
schedgen's binomial broadcast, recursive-doubling allreduce and dissemination barrier.
"""
import json
import os
import re
import subprocess
import sys
import tempfile


def halo(p, size, calc):
    """Each rank posts receives from both neighbours, sends to both, computes, and waits."""
    out = [f"num_ranks {p}\n"]
    for r in range(p):
        peers = [q for q in (r - 1, r + 1) if 0 <= q < p]
        lines = [f"rank {r} {{\n"]
        for i, q in enumerate(peers):
            lines.append(f"r{i}: recv {size}b from {q} tag 0\n")
        for i, q in enumerate(peers):
            lines.append(f"s{i}: send {size}b to {q} tag 0\n")
            if i > 0:
                lines.append(f"s{i} requires s{i - 1}\n")
        lines.append(f"c: calc {calc}\nc requires s{len(peers) - 1}\nw: calc 0\nw requires c\n")
        lines += [f"w requires r{i}\n" for i in range(len(peers))]
        out.append("".join(lines) + "}\n")
    return "".join(out)


def pipeline(p, size, segments):
    """Rank 0 sends `segments` messages down a chain; each rank forwards each as it arrives."""
    out = [f"num_ranks {p}\n"]
    for r in range(p):
        lines, last = [f"rank {r} {{\n"], None
        for k in range(segments):
            if r > 0:
                lines.append(f"r{k}: recv {size}b from {r - 1} tag {k}\n")
                if last:
                    lines.append(f"r{k} requires {last}\n")
                last = f"r{k}"
            if r + 1 < p:
                lines.append(f"s{k}: send {size}b to {r + 1} tag {k}\n")
                if last:
                    lines.append(f"s{k} requires {last}\n")
                last = f"s{k}"
        out.append("".join(lines) + "}\n")
    return "".join(out)


def token_ring(p, size):
    out = [f"num_ranks {p}\n", f"rank 0 {{\ns: send {size}b to 1 tag 0\nr: recv {size}b from {p - 1} tag 0\nr requires s\n}}\n"]
    for r in range(1, p):
        out.append(f"rank {r} {{\nr: recv {size}b from {r - 1} tag 0\ns: send {size}b to {(r + 1) % p} tag 0\ns requires r\n}}\n")
    return "".join(out)


def loggopsim_times(src, goal, params):
    binary = goal + ".bin"
    subprocess.run([f"{src}/LogGOPSim/txt2bin", "-i", goal, "-o", binary], check=True, capture_output=True)
    flags = sum(([f"-{k}", str(v)] for k, v in zip("LogGOS", params)), [])
    text = subprocess.run([f"{src}/LogGOPSim/LogGOPSim", "-f", binary] + flags, check=True, capture_output=True,
                          text=True).stdout
    hosts = [int(t) for t in re.findall(r"^Host \d+: (\d+)$", text, re.M)]
    latest = re.search(r"^Maximum finishing time at host \d+: (\d+)", text, re.M)
    return hosts or ([int(latest.group(1))] if latest else None)  # None: it left receives unmatched


def augur_times(augur, goal, params):
    L, o, g, G, O, S = params
    spec = f"L={L}ns,o={o}ns,g={g}ns,G={G}ns,O={O}ns,S={S}"
    run = subprocess.run([augur, "sim", "--network", "loggops", "--loggops", spec, goal, "--json", "--no-progress"],
                         capture_output=True, text=True)
    if run.returncode != 0:
        return None
    text = run.stdout
    ranks = [round(r["finish"] * 1e9, 3) for r in json.loads(text)["ranks"]]
    return ranks if len(ranks) <= 16 else [max(ranks)]


def main():
    src, augur = sys.argv[1], sys.argv[2]
    params = [int(x) for x in sys.argv[3:9]] or [5000, 1000, 2000, 1, 0, 1000]
    size = int(sys.argv[9]) if len(sys.argv) > 9 else 1001
    ranks = int(sys.argv[10]) if len(sys.argv) > 10 else 16
    with tempfile.TemporaryDirectory() as tmp:
        cases = {"halo": halo(ranks, size, 10000), "eager pipeline": pipeline(ranks, params[5], 5),
                 "rendezvous pipeline": pipeline(ranks, params[5] + 1, 5), "token ring": token_ring(ranks, size)}
        for name, pattern in [("binomial bcast", "binomialtreebcast"), ("rd allreduce", "allreduce_recdoub"),
                              ("dissemination", "dissemination")]:
            path = os.path.join(tmp, pattern + ".goal")
            subprocess.run([f"{src}/Schedgen/schedgen", "-p", pattern, "-s", str(ranks), "-d", str(size), "-o", path],
                           check=True, capture_output=True)
            cases[name] = open(path).read()
        for name, text in cases.items():
            goal = os.path.join(tmp, name.replace(" ", "_") + ".goal")
            open(goal, "w").write(text)
            theirs, ours = loggopsim_times(src, goal, params), augur_times(augur, goal, params)
            if theirs is None or ours is None:
                print(f"{name}: {'LogGOPSim' if theirs is None else 'augur'} did not finish it")
                continue
            worst = max(abs(a - b) for a, b in zip(theirs, ours))
            print(f"{name}: largest difference {worst:g} ns")
            print(f"  LogGOPSim {theirs}\n  augur     {ours}")


if __name__ == "__main__":
    main()
