//! libcu++'s atomics, operation by operation and order by order, through the interpreter
//! (the values each operation gives and leaves), the verifier and `kpl run --hb` (scoped
//! races, and which orders publish data), with the run-vs-verify cross-check on every
//! kernel: where a run finds a defect, `kpl verify` must not say *verified*. The kernels are
//! written here from templates, so that each pairing of an operation with an order is one.

mod common;
use common::*;
use std::path::{Path, PathBuf};

fn tempdir(tag: &str) -> PathBuf {
    let d = scratch(&format!("libcu-{tag}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

const ORDERS: [&str; 6] = ["relaxed", "consume", "acquire", "release", "acq_rel", "seq_cst"];

fn releases(order: &str) -> bool {
    matches!(order, "release" | "acq_rel" | "seq_cst")
}

fn acquires(order: &str) -> bool {
    matches!(order, "consume" | "acquire" | "acq_rel" | "seq_cst")
}

fn json(o: &Out) -> serde_json::Value {
    serde_json::from_str(&o.stdout).unwrap_or_else(|e| panic!("{e}\n{}{}", o.stdout, o.stderr))
}

/// `kpl run` (with `--hb` or not) on one kernel: its outcome and report.
fn run(dir: &Path, file: &str, hb: bool, launch: &[&str], extra: &[&str]) -> serde_json::Value {
    let mut args = vec!["run", "--json", "--max-steps=2000000"];
    if hb {
        args.push("--hb");
    }
    args.extend_from_slice(launch);
    args.extend_from_slice(extra);
    args.push(file);
    json(&kpl_in(dir, &args))
}

/// `kpl verify`'s verdict on one kernel.
fn verify(dir: &Path, file: &str, launch: &[&str]) -> String {
    let mut args = vec!["verify", "--json", "-q"];
    args.extend_from_slice(launch);
    args.push(file);
    json(&kpl_in(dir, &args))["verdict"].as_str().unwrap_or("").to_string()
}

/// Group 0 writes `data` and publishes it through `flag`; group 1 waits for the flag and
/// reads the data.
fn message_passing(publish: &str, wait: &str) -> String {
    format!(
        "#include <cuda/atomic>
__global__ void mp(int *data, cuda::atomic<int, cuda::thread_scope_device> *flag, int *out) {{
  if (threadIdx.x == 0) {{
    if (blockIdx.x == 0) {{
      data[0] = 42;
      {publish}
    }} else {{
      {wait}
      out[0] = data[0];
    }}
  }}
}}
"
    )
}

/// Each way of setting the flag to 1 (from 0), with its order `O`.
const PUBLISH: [&str; 9] = [
    "flag->store(1, cuda::memory_order_O);",
    "flag->exchange(1, cuda::memory_order_O);",
    "flag->fetch_add(1, cuda::memory_order_O);",
    "flag->fetch_sub(-1, cuda::memory_order_O);",
    "flag->fetch_or(1, cuda::memory_order_O);",
    "flag->fetch_xor(1, cuda::memory_order_O);",
    "flag->fetch_max(1, cuda::memory_order_O);",
    "int e = 0; flag->compare_exchange_strong(e, 1, cuda::memory_order_O);",
    "cuda::atomic_thread_fence(cuda::memory_order_O, cuda::thread_scope_device); flag->store(1, cuda::memory_order_relaxed);",
];

/// Each way of waiting until the flag is 1, with its order `O`.
const WAIT: [&str; 11] = [
    "while (flag->load(cuda::memory_order_O) != 1) {}",
    "while (flag->fetch_add(0, cuda::memory_order_O) != 1) {}",
    "while (flag->fetch_sub(0, cuda::memory_order_O) != 1) {}",
    "while (flag->fetch_and(-1, cuda::memory_order_O) != 1) {}",
    "while (flag->fetch_or(0, cuda::memory_order_O) != 1) {}",
    "while (flag->fetch_xor(0, cuda::memory_order_O) != 1) {}",
    "while (flag->fetch_min(1000, cuda::memory_order_O) != 1) {}",
    "while (flag->fetch_max(0, cuda::memory_order_O) != 1) {}",
    "while (flag->exchange(0, cuda::memory_order_O) != 1) {}",
    "int e = 1; while (!flag->compare_exchange_strong(e, 1, cuda::memory_order_O)) { e = 1; }",
    "while (flag->load(cuda::memory_order_relaxed) != 1) {} cuda::atomic_thread_fence(cuda::memory_order_O, cuda::thread_scope_device);",
];

/// Under `--hb`, message passing is race-free exactly when the publishing side releases and
/// the waiting side acquires (C++'s rule, with BARRACUDA's fences): every operation of each
/// side with every order, against the other side at `acq_rel` (which does both) and at
/// `relaxed` (which does neither). Under SDV (the plain run and the verifier), which has
/// no orders, the message always races; the verifier never says *verified*.
#[test]
fn each_operation_and_order_publishes_as_cxx_says_under_hb() {
    let dir = tempdir("mp");
    std::fs::write(dir.join("flag.json"), r#"{"arrays": {"flag": [0]}}"#).unwrap();
    let launch = ["--blockDim=32", "--gridDim=2"];
    let mut cases = Vec::new();
    for (i, p) in PUBLISH.iter().enumerate() {
        for o in ORDERS {
            for other in ["acq_rel", "relaxed"] {
                cases.push((format!("p{i}_{o}_{other}"), p.replace('O', o), WAIT[0].replace('O', other), releases(o) && acquires(other), (o, other) == ("relaxed", "relaxed") || (o, other) == ("seq_cst", "acq_rel")));
            }
        }
    }
    for (i, w) in WAIT.iter().enumerate() {
        for o in ORDERS {
            for other in ["acq_rel", "relaxed"] {
                cases.push((format!("w{i}_{o}_{other}"), PUBLISH[0].replace('O', other), w.replace('O', o), releases(other) && acquires(o), (o, other) == ("relaxed", "relaxed") || (o, other) == ("seq_cst", "acq_rel")));
            }
        }
    }
    let check = |(name, publish, wait, ok, verified_too): &(String, String, String, bool, bool)| {
        let file = format!("{name}.cu");
        std::fs::write(dir.join(&file), message_passing(publish, wait)).unwrap();
        let hb = run(&dir, &file, true, &launch, &["--input=flag.json"]);
        let want = if *ok { "ok" } else { "race" };
        assert_eq!(hb["outcome"], want, "{publish} / {wait}: {hb}");
        if !ok {
            assert_eq!(hb["defect"]["array"], "data", "the flag is atomic; the data races: {publish} / {wait}: {hb}");
        }
        let sdv = run(&dir, &file, false, &launch, &["--input=flag.json"]);
        assert_eq!(sdv["outcome"], "race", "{publish} / {wait}: {sdv}");
        // SDV has no orders, only the fences they are lowered to, which it ignores; the
        // verifier (a second or so each) checks each operation with both sides relaxed and
        // with its side `seq_cst` and the other `acq_rel`.
        if *verified_too {
            assert_eq!(verify(&dir, &file, &launch), "race", "{publish} / {wait}");
        }
    };
    let (a, b) = cases.split_at(cases.len() / 2);
    std::thread::scope(|s| {
        s.spawn(|| a.iter().for_each(check));
        b.iter().for_each(check);
    });
    let published = cases.iter().filter(|c| c.3).count();
    // (Each side releases or acquires with three or four orders of six, against `acq_rel`.)
    assert!(published > 10 && published < cases.len() / 2, "{published} of {}", cases.len());
}

/// One thread runs each operation on its own element, at each scope and with orders of
/// every kind: the values it returns and leaves are libcu++'s, in the interpreter; the
/// verifier proves the kernel and `--hb` finds nothing.
#[test]
fn each_operation_gives_and_leaves_libcu_values() {
    let dir = tempdir("values");
    let kernel = "#include <cuda/atomic>
__global__ void ops(unsigned *c, int *s, unsigned *out) {
  using namespace cuda;
  atomic_ref<unsigned, thread_scope_block> a0(c[0]), a1(c[1]), a2(c[2]), a3(c[3]), a4(c[4]);
  atomic_ref<unsigned, thread_scope_device> a5(c[5]), a6(c[6]), a7(c[7]), a8(c[8]), a9(c[9]);
  atomic_ref<unsigned, thread_scope_system> a10(c[10]), a11(c[11]), a12(c[12]), a13(c[13]);
  out[0] = a0.fetch_add(3u, memory_order_relaxed);
  out[1] = a1.fetch_sub(3u, memory_order_acquire);
  out[2] = a2.fetch_and(6u, memory_order_release);
  out[3] = a3.fetch_or(5u, memory_order_acq_rel);
  out[4] = a4.fetch_xor(3u, memory_order_seq_cst);
  out[5] = a5.fetch_min(4u, memory_order_consume);
  out[6] = a6.fetch_max(20u);
  out[7] = a7.exchange(7u, memory_order_acq_rel);
  a8.store(8u, memory_order_release);
  out[8] = a9.load(memory_order_acquire);
  unsigned e = 10u, f = 5u;
  out[9] = a10.compare_exchange_strong(e, 11u, memory_order_acq_rel, memory_order_acquire) ? 1u : 0u;
  out[10] = e;
  out[11] = a11.compare_exchange_strong(f, 11u, memory_order_seq_cst) ? 1u : 0u;
  out[12] = f;
  out[13] = a12++;
  a13 -= 4u;
  atomic_ref<int, thread_scope_block> m(s[0]), n(s[1]);
  out[14] = (unsigned)m.fetch_min(-1, memory_order_relaxed);
  out[15] = (unsigned)n.fetch_max(-3, memory_order_relaxed);
  atomic_ref<unsigned, thread_scope_block> a14(c[14]);
  out[16] = (a14 += 5u);
  out[17] = ++a14;
  out[18] = (a14 = 2u);
}
";
    std::fs::write(dir.join("ops.cu"), kernel).unwrap();
    std::fs::write(dir.join("in.json"), r#"{"arrays": {"c": [10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10], "s": [5, -5], "out": [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]}}"#).unwrap();
    let launch = ["--blockDim=1", "--gridDim=1"];
    let r = run(&dir, "ops.cu", false, &launch, &["--input=in.json"]);
    assert_eq!(r["outcome"], "ok", "{r}");
    let words = |name: &str, n: usize| -> Vec<i64> {
        let m = &r["memory"][name];
        (0..n).map(|i| m.get(i).or_else(|| m.get(i.to_string())).and_then(|w| w.as_i64()).unwrap_or_else(|| panic!("{name}[{i}] in {r}"))).collect()
    };
    // fetch_add 13, fetch_sub 7, fetch_and 2, fetch_or 15, fetch_xor 9, fetch_min 4,
    // fetch_max 20, exchange 7, store 8, load 10, compare-exchange that succeeds 11, one
    // that fails 10, ++ 11, -= 6; += 5, ++ and = 2 as values.
    assert_eq!(words("c", 15), [13, 7, 2, 15, 9, 4, 20, 7, 8, 10, 11, 10, 11, 6, 2], "{r}");
    // Every old value 10; the successful exchange keeps `expected` (10), the failed one
    // takes the value found (10); signed minimum and maximum; the new values of `+=`, `++x`
    // and `=`.
    let neg = |v: i64| (v as u32) as i64;
    assert_eq!(words("out", 19), [10, 10, 10, 10, 10, 10, 10, 10, 10, 1, 10, 0, 10, 10, 5, neg(-5), 15, 16, 2], "{r}");
    assert_eq!(words("s", 2).iter().map(|&v| v as u32 as i32).collect::<Vec<_>>(), [-1, -3], "{r}");
    assert_eq!(verify(&dir, "ops.cu", &launch), "verified");
    assert_eq!(run(&dir, "ops.cu", true, &launch, &["--input=in.json"])["outcome"], "ok");
}

/// Thread 0 of each of two blocks runs one operation on one element: at block scope the
/// two race (ScoRD's scoped race) in the verifier, the interpreter and `--hb`; at device
/// scope they are atomic for each other, and the kernel is verified. A load races with a
/// store of the other block.
#[test]
fn each_operation_at_block_scope_races_between_blocks() {
    let dir = tempdir("scoped");
    let ops = [
        ("fetch_add", "x.fetch_add(1u);", "x.fetch_add(1u);"),
        ("fetch_sub", "x.fetch_sub(1u, cuda::memory_order_release);", "x.fetch_sub(2u);"),
        ("fetch_and", "x.fetch_and(6u);", "x.fetch_and(3u);"),
        ("fetch_or", "x.fetch_or(1u);", "x.fetch_or(2u, cuda::memory_order_acq_rel);"),
        ("fetch_xor", "x.fetch_xor(1u);", "x.fetch_xor(2u);"),
        ("fetch_min", "x.fetch_min(1u);", "x.fetch_min(2u);"),
        ("fetch_max", "x.fetch_max(1u);", "x.fetch_max(2u, cuda::memory_order_seq_cst);"),
        ("exchange", "x.exchange(1u);", "x.exchange(2u);"),
        ("store", "x.store(1u, cuda::memory_order_release);", "x.store(2u);"),
        ("load", "x.store(1u);", "out[0] = x.load(cuda::memory_order_acquire);"),
        ("compare_exchange", "unsigned e = 0u; x.compare_exchange_strong(e, 1u);", "unsigned e = 0u; x.compare_exchange_strong(e, 2u);"),
        ("increment", "x++;", "x += 2u;"),
    ];
    let launch = ["--blockDim=32", "--gridDim=2"];
    for (name, first, second) in ops {
        for (scope, races) in [("block", true), ("device", false)] {
            let file = format!("{name}_{scope}.cu");
            let text = format!(
                "#include <cuda/atomic>
__global__ void k(unsigned *c, unsigned *out) {{
  cuda::atomic_ref<unsigned, cuda::thread_scope_{scope}> x(c[0]);
  if (threadIdx.x == 0) {{
    if (blockIdx.x == 0) {{ {first} }} else {{ {second} }}
  }}
}}
"
            );
            std::fs::write(dir.join(&file), text).unwrap();
            let v = verify(&dir, &file, &launch);
            let sdv = run(&dir, &file, false, &launch, &[]);
            let hb = run(&dir, &file, true, &launch, &[]);
            if races {
                assert_eq!(v, "race", "{file}");
                assert_eq!(sdv["outcome"], "race", "{file}: {sdv}");
                assert_eq!(hb["outcome"], "race", "{file}: {hb}");
                assert_eq!(sdv["defect"]["array"], "c", "{file}: {sdv}");
            } else {
                assert_eq!(v, "verified", "{file}");
                assert_eq!(sdv["outcome"], "ok", "{file}: {sdv}");
                assert_eq!(hb["outcome"], "ok", "{file}: {hb}");
            }
        }
    }
}
