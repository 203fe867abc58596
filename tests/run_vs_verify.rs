//! The run-vs-verify cross-check over the project's kernels, each with its own options:
//! whenever `kpl run` finds a defect with a kernel's options, `kpl verify` with the same
//! options must not say *verified*. The run side takes every option that changes what a run
//! does or checks (the launch, `--kernel-args`, `--global_offset`, `--warp-sync`,
//! `--only-intra-group`, `--only-divergence`, `/checkArrays:`, benign tolerance), so a
//! soundness hole under any of them shows here; the verifier's own options (abstractions,
//! inference, bounded modes, modular checking) change how it proves, not what a defect is.

mod common;
use common::*;
use std::path::Path;

/// Options only the verifier has (with or without `=VALUE`): left out of the run.
const VERIFY_ONLY: &[&str] = &[
    "--equality-abstraction",
    "--adversarial-abstraction",
    "--timeout",
    "--no-infer",
    "--loop-unwind",
    "--k-induction-depth",
    "--no-barrier-access-checks",
    "--asymmetric-asserts",
    "--no-inline",
    "--no-simplify",
    "--compare-simplification",
    "--check-array-bounds",
];

/// The narrowing and semantic options each of which some defective kernel must exercise,
/// so that a hole under any of them cannot hide for want of a kernel.
const EXERCISED: &[&str] = &[
    "--only-intra-group",
    "--only-divergence",
    "/checkArrays:",
    "--no-benign-tolerance",
    "--warp-sync",
    "--no-inline",
    "--kernel-args",
    "--global_offset",
    "--k-induction-depth",
    "--loop-unwind",
];

/// A kernel's options: line 2 of GPUVerify's test format, or a `.kpl` file's `// options:`.
fn options(k: &Path) -> Option<Vec<String>> {
    let text = std::fs::read_to_string(k).unwrap();
    if k.extension().is_some_and(|e| e == "kpl") {
        let opts = header(k, "options").pop().unwrap_or_default();
        return Some(opts.split_whitespace().map(String::from).collect());
    }
    let lines: Vec<&str> = text.lines().collect();
    // Kernels kpl must refuse have nothing to run.
    if !(lines[0] == "//pass" || lines[0] == "//xfail:NOT_ALL_VERIFIED") {
        return None;
    }
    Some(lines[1].trim_start_matches("//").split_whitespace().map(String::from).collect())
}

/// The outcome of `kpl run` with these options and seed (`None`: it refused the input).
fn run_outcome(k: &Path, opts: &[String], seed: &str) -> Option<String> {
    let mut args = vec!["run", "--json", "--max-steps=5000000", "--seed", seed];
    args.extend(opts.iter().map(String::as_str).filter(|o| !VERIFY_ONLY.iter().any(|v| o.split('=').next() == Some(*v))));
    args.push(s(k));
    let o = kpl_in(k.parent().unwrap(), &args);
    let v: serde_json::Value = serde_json::from_str(&o.stdout).ok()?;
    v["outcome"].as_str().map(String::from)
}

#[test]
fn no_kernel_kpl_run_finds_defective_is_verified_with_the_same_options() {
    const DEFECTS: &[&str] = &["race", "divergence", "assertion", "out_of_bounds"];
    let mut files = kernels("tests/kernels-cuda", "cu");
    files.extend(kernels("tests/kernels-cuda", "cl"));
    files.extend(kernels("tests/kernels", "kpl"));
    let (mut defective, mut exercised) = (0, Vec::new());
    for k in files {
        let Some(opts) = options(&k) else { continue };
        let Some(kind) = ["0", "1"].iter().filter_map(|seed| run_outcome(&k, &opts, seed)).find(|o| DEFECTS.contains(&o.as_str())) else {
            continue;
        };
        let mut args = vec!["verify", "--json"];
        args.extend(opts.iter().map(String::as_str));
        args.push(s(&k));
        let o = kpl_in(k.parent().unwrap(), &args);
        let verdict = serde_json::from_str::<serde_json::Value>(&o.stdout).ok().and_then(|v| v["verdict"].as_str().map(String::from));
        assert!(
            o.code != 0 && verdict.as_deref() != Some("verified"),
            "UNSOUND: `kpl run {}` finds a {kind} in {}, but `kpl verify` with the same options says it is verified:\n{}{}",
            opts.join(" "),
            k.display(),
            o.stdout,
            o.stderr
        );
        defective += 1;
        exercised.extend(EXERCISED.iter().filter(|e| opts.iter().any(|o| o.contains(*e))));
    }
    assert!(defective >= 60, "only {defective} kernels that kpl run finds defective");
    for e in EXERCISED {
        assert!(exercised.contains(&e), "no kernel kpl run finds defective exercises `{e}`");
    }
}
