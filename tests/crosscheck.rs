//! End-to-end tests of `kpl crosscheck`: every kernel/reference pair of `tests/crosscheck/`
//! gets the verdict written in its first line, every mismatch and defect replays in `kpl
//! run` from the witness it writes (both sides), and bad references are refused.

mod common;
use common::*;
use serde_json::Value;
use std::path::Path;

fn pairs() -> Vec<std::path::PathBuf> {
    let mut v = kernels("tests/crosscheck", "cu");
    v.extend(kernels("tests/crosscheck", "cl"));
    v
}

fn crosscheck(file: &Path, extra: &[&str]) -> (Out, Value) {
    let args = header(file, "args").join(" ");
    let mut a = vec!["crosscheck", s(file), "--json"];
    a.extend(args.split_whitespace());
    a.extend(extra);
    let o = kpl(&a);
    let v = serde_json::from_str(&o.stdout).unwrap_or(Value::Null);
    (o, v)
}

/// Run a replay line of a report (`kpl run ...`) and give the final memory.
fn replay(line: &str, out: &Path) -> Value {
    let mut a: Vec<&str> = line.split_whitespace().skip(1).collect();
    a.extend(["--output", s(out)]);
    let o = kpl(&a);
    assert!(o.code == 0 || o.code == 1, "{line}: {}", o.stderr);
    serde_json::from_str(&std::fs::read_to_string(out).unwrap()).unwrap()
}

fn element(mem: &Value, array: &str, i: u64) -> Option<u64> {
    let a = &mem[array];
    a.get(i as usize).or_else(|| a.get(i.to_string())).and_then(Value::as_u64)
}

#[test]
fn every_pair_gets_its_verdict_and_every_mismatch_replays() {
    let files = pairs();
    assert!(files.len() >= 10, "{files:?}");
    for f in files {
        let want = header(&f, "crosscheck");
        let stem = f.file_stem().unwrap().to_str().unwrap().to_string();
        let dir = scratch(&format!("crosscheck-{stem}-{}", f.extension().unwrap().to_str().unwrap()));
        let _ = std::fs::remove_dir_all(&dir);
        let (o, v) = crosscheck(&f, &["--witness", s(&dir)]);
        // A whole program's several launches: a report each, all with the verdict.
        if let Some(each) = v.as_array() {
            assert!(each.len() > 1);
            for r in each {
                assert_eq!(r["verdict"].as_str(), want.first().map(String::as_str), "{}: {}", f.display(), o.stdout);
            }
            continue;
        }
        assert_eq!(v["verdict"].as_str(), want.first().map(String::as_str), "{}: {}\n{}", f.display(), o.stdout, o.stderr);
        let code = match v["verdict"].as_str() {
            Some("equivalent") => 0,
            Some("inconclusive") => 2,
            _ => 1,
        };
        assert_eq!(o.code, code, "{}", f.display());
        if v["verdict"] == "defect" {
            // The side's replay in `kpl run` shows the defect.
            let line = v["replay"][if v["side"] == "kernel" { 0 } else { 1 }].as_str().unwrap().to_string();
            let mut a: Vec<&str> = line.split_whitespace().skip(1).collect();
            a.push("--json");
            let o = kpl(&a);
            let run: Value = serde_json::from_str(&o.stdout).unwrap_or(Value::Null);
            assert_eq!(o.code, 1, "{line}: {}", o.stderr);
            assert_eq!(run["outcome"], v["defect"]["kind"], "{}: {line}", f.display());
        }
        if v["verdict"] == "mismatch" {
            let m = &v["mismatch"];
            let (array, index) = (m["array"].as_str().unwrap(), m["index"].as_u64().unwrap());
            let lines = v["replay"].as_array().unwrap();
            let k = replay(lines[0].as_str().unwrap(), &dir.join("kernel-out.json"));
            let kin0: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("kernel.json")).unwrap()).unwrap();
            let kv = element(&k, array, index).or_else(|| kin0["arrays"][array][index.to_string()].as_u64());
            assert_eq!(kv, m["kernel"].as_u64(), "{}: the kernel's replay", f.display());
            // The reference names its arrays its own way: the pair's reference name.
            let r = replay(lines[1].as_str().unwrap(), &dir.join("reference-out.json"));
            let rin: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("reference.json")).unwrap()).unwrap();
            let kin: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("kernel.json")).unwrap()).unwrap();
            let pos = kin["arrays"].as_object().unwrap().keys().position(|n| n == array).unwrap();
            let rname = rin["arrays"].as_object().unwrap().keys().nth(pos).unwrap().clone();
            // An element a run never touched keeps the input's value.
            let initial = |input: &Value, name: &str| input["arrays"][name][index.to_string()].as_u64();
            let rv = element(&r, &rname, index).or_else(|| initial(&rin, &rname));
            assert_eq!(rv, m["reference"].as_u64(), "{}: the reference's replay", f.display());
            assert_ne!(m["kernel"], m["reference"]);
        }
    }
}

