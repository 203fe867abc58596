#!/usr/bin/env python3
"""Benchmark `kpl verify`: (1) the two-thread reduction's promise (paper, Figure 14):
verifying the tree reduction with 2^k threads, k = 1..20, should take near-constant time;
(2) the verification time of every kernel in tests/kernels (median and spread).
Prints Markdown tables for BENCHMARKS.md.  Usage: scripts/bench_verify.py [--runs N]"""
import argparse
import json
import os
import statistics
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KPL = os.path.join(ROOT, "target", "release", "kpl")
REDUCE = """kernel reduce {{
  groups: 1;
  threads: {n};
  shared A[{n}];

  main {{
    local d := threads / 2;
    while d > 0 {{
      if lid < d {{
        A[lid] := A[lid] + A[lid + d];
      }}
      barrier;
      d := d / 2;
    }}
  }}
}}
"""


def verify(path, extra=()):
    start = time.perf_counter()
    p = subprocess.run([KPL, "verify", "--json", *extra, path], capture_output=True, text=True, cwd=os.path.dirname(path))
    wall = time.perf_counter() - start
    try:
        v = json.loads(p.stdout)
    except ValueError:
        v = {"verdict": f"exit {p.returncode}"}
    return wall, v


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    subprocess.run(["cargo", "build", "--release", "-q"], cwd=ROOT, check=True)
    print("| threads | verdict | best wall time |")
    print("|---:|---|---:|")
    with tempfile.TemporaryDirectory() as d:
        for k in range(1, 21):
            path = os.path.join(d, f"reduce_{k}.kpl")
            with open(path, "w") as f:
                f.write(REDUCE.format(n=2 ** k))
            best, verdict = None, ""
            for _ in range(a.runs):
                t, v = verify(path)
                best = t if best is None else min(best, t)
                verdict = v.get("verdict")
            print(f"| 2^{k} = {2 ** k:,} | {verdict} | {best * 1000:.0f} ms |")
    print()
    print("| kernel | verdict | wall time |")
    print("|---|---|---:|")
    times = []
    kdir = os.path.join(ROOT, "tests", "kernels")
    for name in sorted(os.listdir(kdir)):
        if not name.endswith(".kpl"):
            continue
        path = os.path.join(kdir, name)
        opts = []
        with open(path) as f:
            for line in f.read().splitlines()[:8]:
                if line.startswith("// options:"):
                    opts = line.split(":", 1)[1].split()
        best, verdict = None, ""
        for _ in range(a.runs):
            t, v = verify(path, opts)
            best = t if best is None else min(best, t)
            verdict = v.get("verdict")
        times.append(best)
        print(f"| {name} | {verdict} | {best * 1000:.0f} ms |")
    print()
    under = sum(1 for t in times if t < 10)
    print(f"median {statistics.median(times) * 1000:.0f} ms, slowest {max(times) * 1000:.0f} ms, "
          f"{under} of {len(times)} under 10 s")


if __name__ == "__main__":
    main()
