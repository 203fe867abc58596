//! Certificates: what a verified kernel's proof consists of, as JSON (serde). The kernel
//! and how it was read, the launch and options, the abstraction of each array, the
//! invariants Houdini kept, every definition and verification condition before and after
//! simplification with the explanation between them, and the solver's answer for each.

use crate::seq_to_vc::Encoding;
use crate::simplify::{Simplification, Step};
use crate::solve::{Answer, Session};
use crate::verify::{Options, Outcome, Report};
use crate::vc::{Terms, Vc};
use egg::{Id, Language};
use kpl_lang::Launch;
use kpl_reduction::seq::{Abstraction, LabelKind, Program};
use kpl_reduction::AbstractionChoice;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;

pub const FORMAT: &str = "kpl-certificate/1";

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Tool {
    pub name: String,
    pub version: String,
}

/// The kernel as read: its source and how the front end was asked to read it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct KernelSource {
    pub file: String,
    /// `kpl`, `cuda` or `opencl`.
    pub language: String,
    pub source: String,
    pub sha256: String,
    #[serde(default)]
    pub defines: Vec<String>,
    #[serde(default)]
    pub kernel: Option<String>,
    /// Which source-level annotations were kept (`all`, `only-requires`, `none`).
    #[serde(default = "all_annotations", skip_serializing_if = "is_all")]
    pub annotations: String,
    /// GPUVerify's `--kernel-args`: the kernel and its scalar params' values.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kernel_args: Option<(String, Vec<u64>)>,
    /// GPUVerify's `--invariants-as-candidates`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub invariants_as_candidates: bool,
    /// GPUVerify's `--global_offset`: OpenCL's global work offset per dimension.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub global_offset: Option<[u32; 3]>,
    /// `-I` directories: with `file`, how the `#include`s of the source (which holds the
    /// headers it read) were resolved.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub include_dirs: Vec<String>,
    /// The kernel file's path as it was given, when the source holds included headers
    /// (their names are resolved from it).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub path: String,
    /// The bits of a pointer and of `size_t` the C front end read the source with
    /// (GPUVerify's `--pointer-bitwidth`; certificates before it were read with 32).
    #[serde(default = "thirty_two")]
    pub pointer_bits: u32,
    /// The argument values of the host code's launch the kernel was verified under, by
    /// position, where they are integer constants (`kpl_c::FrontOptions::launch_args`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub launch_args: Option<Vec<Option<i64>>>,
}

fn thirty_two() -> u32 {
    32
}

fn all_annotations() -> String {
    "all".into()
}

fn is_all(s: &str) -> bool {
    s == "all"
}

