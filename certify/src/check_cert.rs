//! `check-cert`: re-validate a certificate without trusting the run that made it.
//! The kernel's hash; the VCs re-derived from the kernel (reduction, VC generation,
//! inlining) and compared term by term; every explanation replayed step by step by
//! `rewrite_check` (not egg); every simplified VC re-proved by a second solver through
//! SMT-LIB 2 text (the `prove` callback: the binary runs cvc5 or a fresh z3 process).

use crate::certificate::{abstraction_of, cone, label_kind, sha256_hex, vc_names, Certificate, TermRecord, FORMAT};
use crate::rewrite_check::{replay, Subst};
use crate::seq_to_vc::encode;
use crate::sexp::{of_term, to_term, Sx};
use crate::simplify::inline;
use crate::vc::Terms;
use crate::vc_to_smt::{declarations, term};
use crate::verify::{program, Options};
use egg::Id;
use kpl_reduction::seq::Abstraction;
use std::collections::{BTreeMap, BTreeSet};

/// What the check found.
#[derive(Debug, Default)]
pub struct CheckReport {
    pub problems: Vec<String>,
    pub vcs: usize,
    pub steps: usize,
    /// The arrays whose atomic additions the re-derived conditions assume never wrap
    /// around (`kpl_reduction::wrap_assumed`).
    pub no_wrap: Vec<String>,
}

impl CheckReport {
    fn problem(&mut self, p: impl Into<String>) {
        self.problems.push(p.into());
    }
}

/// Replay an explanation; gives the problem if it does not end at the simplified term.
fn check_term(what: &str, rec: &TermRecord, report: &mut CheckReport) -> Option<Sx> {
    let (orig, simp) = match (Sx::parse(&rec.original), Sx::parse(&rec.simplified)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => {
            report.problem(format!("{what}: unreadable term: {e}"));
            return None;
        }
    };
    let mut steps = Vec::new();
    for st in &rec.explanation {
        let mut b = Subst::new();
        for (k, v) in &st.bindings {
            match Sx::parse(v) {
                Ok(t) => {
                    b.insert(k.clone(), t);
                }
                Err(e) => {
                    report.problem(format!("{what}: unreadable binding: {e}"));
                    return None;
                }
            }
        }
        steps.push((st.clone(), b));
    }
    report.steps += steps.len();
    match replay(&orig, &steps) {
        Ok(end) if end == simp => Some(simp),
        Ok(end) => {
            report.problem(format!("{what}: the explanation ends at `{end}`, not at the simplified term `{simp}`"));
            None
        }
        Err(e) => {
            report.problem(format!("{what}: {e}"));
            None
        }
    }
}

/// One SMT-LIB query: definitions, invariant switches, goal; `unsat` proves the VC.
pub fn vc_script(t: &Terms, defs: &[(Id, Id)], switches: &[Id], goal: Id) -> String {
    let mut roots: Vec<Id> = defs.iter().flat_map(|(a, b)| [*a, *b]).collect();
    roots.extend(switches.iter().copied());
    roots.push(goal);
    let mut out = String::from("(set-logic QF_AUFBV)\n");
    out.push_str(&declarations(t, &roots));
    for (s, v) in defs {
        out.push_str(&format!("(assert (= {} {}))\n", term(t, *s), term(t, *v)));
    }
    for s in switches {
        out.push_str(&format!("(assert {})\n", term(t, *s)));
    }
    out.push_str(&format!("(assert {})\n(check-sat)\n", term(t, goal)));
    out
}

