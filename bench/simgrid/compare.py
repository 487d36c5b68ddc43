#!/usr/bin/env python3
"""augur's flow model against SimGrid's on the same machines and the same traffic.

For each topology, the platform is exported with `augur machines export`; for each pattern
(ring: every rank sends to rank+1 and receives from rank-1, STEPS times; alltoall: augur's
pairwise alltoall, step k = 1 .. p-1 sends to rank+k and receives from rank-k; burst: every rank
sends to all others at once, then receives from them, p(p-1) flows together; bcast: augur's
binomial broadcast from rank 0, `--algorithm bcast=binomial`; tree: a binomial tree from rank 0
written as a schedule, each rank sending to its children, the nearest in rank first, once its
parent's message has arrived; incast: every other rank sends to rank 0 at once; permutation: rank r
sends to perm[r] and receives from its inverse, perm a fixed shuffle of the ranks (seeded);
staggered: the ring, each rank starting 5 µs after the one before) and each message size, one
rank a core placed by the machine's mapping (the hostfile `augur machines export --hostfile`
writes), `augur sim --network topology` runs the
pattern as a schedule (sendrecv, a bcast, or isend, recv and waitall) and simgrid_traffic runs it
on the exported platform. Prints both predicted times, their relative difference and the wall
time of each (the median of --repeat runs). With --check PCT, exits 1 when a difference exceeds
PCT per cent; with --check-speed, when augur's wall time exceeds SimGrid's; with --check-messages
PCT, when a message's receive end (augur's trace, `augur trace convert --to messages`, against
SimGrid's `message` lines) differs by more than PCT per cent. --alltoall-steps S runs only the
alltoall's first S steps. With --jitter N, each case runs on N machines, the generator's link
latency times 1 + j*1e-9 (j = 0 .. N-1), and the mean ends are compared (--check applies to
them): a pairwise alltoall with many ranks behind each link is ill-conditioned, either
simulator's end moving by per cent under such a change, so one run of each cannot agree while
their means can. docs/simgrid-comparison.md has runs.

  compare.py --augur build/bin/augur --simgrid-traffic build/bin/simgrid_traffic
"""
import argparse
import collections
import csv
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

DEFAULT_TOPOLOGIES = "star:64;torus:8x8;fattree:4,3"
SIZE_UNITS = {"": 1, "B": 1, "KiB": 1024, "MiB": 1024**2, "GiB": 1024**3, "kB": 1000, "MB": 1000**2}


def parse_size(text):
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([A-Za-z]*)\s*", text)
    if not m or m.group(2) not in SIZE_UNITS:
        raise argparse.ArgumentTypeError(f"'{text}' is not a size such as 65536, 64KiB or 1MiB")
    return int(float(m.group(1)) * SIZE_UNITS[m.group(2)])


PATTERNS = ("ring", "alltoall", "burst", "bcast", "tree", "incast", "permutation", "staggered")
STAGGER = 5e-6  # seconds between the starts of consecutive ranks in the staggered pattern


def permutation(ranks):
    """A shuffle of the ranks that moves every rank, the same in every run (SimGrid's side takes it
    on its command line)."""
    import random
    rng = random.Random(ranks)
    while True:
        perm = list(range(ranks))
        rng.shuffle(perm)
        if all(p != r for r, p in enumerate(perm)):
            return perm


def tree_schedule(ranks, size):
    """simgrid_traffic's binomial tree: r's parent is r less its highest bit, its children
    r + 2^k for 2^k above r, the smallest k first."""
    lines = [f"ranks {ranks}"]
    for r in range(ranks):
        high = 1
        while high <= r:
            high <<= 1
        body = [f"  recv {r - high // 2} {size}"] if r > 0 else []
        mask = high
        while r + mask < ranks:
            body.append(f"  isend {r + mask} {size}")
            mask <<= 1
        lines += [f"rank {r} {{"] + body + ["  waitall", "}"]
    return "\n".join(lines) + "\n"


