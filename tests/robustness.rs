//! Hostile inputs end in a clear answer within their budgets: exit 0-3 (never a signal or
//! exit 4), within `--timeout` plus 5 s, with a message naming the limit that ended them.

mod common;
use common::*;
use std::path::PathBuf;
use std::time::{Duration, Instant};

fn write(name: &str, text: &str) -> PathBuf {
    let dir = scratch("robust");
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// Run kpl; the exit code must be 0-3 (a signal gives -1 in `Out`).
fn bounded(args: &[&str], within: Duration) -> Out {
    let t = Instant::now();
    let o = kpl(args);
    let took = t.elapsed();
    assert!((0..=3).contains(&o.code), "{args:?} ended with {}: {}", o.code, o.stderr.chars().take(2000).collect::<String>());
    assert!(took <= within, "{args:?} took {took:?}");
    o
}

#[test]
fn deep_nesting_is_answered_or_refused_by_a_limit() {
    let n = 3000;
    let ifs = format!(
        "kernel f {{ threads: 4; global A[4]; main {{ {} A[lid] := 1; {} }} }}",
        "if lid < 9 { ".repeat(n),
        "} ".repeat(n)
    );
    let o = bounded(&["verify", s(&write("ifs.kpl", &ifs))], Duration::from_secs(60));
    assert_eq!(o.code, 0, "{}", o.stderr);
    let procs: String = (0..n).map(|i| format!("proc p{i}(x) {{ p{}(x); }}\n", i + 1)).collect();
    let calls = format!("kernel c {{ threads: 4; global A[4]; {procs} proc p{n}(x) {{ A[x] := 1; }} main {{ p0(lid); }} }}");
    assert_eq!(bounded(&["verify", s(&write("calls.kpl", &calls))], Duration::from_secs(60)).code, 0);
    let cu = format!("__global__ void k(int *A) {{ {} A[threadIdx.x] = 1; {} }}", "if (threadIdx.x < 9) { ".repeat(n), "} ".repeat(n));
    assert_eq!(bounded(&["verify", "--blockDim=4", s(&write("ifs.cu", &cu))], Duration::from_secs(60)).code, 0);
    // Past the nesting limit: a diagnostic that names it.
    let sum = format!("kernel s {{ threads: 4; global A[4]; main {{ A[lid] := {}; }} }}", vec!["lid"; 150_000].join(" + "));
    for cmd in ["check", "verify", "run"] {
        let o = bounded(&[cmd, s(&write("sum.kpl", &sum))], Duration::from_secs(60));
        assert_eq!(o.code, 3, "{cmd}");
        assert!(o.stderr.contains("nested more than 100000 levels deep"), "{}", &o.stderr[..o.stderr.len().min(500)]);
        assert!(o.stderr.len() < 10_000, "the 1 MB line is clipped: {} bytes", o.stderr.len());
    }
}

#[test]
fn timeout_bounds_the_whole_command() {
    // (`x` decides what is written where, so its candidates are in the assertions' cone,
    // `relevance.rs`: written only as a value, they are left out and it verifies at once.)
    let body: String = (0..2000).map(|_| "x := x * 3 + lid; ").collect();
    let k = format!("kernel big {{ threads: 64; param n; global A[*]; main {{ local x := 0; local i := 0; while i < n {{ {body} i := i + 1; }} if x == 0 {{ A[lid] := 1; }} else {{ A[lid] := 2; }} }} }}");
    let o = bounded(&["verify", "--timeout", "2", s(&write("big.kpl", &k))], Duration::from_secs(7));
    assert_eq!(o.code, 2, "{}{}", o.stdout, o.stderr);
    assert!(o.stdout.contains("inconclusive"), "{}", o.stdout);
    let o = bounded(&["verify", "--timeout=1e19", s(&root().join("tests/kernels/reduce.kpl"))], Duration::from_secs(10));
    assert_eq!(o.code, 3);
}

/// A file's `--timeout` is shared among its kernels: a slow kernel does not use up the
/// others' time, and what finished is in the report (it used to be lost when the file's
/// limit ran out during a later kernel: every kernel inconclusive).
#[test]
fn a_files_time_limit_is_shared_among_its_kernels() {
    let body: String = (0..2000).map(|_| "x = x * 3 + threadIdx.x; ").collect();
    let mut cu = String::from("__global__ void fast(int *A) { A[threadIdx.x] = 1; }\n");
    for name in ["slow1", "slow2"] {
        cu += &format!("__global__ void {name}(int *A, int n) {{ int x = 0; for (int i = 0; i < n; i++) {{ {body} }} A[threadIdx.x] = x; }}\n");
    }
    let t0 = std::time::Instant::now();
    let o = bounded(&["verify", "--json", "--no-cache", "--timeout", "4", "--blockDim=64", s(&write("three.cu", &cu))], Duration::from_secs(20));
    assert_eq!(o.code, 2, "{}{}", o.stdout, o.stderr);
    let verdicts: Vec<(String, String)> = o
        .stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .flat_map(|v| if let serde_json::Value::Array(xs) = v { xs } else { vec![v] })
        .map(|v| (v["kernel"].as_str().unwrap_or("").to_string(), v["verdict"].as_str().unwrap_or("").to_string()))
        .collect();
    let want: Vec<(String, String)> = [("fast", "verified"), ("slow1", "inconclusive"), ("slow2", "inconclusive")].iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    assert_eq!(verdicts, want, "{}", o.stdout);
    assert!(t0.elapsed() < Duration::from_secs(6), "within the limit, not at the watchdog: {:?}", t0.elapsed());
}

/// A replay whose threads' locals would take more than half the heap left is not made:
/// the finding stays possible and the command goes on (exit 1), where the replay of this
/// launch of 4 M threads ended it at the limit (exit 2). With the default limit the same
/// race is replayed and confirmed.
#[test]
fn a_replay_too_large_for_the_memory_left_is_not_made() {
    let k = write(
        "big_replay.kpl",
        "kernel big { groups: 4096; threads: 1024; param n; global A[*]; main { local a := lid; local b := 0; local c := 1; local d := 2; local e := 3; local f := 4; local g := 5; local h := 6; local i := 0; while i < n { a := a + 1; b := b + a; c := c + b; d := d + c; e := e + d; f := f + e; g := g + f; h := h + g; i := i + 1; } A[0] := a + b + c + d + e + f + g + h; } }",
    );
    let o = bounded(&["--memory-limit", "100", "verify", s(&k)], Duration::from_secs(60));
    assert_eq!(o.code, 1, "{}{}", o.stdout, o.stderr);
    assert!(o.stderr.contains("possible write-write race on A[0]"), "{}", o.stderr);
    let o = bounded(&["verify", s(&k)], Duration::from_secs(60));
    assert_eq!(o.code, 1, "{}{}", o.stdout, o.stderr);
    assert!(o.stderr.contains("confirmed write-write race on A[0]"), "{}", o.stderr);
}

#[test]
fn memory_limit_ends_a_run_as_inconclusive() {
    let o = bounded(&["--memory-limit", "100", "run", s(&root().join("tests/kernels/strided_overflow.kpl"))], Duration::from_secs(60));
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(o.stderr.contains("memory limit"), "{}", o.stderr);
    // With `--json`, standard output still has the file's report.
    // (4000 statements: with its candidates outside every assertion's cone left out,
    // `relevance.rs`, 2000 verify in under a second; 4000 take about 6 s.)
    let body: String = (0..4000).map(|_| "x := x * 3 + lid; ").collect();
    let k = format!("kernel big {{ threads: 64; param n; global A[*]; main {{ local x := 0; local i := 0; while i < n {{ {body} i := i + 1; }} A[lid] := x; }} }}");
    let o = bounded(&["--memory-limit", "20", "verify", "--json", s(&write("big_json.kpl", &k))], Duration::from_secs(60));
    assert_eq!(o.code, 2, "{}", o.stderr);
    let v: serde_json::Value = serde_json::from_str(o.stdout.lines().next().unwrap_or("")).expect("a JSON report");
    assert_eq!(v["verdict"], "inconclusive", "{v}");
    assert!(v["reason"].as_str().is_some_and(|r| r.contains("memory limit")), "{v}");
    // A file answered before the limit ran out (here the solver's, a third of it) keeps its
    // report; the one that ran out is said inconclusive.
    let small = write("small_json.kpl", "kernel small { threads: 64; global A[*]; main { A[lid] := lid; } }");
    let o = bounded(&["--memory-limit", "60", "verify", "--json", "--jobs", "1", s(&small), s(&write("big_json.kpl", &k))], Duration::from_secs(60));
    assert_eq!(o.code, 2, "{}", o.stderr);
    let lines: Vec<(String, String)> = o
        .stdout
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("a JSON report"))
        .map(|v| (v["file"].as_str().unwrap().rsplit('/').next().unwrap().to_string(), v["verdict"].as_str().unwrap().to_string()))
        .collect();
    let want = [("small_json.kpl", "verified"), ("big_json.kpl", "inconclusive")].map(|(f, v)| (f.to_string(), v.to_string()));
    assert_eq!(lines, want, "{}{}", o.stdout, o.stderr);
}

