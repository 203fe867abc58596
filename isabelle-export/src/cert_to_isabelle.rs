//! `Cert_<kernel>.thy`: a certificate as Isabelle lemmas. Each verification condition is a
//! lemma over `32 word`, `bool` and array variables, in one `context` that fixes them and
//! assumes the definitions the conditions use and the invariants' switches (so each is
//! stated, and each definition's simplification, `if` split and theory lemma proved, once
//! per theory, not once per condition); its proof follows the certificate: every rewrite step of the
//! explanation is an instance of a lemma of `KPL_Rules.thy` (or a ground evaluation),
//! applied where it rewrites by `kpl_rw` (no term in between is stated), and the simplified
//! condition is closed by `simp` when it is `False`; otherwise by `satx` (propositional,
//! kernel-checked) from theory lemmas that `unat_arith` or `metis` proves (`lemma_method`) and
//! the facts the refutation needs, when the caller finds such lemmas and all are in that
//! fragment, and by the SMT oracle when not.

use crate::names::{ident_part, Names};
use crate::rules_to_isabelle::lemma_name;
use crate::smt_facts;
use crate::if_split::{split_proof, split_prop, IfSplits};
use crate::lemma_method::{self, lemma_prop};
use crate::vc_to_isabelle::{self, functions, symbols, term, Sort, Sorts};
use kpl_lang::sexp::Sx;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

/// One rewrite step: `lhs = rhs` is an instance of `rule` (or, for `eval`, an operator on
/// literals and its value), and `after` is the whole term once the step is done.
#[derive(Clone, Debug)]
pub struct Step {
    pub rule: String,
    pub lhs: Sx,
    pub rhs: Sx,
    /// Where the step rewrites (argument indices from the root).
    pub position: Vec<usize>,
    pub after: Sx,
}

/// A term, its simplified form and the steps between them.
#[derive(Clone, Debug)]
pub struct Chain {
    pub original: Sx,
    pub steps: Vec<Step>,
    pub simplified: Sx,
}

#[derive(Clone, Debug)]
pub struct Definition {
    pub symbol: String,
    pub chain: Chain,
}

#[derive(Clone, Debug)]
pub struct Vc {
    pub name: String,
    pub kind: String,
    pub what: String,
    pub line: usize,
    pub col: usize,
    pub goal: Chain,
}

#[derive(Clone, Debug)]
pub struct Invariant {
    pub candidate: usize,
    pub rule: String,
    pub expr: Sx,
}

/// A certificate, as the export needs it.
#[derive(Clone, Debug)]
pub struct Certificate {
    pub kernel: String,
    pub definitions: Vec<Definition>,
    pub vcs: Vec<Vc>,
    /// Each invariant switch (`h!c`) and whether Houdini kept its candidate.
    pub switches: Vec<(String, bool)>,
    pub invariants: Vec<Invariant>,
}

/// The theory, and how many verification conditions Isabelle's kernel checks alone (their
/// simplified form is `False`, or they follow from theory lemmas) and how many are closed by
/// the SMT oracle.
pub struct CertTheory {
    pub name: String,
    pub text: String,
    pub kernel_checked: usize,
    /// Of those checked by the kernel, how many by `satx` from theory lemmas.
    pub from_lemmas: usize,
    pub oracle: usize,
}

/// Where the header declares the SMT oracle, when a condition uses it.
const SMT_SETUP: &str = "\u{1}smt-setup\u{1}";

/// A ground evaluation's proof: the simplifier, with KPL's comparisons and divisions unfolded
/// (all the corpus needs, in milliseconds), before the code generator (`eval` compiles the
/// whole code setup, about 3 s a call).
const EVAL_METHOD: &str = "((simp; fail) | (simp add: kpl_slt_flip kpl_sle_flip kpl_udiv_def kpl_urem_def; fail) | (code_simp; fail) | eval)";

/// A chain's proof as arguments of `kpl_rw` (`KPL_Rules.thy`), which rewrites the goal at
/// each step's path (after `prefix`, the path of the chain's term in the goal) by the step's
/// equation, and the facts to state first: ground evaluations, and the instances of rules a
/// step uses backward (their right side may not fix every variable of their left).
struct Rewrites {
    facts: String,
    args: String,
}