def schedule(pattern, ranks, size, steps, alltoall_steps=None):
    if pattern == "tree":
        return tree_schedule(ranks, size)
    if pattern == "incast":
        return "\n".join([f"ranks {ranks}", "rank 0 {"] + [f"  irecv {k} {size}" for k in range(1, ranks)]
                         + ["  waitall", "}", "ranks 1..N-1 {", f"  isend 0 {size}", "  waitall", "}"]) + "\n"
    lines = [f"ranks {ranks}"]
    if pattern == "permutation":
        perm = permutation(ranks)
        inverse = [perm.index(r) for r in range(ranks)]
        lines += ["table perm = {" + ", ".join(map(str, perm)) + "}",
                  "table inverse = {" + ", ".join(map(str, inverse)) + "}",
                  "ranks 0..N-1 {", f"  sendrecv perm[rank] inverse[rank] {size}"]
        return "\n".join(lines + ["}"]) + "\n"
    if pattern == "staggered":  # a TIME is a number, not an expression: one body per rank
        for r in range(ranks):
            lines += [f"rank {r} {{", f"  at {r * STAGGER * 1e9:.0f}ns",
                      f"  repeat {steps} {{ sendrecv rank+1 rank-1 {size} }}", "}"]
        return "\n".join(lines) + "\n"
    lines.append("ranks 0..N-1 {")
    if pattern == "ring":
        lines.append(f"  repeat {steps} {{ sendrecv rank+1 rank-1 {size} }}")
    elif pattern == "bcast":
        lines.append(f"  bcast {size} root=0")
    elif pattern == "burst":
        lines += [f"  isend rank+{k} {size}" for k in range(1, ranks)]
        lines += [f"  irecv rank-{k} {size}" for k in range(1, ranks)]
        lines.append("  waitall")
    else:
        lines += [f"  sendrecv rank+{k} rank-{k} {size}" for k in range(1, (alltoall_steps or ranks - 1) + 1)]
    return "\n".join(lines + ["}"]) + "\n"


def timed(command, repeat):
    """The command's standard output and its median wall time over `repeat` runs."""
    walls, out = [], ""
    for _ in range(repeat):
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True)
        walls.append(time.perf_counter() - start)
        if done.returncode != 0:
            sys.exit(f"compare.py: {' '.join(command)} failed ({done.returncode}):\n{done.stderr}")
        out = done.stdout
    return out, statistics.median(walls)


def lines_in(path):
    with open(path) as f:
        return len(f.read().split())


def run_case(args, work, topology, platform, hostfile, ranks, pattern, size):
    sched = os.path.join(work, f"{pattern}-{ranks}-{size}.sched")
    with open(sched, "w") as f:
        f.write(schedule(pattern, ranks, size, args.ring_steps, args.alltoall_steps))
    augur_out, augur_wall = timed([args.augur, "sim", "--network", "topology", "--topology", topology,
                                   "--sharing", args.sharing, "--algorithm", "bcast=binomial", sched, "--json",
                                   "--no-progress"], args.repeat)
    augur_time = json.loads(augur_out)["predicted_seconds"]
    sg_command = [args.simgrid_traffic, platform, pattern, str(size), f"--hostfile={hostfile}"]
    if pattern in ("ring", "staggered"):
        sg_command.append(str(args.ring_steps))
    if pattern == "staggered":
        sg_command.append(repr(STAGGER))
    if pattern == "permutation":
        sg_command.append(",".join(map(str, permutation(ranks))))
    if pattern == "alltoall" and args.alltoall_steps:
        sg_command.append(str(args.alltoall_steps))
    sg_out, sg_wall = timed(sg_command + ["--log=root.thres:critical"], args.repeat)
    sg_time = float(re.search(r"makespan (\S+)", sg_out).group(1))
    worst_message = None
    if args.check_messages is not None:
        augur_messages = augur_receive_ends(args, sched, topology)
        sg_messages = collections.defaultdict(list)
        for m in re.finditer(r"^message (\d+) (\d+) (\S+)$", sg_out, re.M):
            sg_messages[(int(m.group(1)), int(m.group(2)))].append(float(m.group(3)))
        worst_message = message_difference(augur_messages, sg_messages)
    return augur_time, sg_time, augur_wall, sg_wall, worst_message


