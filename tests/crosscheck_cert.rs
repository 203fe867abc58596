//! End-to-end tests of a crosscheck's certificate: every *equivalent* pair of
//! `tests/crosscheck/` writes one with `--certify` and `kpl check-cert` accepts it; a
//! certificate with a path left out, a rewrite step left out, an assumption taken away, or
//! a kernel edited (hash and all) is refused, each for its own reason.

mod common;
use common::*;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn certify(file: &Path, dir: &Path) -> Out {
    let _ = std::fs::remove_dir_all(dir);
    let args = header(file, "args").join(" ");
    let mut a = vec!["crosscheck", s(file), "--certify", s(dir)];
    a.extend(args.split_whitespace());
    kpl(&a)
}

fn pair(name: &str) -> PathBuf {
    Path::new("tests/crosscheck").join(name)
}

/// A certified pair's certificate, changed by `edit`, checked again: its exit code and
/// standard error.
fn tampered(dir: &Path, name: &str, edit: impl Fn(&mut Value)) -> (i32, String) {
    let mut c: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("certificate.json")).unwrap()).unwrap();
    edit(&mut c);
    let t = scratch(&format!("xcert-tampered-{name}"));
    let _ = std::fs::remove_dir_all(&t);
    std::fs::create_dir_all(&t).unwrap();
    std::fs::write(t.join("certificate.json"), serde_json::to_string(&c).unwrap()).unwrap();
    let o = kpl(&["check-cert", s(&t)]);
    (o.code, o.stderr)
}

#[test]
fn every_equivalent_pair_is_certified_and_its_certificate_checks() {
    let mut n = 0;
    for f in kernels("tests/crosscheck", "cu").into_iter().chain(kernels("tests/crosscheck", "cl")) {
        if header(&f, "crosscheck").first().map(String::as_str) != Some("equivalent") {
            continue;
        }
        let stem = f.file_name().unwrap().to_str().unwrap().replace('.', "-");
        let dir = scratch(&format!("xcert-{stem}"));
        let o = certify(&f, &dir);
        if o.stderr.contains("launches the kernel") {
            // A program that launches the kernel several ways: one launch at a time.
            assert_eq!(o.code, 3, "{}: {}", f.display(), o.stderr);
            continue;
        }
        assert_eq!(o.code, 0, "{}: {}\n{}", f.display(), o.stdout, o.stderr);
        assert!(o.stdout.contains("certificate written to"), "{}: {}", f.display(), o.stdout);
        let c = kpl(&["check-cert", s(&dir)]);
        assert_eq!(c.code, 0, "{}: {}\n{}", f.display(), c.stdout, c.stderr);
        assert!(c.stdout.contains("the certificate checks") && c.stdout.contains("cover every input"), "{}: {}", f.display(), c.stdout);
        n += 1;
    }
    assert!(n >= 10, "only {n} pairs certified");
}

#[test]
fn a_certificate_missing_a_path_fails_its_coverage() {
    let dir = scratch("xcert-relu-paths");
    assert_eq!(certify(&pair("relu.cu"), &dir).code, 0);
    let (code, err) = tampered(&dir, "relu-path", |c| {
        c["paths"].as_array_mut().unwrap().remove(100);
    });
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("coverage") && err.contains("`sat`"), "{err}");
}

#[test]
fn rewrite_proofs_are_replayed_under_the_named_assumptions_only() {
    let dir = scratch("xcert-cp-reassoc");
    let o = certify(&pair("cp_hoist_reassoc.cu"), &dir);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stdout.contains("rewrite steps"), "{}", o.stdout);
    // A step left out: the next one no longer applies, or the two ends differ.
    let (code, err) = tampered(&dir, "cp-step", |c| {
        c["paths"][0]["proofs"][0]["kernel"].as_array_mut().unwrap().remove(2);
    });
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("energy[0]"), "{err}");
    // The assumption taken away (from the options too): reordering a sum is refused.
    let (code, err) = tampered(&dir, "cp-assume", |c| {
        c["assumptions"] = Value::Array(vec![]);
        let opts: Vec<Value> = c["options"].as_array().unwrap().iter().filter(|o| !o.as_str().unwrap().starts_with("--assume")).cloned().collect();
        c["options"] = Value::Array(opts);
    });
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("needs the assumption `float-reassoc`"), "{err}");
    // The assumption named in the certificate but not in its options: refused before any check.
    let (code, err) = tampered(&dir, "cp-assume-only", |c| {
        c["assumptions"] = Value::Array(vec![]);
    });
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("assumptions"), "{err}");
}

#[test]
fn an_edited_kernel_is_refused_even_with_its_hash_updated() {
    let dir = scratch("xcert-relu-edit");
    assert_eq!(certify(&pair("relu.cu"), &dir).code, 0);
    let (code, err) = tampered(&dir, "relu-hash", |c| {
        let src = c["kernel"]["source"].as_str().unwrap().replace("v > 0.0f", "v >= 0.0f");
        c["kernel"]["source"] = Value::String(src);
    });
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("was edited"), "{err}");
    // `-0.0 >= 0`: the kernel doubles `-0.0` where the reference writes `+0.0`.
    let (code, err) = tampered(&dir, "relu-rehash", |c| {
        let src = c["kernel"]["source"].as_str().unwrap().replace("v > 0.0f", "v >= 0.0f");
        c["kernel"]["sha256"] = Value::String(kpl_certify::certificate::sha256_hex(&src));
        c["kernel"]["source"] = Value::String(src);
    });
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("the second solver says `sat`") || err.contains("differs in the interpreter"), "{err}");
}
