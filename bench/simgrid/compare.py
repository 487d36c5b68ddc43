#!/usr/bin/env python3
"""augur's flow model against SimGrid's on the same machines and the same traffic.

For each topology, the platform is exported with `augur machines export`; for each pattern
(ring: every rank sends to rank+1 and receives from rank-1, STEPS times; alltoall: augur's
pairwise alltoall, step k = 1 .. p-1 sends to rank+k and receives from rank-k; burst: every rank
sends to all others at once, then receives from them, p(p-1) flows together; bcast: augur's
binomial broadcast from rank 0, `--algorithm bcast=binomial`; tree: a binomial tree from rank 0
written as a schedule, each rank sending to its children, the nearest in rank first, once its
parent's message has arrived) and each message size, one rank a core placed by the machine's
mapping (the hostfile `augur machines export --hostfile` writes), `augur sim --network topology` runs the
pattern as a schedule (sendrecv, a bcast, or isend, recv and waitall) and simgrid_traffic runs it
on the exported platform. Prints both predicted times, their relative difference and the wall
time of each (the median of --repeat runs). With --check PCT, exits 1 when a difference exceeds
PCT per cent; with --check-speed, when augur's wall time exceeds SimGrid's. With
--check-messages PCT, each case runs once more in both with every receive's end written (augur's
--trace, simgrid_traffic's --receives), and the k-th message of every sender and receiver pair is
compared: exits 1 when one differs by more than PCT per cent. (In burst, augur ends every irecv at
the waitall, simgrid_traffic each receive in turn: compare its end times only.)
docs/simgrid-comparison.md has a run.

  compare.py --augur build/bin/augur --simgrid-traffic build/bin/simgrid_traffic
"""
import argparse
import glob
import json
import os
import re
import statistics
import struct
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


PATTERNS = ("ring", "alltoall", "burst", "bcast", "tree")


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


def schedule(pattern, ranks, size, steps):
    if pattern == "tree":
        return tree_schedule(ranks, size)
    lines = [f"ranks {ranks}", "ranks 0..N-1 {"]
    if pattern == "ring":
        lines.append(f"  repeat {steps} {{ sendrecv rank+1 rank-1 {size} }}")
    elif pattern == "bcast":
        lines.append(f"  bcast {size} root=0")
    elif pattern == "burst":
        lines += [f"  isend rank+{k} {size}" for k in range(1, ranks)]
        lines += [f"  irecv rank-{k} {size}" for k in range(1, ranks)]
        lines.append("  waitall")
    else:
        lines += [f"  sendrecv rank+{k} rank-{k} {size}" for k in range(1, ranks)]
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


# Bytes after the type byte of each record of a native trace (docs/trace-format.md); a name
# record (1) is variable.
RECORD_SIZES = {2: 19, 3: 28, 4: 36, 5: 34, 6: 10, 7: 10, 8: 37, 9: 16, 10: 12}


def trace_receives(directory):
    """{(receiver, sender): sorted receive end times} from augur's native trace."""
    out = {}
    for path in glob.glob(os.path.join(directory, "rank-*.augt")):
        data = open(path, "rb").read()
        rank = struct.unpack_from("<i", data, 12)[0]
        at = 20
        for _ in range(3):  # machine, clock, program
            at += 2 + struct.unpack_from("<H", data, at)[0]
        while at < len(data):
            kind = data[at]
            at += 1
            if kind == 1:
                at += 4 + struct.unpack_from("<H", data, at + 2)[0]
                continue
            if kind in (4, 8):
                _, end, source = struct.unpack_from("<ddi", data, at)
                out.setdefault((rank, source), []).append(end)
            at += RECORD_SIZES[kind]
    return {pair: sorted(times) for pair, times in out.items()}


def simgrid_receives(path):
    out = {}
    with open(path) as f:
        for line in f:
            to, sender, time_ = line.split()
            out.setdefault((int(to), int(sender)), []).append(float(time_))
    return {pair: sorted(times) for pair, times in out.items()}


def message_differences(augur, simgrid):
    """Every message's receive end in both, as relative differences; exits if they differ in number.
    None when augur's trace keeps no receives (a collective is traced whole)."""
    if not augur:
        return None
    diffs = []
    for pair in sorted(set(augur) | set(simgrid)):
        a, s = augur.get(pair, []), simgrid.get(pair, [])
        if len(a) != len(s):
            sys.exit(f"compare.py: {len(a)} messages from rank {pair[1]} to {pair[0]} in augur, {len(s)} in SimGrid")
        diffs += [abs(x - y) / y if y > 0 else abs(x - y) for x, y in zip(a, s)]
    return diffs


