#!/usr/bin/env python3
"""The imported model beside the printed numbers: for each raw record of an `augur import`
(whose median is the time the benchmark printed), `augur calc` of the fitted model at the same
operation, process count and size, and how far apart they are.

Usage: bench/import/compare.py AUGUR RAW.jsonl MODEL.json
Prints one line per operation and process count: sizes, how many within 5%, the median and the
largest relative difference.
"""
import collections
import json
import subprocess
import sys


def main():
    augur, raw, model = sys.argv[1:4]
    errors = collections.defaultdict(list)
    with open(raw, encoding="utf-8") as lines:
        next(lines)  # the header
        for line in lines:
            r = json.loads(line)
            calc = subprocess.run([augur, "calc", "--machine", model, r["op"], str(r["p"]), str(int(r["bytes"])), "--json"],
                                  capture_output=True, text=True, check=True)
            seconds = json.loads(calc.stdout)["seconds"]["avg"]
            errors[(r["op"], r["p"])].append(abs(seconds / r["median"] - 1))
    for (op, p), e in sorted(errors.items()):
        e.sort()
        within = sum(x <= 0.05 for x in e)
        print(f"| {op} | {p} | {len(e)} | {within} | {100 * e[len(e) // 2]:.1f}% | {100 * e[-1]:.1f}% |")


if __name__ == "__main__":
    main()
