#!/usr/bin/env python3
"""Benchmark the e-graph simplifier: for every kernel in tests/kernels (and the CUDA/OpenCL
ones), the VC size before and after simplification, the simplifier's time, and the solver
time with and without simplification (`kpl verify --compare-simplification`, best of N runs
each). Prints a Markdown table for BENCHMARKS.md.  Usage: scripts/bench_simplify.py [--runs N]"""
import argparse
import json
import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KPL = os.path.join(ROOT, "target", "release", "kpl")


def kernels():
    out = []
    for d in ("tests/kernels", "tests/kernels-cuda"):
        full = os.path.join(ROOT, d)
        for name in sorted(os.listdir(full)):
            path = os.path.join(full, name)
            lines = open(path).read().splitlines()
            if name.endswith(".kpl"):
                opts = next((l.split(":", 1)[1].split() for l in lines[:8] if l.startswith("// options:")), [])
            elif name.endswith((".cu", ".cl")):
                if "xfail:" in lines[0] and "NOT_ALL_VERIFIED" not in lines[0]:
                    continue
                opts = lines[1][2:].split()
            else:
                continue
            out.append((name, path, opts))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    subprocess.run(["cargo", "build", "--release", "-q"], cwd=ROOT, check=True)
    rows = []
    for name, path, opts in kernels():
        best = None
        for _ in range(a.runs):
            p = subprocess.run([KPL, "verify", "--json", "--compare-simplification", *opts, path],
                               capture_output=True, text=True, cwd=os.path.dirname(path))
            try:
                s = json.loads(p.stdout)["stats"]
            except (ValueError, KeyError):
                break
            cur = (s["solver_ms"], s["solver_ms_unsimplified"], s["vc_nodes_before"], s["vc_nodes_after"], s["simplify_ms"])
            best = cur if best is None else (min(best[0], cur[0]), min(best[1], cur[1]), cur[2], cur[3], min(best[4], cur[4]))
        if best:
            rows.append((name, *best))
    rows.sort(key=lambda r: -r[3])
    print("| kernel | VC nodes before | after | simplify | solver, simplified | solver, not simplified |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, with_s, without, before, after, simp in rows:
        print(f"| {name} | {before:,} | {after:,} | {simp} ms | {with_s} ms | {without} ms |")
    tw = sum(r[1] for r in rows)
    to = sum(r[2] for r in rows)
    ts = sum(r[5] for r in rows)
    big = rows[:5]
    print()
    print(f"total solver time: {tw} ms simplified (plus {ts} ms simplifying), {to} ms not simplified; "
          f"the five largest VCs: {sum(r[1] for r in big)} ms against {sum(r[2] for r in big)} ms")


if __name__ == "__main__":
    main()