#[test]
fn each_launch_of_a_program_gets_its_own_witness_and_replay() {
    let f = root().join("tests/crosscheck/two_launches_mismatch.cu");
    let dir = scratch("crosscheck-two-launches");
    let _ = std::fs::remove_dir_all(&dir);
    let (o, v) = crosscheck(&f, &["--witness", s(&dir)]);
    assert_eq!(o.code, 1, "{}", o.stderr);
    let reports = v.as_array().expect("a report per launch");
    assert_eq!(reports.len(), 2, "{v}");
    for (n, r) in reports.iter().enumerate() {
        assert_eq!(r["verdict"], "mismatch", "{r}");
        let line = r["replay"][0].as_str().unwrap();
        assert!(line.contains(&format!("launch-{}/kernel.json", n + 1)) && line.contains("--gridDim="), "{line}");
        let m = &r["mismatch"];
        let k = replay(line, &scratch(&format!("crosscheck-two-launches-out-{n}.json")));
        assert_eq!(element(&k, m["array"].as_str().unwrap(), m["index"].as_u64().unwrap()), m["kernel"].as_u64(), "{line}");
    }
    // Written again over its own earlier witnesses.
    let (o, _) = crosscheck(&f, &["--witness", s(&dir)]);
    assert_eq!(o.code, 1, "{}", o.stderr);
}

#[test]
fn assumptions_are_named_in_the_verdict() {
    let (_, v) = crosscheck(&root().join("tests/crosscheck/cp_hoist_reassoc.cu"), &[]);
    assert_eq!(v["verdict"], "equivalent");
    assert_eq!(v["assumptions"], serde_json::json!(["float-reassoc"]));
    assert!(v["elements"]["by_canonical_forms"].as_u64().unwrap() > 0, "{v}");
    let (_, v) = crosscheck(&root().join("tests/crosscheck/cp_hoist.cu"), &[]);
    assert_eq!(v["assumptions"], serde_json::json!([]));
}

#[test]
fn bad_references_are_refused_with_a_diagnostic() {
    let f = root().join("tests/crosscheck/scan_inclusive.cu");
    let o = kpl(&["crosscheck", s(&f), "--reference=nope", "--blockDim=8"]);
    assert_eq!(o.code, 3, "{}", o.stderr);
    assert!(o.stderr.contains("no function `nope`"), "{}", o.stderr);
    let o = kpl(&["crosscheck", s(&f), "--blockDim=8"]);
    assert_eq!(o.code, 3);
    assert!(o.stderr.contains("--reference"), "{}", o.stderr);
    let dir = scratch("crosscheck-bad");
    std::fs::create_dir_all(&dir).unwrap();
    let k = dir.join("k.cu");
    std::fs::write(&k, "__global__ void k(int *a, int n) { a[threadIdx.x] = n; }\nvoid r(int *a) { a[0] = 1; }\nint f(int *a, int n) { return 0; }\n").unwrap();
    let o = kpl(&["crosscheck", s(&k), "--reference=r", "--blockDim=2"]);
    assert_eq!(o.code, 3);
    assert!(o.stderr.contains("do not match by position"), "{}", o.stderr);
    let o = kpl(&["crosscheck", s(&k), "--reference=f", "--blockDim=2"]);
    assert_eq!(o.code, 3);
    assert!(o.stderr.contains("must return `void`"), "{}", o.stderr);
    let o = kpl(&["crosscheck", s(&k), "--reference=r", "--blockDim=2", "--assume=nonsense"]);
    assert_eq!(o.code, 3);
}

#[test]
fn references_that_never_end_or_recurse_end_in_a_verdict_not_a_crash() {
    let dir = scratch("crosscheck-odd");
    std::fs::create_dir_all(&dir).unwrap();
    let k = dir.join("odd.cu");
    std::fs::write(
        &k,
        "__global__ void k(int *a) { a[threadIdx.x] = 1; }\n\
         void forever(int *a) { while (1) { a[0]++; } }\n\
         void rec(int *a) { if (a[0] > 0) { a[0]--; rec(a); } }\n",
    )
    .unwrap();
    // The step limit ends the run: inconclusive, with the limit named.
    let o = kpl(&["crosscheck", s(&k), "--reference=forever", "--blockDim=2", "--array-len=2", "--max-steps=10000", "--json"]);
    assert_eq!(o.code, 2, "{}{}", o.stdout, o.stderr);
    let v: Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(v["verdict"], "inconclusive");
    assert!(v["reason"].as_str().unwrap().contains("step limit"), "{v}");
    // Recursion is not read: a diagnostic at the call, exit 3.
    let o = kpl(&["crosscheck", s(&k), "--reference=rec", "--blockDim=2", "--array-len=2"]);
    assert_eq!(o.code, 3, "{}{}", o.stdout, o.stderr);
    assert!(o.stderr.contains("odd.cu:3:"), "{}", o.stderr);
}
