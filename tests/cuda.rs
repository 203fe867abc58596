//! End-to-end tests of the CUDA and OpenCL front ends: every kernel in tests/kernels-cuda
//! in GPUVerify's test format (line 1 `//pass` or `//xfail:CODE`, line 2 the options,
//! then `//REGEX` lines that must match the report), and `kpl fmt` on C files.

mod common;
use common::*;

fn expected_code(first: &str) -> i32 {
    match first.trim_start_matches("//") {
        "pass" => 0,
        "xfail:NOT_ALL_VERIFIED" => 1,
        "xfail:TIMEOUT" => 2,
        _ => 3,
    }
}

#[test]
fn every_gpuverify_style_kernel_gets_its_verdict_and_messages() {
    let mut n = 0;
    for ext in ["cu", "cl"] {
        for k in kernels("tests/kernels-cuda", ext) {
            let text = std::fs::read_to_string(&k).unwrap();
            let lines: Vec<&str> = text.lines().collect();
            let want = expected_code(lines[0]);
            let mut args = vec!["verify"];
            args.extend(lines[1].trim_start_matches("//").split_whitespace());
            args.push(s(&k));
            let o = kpl_in(k.parent().unwrap(), &args);
            assert_eq!(o.code, want, "{}:\n{}{}", k.display(), o.stdout, o.stderr);
            for rx in lines[2..].iter().take_while(|l| l.starts_with("//") && l.len() > 2) {
                let re = regex::Regex::new(&rx[2..]).unwrap();
                assert!(re.is_match(&o.stdout) || re.is_match(&o.stderr), "{}: no match for /{}/:\n{}", k.display(), &rx[2..], o.stderr);
            }
            n += 1;
        }
    }
    assert!(n >= 20, "only {n} kernels");
}

#[test]
fn fmt_prints_the_kpl_a_c_kernel_lowers_to() {
    let k = root().join("tests/kernels-cuda/short_circuit.cu");
    let o = kpl(&["fmt", "--blockDim=64", "--gridDim=1", s(&k)]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stdout.contains("shared buf[64];"), "{}", o.stdout);
    // The guarded read stays under its guard (the launch makes `i` a thread id below 64,
    // so the signed comparison is folded into the unsigned one, `word_ranges.rs`).
    assert!(o.stdout.contains("if i + 1 < 64 {"), "{}", o.stdout);
    assert!(kpl_lang::check_kpl(&o.stdout).is_ok());
    // Without a launch: a warning, and one thread.
    let o = kpl(&["check", s(&k)]);
    assert_eq!(o.code, 0);
    assert!(o.stderr.contains("no launch given"), "{}", o.stderr);
}

#[test]
fn the_launch_options_have_their_gpuverify_forms() {
    let k = root().join("tests/kernels-cuda/vector_add.cl");
    for args in [
        vec!["--global_size=4096", "--local_size=256"],
        vec!["--local_size=256", "--num_groups=16"],
        vec!["--blockDim=256", "--gridDim=16"],
    ] {
        let mut a = vec!["verify", "--json"];
        a.extend(args.iter().copied());
        a.push(s(&k));
        let o = kpl(&a);
        assert_eq!(o.code, 0, "{args:?}: {}", o.stderr);
    }
    let o = kpl(&["verify", "--global_size=4000", "--local_size=256", s(&k)]);
    assert_eq!(o.code, 3);
    assert!(o.stderr.contains("Dimension 0 of global size does not divide by dimension 0 of local size"), "{}", o.stderr);
    // GPUVerify's rule: the groups or the work-items in all, not both (even when they agree).
    let o = kpl(&["verify", "--global_size=4096", "--local_size=256", "--num_groups=16", s(&k)]);
    assert_eq!(o.code, 3);
    assert!(o.stderr.contains("--num_groups=: not allowed with argument --global_size="), "{}", o.stderr);
    let o = kpl(&["verify", "--blockdim=256", s(&k)]);
    assert_eq!(o.code, 3);
    assert!(o.stderr.contains("--blockDim"), "a hint names the close option: {}", o.stderr);
}