/// How the front end read the kernel (what `check-cert` must read it with again).
#[derive(Clone, Debug, Default)]
pub struct FrontSettings {
    pub defines: Vec<String>,
    pub include_dirs: Vec<String>,
    /// The kernel file's path as given.
    pub path: String,
    pub kernel: Option<String>,
    pub annotations: kpl_c::annotations::Annotations,
    pub kernel_args: Option<(String, Vec<u64>)>,
    pub invariants_as_candidates: bool,
    /// GPUVerify's `--global_offset` (OpenCL).
    pub global_offset: Option<[u32; 3]>,
    /// The bits of a pointer and of `size_t` (`--pointer-bitwidth`, or the file's default).
    pub pointer_bits: u32,
    /// The host code's launch's constant arguments, by position (`host_launch.rs`).
    pub launch_args: Option<Vec<Option<i64>>>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct CertOptions {
    /// `auto`, `equality` or `adversarial`.
    pub abstraction: String,
    pub only_intra_group: bool,
    pub benign: bool,
    /// Races checked only on these arrays (GPUVerify's `/checkArrays:`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check_arrays: Option<Vec<String>>,
    /// GPUVerify's warp-synchronous mode: the warp size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warp_sync: Option<u32>,
    /// No race checks (`--only-divergence`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub only_divergence: bool,
    /// Barrier invariants unchecked for what they read (`--no-barrier-access-checks`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_barrier_access_checks: bool,
    /// Loops proved by K-induction (`--k-induction-depth`); 0: plain induction.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub k_induction_depth: u32,
    /// Stated loop invariants for thread 1 only (`--asymmetric-asserts`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub asymmetric_asserts: bool,
    /// A thread's private arrays and their words per thread: region checks instead of
    /// race checks (`kpl_reduction::builder::Config::private`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub private: Vec<(String, u32)>,
}

fn is_zero(k: &u32) -> bool {
    *k == 0
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Invariant {
    /// The candidate's index in the reduction's list.
    pub candidate: usize,
    pub loop_line: usize,
    pub rule: String,
    pub expr: String,
}

/// A term before and after simplification, with the explanation between them.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct TermRecord {
    pub original: String,
    pub simplified: String,
    pub explanation: Vec<Step>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Definition {
    pub symbol: String,
    #[serde(flatten)]
    pub term: TermRecord,
}

/// One verification condition: its failure condition must be unsatisfiable together with
/// the definitions it uses and the invariants' switches (kept on, others off).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct VcRecord {
    /// `label N` (a check of the program) or `candidate C #K` (an invariant's entry or
    /// preservation check).
    pub name: String,
    pub kind: String,
    pub what: String,
    pub line: usize,
    pub col: usize,
    pub goal: TermRecord,
    /// The definitions it uses (by symbol).
    pub definitions: Vec<String>,
    /// The invariants it assumes.
    pub invariants: Vec<usize>,
    pub answer: String,
    pub time_ms: u128,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Certificate {
    pub format: String,
    pub tool: Tool,
    pub solver: Tool,
    pub kernel: KernelSource,
    pub launch: Launch,
    pub options: CertOptions,
    pub abstractions: BTreeMap<String, Abstraction>,
    pub invariants: Vec<Invariant>,
    pub definitions: Vec<Definition>,
    pub vcs: Vec<VcRecord>,
}

impl Certificate {
    /// What a certificate that checks proves, and for which launch and options: a proof
    /// for one launch says nothing about another, and `only_intra_group` leaves races
    /// between groups unchecked.
    pub fn coverage(&self, no_wrap: &[String]) -> String {
        let l = &self.launch;
        let dims = |d: [u32; 3]| format!("[{},{},{}]", d[0], d[1], d[2]);
        let kernel = self.kernel.kernel.as_deref().map(|k| format!(" (kernel `{k}`)")).unwrap_or_default();
        let races = if self.options.only_divergence {
            "NO races (--only-divergence)".to_string()
        } else {
            let scope = match (&self.options.check_arrays, self.options.only_intra_group) {
                (Some(only), _) => format!(" on arrays {} only (NOT on the others: /checkArrays)", only.join(", ")),
                (None, true) => " only (NOT races between groups: --only-intra-group)".into(),
                (None, false) => " and between groups".into(),
            };
            let benign = if self.options.benign { "write-write races of equal values tolerated" } else { "every write-write race" };
            format!("races within groups{scope}; {benign}")
        };
        let mut extra = String::new();
        if let Some((k, vals)) = &self.kernel.kernel_args {
            let vs: Vec<String> = vals.iter().map(|v| v.to_string()).collect();
            extra.push_str(&format!("; ONLY the inputs where `{k}`'s scalar parameters are {} (--kernel-args)", vs.join(", ")));
        }
        if let Some(args) = &self.kernel.launch_args {
            let vs: Vec<String> = args.iter().enumerate().filter_map(|(i, v)| v.map(|v| format!("argument {} = {v}", i + 1))).collect();
            if !vs.is_empty() {
                extra.push_str(&format!("; ONLY the inputs where the integer parameters among these arguments of the host code's launch have their values: {} (launch read from the host code)", vs.join(", ")));
            }
        }
        if let Some(o) = self.kernel.global_offset {
            extra.push_str(&format!("; global work offset {} (--global_offset)", dims(o)));
        }
        if self.kernel.annotations != "all" {
            extra.push_str(&format!("; source annotations dropped ({})", self.kernel.annotations));
        }
        if let Some(w) = self.options.warp_sync {
            extra.push_str(&format!("; warps of {w} threads in lock step (--warp-sync)"));
        }
        if !no_wrap.is_empty() {
            let arrays: Vec<String> = no_wrap.iter().map(|a| format!("`{a}`")).collect();
            extra.push_str(&format!("; ASSUMING the atomic additions to {} never wrap around (GPUVerify's assumption)", arrays.join(", ")));
        }
        format!(
            "it covers {}{kernel} ({}) launched as {} groups {} of {} threads {}, every input; {races}; barrier divergence, assertions and bounds; abstraction {}{extra}",
            self.kernel.file,
            self.kernel.language,
            l.num_groups(),
            dims(l.groups),
            l.threads_per_group(),
            dims(l.threads),
            self.options.abstraction,
        )
    }
}

pub fn sha256_hex(text: &str) -> String {
    let d = Sha256::digest(text.as_bytes());
    d.iter().map(|b| format!("{b:02x}")).collect()
}

pub fn abstraction_name(a: AbstractionChoice) -> &'static str {
    match a {
        AbstractionChoice::Auto => "auto",
        AbstractionChoice::Equality => "equality",
        AbstractionChoice::Adversarial => "adversarial",
    }
}

pub fn abstraction_of(name: &str) -> Option<AbstractionChoice> {
    match name {
        "auto" => Some(AbstractionChoice::Auto),
        "equality" => Some(AbstractionChoice::Equality),
        "adversarial" => Some(AbstractionChoice::Adversarial),
        _ => None,
    }
}

/// The kind of a program check, as certificates and reports name it.
pub fn label_kind(k: &LabelKind) -> &'static str {
    match k {
        LabelKind::Race { .. } => "race",
        LabelKind::Divergence => "divergence",
        LabelKind::OutOfBounds { .. } => "out_of_bounds",
        LabelKind::Candidate { .. } => "invariant",
        LabelKind::Perf { check, .. } => check.name(),
        _ => "assertion",
    }
}

