//! A crosscheck's certificate (`kpl crosscheck --certify DIR`) and its checker (`kpl
//! check-cert`). The certificate holds both sources, the options that decide what is
//! compared, and every path the search explored: the input that takes it, and for each
//! output element whose two terms differ, the equality proof (`proof`'s rewrite steps from
//! each side's term; where the two ends still differ, the solver proves them equal on the
//! path). The checker re-derives everything else from the sources: it runs both sides on
//! each recorded input, symbolically (each path's condition and output terms) and in the
//! interpreter (no defect; equal bits without assumptions); replays every step with
//! `float_rules` (under only the assumptions the certificate names); asks a second solver,
//! through SMT-LIB text of its own (`float_smt`), each remaining equality and whether an
//! input outside every recorded path exists (coverage): it must answer `unsat` to both.

use crate::canon::Assumptions;
use crate::concrete;
use crate::explore::{joint_path, output_elements, slice, vars_of, PathRecord, Settled};
use crate::proof::{normalise, rule_sets, tree_size};
use kpl_certify::float_rules::{replay, RuleSet};
use kpl_certify::sexp::{of_term, to_term, Sx};
use kpl_certify::simplify::Step;
use kpl_certify::vc::{Terms, Vc};
use kpl_semantics::report::Outcome;
use kpl_semantics::{sdv, Inputs, Program};
use kpl_testgen::concolic::{self, End, ItemKind, Mode, Run};
use egg::Id;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub const FORMAT: &str = "kpl-crosscheck-certificate/1";

/// The largest term tree (nodes, sharing expanded) a proof is written for.
const MAX_TREE: usize = 200_000;

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SourceFile {
    /// The file's name (no directory): `check-cert` writes the source under it again.
    pub file: String,
    pub source: String,
    pub sha256: String,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Certificate {
    pub format: String,
    pub tool: String,
    pub kernel: SourceFile,
    /// The reference's own file (`--reference-file`), if it is not the kernel's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference_file: Option<SourceFile>,
    /// The reference function.
    pub reference: String,
    /// The options of `kpl crosscheck` that decide what is compared (the launch, the
    /// kernel, `--param`, `--array-len`, `--assume`, ...), without the file names.
    pub options: Vec<String>,
    /// The assumptions the proofs use (`--assume`).
    pub assumptions: Vec<String>,
    /// The arrays compared (the kernel's names).
    pub outputs: Vec<String>,
    /// The seed of every input value no path constraint fixes.
    pub seed: u64,
    pub paths: Vec<PathCert>,
}

/// One path: the input that takes it, and the proofs of its output elements whose terms
/// differ.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct PathCert {
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub params: BTreeMap<String, u32>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub arrays: BTreeMap<String, BTreeMap<u32, u32>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub proofs: Vec<ElementProof>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ElementProof {
    pub array: String,
    pub index: u32,
    /// `forms`: the two proofs end at one term; `solver`: at two terms the solver proves
    /// equal on the path.
    pub by: String,
    /// Steps from the kernel's term, and from the reference's.
    pub kernel: Vec<Step>,
    pub reference: Vec<Step>,
}

/// The assumptions a certificate names, or the name it uses that is none.
pub fn assumptions_of(names: &[String]) -> Result<Assumptions, String> {
    let mut a = Assumptions::default();
    for n in names {
        match n.as_str() {
            "float-reassoc" => a.reassoc = true,
            "mul-zero" => a.mul_zero = true,
            "fma" => a.fma = true,
            other => return Err(format!("unknown assumption `{other}`")),
        }
    }
    Ok(a)
}

/// What the two sides need to run: their programs, the arrays compared, the run options.
pub struct Sides<'a> {
    pub kernel: &'a Program,
    pub reference: &'a Program,
    pub outputs: &'a [String],
    pub max_steps: u64,
    pub kernel_run: &'a sdv::Options,
    pub reference_run: &'a sdv::Options,
}

impl Sides<'_> {
    fn symbolic(&self, t: &mut Terms, inputs: &Inputs) -> (Run, Run) {
        let mode = Mode { exact: true };
        let rk = concolic::run_in(self.kernel, t, inputs, self.max_steps, None, mode);
        let rr = concolic::run_in(self.reference, t, inputs, self.max_steps, None, mode);
        (rk, rr)
    }
}

fn path_input(seed: u64, p: &PathCert) -> Inputs {
    let mut inputs = Inputs::from_seed(seed);
    inputs.params = p.params.clone();
    for (a, m) in &p.arrays {
        for (i, v) in m {
            inputs.set_element(a, None, *i, *v);
        }
    }
    inputs
}