impl Rewrites {
    fn of(c: &Chain, prefix: &str, names: &mut Names) -> Rewrites {
        // Steps that leave the term as it was prove nothing; drop them. An explanation may
        // also wander back to a term it passed (the e-graph's proof is a path through equal
        // terms): drop the cycle.
        let mut steps: Vec<(&Sx, &Step)> = Vec::new();
        let mut before = &c.original;
        for st in &c.steps {
            if st.after != *before {
                steps.push((before, st));
            }
            before = &st.after;
            if let Some(i) = steps.iter().position(|(b, _)| *b == &st.after) {
                steps.truncate(i);
            }
        }
        let (mut facts, mut args) = (String::new(), String::new());
        for (i, (before, st)) in steps.iter().enumerate() {
            let forward = before.at(&st.position) == Some(&st.lhs);
            let eq = if st.rule != "eval" && forward {
                lemma_name(&st.rule)
            } else {
                let method = if st.rule == "eval" { EVAL_METHOD.to_string() } else { format!("(rule {})", lemma_name(&st.rule)) };
                let _ = writeln!(facts, "  have e{i}: \"({}) = ({})\" by {method}", term(&st.lhs, names), term(&st.rhs, names));
                if forward {
                    format!("e{i}")
                } else {
                    format!("e{i}[symmetric]")
                }
            };
            // Positions come from the explanation of this very term; one outside it leaves
            // the path at the chain's root, and Isabelle then refuses the step.
            let path = vc_to_isabelle::hol_path(before, &st.position).unwrap_or_default();
            let _ = write!(args, "\n      \"{prefix}{path}\" {eq}");
        }
        Rewrites { facts, args }
    }

    /// The method that rewrites the goal along the chain (nothing when it has no step).
    fn method(&self) -> Option<String> {
        (!self.args.is_empty()).then(|| format!("kpl_rw{}", self.args))
    }
}

/// A lemma's proof: the facts, then `show ?thesis by` the methods in sequence.
fn by_methods(facts: &str, methods: &[String]) -> String {
    let m = methods.join(", ");
    if facts.is_empty() {
        format!("  by ({m})\n")
    } else {
        format!("proof -\n{facts}  show ?thesis by ({m})\nqed\n")
    }
}

/// At most this many conjuncts of a definition are given to the lemma search one at a time;
/// a larger conjunction is given whole.
const MAX_CONJUNCTS: usize = 64;

/// A definition `symbol = body` as facts for the lemma search, each with the Isabelle fact
/// (`fact`, the definition's lemma, with attributes) that states it. A conjunction becomes
/// `symbol \<longrightarrow> c` for each conjunct and `body \<longrightarrow> symbol`: a refutation's unsat core
/// then names only the conjuncts it needs, and `satx` gets those instead of the whole
/// equation (whose CNF made `satx` take most of a session's time). The conjuncts' facts are
/// projections (`kpl_def_imp`, `kpl_conj_first`, `kpl_conj_rest` of `KPL_Ops`), no search.
fn definition_facts(symbol: &str, body: &Sx, fact: &str) -> Vec<(Sx, String)> {
    let v = Sx::atom(symbol);
    let implies = |a: &Sx, b: &Sx| Sx::List(vec![Sx::atom("=>"), a.clone(), b.clone()]);
    let mut leaves = Vec::new();
    conjuncts(body, String::new(), &mut leaves);
    if leaves.len() < 2 || leaves.len() > MAX_CONJUNCTS {
        return vec![(Sx::List(vec![Sx::atom("="), v, body.clone()]), fact.to_string())];
    }
    let mut out: Vec<(Sx, String)> =
        leaves.into_iter().map(|(c, path)| (implies(&v, c), format!("{fact}[THEN kpl_def_imp{path}]"))).collect();
    out.push((implies(body, &v), format!("{fact}[THEN kpl_def_rev]")));
    out
}

/// The conjuncts of a conjunction as HOL prints it (`a \<and> b \<and> c` is `a \<and> (b \<and> c)`),
/// each with the projections that reach it.
fn conjuncts<'t>(t: &'t Sx, path: String, out: &mut Vec<(&'t Sx, String)>) {
    let args = t.args();
    if t.head() != "and" || args.len() < 2 {
        out.push((t, path));
        return;
    }
    for (k, c) in args.iter().enumerate() {
        let mut p = path.clone();
        p.push_str(&", THEN kpl_conj_rest".repeat(k));
        if k + 1 < args.len() {
            p.push_str(", THEN kpl_conj_first");
        }
        conjuncts(c, p, out);
    }
}