#[test]
fn many_errors_on_one_long_line_stop_at_the_error_limit() {
    let stmts: String = (0..5000).map(|i| format!("x{i} := 1; ")).collect();
    let p = write("errors.kpl", &format!("kernel e {{\n threads: 4;\n main {{\n{stmts}\n }}\n}}\n"));
    let o = bounded(&["check", s(&p)], Duration::from_secs(10));
    assert_eq!(o.code, 3);
    assert_eq!(o.stderr.matches("error: `x").count(), 20, "{}", o.stderr);
    assert!(o.stderr.contains("4980 more errors not shown"), "{}", o.stderr);
    assert!(o.stderr.len() < 20_000, "{} bytes", o.stderr.len());
    let o = bounded(&["--error-limit", "0", "check", s(&p)], Duration::from_secs(30));
    assert_eq!(o.stderr.matches("error: `x").count(), 5000);
}

#[test]
fn launches_are_required_and_their_sizes_never_overflow() {
    let huge = write(
        "huge.kpl",
        "kernel g {\n  groups: 4294967295, 4294967295, 4294967295;\n  threads: 4294967295, 4294967295, 4294967295;\n  global A[*];\n  main { A[lid] := 1; }\n}\n",
    );
    for cmd in [&["check"][..], &["verify"], &["run"], &["emit"]] {
        let mut args = cmd.to_vec();
        args.push(s(&huge));
        bounded(&args, Duration::from_secs(30));
    }
    let reduce = root().join("tests/kernels/reduce.kpl");
    bounded(&["verify", "--blockDim=[65536,65536,65536]", "--gridDim=[65536,65536,65536]", s(&reduce)], Duration::from_secs(60));
    let cu = write("nolaunch.cu", "__global__ void k(int *A) { A[threadIdx.x] = 1; }\n");
    for cmd in ["verify", "run"] {
        let o = bounded(&[cmd, s(&cu)], Duration::from_secs(10));
        assert_eq!(o.code, 3, "{cmd}");
        assert!(o.stderr.contains("needs a launch"), "{}", o.stderr);
    }
    assert_eq!(bounded(&["check", s(&cu)], Duration::from_secs(10)).code, 0, "check only warns");
}

