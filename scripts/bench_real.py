#!/usr/bin/env python3
"""Measure kpl on real kernels (BENCHMARKS.md "Real kernels outside GPUVerify's suites"):
every `.cu`/`.cl` file under each CORPUS directory, each kernel of a file on its own
(`--kernel`, names taken from kpl's "several kernels" diagnostic), one launch for all
(`[16,16]` threads by `[4,4]` groups), `--timeout 20`. Files whose diagnostic says they
have no kernel (host code only) are left out. *Answered*: a verdict (exit 0, 1 or 2), not
a rejection (exit 3). The corpora are fetched material kept outside the repository.

A CORPUS may be given as DIR=-IINCDIR to pass `-I INCDIR` for its files (PolyBench/GPU's
CUDA kernels include `../../utilities/polybenchUtilCuda.h` as its Makefile builds them).

Prints one line per kernel (verdict, seconds, file, kernel) to stderr with --verbose, the
rejections' first messages grouped, and a Markdown table per corpus for BENCHMARKS.md.
Usage: scripts/bench_real.py [--kpl PATH] [--jobs N] [--timeout S] [--json OUT] CORPUS..."""
import argparse
import concurrent.futures
import json
import os
import re
import statistics
import subprocess
import sys
import time
from collections import Counter

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LAUNCH = ["--blockDim=[16,16]", "--gridDim=[4,4]"]
SEVERAL = re.compile(r"the file has several kernels: (.*)")
NO_KERNEL = re.compile(r"has no `?(__global__|__kernel)`? function|no kernel")


def sources(root):
    for dirpath, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d != ".git")
        for f in sorted(files):
            if f.endswith((".cu", ".cl")):
                yield os.path.join(dirpath, f)


def verify(kpl, path, extra, timeout, kernel=None):
    args = [kpl, "verify", "--json", *LAUNCH, "--timeout", str(timeout), *extra]
    if kernel:
        args.append("--kernel=" + kernel)
    start = time.monotonic()
    p = subprocess.run(args + [path], capture_output=True, text=True, timeout=timeout * 6 + 60)
    seconds = time.monotonic() - start
    verdict = "rejected" if p.returncode == 3 else "crash(%d)" % p.returncode
    if p.returncode in (0, 1, 2):
        try:
            verdict = json.loads(p.stdout.splitlines()[0]).get("verdict", "?")
        except (json.JSONDecodeError, IndexError):
            verdict = "?"
    return {"file": path, "kernel": kernel, "exit": p.returncode, "verdict": verdict, "seconds": round(seconds, 2),
            "stderr": p.stderr}


def first_error(stderr):
    for line in stderr.splitlines():
        if line.startswith("error"):
            return re.sub(r"`[^`]*`", "`_`", line)[:110]
    return "(no message)"


def kernels_of(kpl, path, extra, timeout):
    """Runs the file; a file with several kernels is run once per kernel."""
    r = verify(kpl, path, extra, timeout)
    m = SEVERAL.search(r["stderr"])
    if r["exit"] == 3 and m:
        names = re.findall(r"`([^`]+)`", m.group(1))
        return [verify(kpl, path, extra, timeout, k) for k in names]
    if r["exit"] == 3 and NO_KERNEL.search(r["stderr"]):
        return []
    return [r]


def main():
    ap = argparse.ArgumentParser(usage=__doc__)
    ap.add_argument("--kpl", default=os.path.join(ROOT, "target", "release", "kpl"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=20)
    ap.add_argument("--json")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("corpora", nargs="+")
    a = ap.parse_args()
    rows = []
    for spec in a.corpora:
        root, _, inc = spec.partition("=")
        extra = [inc] if inc else []
        with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
            futures = [pool.submit(kernels_of, a.kpl, f, extra, a.timeout) for f in sources(root)]
            for fut in futures:
                for r in fut.result():
                    r["corpus"] = root
                    rows.append(r)
                    if a.verbose:
                        print("%-12s %6.2f %s %s" % (r["verdict"], r["seconds"], r["file"], r["kernel"] or ""),
                              file=sys.stderr)
    if a.json:
        with open(a.json, "w") as fh:
            json.dump([dict({k: v for k, v in r.items() if k != "stderr"}, error=first_error(r["stderr"]) if r["exit"] == 3 else None)
                       for r in rows], fh, indent=1)
    print("| corpus | kernels | answered | verified | race or other defect | inconclusive | time (median / worst) | over 10 s |")
    print("|---|---|---|---|---|---|---|---|")
    for root in [s.partition("=")[0] for s in a.corpora] + [None]:
        rs = [r for r in rows if root is None or r["corpus"] == root]
        answered = [r for r in rs if r["exit"] in (0, 1, 2)]
        times = [r["seconds"] for r in answered] or [0]
        print("| %s | %d | %d (%d %%) | %d | %d | %d | %.2f s / %.1f s | %d |" % (
            os.path.basename(root.rstrip("/")) if root else "all", len(rs), len(answered),
            100 * len(answered) // max(1, len(rs)), sum(r["exit"] == 0 for r in rs), sum(r["exit"] == 1 for r in rs),
            sum(r["exit"] == 2 for r in rs), statistics.median(times), max(times),
            sum(r["seconds"] > 10 for r in answered)))
    crashes = [r for r in rows if r["exit"] not in (0, 1, 2, 3)]
    for r in crashes:
        print("CRASH exit %d: %s %s" % (r["exit"], r["file"], r["kernel"] or ""))
    print("\nRejections by first message:")
    for msg, n in Counter(first_error(r["stderr"]) for r in rows if r["exit"] == 3).most_common():
        print("%4d  %s" % (n, msg))


if __name__ == "__main__":
    main()
