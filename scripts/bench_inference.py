#!/usr/bin/env python3
"""Measure invariant inference on GPUVerify's annotation and inference suites: per suite,
the kernels answered (a verdict, not a rejection), the candidates generated, those concrete
runs refuted before Houdini, and the invariants Houdini kept (totals), its rounds (median and most) and the `kpl verify` time
(median and worst). Each test runs with the options of its second line, as GPUVerify's
harness does. The suites are fetched material kept outside the repository.
Prints a Markdown table for BENCHMARKS.md.
Usage: scripts/bench_inference.py GPUVERIFY_TESTSUITE_DIR"""
import fnmatch
import json
import os
import shlex
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KPL = os.environ.get("KPL", os.path.join(ROOT, "target", "release", "kpl"))  # `KPL=path` measures another binary
# The folders issue 14 names (under OpenCL/ and CUDA/).
SUITES = [
    "annotation_tests",
    "barrier_invariants",
    "function_wide",
    "inference_tests",
    "test_mod_invariants",
    "benign_race_tests",
    "test_2d_*_inference*",
    "test_*_id_inference",
]


def tests(suite_dir):
    for dirpath, _, files in os.walk(suite_dir):
        for f in sorted(files):
            if f in ("kernel.cl", "kernel.cu"):
                yield os.path.join(dirpath, f)


def run(path):
    with open(path, encoding="utf-8", errors="replace") as fh:
        lines = fh.read().splitlines()
    opts = shlex.split(lines[1][2:]) if len(lines) > 1 and lines[1].startswith("//") else []
    p = subprocess.run([KPL, "verify", "--json", *opts, path], capture_output=True, text=True, timeout=600)
    if p.returncode == 3:
        return None
    try:
        report = json.loads(p.stdout.splitlines()[0]) if p.stdout.strip() else {}
    except json.JSONDecodeError:
        return None
    return report.get("stats") or {}


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    base = sys.argv[1]
    print("| suite | kernels | answered | candidates | refuted by runs | kept | Houdini rounds (median / most) | time (median / worst) |")
    print("|---|---|---|---|---|---|---|---|")
    for lang in ("OpenCL", "CUDA"):
        top = os.path.join(base, lang)
        if not os.path.isdir(top):
            continue
        for pattern in SUITES:
            dirs = sorted(d for d in os.listdir(top) if fnmatch.fnmatch(d, pattern))
            paths = [p for d in dirs for p in tests(os.path.join(top, d))]
            if not paths:
                continue
            stats = [run(p) for p in paths]
            answered = [s for s in stats if s is not None]
            cands = sum(s.get("candidates", 0) for s in answered)
            kept = sum(s.get("invariants_kept", 0) for s in answered)
            refuted = sum(s.get("candidates_refuted", 0) for s in answered)
            rounds = [s.get("houdini_rounds", 0) for s in answered] or [0]
            times = [s.get("time_ms", 0) / 1000 for s in answered] or [0]
            print(
                f"| {lang}/{pattern} | {len(paths)} | {len(answered)} | {cands} | {refuted} | {kept} | "
                f"{statistics.median(rounds):g} / {max(rounds)} | {statistics.median(times):.2f} s / {max(times):.2f} s |"
            )


if __name__ == "__main__":
    main()
