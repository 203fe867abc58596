//! `kpl export-isabelle` and `kpl certify --isabelle`: the generated theories of the example
//! kernels are golden files (`tests/isabelle/`; regenerate with `UPDATE_EXPECT=1`), every
//! exported session passes our Isabelle-syntax checker, the differential lemma states what
//! `kpl run` computes, and the certify report counts what the theory says.
//!
//! Building the sessions needs an Isabelle installation, which CI does not have; that check
//! is done outside the project (see KNOWN_ISSUES.md). In its place, every `run_` lemma is
//! evaluated by `tests/isabelle/kexec_model.py`, a transliteration of the theory's
//! executable semantics.

mod common;
use common::*;
use std::path::{Path, PathBuf};

fn tmp(name: &str) -> PathBuf {
    let d = scratch(&format!("isa-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// The files of a written session, as the syntax checker takes them: the kernel's session
/// and its base session in `KPL/` (named `KPL/X.thy`).
fn session_files(dir: &Path) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = Vec::new();
    for (sub, prefix) in [(dir.to_path_buf(), ""), (dir.join("KPL"), "KPL/")] {
        let Ok(rd) = std::fs::read_dir(&sub) else { continue };
        v.extend(
            rd.filter_map(|e| e.ok())
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "thy") || p.file_name().is_some_and(|n| n == "ROOT"))
                .map(|p| (format!("{prefix}{}", p.file_name().unwrap().to_str().unwrap()), std::fs::read_to_string(&p).unwrap())),
        );
    }
    v.sort();
    v
}

fn assert_well_formed(dir: &Path, what: &str) {
    let files = session_files(dir);
    assert!(files.iter().any(|(n, _)| n == "ROOT"), "{what}: no ROOT");
    let problems = kpl_isabelle::syntax_check::check(&files);
    assert!(problems.is_empty(), "{what}: {problems:#?}");
    let root = &files.iter().find(|(n, _)| n == "ROOT").unwrap().1;
    for (name, _) in files.iter().filter(|(n, _)| n.ends_with(".thy")) {
        let theory = name.trim_start_matches("KPL/").trim_end_matches(".thy");
        assert!(root.lines().any(|l| l.trim() == theory), "{what}: ROOT does not list {theory}");
    }
}

/// Compare a generated file with its golden copy, or rewrite the copy under UPDATE_EXPECT.
fn golden(generated: &Path, name: &str) {
    let text = std::fs::read_to_string(generated).unwrap_or_else(|e| panic!("{}: {e}", generated.display()));
    let path = root().join("tests/isabelle").join(name);
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &text).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e} (run with UPDATE_EXPECT=1)", path.display()));
    if text != want {
        let line = text.lines().zip(want.lines()).position(|(a, b)| a != b).map_or(text.lines().count().min(want.lines().count()), |i| i);
        panic!(
            "{name} differs from its golden copy at line {} (run with UPDATE_EXPECT=1 if the change is intended):\n  got:  {}\n  want: {}",
            line + 1,
            text.lines().nth(line).unwrap_or("<end>"),
            want.lines().nth(line).unwrap_or("<end>")
        );
    }
}

/// Run the `run_` lemma of a session's Kernel theory through `tests/isabelle/kexec_model.py`,
/// a transliteration of KPL_Semantics.thy's executable semantics (no Isabelle here): the
/// exported kernel term, run by the theory's rules, must give what the lemma states, which
/// is what `kpl run` gave. Exit 2 (no lemma, or float operations) counts as not checked.
fn model_agrees(dir: &Path, what: &str) -> bool {
    let thy = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .find(|p| p.file_name().unwrap().to_str().unwrap().starts_with("Kernel_"))
        .expect("a Kernel_ theory");
    let o = std::process::Command::new("python3")
        .arg(root().join("tests/isabelle/kexec_model.py"))
        .arg(&thy)
        .output()
        .expect("python3 (scripts/setup.sh installs it)");
    let out = String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    match o.status.code() {
        Some(0) => true,
        Some(2) => false,
        _ => panic!("{what}: the theory's semantics disagrees with its run_ lemma: {out}"),
    }
}