#[test]
fn output_directories_are_new_empty_or_kpls_own() {
    let reduce = root().join("tests/kernels/reduce.kpl");
    let o = bounded(&["certify", s(&reduce), "-o", "/"], Duration::from_secs(30));
    assert_eq!(o.code, 3);
    assert!(o.stderr.contains("will not write into `/`"), "{}", o.stderr);
    let dir = scratch("robust-out");
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(bounded(&["certify", s(&reduce), "-o", s(&dir)], Duration::from_secs(60)).code, 0);
    // Writing again over kpl's own output is fine.
    assert_eq!(bounded(&["certify", s(&reduce), "-o", s(&dir)], Duration::from_secs(60)).code, 0);
    std::fs::write(dir.join("notes.txt"), "mine").unwrap();
    assert_eq!(bounded(&["export-isabelle", s(&reduce), "-o", s(&dir)], Duration::from_secs(30)).code, 3);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Past Z3's memory limit (a third of `--memory-limit`) Z3 returns no term or throws a C++
/// exception nothing catches: either way kpl ends inconclusive (exit 2), never with an
/// internal error or a signal. A sweep of limits around where a tiled matrix product's
/// queries outgrow them.
#[test]
fn the_solver_running_out_of_memory_is_inconclusive() {
    let k = root().join("benches/kernels/matmul_tiled.kpl");
    for mib in ["45", "55", "60", "65", "70", "80", "90"] {
        let o = bounded(&["--memory-limit", mib, "verify", s(&k)], Duration::from_secs(60));
        assert!(o.code == 0 || o.code == 2, "--memory-limit {mib}: exit {}: {}", o.code, o.stderr);
        if o.code == 2 {
            assert!(o.stderr.contains("memory") || o.stdout.contains("memory"), "--memory-limit {mib}: {}{}", o.stdout, o.stderr);
        }
    }
}
