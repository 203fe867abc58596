#!/usr/bin/env python3
"""Benchmark `kpl certify --isabelle` over every verified kernel of tests/kernels: wall time
and peak memory of the whole command (verification, certificate, replay of every rewrite
step, writing the session), the size of the Cert_ theory, and the share of verification
conditions Isabelle's kernel checks alone. Prints a Markdown table for BENCHMARKS.md.
Usage: scripts/bench_isabelle.py [--runs N]"""
import argparse
import glob
import os
import re
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KPL = os.path.join(ROOT, "target", "release", "kpl")


def header(path, key):
    with open(path) as f:
        for line in f.read().splitlines()[:8]:
            line = line.strip()
            if line.startswith("//") and line[2:].strip().startswith(key + ":"):
                return line[2:].strip()[len(key) + 1:].strip()
    return None


def run(args):
    """Wall time and peak RSS (KiB, from GNU time) of one child process."""
    with tempfile.NamedTemporaryFile(mode="r") as t:
        start = time.perf_counter()
        p = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", t.name, *args], capture_output=True, text=True, cwd=ROOT)
        wall = time.perf_counter() - start
        peak = int(t.read().split()[-1])
    return wall, peak, p


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    subprocess.run(["cargo", "build", "--release", "-q"], cwd=ROOT, check=True)
    print("| kernel | VCs | kernel-checked | Cert_ theory | best wall time | peak RSS |")
    print("|---|---:|---:|---:|---:|---:|")
    for path in sorted(glob.glob(os.path.join(ROOT, "tests", "kernels", "*.kpl"))):
        if header(path, "verify") != "verified":
            continue
        opts = (header(path, "options") or "").split()
        name = os.path.basename(path)[:-4]
        best, rss, line, size = None, 0, "", 0
        for _ in range(a.runs):
            with tempfile.TemporaryDirectory() as d:
                wall, peak, p = run([KPL, "certify", path, "-o", d, "--isabelle", *opts])
                if p.returncode != 0:
                    line = f"exit {p.returncode}"
                    break
                line = next((l for l in p.stdout.splitlines() if l.startswith("Isabelle session")), "")
                size = sum(os.path.getsize(f) for f in glob.glob(os.path.join(d, "Cert_*.thy")))
                best = wall if best is None else min(best, wall)
                rss = max(rss, peak)
        m = re.search(r"(\d+) of (\d+) verification conditions.*\((\d+)%\)", line)
        if line == "" and best is not None:
            continue  # outside the exported semantics (partial fences, atomics): no session
        if not m or best is None:
            print(f"| {name} | {line} | | | | |")
            continue
        print(f"| {name} | {m.group(2)} | {m.group(1)} ({m.group(3)} %) | {size / 1024:.0f} KiB | {best * 1000:.0f} ms | {rss / 1024:.1f} MiB |")


if __name__ == "__main__":
    main()