/// The proofs of the elements a recorded path settled by forms or by the solver.
fn proofs(s: &Sides, assume: Assumptions, rec: &PathRecord) -> Result<Vec<ElementProof>, String> {
    if rec.settled.is_empty() {
        return Ok(Vec::new());
    }
    let mut t = Terms::default();
    let (rk, rr) = s.symbolic(&mut t, &rec.inputs);
    let elements = output_elements(&mut t, s.kernel, s.reference, &rk, &rr, s.outputs);
    let mut out = Vec::new();
    for (array, index, how) in &rec.settled {
        let Some((_, _, a, b)) = elements.iter().find(|(n, i, ..)| n == array && i == index) else {
            return Err(format!("`{array}[{index}]` is no output of its path when run again"));
        };
        let too_big = || format!("the terms of `{array}[{index}]` are too large to write a proof of (over {MAX_TREE} nodes as trees)");
        if tree_size(&t, *a, MAX_TREE).is_none() || tree_size(&t, *b, MAX_TREE).is_none() {
            return Err(too_big());
        }
        let (na, sa) = normalise(&of_term(&t, *a), assume);
        let (nb, sb) = normalise(&of_term(&t, *b), assume);
        let by = if *how == Settled::Forms && na == nb { "forms" } else { "solver" };
        out.push(ElementProof { array: array.clone(), index: *index, by: by.into(), kernel: sa, reference: sb });
    }
    Ok(out)
}

/// The paths of a search (`Options::record`) with their inputs and proofs.
pub fn paths(s: &Sides, assume: Assumptions, records: &[PathRecord]) -> Result<Vec<PathCert>, String> {
    records
        .iter()
        .map(|rec| {
            if rec.inputs.groups.is_some() || rec.inputs.arrays.values().any(|g| !g.per_group.is_empty()) {
                return Err("an input gives a shared array's elements per group, which a certificate does not record".to_string());
            }
            Ok(PathCert {
                params: rec.inputs.params.clone(),
                arrays: rec.inputs.arrays.iter().filter(|(_, g)| !g.all.is_empty()).map(|(n, g)| (n.clone(), g.all.clone())).collect(),
                proofs: proofs(s, assume, rec)?,
            })
        })
        .collect()
}

/// What `check` found.
#[derive(Debug, Default)]
pub struct CheckReport {
    pub problems: Vec<String>,
    pub paths: usize,
    /// Paths on which both sides ran to their end and were compared.
    pub compared: usize,
    pub by_terms: usize,
    pub by_forms: usize,
    pub by_solver: usize,
    pub steps: usize,
}

/// A question for the second solver: what it decides, and the conjunction that must be
/// unsatisfiable.
struct Question {
    what: String,
    conj: Vec<Id>,
}

/// Check the certificate's paths against the two sides (re-derived from its sources).
/// `prove` asks the second solver an SMT-LIB script and gives its answers in order.
pub fn check(cert: &Certificate, s: &Sides, prove: &dyn Fn(&str) -> Result<Vec<String>, String>, progress: &dyn Fn(&str)) -> CheckReport {
    let mut r = CheckReport::default();
    let assume = match assumptions_of(&cert.assumptions) {
        Ok(a) => a,
        Err(e) => {
            r.problems.push(e);
            return r;
        }
    };
    let allowed: Vec<RuleSet> = rule_sets(assume);
    let mut t = Terms::default();
    // Each path's region (its whole condition), and the inputs a precondition excludes
    // (a path's items before a `requires` or `assume`, and that item negated).
    let mut regions: Vec<Id> = Vec::new();
    let mut questions: Vec<Question> = Vec::new();
    for (n, p) in cert.paths.iter().enumerate() {
        let at = format!("path {}", n + 1);
        progress(&format!("checking {at} of {}", cert.paths.len()));
        r.paths += 1;
        let inputs = path_input(cert.seed, p);
        let runs = concrete::run_both(s.kernel, s.reference, &inputs, s.kernel_run, s.reference_run);
        for (who, o) in [("kernel", &runs.kernel.outcome), ("reference", &runs.reference.outcome)] {
            if !matches!(o, Outcome::Ok | Outcome::Infeasible { .. }) {
                r.problems.push(format!("{at}: the {who} does not run to its end in the interpreter on the path's input ({})", outcome_word(o)));
            }
        }
        let feasible = matches!(runs.kernel.outcome, Outcome::Ok) && matches!(runs.reference.outcome, Outcome::Ok);
        if feasible && !assume.any() {
            if let Some(d) = concrete::difference(&runs, s.outputs, &inputs) {
                r.problems.push(format!("{at}: `{}[{}]` differs in the interpreter ({:#010x} and {:#010x})", d.array, d.index, d.kernel, d.reference));
            }
        }
        let (rk, rr) = s.symbolic(&mut t, &inputs);
        let path = joint_path(&rk, &rr);
        let conds: Vec<Id> = path.iter().map(|i| i.cond).collect();
        // A side that ended on its failing precondition: that item is no exclusion.
        let failing = match (&rk.end, &rr.end) {
            (End::Infeasible, _) if rk.failed_item => Some(rk.path.len() - 1),
            (End::Ok, End::Infeasible) if rr.failed_item => Some(path.len() - 1),
            _ => None,
        };
        let mut prefix = t.bool(true);
        for (k, item) in path.iter().enumerate() {
            if item.kind == ItemKind::Fixed && Some(k) != failing {
                let no = t.not(item.cond);
                let excluded = t.and(prefix, no);
                regions.push(excluded);
            }
            prefix = t.and(prefix, item.cond);
        }
        regions.push(prefix);
        match (&rk.end, &rr.end) {
            (End::Ok, End::Ok) if feasible => {
                r.compared += 1;
                check_elements(&mut r, &at, &mut t, s, &rk, &rr, &conds, p, &allowed, &mut questions);
            }
            (End::Infeasible, _) | (End::Ok, End::Infeasible) if !feasible => {}
            (k, e) => r.problems.push(format!("{at}: the symbolic runs end {k:?} and {e:?}, the interpreter's {} and {}", outcome_word(&runs.kernel.outcome), outcome_word(&runs.reference.outcome))),
        }
    }
    if r.compared == 0 {
        r.problems.push("no path runs both sides to their end: equal on no input says nothing".into());
    }
    // Coverage: no input follows none of the paths.
    let covered = regions.iter().copied().reduce(|a, b| t.or(a, b)).unwrap_or_else(|| t.bool(false));
    let outside = t.not(covered);
    questions.push(Question { what: "whether an input outside every path exists (coverage)".into(), conj: vec![outside] });
    progress(&format!("asking the second solver {} questions", questions.len()));
    let conjs: Vec<Vec<Id>> = questions.iter().map(|q| q.conj.clone()).collect();
    match prove(&kpl_certify::float_smt::script_many(&t, &conjs)) {
        Ok(answers) if answers.len() == questions.len() => {
            for (q, a) in questions.iter().zip(&answers) {
                if a != "unsat" {
                    r.problems.push(format!("{}: the second solver says `{a}`", q.what));
                }
            }
            r.by_solver = questions.len() - 1;
        }
        Ok(answers) => r.problems.push(format!("the second solver gave {} answers to {} questions", answers.len(), questions.len())),
        Err(e) => r.problems.push(format!("the second solver failed: {e}")),
    }
    r
}

