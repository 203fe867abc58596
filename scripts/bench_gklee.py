#!/usr/bin/env python3
"""Benchmark GKLEE's two features in kpl: (1) `kpl perf` on the kernels of tests/perf
(findings on a run and for all inputs, with times); (2) `kpl testgen` on GKLEE's bitonic
sort in the setting of its Tables 4 and 5 (4 threads, symbolic values), per reduction.
Prints Markdown tables for BENCHMARKS.md.  Usage: scripts/bench_gklee.py [--runs N]"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KPL = os.path.join(ROOT, "target", "release", "kpl")
PERF = os.path.join(ROOT, "tests", "perf")


def timed(args):
    start = time.perf_counter()
    p = subprocess.run([KPL, *args], capture_output=True, text=True)
    return time.perf_counter() - start, p


def perf_args(path):
    with open(path) as f:
        first = f.readline()
    return first.split("// perf:", 1)[1].split()


def describe(f):
    k = f["kind"]
    if k == "bank_conflict":
        return f"line {f['line']}: {f['degree']}-way conflict"
    if k == "uncoalesced":
        used = f.get("sectors", f.get("transactions"))
        return f"line {f['line']}: {used} for {f['minimum']}"
    return f"line {f['line']}: divergent"


def perf_table(runs):
    print("| kernel | launch, arch | run: findings | BI: conflict / coalesced / divergent | run (ms) | all inputs: verdicts | all inputs (ms) |")
    print("|---|---|---|---|---:|---|---:|")
    for name in sorted(os.listdir(PERF)):
        path = os.path.join(PERF, name)
        args = perf_args(path)
        times, all_times = [], []
        for _ in range(runs):
            t, p = timed(["perf", "--json", *args, path])
            times.append(t)
            t2, q = timed(["perf", "--json", "--all-inputs", *args, path])
            all_times.append(t2)
        v = json.loads(p.stdout)
        w = json.loads(q.stdout)
        s = v["summary"]
        found = "; ".join(describe(f) for f in v["findings"]) or "none"
        verdicts = ", ".join(
            f"{k.split('_')[0]}: {'free' if c['verdict'] == 'proved_free' else c['verdict']}" for k, c in w["checks"].items()
        )
        confirmed = sum(1 for f in w["findings"] if f.get("confirmed"))
        if w["findings"]:
            verdicts += f" ({confirmed}/{len(w['findings'])} confirmed)"
        bi = f"{s['bank_conflict_pct']}% / {s['coalesced_pct']}% / {s['warp_divergence_pct']}% of {s['intervals']}"
        print(
            f"| {name} | `{' '.join(args)}` | {found} | {bi} | {1000 * statistics.median(times):.0f} | {verdicts} | {1000 * statistics.median(all_times):.0f} |"
        )


def testgen_table(runs):
    path = os.path.join(PERF, "bitonic.cu")
    print("| reduction | paths | kept | selected | source stmt/branch | avg Cov^t | avg CovBI^t | time (ms) |")
    print("|---|---:|---:|---:|---|---|---|---:|")
    pc = lambda x: f"{100 * x[0]:.0f}%/{100 * x[1]:.0f}%"
    for red in ["none", "tb", "bi"]:
        times = []
        for _ in range(runs):
            d = tempfile.mkdtemp()
            shutil.rmtree(d)
            t, p = timed(["testgen", "--blockDim=4", "--gridDim=1", f"--reduction={red}", "--json", d, path])
            times.append(t)
            with open(os.path.join(d, "report.json")) as f:
                r = json.load(f)
            shutil.rmtree(d)
        c = r["coverage"]
        print(
            f"| {r['reduction']} | {r['paths']} | {r['kept']} | {r['selected']} | {pc(c['source'])} | {pc(c['avg_cov_t'])} | {pc(c['avg_covbi_t'])} | {1000 * statistics.median(times):.0f} |"
        )


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    perf_table(a.runs)
    print()
    testgen_table(a.runs)


if __name__ == "__main__":
    main()