def augur_receive_ends(args, sched, topology):
    """Each (sender, receiver) pair's receive ends in augur's simulated run, in the receiver's order."""
    trace, table = sched + ".trace", sched + ".csv"
    subprocess.run([args.augur, "sim", "--network", "topology", "--topology", topology, "--sharing", args.sharing,
                    "--algorithm", "bcast=binomial", sched, "--no-progress", "--trace", trace],
                   check=True, capture_output=True)
    subprocess.run([args.augur, "trace", "convert", trace, "-o", table, "--to", "messages"], check=True,
                   capture_output=True)
    ends = collections.defaultdict(list)
    with open(table) as f:
        for row in csv.DictReader(f):
            ends[(int(row["sender"]), int(row["receiver"]))].append(float(row["receive_end"]))
    return ends


def message_difference(augur, simgrid):
    """The largest relative difference of a message's receive end, and where; the count must agree."""
    if sorted(augur) != sorted(simgrid) or any(len(augur[k]) != len(simgrid[k]) for k in augur):
        count = lambda d: sum(len(v) for v in d.values())
        return float("inf"), f"augur has {count(augur)} messages, SimGrid {count(simgrid)}"
    worst = (0.0, "")
    for pair, ends in augur.items():
        for k, (a, s) in enumerate(zip(ends, simgrid[pair])):
            diff = abs(a - s) / s * 100 if s > 0 else (0.0 if a == 0 else float("inf"))
            if diff > worst[0]:
                worst = (diff, f"message {k + 1} from {pair[0]} to {pair[1]}: augur {a * 1e6:.4f} µs, "
                               f"SimGrid {s * 1e6:.4f} µs")
    return worst


def jittered(topology, j):
    """The generator `topology` with its links' latency (1 µs unless it says) times 1 + j·1e-9."""
    if j == 0:
        return topology
    if os.path.exists(topology):
        sys.exit(f"compare.py: --jitter needs generators, not the machine file {topology}")
    m = re.search(r"(?:^|,)latency=([0-9.]+)(ns|us|ms|s)(?=,|$)", topology)
    scale = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}
    micros = float(m.group(1)) * scale[m.group(2)] if m else 1.0
    rest = topology[:m.start()] + topology[m.end():] if m else topology
    return f"{rest},latency={micros * (1 + j * 1e-9)!r}us"


def run_jittered(args, work, i, topology, j, pattern, size):
    """Exports the j-th jittered machine and runs one case on it: ranks, both ends and walls, the worst message."""
    machine = jittered(topology, j)
    platform, hostfile = os.path.join(work, f"platform{i}-{j}.xml"), os.path.join(work, f"hosts{i}-{j}")
    subprocess.run([args.augur, "machines", "export", machine, "-o", platform, "--hostfile", hostfile], check=True)
    ranks = lines_in(hostfile)
    return (ranks, *run_case(args, work, machine, platform, hostfile, ranks, pattern, size))


def spread(augur, simgrid):
    """Each simulator's standard deviation over the jittered machines and the standard error of the
    difference of their means, relative to SimGrid's mean."""
    mean, n = statistics.mean(simgrid), len(simgrid)
    sd_a, sd_s = statistics.stdev(augur), statistics.stdev(simgrid)
    return f" {sd_a / mean * 100:.2g}% | {sd_s / mean * 100:.2g}% | {(sd_a**2 / n + sd_s**2 / n) ** 0.5 / mean * 100:.2g}% |"


