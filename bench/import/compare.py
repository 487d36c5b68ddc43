#!/usr/bin/env python3
"""The imported model beside the printed numbers: for each raw record of an `augur import`
(whose median is the time the benchmark printed), `augur calc` of the fitted model at the same
operation, process count and size, and how far apart they are.

Usage: bench/import/compare.py AUGUR RAW.jsonl MODEL.json
Prints one line per operation and process count: sizes, how many within 5%, the median and the
largest relative difference, and the most sizes any law whose time does not fall as the message
grows could meet within 5% (`most_within`): where that is below the sizes, the printed times
themselves fall with size by more than 5% + 5%, and no fit of a physical law meets them all.
"""
import collections
import json
import subprocess
import sys


def most_within(times, tolerance=0.05):
    """The most of `times` (in order of size) that one non-decreasing function meets within
    `tolerance`: kept times must satisfy (1 - tol) * t_i <= (1 + tol) * t_j for every kept i < j."""
    ratio = (1 - tolerance) / (1 + tolerance)
    best = {}  # the largest kept time so far -> the most times kept with it
    for t in times:
        grown = dict(best)
        for top, kept in best.items():
            if t >= ratio * top:
                key = max(top, t)
                grown[key] = max(grown.get(key, 0), kept + 1)
        grown[t] = max(grown.get(t, 0), 1)
        best = grown
    return max(best.values(), default=0)


def main():
    augur, raw, model = sys.argv[1:4]
    errors = collections.defaultdict(list)
    printed = collections.defaultdict(list)
    with open(raw, encoding="utf-8") as lines:
        next(lines)  # the header
        for line in lines:
            r = json.loads(line)
            calc = subprocess.run([augur, "calc", "--machine", model, r["op"], str(r["p"]), str(int(r["bytes"])), "--json"],
                                  capture_output=True, text=True, check=True)
            seconds = json.loads(calc.stdout)["seconds"]["avg"]
            errors[(r["op"], r["p"])].append(abs(seconds / r["median"] - 1))
            printed[(r["op"], r["p"])].append((r["bytes"], r["median"]))
    for (op, p), e in sorted(errors.items()):
        e.sort()
        within = sum(x <= 0.05 for x in e)
        print(f"| {op} | {p} | {len(e)} | {within} | {100 * e[len(e) // 2]:.1f}% | {100 * e[-1]:.1f}% | {most_within([t for _, t in sorted(printed[(op, p)])])} |")


if __name__ == "__main__":
    main()