fn outcome_word(o: &Outcome) -> &'static str {
    match o {
        Outcome::Ok => "ok",
        Outcome::Infeasible { .. } => "its preconditions fail",
        Outcome::Defect(_) => "a defect",
        _ => "it stops early",
    }
}

#[allow(clippy::too_many_arguments)]
fn check_elements(r: &mut CheckReport, at: &str, t: &mut Terms, s: &Sides, rk: &Run, rr: &Run, conds: &[Id], p: &PathCert, allowed: &[RuleSet], questions: &mut Vec<Question>) {
    for (array, index, a, b) in output_elements(t, s.kernel, s.reference, rk, rr, s.outputs) {
        if a == b {
            r.by_terms += 1;
            continue;
        }
        let what = format!("{at}: `{array}[{index}]`");
        let Some(pr) = p.proofs.iter().find(|e| e.array == array && e.index == index) else {
            r.problems.push(format!("{what}: the two sides' terms differ and the certificate has no proof that they are equal"));
            continue;
        };
        if tree_size(t, a, MAX_TREE).is_none() || tree_size(t, b, MAX_TREE).is_none() {
            r.problems.push(format!("{what}: the terms are too large to check a proof of"));
            continue;
        }
        r.steps += pr.kernel.len() + pr.reference.len();
        let ends = (replay(&of_term(t, a), &pr.kernel, allowed), replay(&of_term(t, b), &pr.reference, allowed));
        let (ea, eb): (Sx, Sx) = match ends {
            (Ok(x), Ok(y)) => (x, y),
            (Err(e), _) => {
                r.problems.push(format!("{what}: the kernel's proof: {e}"));
                continue;
            }
            (_, Err(e)) => {
                r.problems.push(format!("{what}: the reference's proof: {e}"));
                continue;
            }
        };
        match pr.by.as_str() {
            "forms" if ea == eb => r.by_forms += 1,
            "forms" => r.problems.push(format!("{what}: the two proofs end at different terms (`{ea}` and `{eb}`)")),
            "solver" => {
                let (x, y) = match (to_term(t, &ea), to_term(t, &eb)) {
                    (Ok(x), Ok(y)) => (x, y),
                    (Err(e), _) | (_, Err(e)) => {
                        r.problems.push(format!("{what}: {e}"));
                        continue;
                    }
                };
                let eq = t.add(Vc::Eq([x, y]));
                let ne = t.not(eq);
                let conj = slice(conds, vars_of(t, &[ne]), ne, &mut |c| vars_of(t, &[c]));
                questions.push(Question { what: format!("{what}: whether the two sides can differ on the path"), conj });
            }
            other => r.problems.push(format!("{what}: unknown kind of proof `{other}`")),
        }
    }
}
