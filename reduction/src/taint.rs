//! The choice of shared-state abstraction per array (paper, section 5.2): a flow-insensitive,
//! inter-procedural taint analysis. An array whose values may reach a branch or loop
//! condition, an array index, an assertion, assumption or invariant, or that a barrier
//! invariant reads (as GPUVerify's `ArrayControlFlowAnalyser`), gets the equality
//! abstraction, and so does an array whose values are stored into such an array; every
//! other array the
//! adversarial one, except arrays named `*_private` (the C front end's per-thread memory,
//! which a thread reads back), which get the equality abstraction: sound for any array, so
//! a user's array of that name only gets the more precise abstraction. Names are tracked
//! per proc, which may over-taint sibling scopes that reuse a name: that only picks the
//! more precise abstraction.

use crate::seq::Abstraction;
use kpl_lang::ast::*;
use std::collections::{BTreeMap, BTreeSet, HashMap};

type Key = (String, String);

struct Taint<'k> {
    kernel: &'k Kernel,
    arrays: BTreeSet<String>,
    taint: HashMap<Key, BTreeSet<String>>,
    sinks: BTreeSet<String>,
    /// Per array, the arrays whose values were stored into it: they reach whatever its
    /// values reach (a copy through memory, `memcpy`'s word by word).
    stored: HashMap<String, BTreeSet<String>>,
    changed: bool,
}

/// The abstraction of every array, by name.
pub fn choose(k: &Kernel) -> BTreeMap<String, Abstraction> {
    let arrays: BTreeSet<String> = k
        .decls
        .iter()
        .filter_map(|d| match &d.kind {
            DeclKind::Shared { name, .. } | DeclKind::Global { name, .. } => Some(name.name.clone()),
            _ => None,
        })
        .collect();
    let mut t = Taint { kernel: k, arrays: arrays.clone(), taint: HashMap::new(), sinks: BTreeSet::new(), stored: HashMap::new(), changed: true };
    while t.changed {
        t.changed = false;
        for p in &k.procs {
            t.block(&p.name.name, &p.body);
        }
        t.block("", &k.main);
        let reached: BTreeSet<String> = t.sinks.iter().filter_map(|a| t.stored.get(a)).flatten().cloned().collect();
        let before = t.sinks.len();
        t.sinks.extend(reached);
        t.changed |= t.sinks.len() != before;
    }
    arrays
        .into_iter()
        .map(|a| {
            // The C front end's private memory (`c/private.rs` names it `<var>_private`): a
            // thread reads back what it wrote, so its values are tracked (a precision
            // choice only: the equality abstraction is sound for every array).
            let private = a.ends_with("_private");
            let abs = if t.sinks.contains(&a) || private { Abstraction::Equality } else { Abstraction::Adversarial };
            (a, abs)
        })
        .collect()
}