/// Kernels outside the exported semantics, which `export-isabelle` refuses and `certify`
/// writes without the kernel's term
/// (`a_kernel_outside_the_syntax_is_refused_by_export_and_certified_alone`): barrier
/// invariants, warp collectives, access predicates, ...
fn outside_the_theories(k: &Path) -> bool {
    let text = std::fs::read_to_string(k).unwrap_or_default();
    // Access predicates, unknown accesses and ghost arrays are refused by the export (and
    // procedures in a kernel with a `global assert`, and grid barriers whose fence depends
    // on the thread, which the corpus has none of). Two-thread assertions, `havoc`, barrier
    // invariants, invariants that read arrays and warp collectives are in. So are atomics
    // of `group` scope (the scoped race between groups), which the semantics lacks.
    [
        "written(", "was_read(", "write_index(", "read_index(", "taken(", "havoc reads",
        "havoc writes", "snapshot ", "atomic group ",
    ]
    .iter()
    .any(|w| text.contains(w))
}

/// The session's `Kernel_<name>.thy` (named for the kernel, which need not be the file's name).
fn kernel_theory(dir: &Path) -> String {
    session_files(dir).into_iter().find(|(n, _)| n.starts_with("Kernel_")).map(|(_, t)| t).unwrap_or_default()
}

fn export(kernel: &str, extra: &[&str], dir: &Path) -> Out {
    let mut args = vec!["export-isabelle", kernel, "-o", s(dir)];
    args.extend_from_slice(extra);
    kpl(&args)
}

