//! End-to-end tests of `kpl testgen`: GKLEE's path counts on its bitonic sort, reductions
//! that keep coverage, postconditions and bounds broken by generated tests, and tests that
//! replay in `kpl run`.

mod common;
use common::*;
use serde_json::Value;

fn testgen(file: &str, args: &[&str]) -> (Out, Option<Value>, std::path::PathBuf) {
    // The kernel's name too: two tests running at once with the same options must not share
    // (and delete) one directory.
    let stem = std::path::Path::new(file).file_stem().unwrap().to_str().unwrap();
    let dir = scratch(&format!("testgen-{stem}-{}", args.join("_").replace(['/', '=', '[', ']', ','], "")));
    let _ = std::fs::remove_dir_all(&dir);
    let k = root().join(file);
    let mut a = vec!["testgen", s(&k), "--json", s(&dir)];
    a.extend(args);
    let o = kpl(&a);
    let report = std::fs::read_to_string(dir.join("report.json")).ok().map(|t| serde_json::from_str(&t).unwrap());
    (o, report, dir)
}

#[test]
fn bitonic_sort_has_gklee_s_28_paths_and_the_reductions_keep_coverage() {
    let args = ["--blockDim=4", "--gridDim=1"];
    let (o, all, d) = testgen("tests/perf/bitonic.cu", &[&args[..], &["--reduction=none"]].concat());
    assert_eq!(o.code, 0, "{}", o.stderr);
    let all = all.unwrap();
    // GKLEE's Table 5: 28 paths without reductions.
    assert_eq!(all["paths"], 28, "{all}");
    assert_eq!(all["complete"], true);
    assert_eq!(all["coverage"]["source"], serde_json::json!([1.0, 1.0]));
    for r in ["tb", "bi"] {
        let (o, red, d2) = testgen("tests/perf/bitonic.cu", &[&args[..], &[&format!("--reduction={r}")]].concat());
        assert_eq!(o.code, 0, "{}", o.stderr);
        let red = red.unwrap();
        assert!(red["paths"].as_u64().unwrap() < 28, "{r}: {red}");
        assert_eq!(red["coverage"]["source"], all["coverage"]["source"], "{r}");
        // Selection keeps what the kept tests cover, per thread.
        assert_eq!(red["selected_coverage"]["avg_cov_t"], red["coverage"]["avg_cov_t"], "{r}");
        let _ = std::fs::remove_dir_all(d2);
    }
    let _ = std::fs::remove_dir_all(d);
}

#[test]
fn a_postcondition_is_checked_on_every_path() {
    // Sorted for 4 threads; not for 6 (the kernel needs a power of two, as GKLEE found).
    let (o, r, d) = testgen("tests/testgen/bitonic_sorted.cu", &["--blockDim=4", "--gridDim=1"]);
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    assert_eq!(r.unwrap()["defects"], 0);
    let _ = std::fs::remove_dir_all(d);
    let (o, r, d) = testgen("tests/testgen/bitonic_sorted.cu", &["--blockDim=6", "--gridDim=1"]);
    assert_eq!(o.code, 1, "{}{}", o.stdout, o.stderr);
    assert!(o.stderr.contains("assertion failure") && o.stderr.contains("bitonic_sorted.cu:29:5"), "{}", o.stderr);
    let r = r.unwrap();
    assert!(r["defects"].as_u64().unwrap() >= 1);
    // Every written test replays in `kpl run` with the outcome the report gives.
    let k = root().join("tests/testgen/bitonic_sorted.cu");
    for t in r["tests"].as_array().unwrap() {
        let f = t["file"].as_str().unwrap();
        let run = kpl(&["run", "--json", "--blockDim=6", "--gridDim=1", "--input", f, s(&k)]);
        let v: Value = serde_json::from_str(&run.stdout).unwrap();
        assert_eq!(v["outcome"], t["outcome"], "{f}");
    }
    let _ = std::fs::remove_dir_all(d);
}

#[test]
fn generated_tests_find_an_out_of_bounds_index() {
    let (o, r, d) = testgen("tests/testgen/bounds.cu", &["--blockDim=8", "--gridDim=1"]);
    assert_eq!(o.code, 1, "{}{}", o.stdout, o.stderr);
    assert!(o.stderr.contains("out-of-bounds write of s["), "{}", o.stderr);
    let r = r.unwrap();
    let bad: Vec<&Value> = r["tests"].as_array().unwrap().iter().filter(|t| t["outcome"] == "out_of_bounds").collect();
    assert_eq!(bad.len(), 1, "{r}");
    let n = bad[0]["params"]["n"].as_u64().unwrap();
    assert!((16..20).contains(&n), "{n}");
    let _ = std::fs::remove_dir_all(d);
}

#[test]
fn an_unmet_requires_is_solved_for() {
    let (o, r, d) = testgen("tests/testgen/requires.kpl", &[]);
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    let r = r.unwrap();
    assert!(r["tests"].as_array().unwrap().iter().all(|t| t["params"]["n"] == 1234567 && t["outcome"] == "ok"), "{r}");
    assert_eq!(r["coverage"]["source"], serde_json::json!([1.0, 1.0]));
    let _ = std::fs::remove_dir_all(d);
}

#[test]
fn bad_testgen_options_are_diagnosed() {
    let k = root().join("tests/testgen/bounds.cu");
    let o = kpl(&["testgen", "--blockDim=8", "--gridDim=1", "--reduction=fast", s(&k)]);
    assert_eq!(o.code, 3);
    assert!(o.stderr.contains("unknown reduction"), "{}", o.stderr);
    let o = kpl(&["testgen", "--blockDim=8", "--gridDim=1", "--timeout=-1", s(&k)]);
    assert_eq!(o.code, 3);
}

#[test]
fn generated_tests_replay_in_difftest() {
    // The tests are inputs of `kpl difftest --input` too (PoCL, which setup.sh installs).
    let (o, r, d) = testgen("tests/testgen/bitonic_sorted.cu", &["--blockDim=4", "--gridDim=1", "--reduction=none"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let files: Vec<String> = r.unwrap()["tests"].as_array().unwrap().iter().map(|t| t["file"].as_str().unwrap().to_string()).collect();
    assert!(!files.is_empty());
    let k = root().join("tests/testgen/bitonic_sorted.cu");
    let mut args = vec!["difftest", "--blockDim=4", "--gridDim=1", s(&k)];
    for f in &files {
        args.extend(["--input", f.as_str()]);
    }
    let o = kpl(&args);
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    assert!(o.stdout.contains(&format!("agrees on {} input sets", files.len())), "{}", o.stdout);
    let _ = std::fs::remove_dir_all(d);
}