impl Taint<'_> {
    fn of(&self, scope: &str, e: &Expr) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        e.walk(&mut |s| match &s.kind {
            ExprKind::Var(x) => {
                if let Some(t) = self.taint.get(&(scope.to_string(), x.name.clone())) {
                    out.extend(t.iter().cloned());
                }
            }
            ExprKind::Index(a, _) if self.arrays.contains(&a.name) => {
                out.insert(a.name.clone());
            }
            _ => {}
        });
        out
    }

    fn flow(&mut self, scope: &str, x: &str, t: BTreeSet<String>) {
        let e = self.taint.entry((scope.to_string(), x.to_string())).or_default();
        let before = e.len();
        e.extend(t);
        self.changed |= e.len() != before;
    }

    fn sink(&mut self, scope: &str, e: &Expr) {
        let t = self.of(scope, e);
        let before = self.sinks.len();
        self.sinks.extend(t);
        self.changed |= self.sinks.len() != before;
    }

    /// Every index inside `e` is a sink.
    fn indices(&mut self, scope: &str, e: &Expr) {
        let mut idx = Vec::new();
        e.walk(&mut |s| {
            if let ExprKind::Index(_, i) = &s.kind {
                idx.push((**i).clone());
            }
        });
        for i in idx {
            self.sink(scope, &i);
        }
    }

    fn block(&mut self, scope: &str, b: &Block) {
        for s in &b.stmts {
            self.stmt(scope, s);
        }
    }

    fn stmt(&mut self, scope: &str, s: &Stmt) {
        match &s.kind {
            StmtKind::Local(x, Some(e)) | StmtKind::Assign(x, e) => {
                self.indices(scope, e);
                let t = self.of(scope, e);
                self.flow(scope, &x.name, t);
            }
            StmtKind::Store(a, i, e) => {
                let t = self.of(scope, e);
                let into = self.stored.entry(a.name.clone()).or_default();
                let before = into.len();
                into.extend(t);
                self.changed |= into.len() != before;
                self.sink(scope, i);
                self.indices(scope, i);
                self.indices(scope, e);
            }
            // A ghost copy's values are the source's.
            StmtKind::Snapshot { dest, src } => {
                let into = self.stored.entry(dest.name.clone()).or_default();
                self.changed |= into.insert(src.name.clone());
            }
            StmtKind::If(c, t, e) => {
                self.sink(scope, c);
                self.indices(scope, c);
                self.block(scope, t);
                match e.as_deref() {
                    Some(Else::Block(b)) => self.block(scope, b),
                    Some(Else::If(s)) => self.stmt(scope, s),
                    None => {}
                }
            }
            StmtKind::While { cond, body, invariants, candidates } => {
                self.sink(scope, cond);
                self.indices(scope, cond);
                for i in invariants.iter().chain(candidates) {
                    self.sink(scope, i);
                }
                self.block(scope, body);
            }
            StmtKind::Call(f, args) => {
                let Some(p) = self.kernel.procs.iter().find(|p| p.name.name == f.name) else { return };
                let params: Vec<String> = p.params.iter().map(|x| x.name.clone()).collect();
                for (x, a) in params.iter().zip(args) {
                    self.indices(scope, a);
                    let t = self.of(scope, a);
                    self.flow(&f.name, x, t);
                }
            }
            StmtKind::Assert(e, _) | StmtKind::Assume(e) => {
                self.sink(scope, e);
                self.indices(scope, e);
            }
            StmtKind::Barrier(f) => {
                for inv in &f.invariants {
                    self.sink(scope, &inv.expr);
                    inv.insts.iter().flatten().for_each(|e| self.sink(scope, e));
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn abs(src: &str) -> BTreeMap<String, Abstraction> {
        choose(&kpl_lang::check_kpl(src).unwrap().kernel)
    }

    #[test]
    fn values_reaching_control_flow_or_addresses_get_equality() {
        let a = abs(
            "kernel k { threads: 4; shared A[4]; shared B[4]; shared C[4]; shared D[4];
               proc p(v) { if v > 0 { barrier; } }
               main { local x := A[lid]; if x > 0 { B[lid] := C[lid]; } local y := D[lid]; B[y % 4] := 1; } }",
        );
        assert_eq!(a["A"], Abstraction::Equality);
        assert_eq!(a["B"], Abstraction::Adversarial);
        assert_eq!(a["C"], Abstraction::Adversarial);
        assert_eq!(a["D"], Abstraction::Equality);
        let b = abs("kernel k { threads: 4; shared A[4]; proc p(v) { if v > 0 { } } main { p(A[lid]); } }");
        assert_eq!(b["A"], Abstraction::Equality);
        // Through memory: A's values are stored into B, which reaches an assertion.
        let c = abs("kernel k { threads: 4; shared A[4]; shared B[4]; shared C[4]; main { local x := A[lid]; B[lid] := x + 1; C[lid] := x; assert B[lid] > 0; } }");
        assert_eq!(c["A"], Abstraction::Equality);
        assert_eq!(c["B"], Abstraction::Equality);
        assert_eq!(c["C"], Abstraction::Adversarial);
    }
}
