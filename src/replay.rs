//! Confirming a defect: replay the witness (params, initial contents) in the SDV
//! interpreter and see whether it reports the same kind of defect at the same place.

use kpl_certify::witness::Witness;
use kpl_certify::Finding;
use kpl_lang::{Checked, Launch};
use kpl_reduction::seq::{LabelKind, Program};
use kpl_semantics::report::{Defect, Outcome};
use kpl_semantics::{sdv, Inputs};

/// The interpreter's inputs for a witness (everything it does not fix comes from seed 0).
pub fn inputs(w: &Witness) -> Inputs {
    let mut i = Inputs::from_seed(0);
    i.params = w.params.clone();
    for (array, cells) in &w.arrays {
        let given = i.arrays.entry(array.clone()).or_default();
        for ((group, index), v) in cells {
            match group {
                Some(g) => {
                    given.per_group.entry(*g).or_default().insert(*index, *v);
                }
                None => {
                    given.all.insert(*index, *v);
                }
            }
        }
    }
    i
}

pub struct ReplayOptions {
    pub inter_group: bool,
    pub benign: bool,
    pub max_steps: u64,
}

/// Does the interpreter reproduce the finding from its witness?
pub fn confirms(c: &Checked, launch: Launch, p: &Program, f: &Finding, o: &ReplayOptions) -> bool {
    if launch.total_threads() > sdv::MAX_THREADS {
        return false;
    }
    let prog = kpl_semantics::compile(&c.core, launch);
    let opts = sdv::Options { max_steps: o.max_steps, inter_group: o.inter_group, benign: o.benign, ..Default::default() };
    let r = sdv::run(&prog, inputs(&f.witness), &opts);
    let label = &p.labels[f.label];
    let at = |s: kpl_lang::Span| (s.start, s.end) == label.span;
    match (&label.kind, &r.outcome) {
        (LabelKind::Race { array, .. }, Outcome::Defect(Defect::Race { array: a, accesses, .. })) => {
            a == array && accesses.iter().any(|x| at(x.span))
        }
        (LabelKind::Divergence, Outcome::Defect(Defect::Divergence { span, .. })) => at(*span),
        (LabelKind::Assertion, Outcome::Defect(Defect::Assertion { span, invariant_of: None, .. })) => at(*span),
        (LabelKind::Invariant { .. }, Outcome::Defect(Defect::Assertion { span, invariant_of: Some(_), .. })) => at(*span),
        (LabelKind::OutOfBounds { array, .. }, Outcome::Defect(Defect::OutOfBounds { array: a, access, .. })) => {
            a == array && at(access.span)
        }
        _ => false,
    }
}
