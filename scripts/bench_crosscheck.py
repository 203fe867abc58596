#!/usr/bin/env python3
"""Benchmark `kpl crosscheck` (KLEE-CL's evaluation reports time by input size): time per
kernel/reference pair against the number of threads and elements, the paths explored, and
how the output elements were settled (terms, canonical forms, the solver), with the share
of float elements the terms and canonical forms settle alone. The pairs are generated here,
each family at growing sizes. Prints a Markdown table for BENCHMARKS.md. With --certify, the
equivalent pairs are certified too (`--certify DIR`): the certificate's size, its proof
steps, and the time `kpl check-cert` takes to check it (cvc5 where installed).
Usage: scripts/bench_crosscheck.py [--runs N] [--certify]"""
import argparse
import json
import os
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KPL = os.path.join(ROOT, "target", "release", "kpl")

SQRT = """__global__ void k(float *out, const float *in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = sqrtf(in[i]) * 2.0f + in[i];
}
void r(float *out, const float *in) {
    for (int i = 0; i < N; i++) out[i] = in[i] + 2.0f * sqrtf(in[i]);
}
"""
REDUCE = """__global__ void k(int *out, const int *in) {
    __shared__ int s[B];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * B + t];
    __syncthreads();
    for (int d = B / 2; d > 0; d /= 2) {
        if (t < d) s[t] += s[t + d];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}
void r(int *out, const int *in) {
    for (int b = 0; b < G; b++) {
        int acc = 0;
        for (int i = 0; i < B; i++) acc += in[b * B + i];
        out[b] = acc;
    }
}
"""
CP = """__global__ void k(float *energy, const float *atoms) {
    int x = threadIdx.x;
    float gx = 0.5f * x, e = 0.0f;
    for (int a = 0; a < A; a++) {
        float dx = gx - atoms[4 * a], dy = atoms[4 * a + 1], dz = atoms[4 * a + 2];
        float dyz2 = dy * dy + dz * dz;
        e += atoms[4 * a + 3] / sqrtf(dx * dx + dyz2);
    }
    energy[x] = e;
}
void r(float *energy, const float *atoms) {
    for (int x = 0; x < T; x++) {
        float gx = 0.5f * x, e = 0.0f;
        for (int a = 0; a < A; a++) {
            float dx = gx - atoms[4 * a], dy = atoms[4 * a + 1], dz = atoms[4 * a + 2];
            e += atoms[4 * a + 3] / sqrtf(dx * dx + dy * dy + dz * dz);
        }
        energy[x] = e;
    }
}
"""
RELU = """__global__ void k(float *y, const float *x) {
    int i = threadIdx.x;
    y[i] = x[i] > 0.0f ? x[i] + x[i] : 0.0f;
}
void r(float *y, const float *x) {
    for (int i = 0; i < N; i++) {
        if (x[i] > 0.0f) y[i] = 2.0f * x[i];
        else y[i] = 0.0f;
    }
}
"""

def cases():
    for n in (64, 256, 1024, 4096):
        yield (f"sqrt map, {n} threads", SQRT, {"N": n}, ["--blockDim=64", f"--gridDim={n // 64}", f"--array-len={n}"], n)
    for b, g in ((16, 4), (64, 4), (256, 4), (256, 16)):
        yield (f"tree reduction, {g} blocks x {b}", REDUCE, {"B": b, "G": g}, [f"--blockDim={b}", f"--gridDim={g}", f"--array-len=out={g},in={b * g}"], b * g)
    for a in (4, 16, 64):
        yield (f"cp, 16 points x {a} atoms, float-reassoc", CP, {"A": a, "T": 16}, ["--blockDim=16", f"--array-len=energy=16,atoms={4 * a}", "--assume=float-reassoc"], 16 + 4 * a)
    for n in (4, 6, 8):
        yield (f"ReLU with a branch, {n} elements", RELU, {"N": n}, [f"--blockDim={n}", f"--array-len={n}"], n)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--certify", action="store_true")
    a = ap.parse_args()
    extra = " certificate (KiB, steps) | `--certify` | `check-cert` |" if a.certify else ""
    print("| pair | threads | elements | verdict | paths | output elements: terms / forms / solver | float elements settled by forms | time (best of %d) |%s" % (a.runs, extra))
    print("|---|---|---|---|---|---|---|---|" + ("---|---|---|" if a.certify else ""))
    with tempfile.TemporaryDirectory() as d:
        for name, src, defs, args, elements in cases():
            text = "".join(f"#define {k} {v}\n" for k, v in defs.items()) + src
            f = os.path.join(d, "pair.cu")
            with open(f, "w") as h:
                h.write(text)
            best, rep = None, None
            for _ in range(a.runs):
                t0 = time.perf_counter()
                p = subprocess.run([KPL, "crosscheck", f, "--reference=r", "--json"] + args, capture_output=True, text=True)
                dt = time.perf_counter() - t0
                if p.returncode not in (0, 1, 2):
                    raise SystemExit(f"{name}: {p.stderr}")
                rep = json.loads(p.stdout)
                best = dt if best is None else min(best, dt)
            e = rep["elements"]
            threads = [x for x in args if x.startswith("--blockDim")][0].split("=")[1]
            grid = ([x for x in args if x.startswith("--gridDim")] or ["=1"])[0].split("=")[1]
            share = f"{e['float_by_forms']}/{e['float']}" if e["float"] else "-"
            cert = ""
            if a.certify and rep["verdict"] == "equivalent":
                cdir = os.path.join(d, "cert")
                subprocess.run(["rm", "-rf", cdir])
                t0 = time.perf_counter()
                p = subprocess.run([KPL, "crosscheck", f, "--reference=r", "--certify", cdir] + args, capture_output=True, text=True)
                tc = time.perf_counter() - t0
                steps = p.stdout.split(" rewrite steps")[0].rsplit(" ", 1)[-1] if p.returncode == 0 else "-"
                size = os.path.getsize(os.path.join(cdir, "certificate.json")) / 1024 if p.returncode == 0 else 0
                t0 = time.perf_counter()
                q = subprocess.run([KPL, "check-cert", cdir], capture_output=True, text=True)
                tk = time.perf_counter() - t0
                ok = "checks" if q.returncode == 0 else f"FAILS: {q.stderr.strip()[:80]}"
                cert = f" {size:.0f}, {steps} | {tc:.2f} s | {tk:.2f} s ({ok}) |" if p.returncode == 0 else f" none: {p.stderr.strip()[:80]} | | |"
            elif a.certify:
                cert = " - | - | - |"
            print(f"| {name} | {int(threads) * int(grid)} | {elements} | {rep['verdict']} | {rep['paths']} | {e['by_terms']} / {e['by_canonical_forms']} / {e['by_solver']} | {share} | {best:.2f} s |{cert}")


if __name__ == "__main__":
    main()