/// `fixes` for the symbols and functions of some terms.
fn fixes(syms: &[String], funs: &[String], sorts: &Sorts, names: &mut Names) -> String {
    let mut parts: Vec<String> = syms.iter().map(|s| format!("{} :: \"{}\"", names.get(s), sorts.of(s).typ())).collect();
    for f in funs {
        let arity = sorts.funs.get(f).copied().unwrap_or(1);
        let ty = vec!["32 word"; arity + 1].join(" \\<Rightarrow> ");
        parts.push(format!("{} :: \"{ty}\"", names.get(f)));
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!("  fixes {}\n", parts.join("\n    and "))
    }
}

fn all_symbols(ts: &[&Sx]) -> (Vec<String>, Vec<String>) {
    let (mut syms, mut funs) = (Vec::new(), Vec::new());
    for t in ts {
        symbols(t, &mut syms);
        functions(t, &mut funs);
    }
    (syms, funs)
}

/// The definitions a term needs, transitively, in the certificate's order.
fn cone(goal: &Sx, defs: &[Definition]) -> Vec<usize> {
    let index: BTreeMap<&str, usize> = defs.iter().enumerate().map(|(i, d)| (d.symbol.as_str(), i)).collect();
    let mut seen = BTreeSet::new();
    let mut stack = Vec::new();
    symbols(goal, &mut stack);
    while let Some(s) = stack.pop() {
        if let Some(&i) = index.get(s.as_str()) {
            if seen.insert(i) {
                symbols(&defs[i].chain.original, &mut stack);
            }
        }
    }
    seen.into_iter().collect()
}

pub fn theory_name(kernel: &str) -> String {
    format!("Cert_{}", ident_part(kernel))
}

/// Finds theory lemmas for a verification condition: given its facts (propositions), its
/// goal (the proposition to refute) and the sort of each symbol, lemmas `¬(l1 ∧ ... ∧ ln)`
/// over atoms (each literal an atom and whether it holds) that make `facts ∧ goal`
/// propositionally unsatisfiable, and the facts (indices) that needs; `None` when it finds none.
pub type LemmaFinder<'a> = &'a dyn Fn(&[Sx], &Sx, &dyn Fn(&str) -> Sort) -> Option<(Vec<Vec<(Sx, bool)>>, Vec<usize>)>;

/// At most this many `if`s split per verification condition; beyond, the SMT oracle.
const IF_SPLIT_LIMIT: usize = 200;