def readable_size(size):
    for unit, scale in (("MiB", 1024**2), ("KiB", 1024)):
        if size % scale == 0:
            return f"{size // scale} {unit}"
    return f"{size} B"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--augur", required=True, help="the augur executable")
    parser.add_argument("--simgrid-traffic", required=True, help="bench/simgrid's simgrid_traffic executable")
    parser.add_argument("--topologies", default=DEFAULT_TOPOLOGIES,
                        help=f"generators or machine files, ';'-separated (default {DEFAULT_TOPOLOGIES})")
    parser.add_argument("--patterns", default="ring,alltoall,bcast", help="any of " + ", ".join(PATTERNS))
    parser.add_argument("--sizes", default="64KiB,1MiB", help="message sizes, comma-separated")
    parser.add_argument("--ring-steps", type=int, default=8, help="steps of the ring pattern")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each simulator; wall times are medians")
    parser.add_argument("--sharing", default="rtt", choices=["rtt", "fair"],
                        help="augur's --sharing: rtt (default) prices CM02's physics, fair is augur's default")
    parser.add_argument("--check", type=float, help="exit 1 if a relative difference exceeds this many per cent")
    parser.add_argument("--check-speed", action="store_true", help="exit 1 if augur's wall time exceeds SimGrid's")
    parser.add_argument("--check-messages", type=float,
                        help="exit 1 if a message's receive end differs by more than this many per cent")
    parser.add_argument("--alltoall-steps", type=int, help="run only the alltoall's first STEPS steps")
    parser.add_argument("--jitter", type=int, default=1,
                        help="run each case on N machines, the links' latency times 1 + j*1e-9 for j = 0 .. N-1, "
                             "and compare the mean ends, with each simulator's standard deviation (an "
                             "ill-conditioned case's end swings by per cent under such a change; "
                             "docs/simgrid-comparison.md)")
    args = parser.parse_args()
    if args.jitter < 1 or (args.jitter > 1 and args.check_messages is not None):
        parser.error("--jitter takes N >= 1, and messages are checked without it")
    sizes = [parse_size(s) for s in args.sizes.split(",")]
    patterns = args.patterns.split(",")
    for p in patterns:
        if p not in PATTERNS:
            parser.error(f"--patterns: '{p}' is not one of {', '.join(PATTERNS)}")

    worst, slower, worst_message = 0.0, [], (0.0, "")
    messages = args.check_messages is not None
    jitter = args.jitter > 1
    print("| topology | pattern | size | augur | SimGrid | difference | augur wall | SimGrid wall |"
          + (" largest message difference |" if messages else "")
          + (" augur sd | SimGrid sd | difference's standard error |" if jitter else ""))
    print("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |" + (" ---: |" if messages else "")
          + (" ---: | ---: | ---: |" if jitter else ""))
    with tempfile.TemporaryDirectory(prefix="augur-simgrid-") as work:
        for i, topology in enumerate(args.topologies.split(";")):
            for pattern in patterns:
                for size in sizes:
                    runs = [run_jittered(args, work, i, topology, j, pattern, size) for j in range(args.jitter)]
                    ranks = runs[0][0]
                    a, s, aw, sw = (statistics.mean(r[k] for r in runs) for k in range(1, 5))
                    wm = runs[0][5]
                    if wm and wm[0] >= worst_message[0]:
                        worst_message = (wm[0], f"{topology} {pattern} {readable_size(size)}: {wm[1]}")
                    diff = (a - s) / s * 100
                    worst = max(worst, abs(diff))
                    if aw > sw:
                        slower.append(f"{topology} {pattern} {readable_size(size)}: {aw:.3f} s against {sw:.3f} s")
                    print(f"| {topology} ({ranks} ranks) | {pattern} | {readable_size(size)} | {a * 1e3:.4f} ms "
                          f"| {s * 1e3:.4f} ms | {diff:+.2f}% | {aw:.3f} s | {sw:.3f} s |"
                          + (f" {wm[0]:.2g}% |" if wm else "")
                          + (spread([r[1] for r in runs], [r[2] for r in runs]) if args.jitter > 1 else ""),
                          flush=True)
    print(f"\nlargest difference: {worst:.2f}%")
    if messages:
        print(f"largest difference of a message's receive end: {worst_message[0]:.2g}% ({worst_message[1] or 'none'})")
    if args.check is not None and worst > args.check:
        print(f"compare.py: a difference exceeds {args.check}%", file=sys.stderr)
        return 1
    if messages and worst_message[0] > args.check_messages:
        print(f"compare.py: a message's receive end differs by more than {args.check_messages}%", file=sys.stderr)
        return 1
    if args.check_speed and slower:
        print("compare.py: augur was slower than SimGrid on " + "; ".join(slower), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
