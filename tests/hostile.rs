//! Hostile inputs, second round: types whose layout is infinite or too large, output that
//! cannot be written, files that are not files, the process's own memory limits, inputs
//! that do not fit, odd encodings and preprocessor abuse. Each ends in exit 0-3 within its
//! limit, with a message that says what happened; a generated sweep over type declarations
//! keeps it so.

mod common;
use common::*;
use kpl_lang::rng::Rng;
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

fn dir() -> PathBuf {
    let d = scratch("hostile");
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn write(name: &str, text: &str) -> PathBuf {
    let p = dir().join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// Run kpl through `sh -c` (for redirections and `ulimit`); its status and both streams.
fn sh(script: &str) -> Out {
    let o = Command::new("sh")
        .arg("-c")
        .arg(script)
        .env("KPL", env!("CARGO_BIN_EXE_kpl"))
        .current_dir(dir())
        .output()
        .unwrap();
    Out { code: o.status.code().unwrap_or(-1), stdout: String::from_utf8_lossy(&o.stdout).into(), stderr: String::from_utf8_lossy(&o.stderr).into() }
}

fn answered(o: &Out, what: &str) {
    assert!((0..=3).contains(&o.code), "{what}: exit {}: {}", o.code, o.stderr.chars().take(1500).collect::<String>());
}

#[test]
fn types_that_contain_themselves_are_diagnostics() {
    let cases = [
        ("local.cu", "struct S { struct S s; };\n__global__ void k(int *A) { struct S x; A[0] = 1; }\n"),
        ("param.cu", "struct S { int a; struct S s; };\n__global__ void k(int *A, struct S p) { A[0] = p.a; }\n"),
        ("shared.cu", "struct S { struct S s; };\n__global__ void k(int *A) { __shared__ struct S x; A[0] = 1; }\n"),
        ("device.cu", "struct S { int a[2]; struct S s[3]; };\n__device__ struct S g;\n__global__ void k(int *A) { A[0] = g.a[0]; }\n"),
        ("mutual.cu", "struct B;\nstruct A { struct B b; };\nstruct B { struct A a; int x; };\n__global__ void k(int *A) { struct A v; A[0] = 1; }\n"),
        ("union.cu", "typedef union U { int x; union U u; } UT;\n__global__ void k(int *A) { UT u; u.x = 1; A[0] = u.x; }\n"),
        ("template.cu", "template <typename T> struct R { T v; R<T> r; };\n__global__ void k(int *A) { R<int> x; A[0] = x.v; }\n"),
        ("macro.cu", "#define REC(n) struct n { int a; struct n arr[4]; }\nREC(S);\n__global__ void k(int *A) { __shared__ struct S s; A[0] = s.a; }\n"),
        ("opencl.cl", "typedef struct S { struct S inner; float f; } S;\n__kernel void k(__global S *p, __global float *o) { o[0] = p[0].f; }\n"),
    ];
    for (name, text) in cases {
        let f = write(name, text);
        let o = kpl(&["check", "--blockDim=4", "--local_size=4", s(&f)]);
        assert_eq!(o.code, 3, "{name}: {}", o.stderr);
        assert!(o.stderr.contains("contains itself"), "{name}: {}", o.stderr);
    }
}

#[test]
fn array_sizes_past_the_limit_are_refused_wherever_the_array_sits() {
    let dims65: String = "[2]".repeat(65);
    let cases = [
        ("shared.cu", "__global__ void k(int *A) { __shared__ int S[65536][65536][65536][65536]; A[0] = 1; }\n".to_string()),
        ("dims65.cu", format!("__global__ void k(int *A) {{ __shared__ int S{dims65}; A[0] = 1; }}\n")),
        ("private.cu", "__global__ void k(int *A) { int P[65536][65536][65536]; P[0][0][0] = 1; A[0] = P[0][0][0]; }\n".into()),
        ("device.cu", "__device__ int G[65536][65536][65536];\n__global__ void k(int *A) { A[0] = G[0][0][0]; }\n".into()),
        ("local.cl", "__kernel void k(__global int *A) { __local int L[65536][65536][65536][65536]; A[0] = 1; }\n".into()),
        ("struct.cu", "struct W { int a[65536][65536]; };\n__global__ void k(int *A) { __shared__ struct W S[4]; S[0].a[0][0] = 1; }\n".into()),
        ("struct_bytes.cu", "struct W { double a[65536][32768]; int b; };\n__global__ void k(int *A, struct W *w) { A[0] = w[0].b; }\n".into()),
    ];
    for (name, text) in cases {
        let f = write(name, &text);
        let o = kpl(&["check", "--blockDim=4", "--local_size=4", s(&f)]);
        assert_eq!(o.code, 3, "{name}: {}", o.stderr);
        assert!(o.stderr.contains("2^32"), "{name}: {}", o.stderr);
        assert!(!o.stderr.contains("is not declared"), "{name}: a refused array is not reported again: {}", o.stderr);
    }
}

#[test]
fn output_that_cannot_be_written_is_said_on_the_other_stream() {
    let reduce = s(&root().join("tests/kernels/reduce.kpl")).to_string();
    for cmd in ["check", "verify", "verify --json", "run", "fmt"] {
        let o = sh(&format!("\"$KPL\" {cmd} '{reduce}' > /dev/full"));
        assert_eq!(o.code, 2, "{cmd} > /dev/full: {}", o.stderr);
        assert!(o.stderr.contains("cannot write to standard output") && o.stderr.contains("not delivered"), "{cmd}: {}", o.stderr);
    }
    // Standard error full: diagnostics cannot be shown; said on standard output.
    let o = sh("\"$KPL\" check no-such-file.kpl 2> /dev/full");
    assert_eq!(o.code, 2, "{}", o.stdout);
    assert!(o.stdout.contains("cannot write to standard error"), "{}", o.stdout);
}

#[test]
fn kernel_files_are_regular_files_or_standard_input() {
    let fifo = dir().join("fifo.kpl");
    let _ = std::fs::remove_file(&fifo);
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let reduce = s(&root().join("tests/kernels/reduce.kpl")).to_string();
    for cmd in ["check", "run", "fmt", "verify", "perf", "testgen", "emit", "export-isabelle -o out-fifo", "certify -o cert-fifo"] {
        let t = Instant::now();
        let o = sh(&format!("\"$KPL\" {cmd} fifo.kpl"));
        assert_eq!(o.code, 3, "{cmd} on a FIFO: {}", o.stderr);
        assert!(o.stderr.contains("not a regular file"), "{cmd}: {}", o.stderr);
        assert!(t.elapsed() < Duration::from_secs(10), "{cmd} waited on the FIFO");
    }
    let o = sh(&format!("\"$KPL\" run --input fifo.kpl '{reduce}'"));
    assert_eq!(o.code, 3, "--input FIFO: {}", o.stderr);
    // `-` is standard input (KPL unless `-x` says otherwise); `/dev/stdin` from a pipe is
    // refused with that hint.
    let o = sh(&format!("cat '{reduce}' | \"$KPL\" verify -"));
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    assert!(o.stdout.contains("<stdin>: verified"), "{}", o.stdout);
    let saxpy = s(&root().join("tests/kernels-cuda/saxpy.cu")).to_string();
    let o = sh(&format!("cat '{saxpy}' | \"$KPL\" verify -x cuda --blockDim=32 --gridDim=2 -"));
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    let o = sh(&format!("cat '{reduce}' | \"$KPL\" check /dev/stdin"));
    assert_eq!(o.code, 3, "{}", o.stderr);
    assert!(o.stderr.contains("standard input given as `-`"), "{}", o.stderr);
    std::fs::copy(root().join("tests/kernels-cuda/saxpy.cu"), dir().join("saxpy.cuh")).unwrap();
    let o = sh("\"$KPL\" verify -x cuda --blockDim=32 saxpy.cuh");
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
}

#[test]
fn the_process_own_memory_limits_end_in_an_answer() {
    let reduce = s(&root().join("tests/kernels/reduce.kpl")).to_string();
    // The README's example under a 4 GB address-space limit verifies.
    let o = sh(&format!("ulimit -v 4000000 && \"$KPL\" verify '{reduce}'"));
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    // Tighter limits end in an answer: verified, or inconclusive naming the memory.
    for kib in [1_000_000, 500_000] {
        let o = sh(&format!("ulimit -v {kib} && \"$KPL\" verify '{reduce}'"));
        assert!(o.code == 0 || o.code == 2, "ulimit -v {kib}: exit {}: {}", o.code, o.stderr);
    }
    // An allocation past the process's limit (a 100,000,000-word array exported) ends as
    // the memory limit does, not in an abort.
    let big = write("big.kpl", "kernel k { groups: 1; threads: 4; global A[100000000]; main { A[lid] := 1; } }\n");
    let o = sh(&format!("ulimit -v 4000000 && \"$KPL\" export-isabelle '{}' -o big-out", s(&big)));
    assert!(o.code == 0 || o.code == 2, "exit {}: {}", o.code, o.stderr);
    // A kernel nested deeper than the smaller stack holds is a diagnostic there.
    let n = 40_000;
    let deep = write("deep.kpl", &format!("kernel f {{ threads: 4; global A[4]; main {{ {} A[lid] := 1; {} }} }}", "if lid < 9 { ".repeat(n), "} ".repeat(n)));
    let o = sh(&format!("ulimit -v 2000000 && \"$KPL\" check '{}'", s(&deep)));
    assert_eq!(o.code, 3, "{}", o.stderr.chars().take(500).collect::<String>());
    assert!(o.stderr.contains("levels deep"), "{}", o.stderr.chars().take(500).collect::<String>());
}

#[test]
fn inputs_must_fit_the_kernel() {
    let k = write("in.kpl", "kernel k { groups: 2; threads: 4; global A[8]; shared S[4]; main { A[lid + 4 * gid] := S[lid]; } }\n");
    for (json, want) in [
        (r#"{"arrays": {"A": [1,2,3,4,5,6,7,8,9]}}"#, "element 8 of `A`, which has 8 elements"),
        (r#"{"arrays": {"A": [[1],[2]]}}"#, "`A` is a global array"),
        (r#"{"arrays": {"S": [[1],[2],[3]]}}"#, "group 2, but the launch has 2 groups"),
        (r#"{"arrays": {"A": {"5000000": 1}}}"#, "element 5000000 of `A`"),
    ] {
        let input = write("in.json", json);
        let o = kpl(&["run", "--input", s(&input), s(&k)]);
        assert_eq!(o.code, 3, "{json}: {}", o.stderr);
        assert!(o.stderr.contains(want), "{json}: {}", o.stderr);
    }
    let ok = write("ok.json", r#"{"arrays": {"A": [1,2,3,4,5,6,7,8], "S": [[1],[2]]}}"#);
    assert_eq!(kpl(&["run", "--input", s(&ok), s(&k)]).code, 0);
}

#[test]
fn encodings_includes_defines_and_macros() {
    // A byte-order mark, and old Mac line ends (positions stay right: line 3 is reported).
    let bom = write("bom.kpl", "\u{FEFF}kernel k { threads: 4; global A[4]; main { A[lid] := 1; } }\n");
    assert_eq!(kpl(&["check", s(&bom)]).code, 0);
    let cr = write("cr.kpl", "kernel k {\r threads: 4;\r global A[4];\r main { A[lid] := x; }\r}\r");
    let o = kpl(&["check", s(&cr)]);
    assert_eq!(o.code, 3);
    assert!(o.stderr.contains("cr.kpl:4:"), "{}", o.stderr);
    // A file that includes itself: guarded it is read once, unguarded the nesting limit.
    let guarded = write("self2.cu", "#ifndef ONCE\n#define ONCE\n#include \"self2.cu\"\n__global__ void k(int *A) { A[0] = 1; }\n#endif\n");
    assert_eq!(kpl(&["check", "--blockDim=4", s(&guarded)]).code, 0);
    let looped = write("self.cu", "#include \"self.cu\"\n__global__ void k(int *A) { A[0] = 1; }\n");
    let o = kpl(&["check", "--blockDim=4", s(&looped)]);
    assert_eq!(o.code, 3);
    assert!(o.stderr.contains("include itself"), "{}", o.stderr);
    // `-D` takes C macro names only.
    let saxpy = s(&root().join("tests/kernels-cuda/saxpy.cu")).to_string();
    for bad in ["-D=1", "-D1abc=2", "-DX(", "-DH(1)=2"] {
        let o = kpl(&["check", "--blockDim=4", bad, &saxpy]);
        assert_eq!(o.code, 3, "{bad}: {}", o.stderr);
    }
    for good in ["-DN=4", "-DF(x)=x", "-DG(a,...)=a", "-DFLAG"] {
        assert_eq!(kpl(&["check", "--blockDim=4", good, &saxpy]).code, 0, "{good}");
    }
    // 20,000 nested macro calls: a diagnostic, quickly and within bounded memory.
    let n = 20_000;
    let m = write("macro.cu", &format!("#define F(x) x\n__global__ void k(int *A) {{ A[0] = {}1{}; }}\n", "F(".repeat(n), ")".repeat(n)));
    let t = Instant::now();
    let o = kpl(&["--memory-limit", "600", "check", "--blockDim=4", s(&m)]);
    assert_eq!(o.code, 3, "{}", o.stderr.chars().take(500).collect::<String>());
    assert!(t.elapsed() < Duration::from_secs(20));
}

#[test]
fn run_and_perf_take_a_time_limit() {
    let k = write("long.kpl", "kernel l { threads: 64; global A[64]; main { local i := 0; while i < 100000000 { A[lid] := A[lid] + 1; i := i + 1; } } }\n");
    for cmd in [&["run"][..], &["perf"]] {
        let t = Instant::now();
        let mut args = cmd.to_vec();
        args.extend(["--timeout", "1", "--max-steps", "100000000000", s(&k)]);
        let o = kpl(&args);
        assert_eq!(o.code, 2, "{cmd:?}: {}{}", o.stdout, o.stderr);
        assert!(o.stdout.contains("time limit of 1 s ran out"), "{cmd:?}: {}", o.stdout);
        assert!(t.elapsed() < Duration::from_secs(8), "{cmd:?} took {:?}", t.elapsed());
    }
    let o = kpl(&["run", "--timeout", "0", s(&k)]);
    assert_eq!(o.code, 3);
}

/// The fuzz target over type declarations: random structs (and unions) holding scalars,
/// arrays of random sizes (up to far past 2^32 words), pointers and other structs, with
/// cycles by value among them, used as locals, `__shared__` and parameters. Every program
/// ends in exit 0-3, quickly.
#[test]
fn generated_type_declarations_end_in_an_answer() {
    let mut r = Rng::new(std::env::var("KPL_FUZZ_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0x7E5_7D3C));
    let sizes = ["1", "4", "1000", "65536", "65536][65536", "4294967295", "2147483648][2"];
    // `KPL_FUZZ_CASES=N` widens the sweep (a developer's longer run).
    let cases = std::env::var("KPL_FUZZ_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(80);
    for case in 0..cases {
        let n = 1 + r.below(4) as usize;
        let mut text = String::new();
        for i in 0..n {
            text.push_str(&format!("struct S{i};\n"));
        }
        for i in 0..n {
            let kw = if r.chance(1, 6) { "union" } else { "struct" };
            let mut fields = String::new();
            for f in 0..1 + r.below(3) {
                let field = match r.below(5) {
                    0 => format!("int f{f};"),
                    1 => format!("float f{f}[{}];", r.pick(&sizes)),
                    2 => format!("struct S{} *p{f};", r.below(n as u64)),
                    3 => format!("struct S{} s{f};", r.below(n as u64)),
                    _ => format!("struct S{} a{f}[{}];", r.below(n as u64), r.pick(&sizes)),
                };
                fields.push_str(&field);
            }
            // (A `union` keyword on a `struct` tag is itself an error: a diagnostic too.)
            text.push_str(&format!("{kw} S{i} {{ int tag; {fields} }};\n"));
        }
        let use_ = match r.below(3) {
            0 => "struct S0 x; A[0] = x.tag;",
            1 => "__shared__ struct S0 x; A[0] = x.tag;",
            _ => "A[0] = sizeof(struct S0) > 0;",
        };
        text.push_str(&format!("__global__ void k(int *A, struct S0 *q) {{ {use_} }}\n"));
        let f = write(&format!("types{case}.cu"), &text);
        let t = Instant::now();
        let o = kpl(&["check", "--blockDim=4", s(&f)]);
        answered(&o, &text);
        assert!(t.elapsed() < Duration::from_secs(20), "{text}");
    }
}

#[test]
fn launches_in_host_code_kpl_cannot_read_are_diagnostics() {
    // Malformed, overflowing or out-of-range launches: a diagnostic at the launch (or a
    // launch read), never a crash; and nothing is read from a launch that is not there.
    let bodies = [
        ("div0", "k<<<1 / 0, 32>>>(d);", 3),
        ("overflow", "k<<<9223372036854775807 * 2, 32>>>(d);", 3),
        ("negative", "k<<<-1, 32>>>(d);", 3),
        ("wide", "k<<<4294967296, 32>>>(d);", 3),
        ("unclosed", "k<<<1, 32", 3),
        ("empty", "k<<<>>>(d);", 3),
        ("five", "k<<<1, 2, 3, 4, 5>>>(d);", 3),
        ("dim3_four", "dim3 g(1, 2, 3, 4); k<<<g, 32>>>(d);", 3),
        // (A grid of a value kpl cannot read is any grid: `verify` verifies them all.)
        ("self", "int n = n; k<<<n, 32>>>(d);", 0),
        ("literal", "k<<<1, 32>>>(d, 99999999999999999999999);", 3),
    ];
    for (name, body, want) in bodies {
        let f = write(&format!("launch_{name}.cu"), &format!("__global__ void k(int *a) {{ a[threadIdx.x] = 1; }}\nint main() {{ int *d; {body} return 0; }}\n"));
        let o = kpl(&["verify", s(&f)]);
        answered(&o, name);
        assert_eq!(o.code, want, "{name}: {}{}", o.stdout, o.stderr);
        // (A file with an error of its own says that error first: the literal.)
        if want == 3 {
            let own = name == "literal" && o.stderr.contains("is not a number kpl understands");
            assert!(o.stderr.contains("needs a launch") || own, "{name}: {}", o.stderr);
        }
    }
}
