#!/usr/bin/env python3
"""The composition's error against measured laws (docs/nodes.md, "Composition").

Fits RAW (a bench across nodes), then answers each collective the raw data measured at 2 ranks a
node twice with `augur calc --ranks-per-node 2`: from the model without its placements (so the
composition prices it) and from the model itself (the law measured there); both against the
fastest pass's median of each measured size (the fit's reference state). 0-byte points are left
out: MPI returns at once for them.

usage: composition_error.py AUGUR RAW MODEL     (MODEL: `augur fit RAW -o MODEL` first)
"""
import json, subprocess, statistics, sys, collections
augur, raw, model = sys.argv[1], sys.argv[2], sys.argv[3]
m = json.load(open(model))
m["nodes"].pop("placements", None)
composed_only = model + ".composed.json"  # the model without its placements, beside it
json.dump(m, open(composed_only, "w"))
meas = collections.defaultdict(list)
for i, line in enumerate(open(raw)):
    if i == 0: continue
    r = json.loads(line)
    if r.get("ranks_per_node") == 2 and "median" in r:
        meas[(r["op"], r["p"], r["bytes"])].append(r["median"])
def calc(model, op, p, b):
    out = subprocess.run([augur, "calc", "--json", "--machine", model, op, str(p), str(int(b)), "--ranks-per-node", "2"],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)["seconds"]["avg"]
rows = collections.defaultdict(list)
for (op, p, b), v in sorted(meas.items()):
    if op not in ("allreduce", "bcast", "reduce", "gather") or b == 0: continue
    x = min(v)  # the fastest pass: the fit's reference state
    comp, law = calc(composed_only, op, p, b), calc(model, op, p, b)
    rows[f"{op} {p // 2}x2"].append((b, x, comp, law))
for op, rs in sorted(rows.items()):
    errs = [abs(c - x) / x for b, x, c, l in rs]
    lerrs = [abs(l - x) / x for b, x, c, l in rs]
    print(f"{op}: {len(rs)} sizes {int(rs[0][0])}..{int(rs[-1][0])} B; composition median |error| {statistics.median(errs):.0%} "
          f"(worst {max(errs):.0%}); measured law's {statistics.median(lerrs):.0%}")
    for b, x, c, l in rs[:: max(1, len(rs) // 4)]:
        print(f"   {int(b):>8} B measured {x*1e6:9.2f} us composed {c*1e6:9.2f} us law {l*1e6:9.2f} us")