/// The definitions (by symbol) a goal uses, transitively.
pub fn cone(t: &Terms, defs: &BTreeMap<String, Id>, goal: Id) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut stack = vec![goal];
    let mut seen = BTreeSet::new();
    while let Some(i) = stack.pop() {
        if !seen.insert(i) {
            continue;
        }
        let n = t.node(i);
        if let Vc::Var(s) = n {
            if let Some(rhs) = defs.get(s.as_str()) {
                if out.insert(s.to_string()) {
                    stack.push(*rhs);
                }
            }
        }
        stack.extend(n.children().iter().copied());
    }
    out
}

fn record(s: &Simplification) -> TermRecord {
    TermRecord { original: s.original.to_string(), simplified: s.simplified.to_string(), explanation: s.steps.clone() }
}

/// Names of the verification conditions, in order: program checks, then candidates.
pub fn vc_names(enc: &Encoding, kept: &[bool]) -> Vec<(String, Option<usize>, Option<(usize, usize)>)> {
    let mut out = Vec::new();
    for (l, c) in enc.checks.iter().enumerate() {
        if c.is_some() {
            out.push((format!("label {l}"), Some(l), None));
        }
    }
    for (c, fs) in enc.candidate_fails.iter().enumerate() {
        if kept.get(c).copied().unwrap_or(false) {
            for k in 0..fs.len() {
                out.push((format!("candidate {c} #{k}"), None, Some((c, k))));
            }
        }
    }
    out
}

/// Build the certificate of a verified kernel (the report must come from `verify` with
/// simplification and explanations on).
/// Why a certificate cannot name `file` as its kernel's file (`None`: it can): the file's
/// own name (no directory), of the language's extension (`.kpl`, `.cu`, `.cl`), in
/// printable characters. `certify` and `check-cert` both ask this, so every certificate
/// `certify` writes has a name `check-cert` takes.
pub fn file_name_problem(file: &str, language: &str) -> Option<String> {
    let ext = match language {
        "kpl" => "kpl",
        "cuda" => "cu",
        _ => "cl",
    };
    if file.contains('/') || file == "." || file == ".." {
        return Some(format!("the kernel's file name `{}` is not a file's own name", file.escape_debug()));
    }
    if file.chars().any(char::is_control) {
        return Some(format!("the kernel's file name `{}` has control characters", file.escape_debug()));
    }
    if std::path::Path::new(file).extension().and_then(|e| e.to_str()) != Some(ext) {
        return Some(format!("the kernel's file name `{}` is not a `.{ext}` file name", file.escape_debug()));
    }
    None
}