#[test]
fn the_example_kernels_export_to_their_golden_theories() {
    for name in ["reduce", "procedures", "assert_fail", "inter_group_race", "break_continue", "atomic_counter", "atomic64", "fence_shared_only", "fence_per_thread_ok", "grid_barrier", "global_assert_fail", "global_assert", "havoc_guarded", "shared_state_invariant", "barrier_invariant", "barrier_invariant_binary", "warp_shuffle_sum", "warp_match", "warp_barrier"] {
        let dir = tmp(&format!("golden-{name}"));
        let o = export(&format!("tests/kernels/{name}.kpl"), &[], &dir);
        assert_eq!(o.code, 0, "{name}: {}{}", o.stdout, o.stderr);
        assert_well_formed(&dir, name);
        golden(&dir.join(format!("Kernel_{name}.thy")), &format!("Kernel_{name}.thy"));
        // The semantics theories are the project's own files, copied verbatim into the base
        // session, which also proves the simplifier's rules (for every export, certificate or not).
        for t in ["KPL_Ops", "KPL_Syntax", "KPL_Semantics"] {
            let ours = std::fs::read_to_string(root().join(format!("isabelle-export/theories/{t}.thy"))).unwrap();
            assert_eq!(std::fs::read_to_string(dir.join(format!("KPL/{t}.thy"))).unwrap(), ours, "{name}: {t}");
        }
        assert!(dir.join("KPL/KPL_Rules.thy").exists(), "{name}: no KPL_Rules");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn a_certificate_exports_to_its_golden_theories() {
    let dir = tmp("golden-cert");
    let o = kpl(&["certify", "tests/kernels/procedures.kpl", "-o", s(&dir), "--isabelle"]);
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    assert_well_formed(&dir, "procedures certificate");
    for f in ["Cert_procedures.thy", "ROOT", "README.md"] {
        golden(&dir.join(f), &format!("cert_procedures/{f}"));
    }
    golden(&dir.join("KPL/KPL_Rules.thy"), "cert_procedures/KPL_Rules.thy");
    assert!(dir.join("certificate.json").exists());
    // The checker sees tampering with the real output: a rule that does not exist, a
    // missing proof, a `sorry`, a theory left out of the imports.
    let files = session_files(&dir);
    let tamper = |from: &str, to: &str| -> Vec<String> {
        let changed: Vec<(String, String)> =
            files.iter().map(|(n, t)| (n.clone(), if n.starts_with("Cert_") { t.replacen(from, to, 1) } else { t.clone() })).collect();
        assert_ne!(changed, files, "`{from}` occurs");
        kpl_isabelle::syntax_check::check(&changed)
    };
    assert!(!tamper("by (rule rule_", "by (rule rule_missing_").is_empty());
    assert!(!tamper("  by (smt (z3)", "  (* *) (smt (z3)").is_empty());
    assert!(!tamper("\"fa\" rule_and_assoc", "\"fa\" rule_missing_and_assoc").is_empty(), "a rewrite step by an unknown rule");
    assert!(!tamper("have n: \"\\<not> False\" by simp", "have n: \"\\<not> False\" sorry").is_empty());
    assert!(!tamper("imports \"KPL.KPL_Rules\"", "imports \"KPL.KPL_Semantics\"").is_empty());
    assert!(!tamper("imports \"KPL.KPL_Rules\"", "imports KPL_Rules").is_empty(), "an unqualified import of the base session");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every project and shared kernel exports to a well-formed session, whatever its outcome.
#[test]
fn every_kernel_exports_to_a_well_formed_session() {
    let mut kernels = kernels("tests/kernels", "kpl");
    let shared = root().join("../shared/kernels");
    if let Ok(rd) = std::fs::read_dir(&shared) {
        kernels.extend(rd.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == "kpl")));
    }
    assert!(kernels.len() >= 30);
    let mut checked = 0;
    let exported: Vec<_> = kernels.iter().filter(|k| !outside_the_theories(k)).collect();
    for k in &exported {
        let stem = k.file_stem().unwrap().to_str().unwrap();
        let dir = tmp(&format!("all-{stem}"));
        let run = header(k, "run");
        // The `--param`s of the kernel's run line (its other options are `kpl run`'s own).
        let words: Vec<&str> = run.first().map(|r| r.split_whitespace().collect()).unwrap_or_default();
        let extra: Vec<&str> = words.windows(2).filter(|w| w[0] == "--param").flat_map(|w| w.to_vec()).collect();
        let o = export(s(k), &extra, &dir);
        assert_eq!(o.code, 0, "{}: {}{}", k.display(), o.stdout, o.stderr);
        assert_well_formed(&dir, s(k));
        let thy = kernel_theory(&dir);
        assert!(thy.contains("definition kernel_"), "{}", k.display());
        if model_agrees(&dir, s(k)) {
            checked += 1;
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
    assert!(checked * 10 >= exported.len() * 9, "only {checked} of {} sessions have a differential lemma", exported.len());
}

/// The observed arrays and values of the `run_` lemma: `[(''A'', None, [0, 2])]` and
/// `Some [[1, 3]]` become `[("A", None, [(0, 1), (2, 3)])]`.
type Observation = Vec<(String, Option<usize>, Vec<(u64, u64)>)>;

fn numbers(s: &str) -> Vec<u64> {
    s.split(|c: char| !c.is_ascii_digit()).filter(|t| !t.is_empty()).map(|t| t.parse().unwrap()).collect()
}

fn observation(thy: &str) -> Observation {
    // Long lists are short ones joined by `@`: read them as one.
    let thy = thy.replace("] @ [", ", ").replace("Some [([", "Some [[").replace("]), ([", "], [").replace("]), [", "], [").replace("], ([", "], [").replace("])]\"", "]]\"");
    let lemma = &thy[thy.find("lemma run_").expect("a run_ lemma")..];
    // A kernel without arrays observes nothing.
    if lemma.contains("\n     []\n   = Some []") {
        return Vec::new();
    }
    let spec_start = lemma.find("\n     [(").expect("observed arrays") + 6;
    let spec_end = spec_start + lemma[spec_start..].find(")]\n").unwrap() + 1;
    let values_start = spec_end + lemma[spec_end..].find("Some [[").unwrap() + 6;
    let values_end = values_start + lemma[values_start..].find("]]\"").unwrap() + 1;
    let specs: Vec<&str> = lemma[spec_start + 1..spec_end].split("), (").collect();
    let values: Vec<&str> = lemma[values_start + 1..values_end].split("], [").collect();
    assert_eq!(specs.len(), values.len());
    specs
        .iter()
        .zip(values)
        .map(|(spec, vals)| {
            let spec = spec.trim_start_matches('(').trim_end_matches(')');
            let name = spec.split("''").nth(1).unwrap().to_string();
            let rest = &spec[spec.find("'', ").unwrap() + 4..];
            let group = if rest.starts_with("None") { None } else { Some(numbers(&rest[..rest.find(',').unwrap()])[0] as usize) };
            let list = &rest[rest.find('[').unwrap()..];
            let indices = match list.find("..<") {
                Some(_) => {
                    let ends = numbers(list);
                    (ends[0]..ends[1]).collect()
                }
                None => numbers(list),
            };
            let values = numbers(vals);
            assert_eq!(indices.len(), values.len(), "{name}");
            (name, group, indices.into_iter().zip(values).collect())
        })
        .collect()
}

/// The same shape from `kpl run --json`'s final memory.
fn memory(json: &serde_json::Value) -> Observation {
    let mut out = Vec::new();
    for (name, v) in json["memory"].as_object().unwrap() {
        let elems = |v: &serde_json::Value| -> Vec<(u64, u64)> {
            match v {
                serde_json::Value::Array(a) => a.iter().enumerate().map(|(i, x)| (i as u64, x.as_u64().unwrap())).collect(),
                serde_json::Value::Object(m) => {
                    let mut e: Vec<(u64, u64)> = m.iter().map(|(k, x)| (k.parse().unwrap(), x.as_u64().unwrap())).collect();
                    e.sort();
                    e
                }
                _ => panic!("{v}"),
            }
        };
        let per_group = match v {
            serde_json::Value::Array(a) => a.first().is_some_and(|x| !x.is_u64()),
            _ => false,
        };
        if per_group {
            for (g, x) in v.as_array().unwrap().iter().enumerate() {
                out.push((name.clone(), Some(g), elems(x)));
            }
        } else {
            out.push((name.clone(), None, elems(v)));
        }
    }
    out
}

/// The `run_` lemma states the final memory `kpl run` prints, for the run it names.
#[test]
fn the_differential_lemma_states_what_kpl_run_computes() {
    let mut n = 0;
    for k in kernels("tests/kernels", "kpl").into_iter().filter(|k| !outside_the_theories(k)) {
        let run = header(&k, "run");
        let Some(first) = run.first() else { continue };
        // The theories' semantics has no options (no benign tolerance): only runs that are
        // `ok` with at most `--param`s.
        let words: Vec<&str> = first.split_whitespace().collect();
        let only_params = words[1..].chunks(2).all(|w| w[0] == "--param");
        if words[0] != "ok" || !only_params {
            continue;
        }
        let dir = tmp(&format!("diff-{}", k.file_stem().unwrap().to_str().unwrap()));
        let o = export(s(&k), &[], &dir);
        assert_eq!(o.code, 0, "{}: {}", k.display(), o.stderr);
        let thy = kernel_theory(&dir);
        // A kernel whose every run is longer than `eval` can take has no differential lemma,
        // and says so (every_kernel_exports_to_a_well_formed_session bounds how many).
        if o.stderr.contains("the session has no differential check") {
            assert!(!thy.contains("lemma run_"), "{}", k.display());
            continue;
        }
        // The theory names the run it checks; replay exactly that command.
        let cmd_start = thy.find("\\<open>kpl run ").expect("the run's command") + "\\<open>".len();
        let cmd = &thy[cmd_start..cmd_start + thy[cmd_start..].find("\\<close>").unwrap()];
        let mut args: Vec<&str> = cmd.split_whitespace().skip(1).collect();
        args.insert(1, "--json");
        let o = kpl(&args);
        assert_eq!(o.code, 0, "{cmd}: {}", o.stderr);
        let json: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
        let mut want = memory(&json);
        let mut got = observation(&thy);
        want.sort();
        got.sort();
        assert_eq!(got, want, "{}", k.display());
        let _ = std::fs::remove_dir_all(&dir);
        n += 1;
    }
    assert!(n >= 8, "only {n} ok kernels");
}

#[test]
fn a_defect_run_states_its_kind() {
    let dir = tmp("defect");
    let o = export("tests/kernels/reduce_nobarrier.kpl", &[], &dir);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stdout.contains("outcome race"), "{}", o.stdout);
    let thy = std::fs::read_to_string(dir.join("Kernel_reduce_nobarrier.thy")).unwrap();
    assert!(thy.contains("outcome_name (run_kernel"), "{thy}");
    assert!(thy.contains("= ''race''"), "{thy}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// For every verified kernel, `kpl certify --isabelle` proves each VC, without `sorry`, and
/// its report's counts match the theory: kernel-checked VCs end in `simp` or `satx`, the
/// others in the SMT oracle, and `thm_oracles` names each group's lemmas; at least 88 % of
/// all are kernel-checked.
#[test]
fn certify_reports_how_each_vc_lemma_is_closed() {
    let mut n = 0;
    let (mut all_kernel, mut all_total) = (0, 0);
    // Kernels outside the theories' syntax (and k-induction's and warp-sync's proofs) get a
    // session with the certificate alone: counted too.
    for k in kernels("tests/kernels", "kpl") {
        if header(&k, "verify").first().map(String::as_str) != Some("verified") {
            continue;
        }
        let stem = k.file_stem().unwrap().to_str().unwrap().to_string();
        let dir = tmp(&format!("cert-{stem}"));
        let mut args = vec!["certify", s(&k), "-o", s(&dir), "--isabelle"];
        let opts = header(&k, "options").pop().unwrap_or_default();
        args.extend(opts.split_whitespace());
        let o = kpl(&args);
        assert_eq!(o.code, 0, "{}: {}{}", k.display(), o.stdout, o.stderr);
        assert_well_formed(&dir, &stem);
        let line = o.stdout.lines().find(|l| l.starts_with("Isabelle session written")).expect("the report line");
        let counts = numbers(&line[line.find("): ").unwrap()..]);
        let (kernel, total, oracle) = (counts[0], counts[1], counts[5]);
        assert_eq!(counts[3] + counts[4], kernel, "{line}");
        assert_eq!(kernel + oracle, total, "{line}");
        let cert = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .find(|p| p.file_name().unwrap().to_str().unwrap().starts_with("Cert_"))
            .expect("a Cert_ theory");
        let thy = std::fs::read_to_string(&cert).unwrap();
        let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(dir.join("certificate.json")).unwrap()).unwrap();
        let vcs = json["vcs"].as_array().unwrap().len() as u64;
        assert_eq!(total, vcs, "{}: every VC of the certificate is a lemma", k.display());
        assert_eq!(thy.matches("\nlemma vc_").count() as u64, total, "{}", k.display());
        // One `thm_oracles` for the kernel-checked VC lemmas and one for the others, each
        // naming exactly its group.
        let groups: Vec<Vec<&str>> =
            thy.lines().filter(|l| l.starts_with("thm_oracles vc_")).map(|l| l.split_whitespace().skip(1).collect()).collect();
        // (size, closed by the oracle) of each group the theory should have, in order.
        let expected: Vec<(u64, bool)> = [(kernel, false), (oracle, true)].into_iter().filter(|&(n, _)| n > 0).collect();
        assert_eq!(groups.iter().map(|g| g.len() as u64).collect::<Vec<_>>(), expected.iter().map(|e| e.0).collect::<Vec<_>>(), "{}", k.display());
        for (g, &(_, smt)) in groups.iter().zip(&expected) {
            for lemma in g {
                let at = thy.find(&format!("\nlemma {lemma}:")).unwrap_or_else(|| panic!("{}: no lemma {lemma}", k.display()));
                let proof = &thy[at..at + thy[at..].find("\nqed").unwrap()];
                assert_eq!(proof.contains("by (smt (z3)"), smt, "{}: {lemma} in the wrong group", k.display());
            }
        }
        assert_eq!(thy.matches("by (smt (z3)").count() as u64, oracle, "{}", k.display());
        assert_eq!(thy.matches("checked by Isabelle's kernel.\\<close>").count() as u64, kernel, "{}", k.display());
        assert!(!thy.contains("sorry") && !thy.contains("oops"));
        if oracle == 0 {
            assert!(!thy.contains("smt_oracle"), "{}: the oracle is declared but unused", k.display());
        }
        let _ = std::fs::remove_dir_all(&dir);
        n += 1;
        all_kernel += kernel;
        all_total += total;
    }
    assert!(n >= 10, "only {n} verified kernels");
    // 798 of 885 on 2026-11-26 (90 %), with `if`s split, bounded products and congruence
    // lemmas; a floor a little below, so that a lost lemma kind shows.
    assert!(all_kernel * 100 >= all_total * 88, "kernel-checked {all_kernel} of {all_total}");
}

/// Every rule of the simplifier has a lemma in KPL_Rules.thy, so any explanation step can
/// cite one.
#[test]
fn every_rewrite_rule_is_a_lemma() {
    let rules: Vec<(String, String, String)> =
        kpl_certify::rules::RULES.iter().map(|(n, l, r)| (n.to_string(), l.to_string(), r.to_string())).collect();
    let thy = kpl_isabelle::rules_to_isabelle::theory(&rules).unwrap();
    for (name, _, _) in &rules {
        let lemma = format!("\nlemma {}: ", kpl_isabelle::rules_to_isabelle::lemma_name(name));
        assert_eq!(thy.matches(&lemma).count(), 1, "rule {name}");
    }
    let ops = std::fs::read_to_string(root().join("isabelle-export/theories/KPL_Ops.thy")).unwrap();
    let problems = kpl_isabelle::syntax_check::check(&[("KPL_Ops.thy".into(), ops), ("KPL_Rules.thy".into(), thy)]);
    assert!(problems.is_empty(), "{problems:#?}");
}

#[test]
fn a_cuda_kernel_exports_with_its_launch() {
    let dir = tmp("cuda");
    let o = export("tests/kernels-cuda/reduce_shared.cu", &["--blockDim=8", "--gridDim=2"], &dir);
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    assert_well_formed(&dir, "reduce_shared.cu");
    let thy = std::fs::read_to_string(dir.join("Kernel_reduce.thy")).unwrap();
    assert!(thy.contains("l_threads = (8, 1, 1), l_groups = (2, 1, 1)"), "{thy}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_is_a_diagnostic_with_exit_3() {
    let dir = tmp("bad");
    let src = dir.with_extension("kpl");
    std::fs::write(&src, "kernel k {\n  threads 4;\n  main { x = 1; }\n}\n").unwrap();
    let o = export(s(&src), &[], &dir);
    assert_eq!(o.code, 3, "{}{}", o.stdout, o.stderr);
    assert!(o.stderr.contains(":3:"), "{}", o.stderr);
    assert!(!dir.exists(), "nothing is written for a bad kernel");
    let o = export("tests/kernels/does_not_exist.kpl", &[], &dir);
    assert_eq!(o.code, 3, "{}", o.stderr);
    let o = kpl(&["export-isabelle", "tests/kernels/reduce.kpl"]);
    assert_eq!(o.code, 3, "a missing -o is a bad option: {}", o.stderr);
    let _ = std::fs::remove_file(&src);
}

/// An access predicate (`written(A)`) is outside the exported semantics: `export-isabelle`
/// says so at the invariant's loop (exit 3); `certify` writes the certificate and warns that
/// it writes no kernel term.
#[test]
fn a_kernel_outside_the_syntax_is_refused_by_export_and_certified_alone() {
    let dir = tmp("access_predicates");
    let o = export("tests/kernels/access_predicates.kpl", &[], &dir);
    assert_eq!(o.code, 3, "{}{}", o.stdout, o.stderr);
    assert!(o.stderr.contains("access_predicates.kpl:14:5"), "{}", o.stderr);
    assert!(!dir.exists(), "nothing is written");
    // Certify writes the certificate's session without the kernel's term: its VCs do not
    // depend on it.
    let o = kpl(&["certify", "tests/kernels/access_predicates.kpl", "-o", s(&dir)]);
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    assert!(dir.join("certificate.json").exists() && dir.join("Cert_strided.thy").exists());
    assert!(!dir.join("Kernel_strided.thy").exists(), "no kernel term");
    assert!(o.stderr.contains("warning: the Isabelle export does not model access predicates"), "{}", o.stderr);
    assert!(o.stderr.contains("note: the Isabelle session holds the certificate but not the kernel as a term"), "{}", o.stderr);
    assert_well_formed(&dir, "access_predicates certificate");
    let root_file = std::fs::read_to_string(dir.join("ROOT")).unwrap();
    assert!(root_file.contains("    Cert_strided") && !root_file.contains("Kernel_"), "{root_file}");
    let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
    assert!(readme.contains("not written as a term here") && !readme.contains("`run_...`"), "{readme}");
    let _ = std::fs::remove_dir_all(&dir);
    let o = export("tests/kernels/unknown_writes.kpl", &[], &dir);
    assert_eq!(o.code, 3, "{}{}", o.stdout, o.stderr);
    assert!(o.stderr.contains("does not model unknown accesses"), "{}", o.stderr);
    let o = export("tests/kernels/snapshot.kpl", &[], &dir);
    assert_eq!(o.code, 3, "{}{}", o.stdout, o.stderr);
    assert!(o.stderr.contains("does not model ghost arrays"), "{}", o.stderr);
    let o = export("tests/kernels/atomic_group_scope.kpl", &[], &dir);
    assert_eq!(o.code, 3, "{}{}", o.stdout, o.stderr);
    assert!(o.stderr.contains("does not model atomics of `group` scope"), "{}", o.stderr);
}

/// Generated kernels (every statement form, nested loops, procedures, shared arrays) export
/// without an internal error, and those kpl verifies certify into well-formed sessions.
#[test]
fn generated_kernels_export_and_certify() {
    let dir = tmp("generated");
    std::fs::create_dir_all(&dir).unwrap();
    let mut certified = 0;
    for seed in 0..16u64 {
        let path = dir.join(format!("gen{seed}.kpl"));
        std::fs::write(&path, kpl_lang::printer::print_kernel(&kpl_lang::generate::generate(seed))).unwrap();
        let out = dir.join(format!("thy{seed}"));
        let o = export(s(&path), &[], &out);
        assert_eq!(o.code, 0, "seed {seed}: {}{}", o.stdout, o.stderr);
        assert_well_formed(&out, &format!("seed {seed}"));
        model_agrees(&out, &format!("seed {seed}"));
        let o = kpl(&["certify", s(&path), "-o", s(&out), "--isabelle", "--timeout=20"]);
        assert!(o.code <= 2, "seed {seed}: {}{}", o.stdout, o.stderr);
        if o.code == 0 {
            assert_well_formed(&out, &format!("seed {seed} certificate"));
            certified += 1;
        }
    }
    assert!(certified >= 8, "only {certified} of 16 generated kernels verified");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The transliterated semantics notices a wrong final value and a wrong kernel term, so
/// agreeing with it means something.
#[test]
fn the_semantics_model_catches_a_wrong_lemma_or_kernel_term() {
    let read = |name: &str| std::fs::read_to_string(root().join(format!("tests/isabelle/Kernel_{name}.thy"))).unwrap();
    let golden = read("reduce");
    let run = |text: &str| -> i32 {
        let dir = tmp(&format!("model-{}", text.len()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("Kernel_k.thy"), text).unwrap();
        let o = std::process::Command::new("python3")
            .arg(root().join("tests/isabelle/kexec_model.py"))
            .arg(dir.join("Kernel_k.thy"))
            .output()
            .unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        o.status.code().unwrap_or(-1)
    };
    assert_eq!(run(&golden), 0);
    // A golden theory the model accepts, and rejects once each `(from, to)` is replaced
    // (every `from` must be there: a replacement that changes nothing fails the test).
    let caught = |name: &str, edits: &[(&str, &str)], why: &str| {
        let good = read(name);
        assert_eq!(run(&good), 0, "{name}");
        let mut bad = good.clone();
        for (from, to) in edits {
            assert!(bad.contains(from), "{name}: no {from}");
            bad = bad.replacen(from, to, 1);
        }
        assert_eq!(run(&bad), 1, "{name}: {why}");
    };
    // A havoc's value decides what the kernel writes; a peek in an invariant and `other` in
    // a two-thread assertion decide whether they hold.
    caught("havoc_guarded", &[("(0, 0, 0), [1961069823]", "(0, 0, 0), [1961069822]")], "a wrong havoc value");
    caught("shared_state_invariant", &[("(PPeek ''A'' (PE (ELid AX)))", "(PPeek ''A'' (PE (ELit 0)))")], "a wrong peek");
    let one_thread = [("(POther (PE (EGid AX)))", "(PE (EGid AX))"), ("(POther (PE (EVar (Named ''x''))))", "(PE (EVar (Named ''x'')))")];
    caught("global_assert", &one_thread, "a two-thread assertion read in one thread");
    // A binary barrier invariant holds for pairs of one group, not for pairs across groups.
    caught("barrier_invariant_binary", &[("SAssertP CkGroup", "SAssertP CkEnabled")], "pairs across groups");
    // A warp collective's operation and lanes decide its results; without its warp barrier,
    // a thread's read of its neighbour's write races.
    caught("warp_shuffle_sum", &[("SWarp WShflDown", "SWarp WShflUp")], "another shuffle");
    caught("warp_match", &[("SWarp WMatchAny", "SWarp WMatchAll")], "another match");
    caught("warp_barrier", &[("(SWarp WSync None [(ELit 4294967295)] None)", "SSkip")], "no warp barrier");
    // The first final value (a long list is written as short ones joined by `@`).
    let at = golden.find("= Some [[").map(|i| i + "= Some [[".len()).or_else(|| golden.find("= Some [([").map(|i| i + "= Some [([".len())).unwrap();
    let end = at + golden[at..].find(',').unwrap();
    let wrong: u64 = golden[at..end].parse::<u64>().unwrap() ^ 1;
    assert_eq!(run(&format!("{}{wrong}{}", &golden[..at], &golden[end..])), 1, "a wrong final value");
    assert_eq!(run(&golden.replacen("(EBin OUDiv (EThreads AX) (ELit 2))", "(EBin OUDiv (EThreads AX) (ELit 4))", 1)), 1, "a wrong kernel");
}

/// CLI.md: `kpl certify FILE -o DIR` writes the certificate and the Isabelle theories;
/// `--no-isabelle` writes the certificate only.
#[test]
fn certify_writes_the_session_unless_asked_not_to() {
    let dir = tmp("default");
    let o = kpl(&["certify", "tests/kernels/procedures.kpl", "-o", s(&dir)]);
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    assert!(dir.join("certificate.json").exists() && dir.join("Cert_procedures.thy").exists() && dir.join("ROOT").exists());
    let _ = std::fs::remove_dir_all(&dir);
    let o = kpl(&["certify", "tests/kernels/procedures.kpl", "-o", s(&dir), "--no-isabelle"]);
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    let files: Vec<_> = std::fs::read_dir(&dir).unwrap().filter_map(|e| e.ok()).map(|e| e.file_name()).collect();
    assert_eq!(files, vec![std::ffi::OsString::from("certificate.json")]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A file name cannot give the generated theories a command: every name Isabelle could
/// read as the end of a cartouche or comment, or as a command, stays inside its text, and
/// `certify` writes a certificate `check-cert` takes.
#[test]
fn no_file_name_writes_into_a_theory() {
    let names = [
        "a\\<close>\\<close> axiomatization where evil: \"False\" text \\<open>\\<open>b.kpl",
        "x\u{203A}\u{203A} ML \u{2039}Isabelle_System.bash \"touch pwned\"\u{203A} text \u{2039}.kpl",
        "*) axiomatization where e: \"False\" (*.kpl",
        "@{ML \\<open>error \"x\"\\<close>}.kpl",
    ];
    let dir = tmp("hostile-names");
    std::fs::create_dir_all(&dir).unwrap();
    let reduce = std::fs::read_to_string(root().join("tests/kernels/reduce.kpl")).unwrap();
    for (i, name) in names.iter().enumerate() {
        let k = dir.join(name);
        std::fs::write(&k, &reduce).unwrap();
        for (cmd, out) in [("export-isabelle", dir.join(format!("export{i}"))), ("certify", dir.join(format!("cert{i}")))] {
            let o = kpl(&[cmd, s(&k), "-o", s(&out)]);
            assert_eq!(o.code, 0, "{cmd} {name}: {}{}", o.stdout, o.stderr);
            assert_well_formed(&out, name);
            // What Isabelle reads as commands: the theories with their texts and comments
            // taken out (the base session `KPL/` is the same for every kernel, with ML of
            // its own).
            for (file, text) in session_files(&out).into_iter().filter(|(f, _)| !f.starts_with("KPL/")) {
                let commands = commands_only(&text);
                for command in ["axiomatization", "ML", "Isabelle_System", "@{", "\u{2039}", "\u{203A}", "evil", "pwned"] {
                    assert!(!commands.contains(command), "{cmd} {name}: `{command}` outside a text in {file}:\n{commands}");
                }
            }
            if cmd == "certify" {
                let c = kpl(&["check-cert", s(&out)]);
                assert_eq!(c.code, 0, "check-cert {name}: {}{}", c.stdout, c.stderr);
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A theory without its cartouches (nested ones included), comments and quoted terms:
/// what Isabelle reads as commands and names.
fn commands_only(thy: &str) -> String {
    let (mut out, mut depth, mut comment, mut quoted) = (String::new(), 0usize, 0usize, false);
    let mut rest = thy;
    while let Some(c) = rest.chars().next() {
        let step = if rest.starts_with("\\<open>") {
            depth += 1;
            "\\<open>".len()
        } else if rest.starts_with("\\<close>") {
            depth = depth.saturating_sub(1);
            "\\<close>".len()
        } else if depth == 0 && !quoted && rest.starts_with("(*") {
            comment += 1;
            2
        } else if depth == 0 && !quoted && comment > 0 && rest.starts_with("*)") {
            comment -= 1;
            2
        } else {
            if depth == 0 && comment == 0 && c == '"' {
                quoted = !quoted;
            } else if depth == 0 && comment == 0 && !quoted {
                out.push(c);
            }
            c.len_utf8()
        };
        rest = &rest[step..];
    }
    out
}
