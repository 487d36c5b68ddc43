#!/usr/bin/env python3
"""Writes a binomial-tree broadcast as GOAL text, laid out as LogGOPSim's schedgen writes it:
rank r receives from r - 2^k (the highest power of two not above r), then sends to r + 2^j for
every 2^j above r, each send requiring the receive.

    bench/goal_bcast.py 1048576 > /tmp/bcast-1m.goal
"""
import sys


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1048576
    size = int(sys.argv[2]) if len(sys.argv) > 2 else 8
    out = sys.stdout
    out.write(f"num_ranks {n}\n")
    for r in range(n):
        lines = [f"\nrank {r} {{\n"]
        mask = 1
        while mask <= r:
            mask <<= 1
        if r > 0:
            lines.append(f"l0: recv {size}b from {r - mask // 2} tag 0\n")
        label, step = 0, mask
        while r + step < n:
            label += 1
            lines.append(f"l{label}: send {size}b to {r + step} tag 0\n")
            if r > 0:
                lines.append(f"l{label} requires l0\n")
            step <<= 1
        lines.append("}\n")
        out.write("".join(lines))


if __name__ == "__main__":
    main()