#[test]
fn defines_and_kernel_selection() {
    let k = root().join("tests/kernels-cuda/macro_size.cu");
    assert_eq!(kpl(&["verify", "--blockDim=256", "--gridDim=16", "-DCHUNK=4", s(&k)]).code, 0);
    let o = kpl(&["verify", "--blockDim=256", "--gridDim=16", s(&k)]);
    assert_eq!(o.code, 3);
    assert!(o.stderr.contains("#error CHUNK must be defined"), "{}", o.stderr);
    let k = root().join("c-front/tests/lowering/two_kernels.cu");
    // A file of several kernels: `check` checks each (as `verify` verifies each).
    let all = kpl(&["check", "--blockDim=8", s(&k)]);
    assert_eq!(all.code, 0, "{}", all.stderr);
    assert!(all.stdout.contains("kernel `k1`") && all.stdout.contains("kernel `k2`"), "{}", all.stdout);
    assert_eq!(kpl(&["check", "--blockDim=8", "--kernel=k2", s(&k)]).code, 0);
    assert_eq!(kpl(&["check", "--blockDim=8", "--kernel=k3", s(&k)]).code, 3);
}

#[test]
fn headers_are_named_in_reports_and_carried_in_certificates() {
    // A defect in an included header is located in the header (JSON adds its file).
    let k = root().join("tests/kernels-cuda/include_header_race.cu");
    let o = kpl(&["verify", "--json", "--blockDim=16", "--gridDim=1", s(&k)]);
    assert_eq!(o.code, 1, "{}", o.stderr);
    let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    let accesses = v["defects"][0]["accesses"].as_array().unwrap();
    assert!(accesses.iter().all(|a| a["file"].as_str().is_some_and(|f| f.ends_with("headers/tiles.cuh"))), "{}", o.stdout);
    assert!(accesses.iter().any(|a| a["line"] == 6 && a["col"] == 3), "{}", o.stdout);
    // A missing header is bad input naming the `#include`.
    let d = scratch("include");
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(d.join("inc")).unwrap();
    std::fs::write(d.join("k.cu"), "#include <n.h>\n#include \"gone.h\"\n__global__ void k(int *a) { a[threadIdx.x] = N; }\n").unwrap();
    let o = kpl_in(&d, &["verify", "--blockDim=16", "k.cu"]);
    assert_eq!(o.code, 3, "{}", o.stderr);
    assert!(o.stderr.contains("cannot find `gone.h`") && o.stderr.contains("k.cu:2:1"), "{}", o.stderr);
    // With the header there and `-I inc` for `<n.h>`: verified, and the certificate holds
    // both headers, so it re-checks after they are gone.
    std::fs::write(d.join("gone.h"), "#define M 1\n").unwrap();
    std::fs::write(d.join("inc/n.h"), "#define N 7\n").unwrap();
    let o = kpl_in(&d, &["certify", "--blockDim=16", "-I", "inc", "k.cu", "-o", "cert", "--no-isabelle"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    std::fs::remove_file(d.join("gone.h")).unwrap();
    std::fs::remove_dir_all(d.join("inc")).unwrap();
    let o = kpl_in(&d, &["check-cert", "cert"]);
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    let _ = std::fs::remove_dir_all(&d);
}

/// A header whose only kernel is a template nothing instantiates: the error says which
/// template, and how to name an instance; the instance named is verified.
#[test]
fn a_kernel_template_without_an_instance_asks_for_one() {
    let dir = scratch("template");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("tile.cuh"), "template <int B>\n__global__ void tile(int *a) { a[blockIdx.x * B + threadIdx.x] = threadIdx.x; }\n").unwrap();
    let o = kpl_in(&dir, &["verify", "-x", "cuda", "--blockDim=32", "--gridDim=2", "tile.cuh"]);
    assert_eq!(o.code, 3, "{}{}", o.stdout, o.stderr);
    assert!(o.stderr.contains("its kernel template `tile` has no instance in the file: name one with its template arguments, `--kernel=tile<...>`"), "{}", o.stderr);
    let o = kpl_in(&dir, &["verify", "-x", "cuda", "--blockDim=32", "--gridDim=2", "--kernel=tile<32>", "tile.cuh"]);
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    // Blocks of 32 apart by 16 overlap.
    let o = kpl_in(&dir, &["verify", "-x", "cuda", "--blockDim=32", "--gridDim=2", "--kernel=tile<16>", "tile.cuh"]);
    assert_eq!(o.code, 1, "{}{}", o.stdout, o.stderr);
}
