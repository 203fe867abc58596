#!/usr/bin/env python3
"""Benchmark the SDV interpreter: thread-statements per second and peak memory of `kpl run`
on the benchmark kernels (best of N runs, one core). Prints a Markdown table for
BENCHMARKS.md.  With --native, puts `kpl run` beside the program `kpl emit --opencl` writes
(its harness built with `cc -O2`, on the OpenCL platform there is: PoCL in CI), for the
same kernel, launch and inputs (the harness's `in.txt`, given to `kpl run` as `--input`),
best of N each, in one run.  --kpl PATH times another build of kpl (an earlier commit's,
for a before-and-after in one run; the emitted program is always this build's).
Usage: scripts/bench_interp.py [--runs N] [--native] [--kpl PATH]"""
import argparse
import json
import os
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KPL = os.path.join(ROOT, "target", "release", "kpl")
# The binary whose `kpl run` is timed (`--kpl`).
TIMED = KPL
CASES = [
    ("reduction, 64 groups x 256 threads, 100 rounds", "benches/kernels/reduce_64x256.kpl", ["--param", "rounds=100"]),
    ("tiled matrix multiply 256x256, 16x16 groups x 16x16 threads", "benches/kernels/matmul_tiled.kpl", []),
]


def run_once(args):
    start = time.perf_counter()
    p = subprocess.Popen([TIMED, "run", "--json"] + args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    out = p.stdout.read()
    _, status, usage = os.wait4(p.pid, 0)
    elapsed = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"kpl run {' '.join(args)} failed")
    return elapsed, json.loads(out)["steps"], usage.ru_maxrss


def best_of(runs, cmd, cwd=None):
    best = None
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        t = time.perf_counter() - start
        best = t if best is None else min(best, t)
    return best


def native(runs):
    """`kpl run` and the emitted OpenCL program on the same inputs, side by side."""
    print("| kernel | thread-statements | `kpl run` | emitted program (OpenCL) | ratio |")
    print("|---|---:|---:|---:|---:|")
    for name, path, extra in CASES:
        with tempfile.TemporaryDirectory() as d:
            subprocess.run([KPL, "emit", "--opencl", "-q", os.path.join(ROOT, path), "-o", d], check=True, stdout=subprocess.DEVNULL)
            # The case's params in the harness's inputs, and those inputs as `kpl run`'s.
            given = dict(p.split("=", 1) for p in extra[1::2])
            lines, params, arrays = [], {}, {}
            for line in open(os.path.join(d, "in.txt")):
                w = line.split()
                if w[0] == "param" and w[1] in given:
                    w[2] = given[w[1]]
                if w[0] == "param":
                    params[w[1]] = int(w[2])
                elif w[0] == "global":
                    arrays[w[1]] = [int(x) for x in w[3:]]
                lines.append(" ".join(w))
            with open(os.path.join(d, "in.txt"), "w") as f:
                f.write("\n".join(lines) + "\n")
            with open(os.path.join(d, "in.json"), "w") as f:
                json.dump({"params": params, "arrays": arrays}, f)
            subprocess.run(["cc", "-O2", "host.c", "-lOpenCL", "-o", "host"], cwd=d, check=True)
            args = ["run", "-q", "--max-steps", "1000000000", "--input", "in.json", os.path.join(ROOT, path)]
            out = subprocess.run([TIMED] + args + ["--json"], cwd=d, check=True, capture_output=True).stdout
            steps = json.loads(out)["steps"]
            interp = best_of(runs, [TIMED] + args, cwd=d)
            device = best_of(runs, ["./host", "in.txt", "out.txt"], cwd=d)
            print(f"| {name} | {steps:,} | {interp * 1000:.0f} ms ({steps / interp / 1e6:.0f} M/s) | {device * 1000:.0f} ms | {interp / device:.1f}x |")


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--native", action="store_true")
    ap.add_argument("--kpl", help="the kpl binary to time (default: this checkout's release build)")
    a = ap.parse_args()
    subprocess.run(["cargo", "build", "--release", "-q"], cwd=ROOT, check=True)
    global TIMED
    TIMED = os.path.abspath(a.kpl) if a.kpl else KPL
    if a.native:
        native(a.runs)
        return
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