def lines_in(path):
    with open(path) as f:
        return len(f.read().split())


def run_case(args, work, topology, platform, hostfile, ranks, pattern, size):
    sched = os.path.join(work, f"{pattern}-{ranks}-{size}.sched")
    with open(sched, "w") as f:
        f.write(schedule(pattern, ranks, size, args.ring_steps))
    augur_command = [args.augur, "sim", "--network", "topology", "--topology", topology, "--sharing", args.sharing,
                     "--algorithm", "bcast=binomial", sched, "--json", "--no-progress"]
    augur_out, augur_wall = timed(augur_command, args.repeat)
    augur_time = json.loads(augur_out)["predicted_seconds"]
    sg_command = [args.simgrid_traffic, platform, pattern, str(size), f"--hostfile={hostfile}"]
    if pattern == "ring":
        sg_command.append(str(args.ring_steps))
    sg_out, sg_wall = timed(sg_command + ["--log=root.thres:critical"], args.repeat)
    sg_time = float(re.search(r"makespan (\S+)", sg_out).group(1))
    diffs = None
    if args.check_messages is not None:  # once more each, untimed: writing every receive costs time
        case = tempfile.mkdtemp(dir=work)
        trace, receives = os.path.join(case, "trace"), os.path.join(case, "receives.txt")
        subprocess.run(augur_command + ["--trace", trace], check=True, capture_output=True)
        subprocess.run(sg_command + [f"--receives={receives}", "--log=root.thres:critical"], check=True,
                       capture_output=True)
        diffs = message_differences(trace_receives(trace), simgrid_receives(receives))
    return augur_time, sg_time, augur_wall, sg_wall, diffs


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
    parser.add_argument("--check-messages", type=float, metavar="PCT",
                        help="also compare every message's receive end; exit 1 if one differs by more than PCT per cent")
    args = parser.parse_args()
    sizes = [parse_size(s) for s in args.sizes.split(",")]
    patterns = args.patterns.split(",")
    for p in patterns:
        if p not in PATTERNS:
            parser.error(f"--patterns: '{p}' is not one of {', '.join(PATTERNS)}")

    worst, slower, worst_message, messages_off = 0.0, [], 0.0, 0
    per_message = args.check_messages is not None
    print("| topology | pattern | size | augur | SimGrid | difference | augur wall | SimGrid wall |"
          + (" messages | largest message difference |" if per_message else ""))
    print("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |" + (" ---: | ---: |" if per_message else ""))
    with tempfile.TemporaryDirectory(prefix="augur-simgrid-") as work:
        for i, topology in enumerate(args.topologies.split(";")):
            platform, hostfile = os.path.join(work, f"platform{i}.xml"), os.path.join(work, f"hosts{i}")
            subprocess.run([args.augur, "machines", "export", topology, "-o", platform, "--hostfile", hostfile],
                           check=True)
            ranks = lines_in(hostfile)
            for pattern in patterns:
                for size in sizes:
                    a, s, aw, sw, diffs = run_case(args, work, topology, platform, hostfile, ranks, pattern, size)
                    messages = ""
                    if diffs is not None:
                        worst_message = max([worst_message] + diffs)
                        messages_off += sum(d * 100 > args.check_messages for d in diffs)
                        messages = f" {len(diffs)} | {max(diffs, default=0) * 100:.2g}% |"
                    elif per_message:
                        messages = " (traced whole) | |"
                    diff = (a - s) / s * 100
                    worst = max(worst, abs(diff))
                    if aw > sw:
                        slower.append(f"{topology} {pattern} {readable_size(size)}: {aw:.3f} s against {sw:.3f} s")
                    print(f"| {topology} ({ranks} ranks) | {pattern} | {readable_size(size)} | {a * 1e3:.4f} ms "
                          f"| {s * 1e3:.4f} ms | {diff:+.2f}% | {aw:.3f} s | {sw:.3f} s |{messages}", flush=True)
    print(f"\nlargest difference: {worst:.2f}%")
    if per_message:
        print(f"largest difference of a message's receive end: {worst_message * 100:.2g}%")
        if messages_off:
            print(f"compare.py: {messages_off} messages differ by more than {args.check_messages}%", file=sys.stderr)
            return 1
    if args.check is not None and worst > args.check:
        print(f"compare.py: a difference exceeds {args.check}%", file=sys.stderr)
        return 1
    if args.check_speed and slower:
        print("compare.py: augur was slower than SimGrid on " + "; ".join(slower), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
