//! End-to-end tests of `kpl perf`: every kernel of `tests/perf/` against the findings
//! written on its lines, on a run and for all inputs; the text report; bad options.
//!
//! A kernel's first line is `// perf: ARGS`. A line with a finding carries a comment
//! `// expect: ITEM, ITEM`, an item being `[run|all-inputs] KIND [DEGREE] [(possible)]`:
//! DEGREE is a bank conflict's degree or an uncoalesced access's `used/minimum`; without a
//! prefix the item holds for the run (seed 0) and for `--all-inputs` (confirmed, unless
//! marked possible). Lines without a comment must have no finding.

mod common;
use common::*;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;

type Expected = BTreeSet<(String, u64, String)>;

/// What the kernel's comments expect: (kind, line, degree) for the run, and (kind, line,
/// confirmed|possible) for all inputs.
fn expected(p: &Path) -> (Vec<String>, Expected, Expected) {
    let text = std::fs::read_to_string(p).unwrap();
    let first = text.lines().next().unwrap_or("");
    let args = first.strip_prefix("// perf:").unwrap_or_else(|| panic!("{}: no `// perf:` line", p.display()));
    let args = args.split_whitespace().map(String::from).collect();
    let (mut run, mut all) = (Expected::new(), Expected::new());
    for (i, line) in text.lines().enumerate() {
        let Some((_, marks)) = line.split_once("// expect:") else { continue };
        for item in marks.split(',') {
            let mut words: Vec<&str> = item.split_whitespace().collect();
            let only = match words.first() {
                Some(&"run") | Some(&"all-inputs") => Some(words.remove(0)),
                _ => None,
            };
            let status = if words.last() == Some(&"(possible)") {
                words.pop();
                "possible"
            } else {
                "confirmed"
            };
            let kind = words[0].to_string();
            let degree = words.get(1).map(|d| d.to_string()).unwrap_or_default();
            let line_no = i as u64 + 1;
            if only != Some("all-inputs") {
                run.insert((kind.clone(), line_no, degree));
            }
            if only != Some("run") {
                all.insert((kind, line_no, status.to_string()));
            }
        }
    }
    (args, run, all)
}

fn degree(f: &Value) -> String {
    match f["kind"].as_str() {
        Some("bank_conflict") => f["degree"].to_string(),
        Some("uncoalesced") => {
            let used = if f["sectors"].is_null() { &f["transactions"] } else { &f["sectors"] };
            format!("{used}/{}", f["minimum"])
        }
        _ => String::new(),
    }
}

fn perf(k: &Path, args: &[String], extra: &[&str]) -> (i32, Value, String) {
    let mut a: Vec<&str> = vec!["perf", "--json"];
    a.extend(args.iter().map(|s| s.as_str()));
    a.extend(extra);
    a.push(s(k));
    let o = kpl(&a);
    let v: Value = serde_json::from_str(&o.stdout).unwrap_or_else(|e| panic!("{}: {e}\n{}\n{}", k.display(), o.stdout, o.stderr));
    (o.code, v, o.stderr)
}

#[test]
fn every_perf_kernel_gives_its_findings() {
    let mut n = 0;
    let mut files = kernels("tests/perf", "cu");
    files.extend(kernels("tests/perf", "kpl"));
    for k in files {
        let (args, want_run, want_all) = expected(&k);
        let (code, v, err) = perf(&k, &args, &[]);
        assert_eq!(v["outcome"], "ok", "{}: {err}", k.display());
        let got: Expected = v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| (f["kind"].as_str().unwrap().to_string(), f["line"].as_u64().unwrap(), degree(f)))
            .collect();
        assert_eq!(got, want_run, "{}: the run's findings", k.display());
        assert_eq!(code, if want_run.is_empty() { 0 } else { 1 }, "{}", k.display());

        let (code, v, err) = perf(&k, &args, &["--all-inputs"]);
        assert!(v["reason"].is_null(), "{}: {v} {err}", k.display());
        let got: Expected = v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                let status = if f["confirmed"] == true { "confirmed" } else { "possible" };
                (f["kind"].as_str().unwrap().to_string(), f["line"].as_u64().unwrap(), status.to_string())
            })
            .collect();
        assert_eq!(got, want_all, "{}: the findings for all inputs", k.display());
        assert_eq!(code, if want_all.is_empty() { 0 } else { 1 }, "{}", k.display());
        for kind in ["bank_conflict", "uncoalesced", "warp_divergence"] {
            let found = want_all.iter().any(|(k, _, _)| k == kind);
            let verdict = &v["checks"][kind]["verdict"];
            assert_eq!(verdict, if found { "found" } else { "proved_free" }, "{}: {kind}", k.display());
        }
        n += 1;
    }
    assert!(n >= 15, "{n} perf kernels");
}

#[test]
fn a_confirmed_finding_replays_from_its_witness() {
    // The witness `--all-inputs` gives is an input of `kpl perf`: replayed, it shows the
    // finding (here the branch on data that the seeded run does not take).
    let k = root().join("tests/perf/branch_on_data.cu");
    let (_, v, _) = perf(&k, &["--blockDim=32".into(), "--gridDim=1".into()], &["--all-inputs"]);
    let f = &v["findings"][0];
    assert_eq!(f["confirmed"], true);
    let dir = scratch("perf-witness");
    std::fs::create_dir_all(&dir).unwrap();
    let w = dir.join("w.json");
    std::fs::write(&w, f["witness"].to_string()).unwrap();
    let (code, r, _) = perf(&k, &["--blockDim=32".into(), "--gridDim=1".into()], &["--input", s(&w)]);
    assert_eq!(code, 1);
    assert_eq!(r["findings"][0]["kind"], "warp_divergence");
    assert_eq!(r["findings"][0]["line"], f["line"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_text_report_points_at_the_source_and_summarises_per_interval() {
    let k = root().join("tests/perf/bitonic.cu");
    let o = kpl(&["perf", "--blockDim=4", "--gridDim=1", "--warp-size=4", s(&k)]);
    assert_eq!(o.code, 1);
    assert!(o.stderr.contains("bitonic.cu:15:7"), "{}", o.stderr);
    assert!(o.stderr.contains("divergent warp"), "{}", o.stderr);
    // GKLEE's Table 1 gives 60% of the bitonic sort's barrier intervals divergent.
    assert!(o.stdout.contains("5 barrier intervals") && o.stdout.contains("warp divergence 60%"), "{}", o.stdout);
    let k = root().join("tests/perf/shared_stride2.cu");
    let o = kpl(&["perf", "--blockDim=64", "--gridDim=1", s(&k)]);
    assert!(o.stderr.contains("2-way bank conflict: read of shared `s`"), "{}", o.stderr);
    assert!(o.stderr.contains("use bank 0 at words 0 and 32"), "{}", o.stderr);
    assert!(o.stdout.contains("bank conflicts 50%"), "{}", o.stdout);
}

#[test]
fn bad_perf_options_are_diagnosed() {
    let k = root().join("tests/perf/shared_stride2.cu");
    for (opt, msg) in [("--warp-size=24", "power of two"), ("--banks=0", "power of two"), ("--arch=sm_99", "unknown architecture")] {
        let o = kpl(&["perf", "--blockDim=64", "--gridDim=1", opt, s(&k)]);
        assert_eq!(o.code, 3, "{opt}");
        assert!(o.stderr.contains(msg), "{opt}: {}", o.stderr);
    }
    let o = kpl(&["perf", s(&k)]);
    assert_eq!(o.code, 3, "a .cu file needs a launch");
}
