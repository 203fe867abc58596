#!/usr/bin/env python3
"""Benchmark the SDV interpreter: thread-statements per second and peak memory of `kpl run`
on the benchmark kernels (best of N runs, one core). Prints a Markdown table for
BENCHMARKS.md.  Usage: scripts/bench_interp.py [--runs N]"""
import argparse
import json
import os
import subprocess
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KPL = os.path.join(ROOT, "target", "release", "kpl")
CASES = [
    ("reduction, 64 groups x 256 threads, 100 rounds", "benches/kernels/reduce_64x256.kpl", ["--param", "rounds=100"]),
    ("tiled matrix multiply 256x256, 16x16 groups x 16x16 threads", "benches/kernels/matmul_tiled.kpl", []),
]


def run_once(args):
    start = time.perf_counter()
    p = subprocess.Popen([KPL, "run", "--json"] + args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    out = p.stdout.read()
    _, status, usage = os.wait4(p.pid, 0)
    elapsed = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"kpl run {' '.join(args)} failed")
    return elapsed, json.loads(out)["steps"], usage.ru_maxrss


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=5)
    a = ap.parse_args()
    subprocess.run(["cargo", "build", "--release", "-q"], cwd=ROOT, check=True)
    print("| kernel | thread-statements | best time | thread-statements/s | peak RSS |")
    print("|---|---:|---:|---:|---:|")
    for name, path, extra in CASES:
        best, steps, rss = None, 0, 0
        for _ in range(a.runs):
            t, steps, r = run_once(extra + [os.path.join(ROOT, path)])
            best = t if best is None else min(best, t)
            rss = max(rss, r)
        print(f"| {name} | {steps:,} | {best * 1000:.0f} ms | {steps / best / 1e6:.0f} M | {rss / 1024:.1f} MiB |")


if __name__ == "__main__":
    main()