/// Check a certificate. `prove` runs a second solver on an SMT-LIB script and gives its
/// answer (`unsat`, `sat` or `unknown`).
pub fn check(cert: &Certificate, prove: &dyn Fn(&str) -> Result<String, String>, progress: &dyn Fn(&str)) -> CheckReport {
    let mut report = CheckReport::default();
    if cert.format != FORMAT {
        report.problem(format!("unknown certificate format `{}`", cert.format));
        return report;
    }
    if sha256_hex(&cert.kernel.source) != cert.kernel.sha256 {
        report.problem("the kernel source does not match its hash: it was edited");
        return report;
    }
    // Re-derive the verification conditions from the kernel.
    progress("re-deriving the verification conditions");
    let checked = match cert.kernel.language.as_str() {
        "kpl" => kpl_lang::check_kpl(&cert.kernel.source),
        lang @ ("cuda" | "opencl") => {
            let dialect = if lang == "cuda" { kpl_c::Dialect::Cuda } else { kpl_c::Dialect::OpenCl };
            let Some(annotations) = kpl_c::annotations::Annotations::parse(&cert.kernel.annotations) else {
                report.problem(format!("unknown annotation setting `{}`", cert.kernel.annotations));
                return report;
            };
            let o = kpl_c::FrontOptions {
                defines: cert.kernel.defines.clone(),
                file: if cert.kernel.path.is_empty() { cert.kernel.file.clone() } else { cert.kernel.path.clone() },
                include_dirs: cert.kernel.include_dirs.clone(),
                kernel: cert.kernel.kernel.clone(),
                launch: Some(cert.launch),
                annotations,
                kernel_args: cert.kernel.kernel_args.clone(),
                warp_sync: cert.options.warp_sync,
                invariants_as_candidates: cert.kernel.invariants_as_candidates,
                global_offset: cert.kernel.global_offset,
                pointer_bits: cert.kernel.pointer_bits,
                launch_args: cert.kernel.launch_args.clone(),
                ..kpl_c::FrontOptions::new(dialect)
            };
            kpl_c::check_c(&cert.kernel.source, &o)
        }
        other => {
            report.problem(format!("unknown kernel language `{other}`"));
            return report;
        }
    };
    let Ok(c) = checked else {
        report.problem("the kernel in the certificate does not check");
        return report;
    };
    report.no_wrap = kpl_reduction::wrap_assumed(&c.core, cert.launch);
    if let Some(why) = crate::certificate::file_name_problem(&cert.kernel.file, &cert.kernel.language) {
        report.problem(why);
    }
    match (&cert.kernel.kernel, cert.kernel.language.as_str()) {
        (Some(k), "kpl") => report.problem(format!("a KPL file has one kernel; the certificate names `{k}`")),
        (Some(k), _) if *k != c.kernel.name.name => {
            report.problem(format!("the certificate names kernel `{k}`, the front end read `{}`", c.kernel.name.name))
        }
        _ => {}
    }
    let Some(abstraction) = abstraction_of(&cert.options.abstraction) else {
        report.problem(format!("unknown abstraction `{}`", cert.options.abstraction));
        return report;
    };
    let o = Options {
        abstraction,
        only_intra_group: cert.options.only_intra_group,
        benign: cert.options.benign,
        check_arrays: cert.options.check_arrays.clone(),
        warp_sync: cert.options.warp_sync,
        only_divergence: cert.options.only_divergence,
        barrier_access_checks: !cert.options.no_barrier_access_checks,
        k_induction: cert.options.k_induction_depth,
        asymmetric_asserts: cert.options.asymmetric_asserts,
        // Region checks are stronger than the race checks they replace: a certificate
        // cannot weaken what is checked by naming an array here.
        private: cert.options.private.clone(),
        ..Options::new(cert.launch)
    };
    let p = program(&c.core, &o);
    let enc = encode(&p);
    let mut inl = inline(&enc);
    let derived: BTreeMap<String, Abstraction> = p.arrays.iter().map(|a| (a.name.clone(), a.abstraction)).collect();
    if derived != cert.abstractions {
        report.problem("the arrays' abstractions differ from the kernel's");
    }
    // Invariants: each is a candidate of the kernel, with the same expression.
    let mut kept = vec![false; p.candidates.len()];
    for inv in &cert.invariants {
        match p.candidates.get(inv.candidate) {
            Some(cd) if p.show(&cd.expr) == inv.expr && cd.rule == inv.rule => kept[inv.candidate] = true,
            Some(_) => report.problem(format!("invariant {} is not the kernel's candidate {}", inv.expr, inv.candidate)),
            None => report.problem(format!("invariant {} names no candidate of the kernel", inv.candidate)),
        }
    }
    let kept_ids: Vec<usize> = (0..kept.len()).filter(|&i| kept[i]).collect();
    // Definitions: the same symbols with the same terms, replayed to their simplified form.
    let def_orig: BTreeMap<String, Sx> = inl.kept.iter().map(|(s, v)| (inl.terms.node(*s).to_string(), of_term(&inl.terms, *v))).collect();
    let cert_syms: BTreeSet<&str> = cert.definitions.iter().map(|d| d.symbol.as_str()).collect();
    if cert_syms != def_orig.keys().map(|s| s.as_str()).collect() {
        report.problem("the certificate's definitions are not the kernel's");
    }
    let mut simplified_defs: Vec<(String, Sx)> = Vec::new();
    for d in &cert.definitions {
        match (def_orig.get(&d.symbol), Sx::parse(&d.term.original)) {
            (Some(want), Ok(got)) if *want == got => {}
            _ => report.problem(format!("definition of `{}` differs from the kernel's", d.symbol)),
        }
        if let Some(s) = check_term(&format!("definition of `{}`", d.symbol), &d.term, &mut report) {
            simplified_defs.push((d.symbol.clone(), s));
        }
    }
    // The VCs: exactly the program's checks and the kept invariants' checks.
    let expected = vc_names(&enc, &kept);
    let want_names: BTreeSet<&str> = expected.iter().map(|(n, _, _)| n.as_str()).collect();
    let got_names: BTreeSet<&str> = cert.vcs.iter().map(|v| v.name.as_str()).collect();
    for missing in want_names.difference(&got_names) {
        report.problem(format!("no verification condition for {missing}"));
    }
    for extra in got_names.difference(&want_names) {
        report.problem(format!("{extra} is not a verification condition of the kernel"));
    }
    // Terms for the re-proof live in the re-derived arena (it knows every symbol's sort).
    let mut t = inl.terms.clone();
    let mut defs: BTreeMap<String, (Id, Id)> = BTreeMap::new();
    for (sym, s) in &simplified_defs {
        let Some(sym_id) = inl.kept.iter().find(|(x, _)| inl.terms.node(*x).to_string() == *sym).map(|x| x.0) else { continue };
        match to_term(&mut t, s) {
            Ok(v) => {
                defs.insert(sym.clone(), (sym_id, v));
            }
            Err(e) => report.problem(format!("definition of `{sym}`: {e}")),
        }
    }
    let def_rhs: BTreeMap<String, Id> = defs.iter().map(|(k, v)| (k.clone(), v.1)).collect();
    let switches: Vec<Id> = enc
        .guards
        .iter()
        .enumerate()
        .map(|(i, g)| if kept[i] { *g } else { t.not(*g) })
        .collect();
    let line_of = |off: usize| kpl_lang::span::line_col(&cert.kernel.source, off);
    for (name, label, cand) in expected {
        let Some(vc) = cert.vcs.iter().find(|v| v.name == name) else { continue };
        if vc.invariants != kept_ids {
            report.problem(format!("{name} assumes other invariants than the certificate lists"));
        }
        if vc.answer != "unsat" {
            report.problem(format!("{name}: its answer is `{}`, not `unsat`: it is not proved", vc.answer));
        }
        // What the VC says it checks, and the goal before inlining.
        let (raw_goal, kind, what, off) = match (label, cand) {
            (Some(l), _) => {
                let lab = &p.labels[l];
                let Some(chk) = enc.checks[l].as_ref() else { continue };
                (chk.fail, label_kind(&lab.kind).to_string(), lab.what.clone(), lab.span.0)
            }
            (_, Some((c, k))) => {
                let cd = &p.candidates[c];
                let what = format!("invariant {} ({}) {}", p.show(&cd.expr), cd.rule, if k == 0 { "on entry" } else { "preserved" });
                (enc.candidate_fails[c][k], "invariant".to_string(), what, p.loops[cd.loop_id].span.0)
            }
            _ => continue,
        };
        if (vc.kind.as_str(), vc.what.as_str(), (vc.line, vc.col)) != (kind.as_str(), what.as_str(), line_of(off)) {
            report.problem(format!("{name}: it says it checks {} `{}` at {}:{}, the kernel's is {kind} `{what}` at {}:{}", vc.kind, vc.what, vc.line, vc.col, line_of(off).0, line_of(off).1));
        }
        let dg = inl.goal(raw_goal);
        match Sx::parse(&vc.goal.original) {
            Ok(g) if g == of_term(&inl.terms, dg) => {}
            _ => {
                report.problem(format!("{name}: the goal differs from the kernel's"));
                continue;
            }
        }
        let Some(simp) = check_term(&name, &vc.goal, &mut report) else { continue };
        let goal = match to_term(&mut t, &simp) {
            Ok(g) => g,
            Err(e) => {
                report.problem(format!("{name}: {e}"));
                continue;
            }
        };
        let cone = cone(&t, &def_rhs, goal);
        if !vc.definitions.iter().eq(cone.iter()) {
            report.problem(format!("{name}: the definitions it lists are not the ones its goal uses"));
        }
        let cone_defs: Vec<(Id, Id)> = cone.iter().filter_map(|s| defs.get(s).copied()).collect();
        progress(&format!("re-proving {name}"));
        let script = vc_script(&t, &cone_defs, &switches, goal);
        match prove(&script) {
            Ok(a) if a.trim() == "unsat" => report.vcs += 1,
            Ok(a) => report.problem(format!("{name} ({}): the second solver says `{}`", vc.what, a.trim())),
            Err(e) => report.problem(format!("{name}: the second solver failed: {e}")),
        }
    }
    report
}
