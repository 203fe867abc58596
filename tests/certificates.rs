//! `kpl certify` and `kpl check-cert`: every verified project kernel gets a certificate
//! that checks, and each kind of tampering makes the check fail.

mod common;
use common::*;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn tmp(name: &str) -> PathBuf {
    let d = scratch(&format!("cert-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn certify(kernel: &Path, extra: &[&str], dir: &Path) {
    let mut args = vec!["certify"];
    args.extend_from_slice(extra);
    args.push(s(kernel));
    args.push("-o");
    args.push(s(dir));
    let o = kpl_in(kernel.parent().unwrap(), &args);
    assert_eq!(o.code, 0, "{}: {}{}", kernel.display(), o.stdout, o.stderr);
}

fn check(dir: &Path) -> Out {
    kpl(&["check-cert", s(dir)])
}

#[test]
fn every_verified_kernel_certifies_and_its_certificate_checks() {
    let mut n = 0;
    for k in kernels("tests/kernels", "kpl") {
        if header(&k, "verify").first().map(String::as_str) != Some("verified") {
            continue;
        }
        let opts = header(&k, "options").pop().unwrap_or_default();
        let extra: Vec<&str> = opts.split_whitespace().collect();
        let dir = tmp(k.file_stem().unwrap().to_str().unwrap());
        certify(&k, &extra, &dir);
        let o = check(&dir);
        assert_eq!(o.code, 0, "{}: {}{}", k.display(), o.stdout, o.stderr);
        let _ = std::fs::remove_dir_all(&dir);
        n += 1;
    }
    assert!(n >= 10, "only {n} verified kernels");
}

#[test]
fn a_cuda_kernel_certifies_too() {
    let k = root().join("tests/kernels-cuda/reduce_shared.cu");
    let dir = tmp("cuda");
    certify(&k, &["--blockDim=128", "--gridDim=16"], &dir);
    assert_eq!(check(&dir).code, 0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_launch_read_from_host_code_is_recorded_and_checked() {
    // The kernel verifies only with the stride its host code passes: the certificate must
    // carry it, `check-cert` must read the kernel with it, and an edited value must fail.
    let k = root().join("tests/kernels-cuda/host_launch_constant.cu");
    let dir = tmp("host-launch");
    certify(&k, &[], &dir);
    let o = check(&dir);
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    assert!(o.stdout.contains("argument 2 = 1 (launch read from the host code)"), "{}", o.stdout);
    let path = dir.join("certificate.json");
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(v["kernel"]["launch_args"], serde_json::json!([null, 1]));
    v["kernel"]["launch_args"] = serde_json::json!([null, 0]);
    std::fs::write(&path, serde_json::to_string(&v).unwrap()).unwrap();
    assert_ne!(check(&dir).code, 0, "a certificate whose launch arguments were edited must not check");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_kernel_with_a_defect_gets_no_certificate() {
    let k = root().join("tests/kernels/reduce_nobarrier.kpl");
    let dir = tmp("defect");
    let o = kpl(&["certify", s(&k), "-o", s(&dir)]);
    assert_eq!(o.code, 1);
    assert!(!dir.join("certificate.json").exists());
}

/// Certify reduce.kpl once, then check tampered copies.
fn tampered(name: &str, edit: impl Fn(&mut Value)) -> Out {
    let dir = tmp(&format!("tamper-{name}"));
    certify(&root().join("tests/kernels/reduce.kpl"), &[], &dir);
    let path = dir.join("certificate.json");
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    edit(&mut v);
    std::fs::write(&path, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    let o = check(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    o
}

/// The first term record (a definition or a VC goal) whose explanation has steps.
fn with_steps(v: &mut Value) -> &mut Value {
    let defs = v["definitions"].as_array().unwrap();
    let i = defs.iter().position(|d| d["explanation"].as_array().is_some_and(|e| !e.is_empty()));
    match i {
        Some(i) => &mut v["definitions"][i],
        None => {
            let j = v["vcs"].as_array().unwrap().iter().position(|x| !x["goal"]["explanation"].as_array().unwrap().is_empty()).unwrap();
            &mut v["vcs"][j]["goal"]
        }
    }
}

#[test]
fn an_untouched_certificate_checks() {
    assert_eq!(tampered("none", |_| {}).code, 0);
}

#[test]
fn dropping_an_invariant_fails_the_check() {
    let o = tampered("drop-inv", |v| {
        v["invariants"].as_array_mut().unwrap().remove(0);
    });
    assert_eq!(o.code, 1, "{}", o.stderr);
}

#[test]
fn changing_an_invariant_fails_the_check() {
    let o = tampered("change-inv", |v| {
        v["invariants"][0]["expr"] = Value::String("(= d$1 #x00000000)".into());
    });
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert!(o.stderr.contains("is not the kernel's candidate"), "{}", o.stderr);
}

#[test]
fn changing_a_vc_term_fails_the_check() {
    let o = tampered("vc-original", |v| {
        v["vcs"][0]["goal"]["original"] = Value::String("false".into());
    });
    assert_eq!(o.code, 1);
    assert!(o.stderr.contains("differs from the kernel's"), "{}", o.stderr);
    let o = tampered("vc-simplified", |v| {
        v["vcs"][0]["goal"]["simplified"] = Value::String("false".into());
    });
    assert_eq!(o.code, 1);
    assert!(o.stderr.contains("the explanation ends at"), "{}", o.stderr);
}

#[test]
fn removing_a_vc_fails_the_check() {
    let o = tampered("vc-removed", |v| {
        v["vcs"].as_array_mut().unwrap().remove(0);
    });
    assert_eq!(o.code, 1);
    assert!(o.stderr.contains("no verification condition for"), "{}", o.stderr);
}

#[test]
fn removing_an_explanation_step_fails_the_check() {
    let o = tampered("step-removed", |v| {
        let t = with_steps(v);
        t["explanation"].as_array_mut().unwrap().remove(0);
    });
    assert_eq!(o.code, 1, "{}", o.stderr);
}

#[test]
fn renaming_a_steps_rule_fails_the_check() {
    let o = tampered("rule-renamed", |v| {
        let t = with_steps(v);
        let step = &mut t["explanation"][0];
        let other = if step["rule"] == "add-comm" { "mul-comm" } else { "add-comm" };
        step["rule"] = Value::String(other.into());
    });
    assert_eq!(o.code, 1, "{}", o.stderr);
}

#[test]
fn editing_the_kernel_source_fails_the_check() {
    let o = tampered("source", |v| {
        let src = v["kernel"]["source"].as_str().unwrap().replace("d / 2", "d / 4");
        v["kernel"]["source"] = Value::String(src);
    });
    assert_eq!(o.code, 1);
    assert!(o.stderr.contains("hash"), "{}", o.stderr);
    // Even with the hash updated, the re-derived conditions differ.
    let o = tampered("source-rehashed", |v| {
        let src = v["kernel"]["source"].as_str().unwrap().replace("d / 2", "d / 4");
        v["kernel"]["sha256"] = Value::String(kpl_certify::certificate::sha256_hex(&src));
        v["kernel"]["source"] = Value::String(src);
    });
    assert_eq!(o.code, 1, "{}", o.stderr);
}

/// Every field of a VC and of the kernel's record is checked, not only the terms.
#[test]
fn editing_a_vcs_answer_kind_or_definitions_or_the_kernels_names_fails_the_check() {
    let edits: Vec<(&str, Box<dyn Fn(&mut Value)>)> = vec![
        ("answer", Box::new(|v| v["vcs"][0]["answer"] = Value::String("sat".into()))),
        ("kind", Box::new(|v| v["vcs"][0]["kind"] = Value::String("assertion".into()))),
        ("line", Box::new(|v| v["vcs"][0]["line"] = Value::from(1))),
        ("definitions", Box::new(|v| {
            v["vcs"][0]["definitions"].as_array_mut().unwrap().pop();
        })),
        ("kernel-name", Box::new(|v| v["kernel"]["kernel"] = Value::String("other".into()))),
        ("file", Box::new(|v| v["kernel"]["file"] = Value::String("reduce.cu".into()))),
    ];
    for (name, edit) in edits {
        let o = tampered(name, edit);
        assert_eq!(o.code, 1, "editing {name} went unnoticed: {}", o.stdout);
    }
}

/// A certificate that checks says what it covers: the launch, and which races.
#[test]
fn a_checked_certificate_says_what_it_covers() {
    let o = tampered("coverage", |_| {});
    assert!(o.stdout.contains("launched as 1 groups [1,1,1] of 64 threads [64,1,1]"), "{}", o.stdout);
    assert!(o.stdout.contains("races within groups and between groups"), "{}", o.stdout);
    let dir = tmp("coverage-intra");
    certify(&root().join("tests/kernels/reduce.kpl"), &["--only-intra-group"], &dir);
    let o = check(&dir);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stdout.contains("NOT races between groups"), "{}", o.stdout);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_malformed_certificate_is_bad_input() {
    let dir = tmp("malformed");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("certificate.json"), "{ not json").unwrap();
    assert_eq!(check(&dir).code, 3);
    assert_eq!(kpl(&["check-cert", "/nonexistent/dir"]).code, 3);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Options that change what is proved are recorded, re-applied by `check-cert`, and named
/// in what the certificate covers.
#[test]
fn gpuverify_options_are_recorded_and_named() {
    let cases: [(&str, &[&str], &str); 3] = [
        ("tests/kernels-cuda/warp_sync_scan.cu", &["--blockDim=64", "--gridDim=1", "--warp-sync=32"], "warps of 32 threads in lock step"),
        ("tests/kernels-cuda/only_divergence.cl", &["--local_size=64", "--num_groups=1", "--only-divergence", "--no-isabelle"], "NO races"),
        ("tests/kernels-cuda/kernel_args.cu", &["--blockDim=32", "--gridDim=1", "--kernel-args=k,32", "--no-isabelle"], "scalar parameters are 32"),
    ];
    for (i, (k, args, says)) in cases.iter().enumerate() {
        let dir = tmp(&format!("options-{i}"));
        certify(&root().join(k), args, &dir);
        let o = check(&dir);
        assert_eq!(o.code, 0, "{k}: {}{}", o.stdout, o.stderr);
        assert!(o.stdout.contains(says), "{k}: {}", o.stdout);
        // The recorded options matter: without them the certificate no longer checks.
        let path = dir.join("certificate.json");
        let mut v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        match i {
            0 => v["options"].as_object_mut().unwrap().remove("warp_sync"),
            1 => v["options"].as_object_mut().unwrap().remove("only_divergence"),
            _ => v["kernel"].as_object_mut().unwrap().remove("kernel_args"),
        };
        std::fs::write(&path, v.to_string()).unwrap();
        assert_ne!(check(&dir).code, 0, "{k}: the certificate checks without its options");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
