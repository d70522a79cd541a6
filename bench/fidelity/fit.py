#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Fits the memory and branch costs of bm-model/2's formula (bm-model/2,
bm-model/3) to the fit half of the fidelity corpus (docs/fidelity.md),
and reports both halves.

usage: bench/fidelity/fit.py [--label LABEL] RAW...

Each RAW is what bench/fidelity.sh --raw wrote with a configuration
labelled LABEL (default bm-model/2), against one CPU's native times; with
several (one per CPU), the objective is their mean, so that the costs fit
every CPU's fit half at once.  The core's cycles (Cc) are the engine's and
stay as they are; what is fitted is what bm-model/2's formula multiplies
the other events by (simulator/model.c): the latency a miss adds at each
level, how many loads overlap, how many stores, how much of an instruction
fetch miss stalls, and a mispredicted branch's penalty.  The objective,
on the fit half only: the median of the pairs' log ratio errors plus the
mean of the benchmarks' log time errors after one common scale (native
seconds are not the model's).  Coordinate descent over a grid of each
parameter, from the model's current values; the validation half is never
looked at until the end.  Prints the fitted costs in model.c's form."""
import json
import math
import statistics
import sys


def costs_of(p):
    """bm-model/2's costs in hundredths of a cycle (simulator/model.c)."""
    lat = [p["to_l2"], p["to_ll"], p["to_memory"]]
    return {
        "fetch": [round(100 * x * p["fetch_share"]) for x in lat],
        "read": [round(100 * x / p["memory_parallelism"]) for x in lat],
        "chained": [round(100 * x) for x in lat],
        "write": [round(100 * x / p["store_parallelism"]) for x in lat],
        "mispredict": round(100 * p["mispredict"]),
        "indirect_mispredict": round(100 * p["indirect_mispredict"]),
    }


def cycles(e, c):
    g = lambda k: e.get(k, 0)
    def levels(n, l2, ll):
        return [n - l2, l2 - ll, ll]
    fetch = levels(g("I1mr"), g("I2mr"), g("ILmr"))
    reads = levels(g("D1mr"), g("D2mr"), g("DLmr"))
    chained = levels(g("D1mc"), g("D2mc"), g("DLmc"))
    writes = levels(g("D1mw"), g("D2mw"), g("DLmw"))
    reads = [r - h for r, h in zip(reads, chained)]
    centi = g("Cc")
    for counts, cost in ((fetch, c["fetch"]), (reads, c["read"]), (chained, c["chained"]), (writes, c["write"])):
        centi += sum(n * w for n, w in zip(counts, cost))
    centi += g("Bcm") * c["mispredict"] + g("Bim") * c["indirect_mispredict"]
    return centi / 100


def ranks(v):
    order = sorted(range(len(v)), key=lambda i: v[i])
    r = [0.0] * len(v)
    i = 0
    while i < len(order):
        k = i
        while k + 1 < len(order) and v[order[k + 1]] == v[order[i]]:
            k += 1
        for j in range(i, k + 1):
            r[order[j]] = (i + k) / 2 + 1
        i = k + 1
    return r


def spearman(x, y):
    rx, ry = ranks(x), ranks(y)
    mx, my = statistics.mean(rx), statistics.mean(ry)
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    sxx = sum((a - mx) ** 2 for a in rx)
    syy = sum((b - my) ** 2 for b in ry)
    return sxy / math.sqrt(sxx * syy)


def evaluate(data, label, p, half):
    c = costs_of(p)
    bench = [b for b in data["benchmarks"] if b["half"] == half]
    est = {b["id"]: cycles(b["bm"][label]["events"], c) for b in bench}
    native = {b["id"]: b["native"]["median_s"] for b in bench}
    ids = sorted(est)
    logs = [math.log(est[i] / native[i]) for i in ids]
    scale = statistics.median(logs)
    time_error = statistics.mean(abs(x - scale) for x in logs)
    pair_errors, direction = [], 0
    for pr in data["pairs"]:
        if pr["half"] != half:
            continue
        before = est["pair::%s/before" % pr["pair"]]
        after = est["pair::%s/after" % pr["pair"]]
        ratio, nat = before / after, pr["native"]["ratio"]
        pair_errors.append(abs(math.log(ratio / nat)))
        band = data.get("same_band", 0.1)
        side = lambda r: 0 if abs(r - 1) <= band else (1 if r > 1 else -1)
        direction += side(ratio) == side(nat)
    return {
        "objective": statistics.median(pair_errors) + time_error,
        "spearman": spearman([est[i] for i in ids], [native[i] for i in ids]),
        "median_ratio_error": math.exp(statistics.median(pair_errors)),
        "worst_ratio_error": math.exp(max(pair_errors)),
        "within_2x": sum(x <= math.log(2) for x in pair_errors),
        "direction": direction,
        "pairs": len(pair_errors),
    }


GRID = {
    "to_l2": [6, 9, 12, 15, 20],
    "to_ll": [25, 35, 41, 50, 65, 80],
    "to_memory": [150, 200, 245, 300, 400, 500],
    "memory_parallelism": [2, 3, 4, 6, 8, 12],
    "store_parallelism": [4, 8, 16, 32],
    "fetch_share": [0.25, 0.5, 1.0],
    "mispredict": [12, 16, 20, 25, 30],
    "indirect_mispredict": [16, 20, 25, 30],
}

# bm-model/2's values (simulator/model.c), where the descent starts.
START = {"to_l2": 12, "to_ll": 80, "to_memory": 200, "memory_parallelism": 6, "store_parallelism": 4,
         "fetch_share": 1.0, "mispredict": 20, "indirect_mispredict": 30}


def physical(p):
    """Each level at least twice as far as the one above it (what every
    core's hierarchy is), and a mispredicted indirect branch no cheaper
    than a conditional one: a fit may not buy its objective with a
    hierarchy no machine has."""
    return (p["to_ll"] >= 2 * p["to_l2"] and p["to_memory"] >= 2 * p["to_ll"]
            and p["indirect_mispredict"] >= p["mispredict"])


def objective(raws, label, p):
    return statistics.mean(evaluate(data, label, p, "fit")["objective"] for _, data in raws)


def main():
    args = sys.argv[1:]
    label = "bm-model/2"
    if args[:1] == ["--label"] and len(args) >= 2:
        label, args = args[1], args[2:]
    if not args or any(a.startswith("-") for a in args):
        sys.exit(__doc__)
    raws = [(name, json.load(open(name))) for name in args]
    p = dict(START)
    best = objective(raws, label, p)
    for _ in range(6):
        moved = False
        for name, values in GRID.items():
            for v in values:
                q = dict(p, **{name: v})
                if not physical(q):
                    continue
                o = objective(raws, label, q)
                if o < best - 1e-9:
                    best, p, moved = o, q, True
        if not moved:
            break
    print("fitted (on the fit half):", json.dumps(p))
    print("costs:", json.dumps(costs_of(p)))
    for name, data in raws:
        print(name)
        for half in ("fit", "validation"):
            start, end = evaluate(data, label, START, half), evaluate(data, label, p, half)
            print("  %-10s start: %s" % (half, {k: round(v, 3) for k, v in start.items()}))
            print("  %-10s fitted: %s" % (half, {k: round(v, 3) for k, v in end.items()}))


if __name__ == "__main__":
    main()