/// The theory of a certificate.
pub fn theory(cert: &Certificate, lemmas: Option<LemmaFinder>) -> CertTheory {
    let name = theory_name(&cert.kernel);
    let defs = &cert.definitions;
    // The invariants are propositions too: their symbols get sorts with the VCs'.
    let goals: Vec<&Sx> =
        cert.vcs.iter().flat_map(|v| [&v.goal.original, &v.goal.simplified]).chain(cert.invariants.iter().map(|i| &i.expr)).collect();
    let def_terms: Vec<(&str, &Sx)> =
        defs.iter().flat_map(|d| [(d.symbol.as_str(), &d.chain.original), (d.symbol.as_str(), &d.chain.simplified)]).collect();
    let mut sorts = Sorts::infer(&goals, &def_terms);
    for (s, _) in &cert.switches {
        sorts.vars.insert(s.clone(), Sort::Bool);
    }
    let mut names = Names::default();
    let mut s = String::new();
    let _ = write!(
        s,
        "(* Generated by kpl from the certificate of kernel `{}`. Each verification condition is a\n   \
         lemma; see README.md for what is proved and under which assumptions. *)\n\
         theory {name}\n  imports \"KPL.KPL_Rules\"\nbegin\n\nunbundle bit_operations_syntax\n\n\
         {SMT_SETUP}",
        crate::names::comment(&cert.kernel)
    );
    // The invariants Houdini kept, as definitions over their variables.
    if !cert.invariants.is_empty() {
        s.push_str("section \\<open>The loop invariants the proof uses (kept by Houdini)\\<close>\n\n");
    }
    for inv in &cert.invariants {
        // Its free symbols and the uninterpreted functions it applies (ghost state of atomics).
        let (mut vars, mut funs) = (Vec::new(), Vec::new());
        symbols(&inv.expr, &mut vars);
        functions(&inv.expr, &mut funs);
        let mut local = Names::default();
        let mut types: Vec<String> = vars.iter().map(|v| format!("({})", sorts.of(v).typ())).collect();
        types.extend(funs.iter().map(|f| format!("({})", vec!["32 word"; sorts.funs.get(f).copied().unwrap_or(1) + 1].join(" \\<Rightarrow> "))));
        types.push("bool".into());
        vars.extend(funs);
        let params: Vec<String> = vars.iter().map(|v| local.get(v)).collect();
        let body = term(&inv.expr, &mut local);
        let _ = writeln!(s, "text \\<open>Candidate {} ({}).\\<close>", inv.candidate, crate::names::text(&inv.rule));
        let _ = writeln!(
            s,
            "definition invariant_{} :: \"{}\" where\n  \"invariant_{} {} = {body}\"\n",
            inv.candidate,
            types.join(" \\<Rightarrow> "),
            inv.candidate,
            params.join(" ")
        );
    }
    // Each kept definition's simplification, proved once.
    // Which definitions the certificate simplifies (proved in the VCs' context below).
    let def_lemma: Vec<bool> = defs.iter().map(|d| !d.chain.steps.is_empty() && d.chain.original != d.chain.simplified).collect();
    let cones: Vec<Vec<usize>> = cert.vcs.iter().map(|vc| cone(&vc.goal.original, defs)).collect();
    // The VCs share one context: every symbol, every definition a VC uses (as an
    // assumption `d_...`, with its simplification `ds_...` proved once) and every switch.
    // Each VC lemma, exported from it, assumes them all; since each definition only names a
    // fresh symbol, that is what each VC's own definitions and switches say.
    let mut ctx_defs: BTreeSet<usize> = BTreeSet::new();
    let mut ctx_terms: Vec<&Sx> = Vec::new();
    for (vc, used) in cert.vcs.iter().zip(&cones) {
        ctx_terms.push(&vc.goal.original);
        ctx_terms.push(&vc.goal.simplified);
        ctx_defs.extend(used.iter().copied());
    }
    for &i in &ctx_defs {
        ctx_terms.push(&defs[i].chain.original);
        ctx_terms.push(&defs[i].chain.simplified);
    }
    let (mut ctx_syms, ctx_funs) = all_symbols(&ctx_terms);
    for &i in &ctx_defs {
        if !ctx_syms.contains(&defs[i].symbol) {
            ctx_syms.push(defs[i].symbol.clone());
        }
    }
    let ctx_switches: Vec<&(String, bool)> = cert.switches.iter().filter(|(sw, _)| ctx_syms.contains(sw)).collect();
    let (mut kernel_checked, mut from_lemmas, mut oracle) = (0, 0, 0);
    // The VC lemmas checked by Isabelle's kernel alone, and those closed by the SMT oracle.
    let (mut kernel_lemmas, mut oracle_lemmas) = (Vec::new(), Vec::new());
    if !cert.vcs.is_empty() {
        s.push_str("section \\<open>The verification conditions\\<close>\n\n");
        s.push_str("text \\<open>One context for every verification condition: its symbols, the definitions they use\n  (assumptions \\<open>d_...\\<close>, simplified once as \\<open>ds_...\\<close>) and the invariants' switches.\\<close>\n");
        s.push_str("context\n");
        s.push_str(&fixes(&ctx_syms, &ctx_funs, &sorts, &mut names));
        let mut assumes = Vec::new();
        for &i in &ctx_defs {
            let d = &defs[i];
            assumes.push(format!("d_{}: \"{} = ({})\"", ident_part(&d.symbol), names.get(&d.symbol), term(&d.chain.original, &mut names)));
        }
        for (sw, on) in &ctx_switches {
            let v = names.get(sw);
            assumes.push(format!("s_{}: \"{}{v}\"", ident_part(sw), if *on { "" } else { "\\<not> " }));
        }
        if !assumes.is_empty() {
            let _ = writeln!(s, "  assumes {}", assumes.join("\n    and "));
        }
        s.push_str("begin\n\n");
        // Each definition's simplification, over the context's fixed symbols (a lemma of its
        // own would have them schematic, and `trans` would then unify higher-order patterns
        // such as `?f 0 0 x`, which can run for minutes).
        for &i in &ctx_defs {
            let d = &defs[i];
            if def_lemma[i] {
                let (id, c) = (ident_part(&d.symbol), &d.chain);
                // `v = original` (the assumption) and `original = simplified` (the chain, on
                // the left of the equation: path `fa`).
                let rw = Rewrites::of(c, "fa", &mut names);
                let methods: Vec<String> =
                    [Some(format!("rule trans[OF d_{id}]")), rw.method(), Some("rule refl".into())].into_iter().flatten().collect();
                let _ = writeln!(s, "lemma ds_{id}: \"{} = ({})\"", names.get(&d.symbol), term(&c.simplified, &mut names));
                s.push_str(&by_methods(&rw.facts, &methods));
                s.push('\n');
            }
        }
    }
    // Each `if` split and each theory lemma is proved once, as a lemma of the context, before
    // the first VC that uses it.
    let mut split_lemmas: BTreeMap<String, String> = BTreeMap::new();
    let mut theory_facts: BTreeMap<String, String> = BTreeMap::new();
    for (vc, used) in cert.vcs.iter().zip(cones.iter().map(Vec::as_slice)) {
        let switches: Vec<&(String, bool)> = {
            let mut syms = Vec::new();
            symbols(&vc.goal.original, &mut syms);
            symbols(&vc.goal.simplified, &mut syms);
            for &i in used {
                symbols(&defs[i].chain.original, &mut syms);
                symbols(&defs[i].chain.simplified, &mut syms);
                syms.push(defs[i].symbol.clone());
            }
            ctx_switches.iter().copied().filter(|(sw, _)| syms.contains(sw)).collect()
        };
        let lemma = format!("vc_{}", ident_part(&vc.name));
        let closed_by_kernel = vc.goal.simplified == Sx::atom("false");
        // The facts as propositions, as the lemma states them, for the theory lemmas.
        // The facts the lemma search may use, each with the Isabelle fact that states it: the
        // definitions (a conjunction one conjunct at a time) and the switches.
        let mut search_facts: Vec<(Sx, String)> = Vec::new();
        for &i in used {
            let d = &defs[i];
            let (body, fact) = if def_lemma[i] { (&d.chain.simplified, "ds") } else { (&d.chain.original, "d") };
            search_facts.extend(definition_facts(&d.symbol, body, &format!("{fact}_{}", ident_part(&d.symbol))));
        }
        for (sw, on) in &switches {
            let p = if *on { Sx::atom(sw) } else { Sx::List(vec![Sx::atom("not"), Sx::atom(sw)]) };
            search_facts.push((p, format!("s_{}", ident_part(sw))));
        }
        let theory_lemmas = match lemmas {
            Some(find) if !closed_by_kernel => {
                // Atoms with `if`s inside, split into their cases first.
                let mut splits = IfSplits::new(&sorts, IF_SPLIT_LIMIT);
                let props: Option<Vec<Sx>> = search_facts.iter().map(|(p, _)| splits.formula(p)).collect();
                let goal = splits.formula(&vc.goal.simplified);
                props
                    .zip(goal)
                    .and_then(|(props, goal)| find(&props, &goal, &|sym: &str| sorts.of(sym)))
                    .and_then(|(ls, needed)| {
                        let lemmas = ls.iter().map(|l| Some((lemma_prop(l, &mut names), lemma_method::method(l, &sorts, &mut names)?)));
                        Some((lemmas.collect::<Option<Vec<_>>>()?, needed))
                    })
                    .map(|(ls, needed)| (splits.splits, ls, needed))
            }
            _ => None,
        };
        // The splits this VC needs, named; new ones proved here.
        let split_names: Vec<String> = theory_lemmas
            .iter()
            .flat_map(|(splits, _, _)| splits.iter())
            .map(|sp| {
                let prop = split_prop(sp, &mut names);
                let next = split_lemmas.len();
                if let Some(n) = split_lemmas.get(&prop) {
                    return n.clone();
                }
                let n = format!("split_{next}");
                let _ = writeln!(s, "lemma {n}: \"{prop}\"\n  by {}\n", split_proof(sp, &mut names));
                split_lemmas.insert(prop, n.clone());
                n
            })
            .collect();
        // Its theory lemmas, likewise: many VCs of a kernel need the same ones.
        let fact_names: Vec<String> = theory_lemmas
            .iter()
            .flat_map(|(_, ls, _)| ls.iter())
            .map(|(prop, method)| {
                let next = theory_facts.len();
                if let Some(n) = theory_facts.get(prop) {
                    return n.clone();
                }
                let n = format!("fact_{next}");
                let _ = writeln!(s, "lemma {n}: \"{prop}\"\n  by {method}\n");
                theory_facts.insert(prop.clone(), n.clone());
                n
            })
            .collect();
        let _ = writeln!(
            s,
            "text \\<open>{} ({}, {}, line {}:{}): {}.\\<close>",
            crate::names::text(&vc.name),
            crate::names::text(&vc.kind),
            crate::names::text(&vc.what),
            vc.line,
            vc.col,
            if closed_by_kernel {
                "simplified to False, checked by Isabelle's kernel"
            } else if theory_lemmas.is_some() {
                "closed by satx from theory lemmas that unat_arith proves, checked by Isabelle's kernel"
            } else {
                "closed by the SMT oracle on its simplified form"
            }
        );
        let _ = writeln!(s, "lemma {lemma}: \"\\<not> ({})\"", term(&vc.goal.original, &mut names));
        s.push_str("proof -\n");
        // The goal `\<not> original` is rewritten to `\<not> simplified` (path `a`), which `n` proves.
        let rw = if vc.goal.original == vc.goal.simplified { None } else { Some(Rewrites::of(&vc.goal, "a", &mut names)) };
        if let Some(rw) = &rw {
            s.push_str(&rw.facts);
        }
        let mut facts: Vec<String> = used
            .iter()
            .map(|&i| {
                let id = ident_part(&defs[i].symbol);
                if def_lemma[i] {
                    format!("ds_{id}")
                } else {
                    format!("d_{id}")
                }
            })
            .collect();
        facts.extend(switches.iter().map(|(sw, _)| format!("s_{}", ident_part(sw))));
        // Then what only the SMT oracle needs, of the simplified VC and its definitions.
        if vc.goal.simplified != Sx::atom("false") {
            let terms = std::iter::once(&vc.goal.simplified).chain(used.iter().map(|&i| &defs[i].chain.simplified));
            facts.extend(smt_facts::oracle_facts(terms).into_iter().map(String::from));
        }
        let by_kernel = closed_by_kernel || theory_lemmas.is_some();
        if closed_by_kernel {
            s.push_str("  have n: \"\\<not> False\" by simp\n");
            kernel_checked += 1;
        } else if let Some((_, _, needed)) = &theory_lemmas {
            // Only the VC's facts the refutation needs: `satx` slows with every fact it is given.
            let mut used_facts: Vec<String> = needed.iter().filter_map(|&i| search_facts.get(i).map(|(_, f)| f.clone())).collect();
            used_facts.extend(split_names.iter().cloned());
            used_facts.extend(fact_names.iter().cloned());
            // A goal false on its own (`... \\<and> False`) needs no fact at all.
            let using = if used_facts.is_empty() { String::new() } else { format!("using {} ", used_facts.join(" ")) };
            let _ = writeln!(s, "  have n: \"\\<not> ({})\"\n    {using}by satx", term(&vc.goal.simplified, &mut names));
            kernel_checked += 1;
            from_lemmas += 1;
        } else {
            let _ = writeln!(s, "  have n: \"\\<not> ({})\"\n    by (smt (z3) {})", term(&vc.goal.simplified, &mut names), facts.join(" "));
            oracle += 1;
        }
        match rw.as_ref().and_then(Rewrites::method) {
            Some(m) => {
                let _ = writeln!(s, "  show ?thesis by ({m}) (rule n)\nqed\n");
            }
            None => s.push_str("  show ?thesis by (rule n)\nqed\n\n"),
        }
        if by_kernel { &mut kernel_lemmas } else { &mut oracle_lemmas }.push(lemma);
    }
    if !cert.vcs.is_empty() {
        s.push_str("end\n\n");
    }
    // One `thm_oracles` per group, not per lemma: each traversal of a proof costs about as
    // much as a small lemma (the VCs share their theory lemmas), and a group's list shows
    // what every lemma of it depends on.
    if !kernel_lemmas.is_empty() {
        s.push_str("text \\<open>The oracles of the verification conditions checked by Isabelle's kernel alone,\n  as exported from the context (none of kpl's; in an Isabelle whose library was built\n  with \\<open>quick_and_dirty\\<close>, that library's \\<open>skip_proof\\<close>).\\<close>\n");
        let _ = writeln!(s, "thm_oracles {}\n", kernel_lemmas.join(" "));
    }
    if !oracle_lemmas.is_empty() {
        s.push_str("text \\<open>The oracles of those closed by the SMT oracle.\\<close>\n");
        let _ = writeln!(s, "thm_oracles {}\n", oracle_lemmas.join(" "));
    }
    s.push_str("end\n");
    // The oracle is declared only where a condition uses it.
    let s = s.replacen(SMT_SETUP, if oracle > 0 { "declare [[smt_oracle = true, smt_timeout = 600, z3_extensions]]\n\n" } else { "" }, 1);
    CertTheory { name, text: s, kernel_checked, from_lemmas, oracle }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(rule: &str, lhs: &str, rhs: &str, after: &str) -> Step {
        Step { rule: rule.into(), lhs: Sx::parse(lhs).unwrap(), rhs: Sx::parse(rhs).unwrap(), position: vec![], after: Sx::parse(after).unwrap() }
    }

    /// A conjunction is given to the lemma search one conjunct at a time, each reached by
    /// projections that follow how HOL nests the printed conjunction.
    #[test]
    fn a_conjunctive_definition_is_split_into_projections() {
        let f = definition_facts("r", &Sx::parse("(and a (and b c) d)").unwrap(), "ds_r");
        let got: Vec<String> = f.iter().map(|(p, n)| format!("{p} {n}")).collect();
        assert_eq!(
            got,
            [
                "(=> r a) ds_r[THEN kpl_def_imp, THEN kpl_conj_first]",
                "(=> r b) ds_r[THEN kpl_def_imp, THEN kpl_conj_rest, THEN kpl_conj_first, THEN kpl_conj_first]",
                "(=> r c) ds_r[THEN kpl_def_imp, THEN kpl_conj_rest, THEN kpl_conj_first, THEN kpl_conj_rest]",
                "(=> r d) ds_r[THEN kpl_def_imp, THEN kpl_conj_rest, THEN kpl_conj_rest]",
                "(=> (and a (and b c) d) r) ds_r[THEN kpl_def_rev]",
            ]
        );
        // Anything else is given whole.
        assert_eq!(definition_facts("x", &Sx::parse("(bvadd y z)").unwrap(), "d_x").len(), 1);
    }

    /// An explanation that wanders back to a term it passed loses the cycle: the proof
    /// replays only the steps from the last visit on, and a reversed step uses its instance the
    /// other way round.
    #[test]
    fn a_chain_that_returns_to_a_term_drops_the_cycle() {
        let c = Chain {
            original: Sx::parse("(and p q)").unwrap(),
            steps: vec![
                step("and-comm", "(and p q)", "(and q p)", "(and q p)"),
                step("and-comm", "(and p q)", "(and q p)", "(and p q)"),
                step("and-idem", "(and p q)", "(and p q)", "(and p q)"),
                step("not-not", "(not (not (and p q)))", "(and p q)", "(not (not (and p q)))"),
            ],
            simplified: Sx::parse("(not (not (and p q)))").unwrap(),
        };
        let rw = Rewrites::of(&c, "fa", &mut Names::default());
        assert_eq!(rw.facts.matches("have e").count(), 1, "{}", rw.facts);
        assert!(rw.facts.contains("by (rule rule_not_not)"), "{}", rw.facts);
        assert_eq!(rw.args.trim(), "\"fa\" e0[symmetric]");
    }
}