pub fn build(file: &str, language: &str, source: &str, front: &FrontSettings, o: &Options, r: &Report) -> Result<Certificate, String> {
    if r.outcome != Outcome::Verified {
        return Err("only a verified kernel has a certificate".into());
    }
    let simp = r.simplification.as_ref().filter(|s| !s.checks.is_empty() || r.encoding.checks.iter().all(|c| c.is_none()));
    let simp = simp.ok_or("certificates need the simplifier with explanations")?;
    let p: &Program = &r.program;
    let enc = &r.encoding;
    let line_of = |off: usize| kpl_lang::span::line_col(source, off);
    let invariants: Vec<Invariant> = p
        .candidates
        .iter()
        .enumerate()
        .filter(|(i, _)| r.kept.get(*i).copied().unwrap_or(false))
        .map(|(i, c)| Invariant {
            candidate: i,
            loop_line: line_of(p.loops[c.loop_id].span.0).0,
            rule: c.rule.to_string(),
            expr: p.show(&c.expr),
        })
        .collect();
    let kept_ids: Vec<usize> = invariants.iter().map(|i| i.candidate).collect();
    let def_ids: BTreeMap<String, Id> = enc.defs.iter().map(|(s, v)| (enc.terms.node(*s).to_string(), *v)).collect();
    let definitions: Vec<Definition> =
        simp.defs.iter().map(|(sym, s)| Definition { symbol: sym.clone(), term: record(s) }).collect();
    let mut session = Session::new(enc, None);
    let mut vcs = Vec::new();
    for (name, label, cand) in vc_names(enc, &r.kept) {
        let (goal_id, rec, kind, what, off) = match (label, cand) {
            (Some(l), _) => {
                let lab = &p.labels[l];
                let s = simp.checks.get(l).and_then(|s| s.as_ref()).ok_or("a check has no simplification record")?;
                let goal = enc.checks[l].as_ref().map(|c| c.fail).ok_or("a check has no goal")?;
                (goal, record(s), label_kind(&lab.kind).to_string(), lab.what.clone(), lab.span.0)
            }
            (_, Some((c, k))) => {
                let s = simp.candidates.get(c).and_then(|v| v.get(k)).ok_or("a candidate has no simplification record")?;
                let cd = &p.candidates[c];
                let what = format!("invariant {} ({}) {}", p.show(&cd.expr), cd.rule, if k == 0 { "on entry" } else { "preserved" });
                (enc.candidate_fails[c][k], record(s), "invariant".into(), what, p.loops[cd.loop_id].span.0)
            }
            _ => continue,
        };
        let t0 = Instant::now();
        let answer = match session.check(&[goal_id], &r.kept) {
            Answer::Unsat => "unsat",
            Answer::Sat(_) => "sat",
            Answer::Unknown(_) => "unknown",
        };
        let time_ms = t0.elapsed().as_millis();
        if answer != "unsat" {
            return Err(format!("{name} ({what}) is not proved alone: {answer}"));
        }
        let (line, col) = line_of(off);
        let definitions = cone(&enc.terms, &def_ids, goal_id).into_iter().collect();
        vcs.push(VcRecord {
            name,
            kind,
            what,
            line,
            col,
            goal: rec,
            definitions,
            invariants: kept_ids.clone(),
            answer: answer.into(),
            time_ms,
        });
    }
    Ok(Certificate {
        format: FORMAT.into(),
        tool: Tool { name: "kpl".into(), version: env!("CARGO_PKG_VERSION").into() },
        solver: Tool { name: "z3".into(), version: z3::full_version().to_string() },
        kernel: KernelSource {
            file: file.into(),
            language: language.into(),
            source: source.into(),
            sha256: sha256_hex(source),
            defines: front.defines.clone(),
            kernel: front.kernel.clone(),
            annotations: front.annotations.name().into(),
            kernel_args: front.kernel_args.clone(),
            invariants_as_candidates: front.invariants_as_candidates,
            global_offset: front.global_offset,
            include_dirs: front.include_dirs.clone(),
            path: if kpl_lang::sources::segments(source).len() > 1 { front.path.clone() } else { String::new() },
            pointer_bits: front.pointer_bits,
            launch_args: front.launch_args.clone(),
        },
        launch: o.launch,
        options: CertOptions {
            abstraction: abstraction_name(o.abstraction).into(),
            only_intra_group: o.only_intra_group,
            benign: o.benign,
            check_arrays: o.check_arrays.clone(),
            warp_sync: o.warp_sync,
            only_divergence: o.only_divergence,
            no_barrier_access_checks: !o.barrier_access_checks,
            k_induction_depth: o.k_induction,
            asymmetric_asserts: o.asymmetric_asserts,
            private: o.private.clone(),
        },
        abstractions: p.arrays.iter().map(|a| (a.name.clone(), a.abstraction)).collect(),
        invariants,
        definitions,
        vcs,
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn certify_and_check_cert_agree_on_file_names() {
        use super::file_name_problem;
        assert_eq!(file_name_problem("reduce.kpl", "kpl"), None);
        assert_eq!(file_name_problem("a\\<close> axiomatization.kpl", "kpl"), None, "any printable name of the right kind");
        assert!(file_name_problem("k.cu", "kpl").is_some());
        assert!(file_name_problem("dir/k.kpl", "kpl").is_some());
        assert!(file_name_problem("x\ny.kpl", "kpl").is_some());
        assert!(file_name_problem("..", "kpl").is_some());
        assert_eq!(file_name_problem("k.cl", "opencl"), None);
    }
}
