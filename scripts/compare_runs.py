#!/usr/bin/env python3
"""Compare two kpl binaries on corpora of kernels: the same verdict, the same report text
and the same kept invariants on every kernel, or a list of what differs.

For each kernel (`.kpl` with its `// options:` line, `.cu`/`.cl` in GPUVerify's test format
with its option line), both binaries run `kpl verify --json OPTIONS FILE` and
`kpl verify OPTIONS FILE`; the JSON reports are compared without their times, and the text
reports with times and the machine's paths taken out.

Usage: scripts/compare_runs.py OLD_KPL NEW_KPL DIR... [--jobs N] [--timeout S]
                               [--kpl-timeout S] [--json-only] [--lowered]
(`--kpl-timeout` passes `--timeout` to `kpl verify`; a kernel inconclusive on one side by
that limit only is listed apart, as time decides it, not the code. `--lowered` compares
`kpl fmt` instead, the KPL each front end lowers a kernel to and its diagnostics, with the
front-end options of the kernel's option line: seconds for a corpus, and exact for a change
of the C front end alone.)
Exit status: 0 when nothing differs, 1 otherwise. Meant for refactorings that must not
change behaviour (the C front end's move into its own crate).
"""
import argparse
import concurrent.futures as cf
import json
import os
import re
import subprocess
import sys

TIME = re.compile(r"\(\d+\.\d+ s\b|\d+\.\d+ s\)|\b\d+(\.\d+)? ?ms\b")


def kernels(dirs):
    for d in dirs:
        for root, _, names in os.walk(d):
            for n in sorted(names):
                if n.endswith((".kpl", ".cu", ".cl")):
                    yield os.path.join(root, n)


def options(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return []
    if path.endswith(".kpl"):
        for l in lines[:8]:
            l = l.strip()
            if l.startswith("// options:"):
                return l[len("// options:"):].split()
        return []
    if len(lines) >= 2 and lines[1].startswith("//"):
        return lines[1][2:].split()
    return []


def run(kpl, path, opts, json_mode, timeout, kpl_timeout=None):
    limit = ["--timeout", str(kpl_timeout)] if kpl_timeout else []
    args = [kpl, "verify"] + (["--json"] if json_mode else []) + limit + opts + [os.path.basename(path)]
    try:
        p = subprocess.run(args, cwd=os.path.dirname(path) or ".", capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return "timeout", "", ""


# The options of a kernel's option line that `kpl fmt` takes (the front end's).
FMT_OPTIONS = ("--blockDim", "--gridDim", "--local_size", "--num_groups", "--global_size", "--global_offset",
               "-D", "-I", "--kernel", "--no-annotations", "--only-requires", "--invariants-as-candidates",
               "--kernel-args", "--pointer-bitwidth")


def front_options(opts):
    kept, take_next = [], False
    for o in opts:
        if take_next:
            kept.append(o)
            take_next = False
            continue
        name = o.split("=", 1)[0]
        if name in FMT_OPTIONS or (o[:2] in ("-D", "-I") and len(o) > 2):
            kept.append(o)
            take_next = "=" not in o and o in ("-D", "-I", "--kernel", "--kernel-args", "--blockDim", "--gridDim",
                                               "--local_size", "--num_groups", "--global_size", "--global_offset",
                                               "--pointer-bitwidth")
    return kept


def lowered(path, old, new, timeout):
    opts = front_options(options(path))
    outs = []
    for kpl in (old, new):
        try:
            p = subprocess.run([kpl, "fmt"] + opts + [os.path.basename(path)], cwd=os.path.dirname(path) or ".",
                               capture_output=True, text=True, timeout=timeout)
            outs.append((p.returncode, p.stdout, p.stderr.replace(kpl, "KPL")))
        except subprocess.TimeoutExpired:
            outs.append(("timeout", "", ""))
    a, b = outs
    diffs = []
    if a[0] != b[0]:
        diffs.append(f"exit {a[0]} -> {b[0]}")
    if a[1] != b[1]:
        diffs.append("lowered KPL differs")
    if a[2] != b[2]:
        diffs.append(f"diagnostics: {a[2][:300]!r}\n   -> {b[2][:300]!r}")
    return path, diffs


def normal_json(out):
    docs = []
    for line in out.splitlines():
        try:
            v = json.loads(line)
        except ValueError:
            docs.append(line)
            continue
        if isinstance(v, dict):
            stats = v.get("stats", {})
            v["stats"] = {k: stats[k] for k in ("invariants_kept", "candidates", "vcs") if k in stats}
            for f in v.get("functions", []) or []:
                if isinstance(f, dict):
                    f.pop("stats", None)
        docs.append(v)
    return docs


def normal_text(s):
    return TIME.sub("(T)", s)


def compare(path, old, new, timeout, kpl_timeout=None, json_only=False):
    opts = options(path)
    diffs = []
    a = run(old, path, opts, True, timeout, kpl_timeout)
    b = run(new, path, opts, True, timeout, kpl_timeout)
    if a[0] == "timeout" or b[0] == "timeout":
        return path, ["timeout on one side"] if a[0] != b[0] else []
    ja, jb = normal_json(a[1]), normal_json(b[1])
    timed = lambda j: any(isinstance(d, dict) and d.get("verdict") == "inconclusive" for d in j)
    if kpl_timeout and a[0] != b[0] and (timed(ja) or timed(jb)):
        return path, ["TIMED: inconclusive by --timeout on one side"]
    if a[0] != b[0]:
        diffs.append(f"exit {a[0]} -> {b[0]}")
    if ja != jb:
        diffs.append(f"json: {json.dumps(ja)[:400]}\n   -> {json.dumps(jb)[:400]}")
    if json_only:
        return path, diffs
    ta = run(old, path, opts, False, timeout, kpl_timeout)
    tb = run(new, path, opts, False, timeout, kpl_timeout)
    if normal_text(ta[1] + ta[2]) != normal_text(tb[1] + tb[2]):
        diffs.append("text report differs")
    return path, diffs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--kpl-timeout", type=float)
    ap.add_argument("--json-only", action="store_true")
    ap.add_argument("--lowered", action="store_true")
    a = ap.parse_args()
    files = list(kernels(a.dirs))
    bad = 0
    with cf.ThreadPoolExecutor(a.jobs) as ex:
        one = (lambda p: lowered(p, a.old, a.new, a.timeout)) if a.lowered else (
            lambda p: compare(p, a.old, a.new, a.timeout, a.kpl_timeout, a.json_only))
        for path, diffs in ex.map(one, files):
            if diffs:
                bad += 1
                print(f"DIFFERS {path}")
                for d in diffs:
                    print(f"   {d}")
    print(f"compare_runs: {len(files)} kernels, {bad} differ")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
