//! The soundness cross-check: generated race-free kernels with one injected defect (a
//! barrier removed, an index shifted, a guard dropped). Whenever the interpreter finds a
//! defect on some input, the verifier must not say *verified* (CLAUDE's oracle: `kpl run`
//! finding a defect means `kpl verify` must not prove the kernel).

use kpl_certify::verify::{verify, Options, Outcome as Verdict};
use kpl_lang::ast::*;
use kpl_lang::generate::generate;
use kpl_lang::printer::print_kernel;
use kpl_lang::{check_kpl, Launch};
use kpl_semantics::{compile, run, Inputs, Outcome};
use std::time::Duration;

#[derive(Clone, Copy, Debug)]
enum Mutation {
    RemoveBarrier,
    ShiftIndex,
    DropGuard,
    /// A warp collective (the operation and mask chosen by the number) under `lid.x != K`,
    /// at the top of a branch (or of `main`): divergent when the mask names lane K.
    AddWarp(u64),
    /// An atomic on a new global array, of `group` or `device` scope (chosen by the
    /// number), at one element or at the group's: a scoped race when a `group` atomic's
    /// element is shared by two groups.
    AddAtomic(u64),
}

/// `local atN := atomic SCOPE add(AT[INDEX], 1);` for the mutation number `n`, with the
/// declaration of `AT` (one element per group).
fn scoped_atomic(n: u64, groups: u64) -> (Decl, Stmt) {
    let sp = kpl_lang::Span::DUMMY;
    let scope = [FenceScope::Group, FenceScope::Device, FenceScope::Group, FenceScope::System][(n % 4) as usize];
    let gid = Expr::new(ExprKind::Special(Special::Gid, Axis::X, false), sp);
    let index = if n / 4 % 2 == 0 { Expr::num(0, sp) } else { gid };
    let array = Ident { name: "AT".into(), span: sp };
    let decl = Decl { kind: DeclKind::Global { name: array.clone(), size: Some((groups.max(1), sp)) }, span: sp };
    let a = Atomic {
        dest: Some(Ident { name: format!("at{n}"), span: sp }),
        dest_hi: None,
        declare: true,
        op: Ident { name: "add".into(), span: sp },
        array,
        index,
        args: vec![Expr::num(1, sp)],
        scope,
    };
    (decl, Stmt { kind: StmtKind::Atomic(a), span: sp })
}

/// `if lid.x != K { local wcN := warp OP(...); }` for the mutation number `n`.
fn warp_collective(n: u64) -> Stmt {
    let sp = kpl_lang::Span::DUMMY;
    let op = WarpOp::ALL[(n % WarpOp::ALL.len() as u64) as usize];
    let mask = Expr::num([0xffff_ffff, 0xf, 0x5555_5555][(n / 8 % 3) as usize], sp);
    let lid = Expr::new(ExprKind::Special(Special::Lid, Axis::X, false), sp);
    let args = match op.arity() {
        4 => vec![mask, lid, Expr::num(n % 5, sp), Expr::num([0, 4, 32][(n % 3) as usize], sp)],
        2 => vec![mask, Expr::new(ExprKind::Binary(BinOp::Rem, Box::new(lid), Box::new(Expr::num(2, sp))), sp)],
        1 => vec![mask],
        _ => vec![],
    };
    let dest = Ident { name: format!("wc{n}"), span: sp };
    let w = Warp { dest: Some(dest), declare: true, op: Ident { name: op.name().into(), span: sp }, args, exited: None };
    let lid = Expr::new(ExprKind::Special(Special::Lid, Axis::X, false), sp);
    let skip = Expr::new(ExprKind::Binary(BinOp::Ne, Box::new(lid), Box::new(Expr::num(n / 24 % 4, sp))), sp);
    let body = Block { stmts: vec![Stmt { kind: StmtKind::Warp(w), span: sp }], span: sp };
    Stmt { kind: StmtKind::If(skip, body, None), span: sp }
}

/// Apply `m` to the `nth` statement it applies to (in source order); false if none.
fn mutate(b: &mut Block, m: Mutation, nth: &mut usize) -> bool {
    let mut i = 0;
    while i < b.stmts.len() {
        let hit = match (&b.stmts[i].kind, m) {
            (StmtKind::Barrier(_), Mutation::RemoveBarrier) | (StmtKind::Store(..), Mutation::ShiftIndex) => true,
            (StmtKind::If(..), Mutation::DropGuard | Mutation::AddWarp(_)) => true,
            _ => false,
        };
        if hit && *nth == 0 {
            if let (StmtKind::If(_, t, _), Mutation::AddWarp(n)) = (&mut b.stmts[i].kind, m) {
                t.stmts.insert(0, warp_collective(n));
                return true;
            }
            let s = b.stmts.remove(i);
            match (s.kind, m) {
                (StmtKind::Store(a, idx, e), _) => {
                    let span = idx.span;
                    let shifted = Expr::new(ExprKind::Binary(BinOp::Add, Box::new(idx), Box::new(Expr::num(1, span))), span);
                    b.stmts.insert(i, Stmt { kind: StmtKind::Store(a, shifted, e), span: s.span });
                }
                (StmtKind::If(_, t, _), _) => {
                    for (k, st) in t.stmts.into_iter().enumerate() {
                        b.stmts.insert(i + k, st);
                    }
                }
                _ => {}
            }
            return true;
        }
        if hit {
            *nth -= 1;
        }
        let done = match &mut b.stmts[i].kind {
            StmtKind::If(_, t, e) => {
                mutate(t, m, nth)
                    || match e.as_deref_mut() {
                        Some(Else::Block(eb)) => mutate(eb, m, nth),
                        Some(Else::If(s)) => {
                            let mut one = Block { stmts: vec![s.clone()], span: s.span };
                            let r = mutate(&mut one, m, nth);
                            if r {
                                *e = Some(Box::new(Else::Block(one)));
                            }
                            r
                        }
                        None => false,
                    }
            }
            StmtKind::While { body, .. } => mutate(body, m, nth),
            _ => false,
        };
        if done {
            return true;
        }
        i += 1;
    }
    false
}

fn mutant(k: &Kernel, m: Mutation, nth: usize) -> Option<Kernel> {
    let mut k = k.clone();
    if let Mutation::AddAtomic(n) = m {
        let (decl, atomic) = scoped_atomic(n, Launch::of(&k).groups.iter().product::<u32>() as u64);
        k.decls.push(decl);
        k.main.stmts.insert(0, atomic);
        return Some(k);
    }
    let mut n = nth;
    for p in &mut k.procs {
        if mutate(&mut p.body, m, &mut n) {
            return Some(k);
        }
    }
    if mutate(&mut k.main, m, &mut n) {
        return Some(k);
    }
    if let Mutation::AddWarp(n) = m {
        k.main.stmts.insert(0, warp_collective(n));
        return Some(k);
    }
    None
}

/// Options that narrow what is checked, the same on both sides of the oracle.
#[derive(Clone, Debug, Default)]
struct Narrowing {
    only_intra_group: bool,
    only_divergence: bool,
    benign: bool,
    /// `/checkArrays:` with the kernel's first array only.
    first_array_only: bool,
    /// `--equality-abstraction` (and `--asymmetric-asserts`): how the verifier proves, not
    /// what a defect is; the run is unchanged.
    equality: bool,
}

/// Mutants of the generated kernels of `seeds`, run and verified with the warp size
/// `warp(seed)` gives (`None`: no warp-synchronous mode) and loops proved by
/// `k_induction` (0: plain induction); asserts the oracle and gives (mutants checked,
/// mutants the interpreter finds defective).
fn cross_check(seeds: std::ops::Range<u64>, warp: impl Fn(u64) -> Option<u32>, k_induction: u32) -> (usize, usize) {
    cross_check_narrowed(seeds, warp, k_induction, |_| Narrowing::default())
}

fn cross_check_narrowed(seeds: std::ops::Range<u64>, warp: impl Fn(u64) -> Option<u32>, k_induction: u32, narrow: impl Fn(u64) -> Narrowing) -> (usize, usize) {
    let (mut checked, mut defective) = (0, 0);
    for seed in seeds {
        let base = generate(seed);
        let warp_sync = warp(seed);
        let mutations = [Mutation::RemoveBarrier, Mutation::ShiftIndex, Mutation::DropGuard, Mutation::AddWarp(seed), Mutation::AddAtomic(seed)];
        for (j, m) in mutations.into_iter().enumerate() {
            let Some(k) = mutant(&base, m, (seed as usize + j) % 3) else { continue };
            let text = print_kernel(&k);
            let Ok(c) = check_kpl(&text) else { continue };
            let launch = Launch::of(&c.kernel);
            let prog = compile(&c.core, launch);
            let n = narrow(seed);
            let first = c.kernel.decls.iter().find_map(|d| match &d.kind {
                DeclKind::Shared { name, .. } | DeclKind::Global { name, .. } => Some(name.name.clone()),
                _ => None,
            });
            let check_arrays = if n.first_array_only { Some(first.into_iter().collect::<Vec<_>>()) } else { None };
            let race_arrays = if n.only_divergence { Some(Vec::new()) } else { check_arrays.clone() };
            let found = [seed, seed ^ 0xABCD].into_iter().find_map(|s| {
                let opts = kpl_semantics::Options {
                    max_steps: 2_000_000,
                    warp_sync,
                    inter_group: !n.only_intra_group,
                    benign: n.benign,
                    race_arrays: race_arrays.clone(),
                    ..Default::default()
                };
                match run(&prog, Inputs::from_seed(s), &opts).outcome {
                    Outcome::Defect(d) => Some(d.kind()),
                    _ => None,
                }
            });
            checked += 1;
            let Some(kind) = found else { continue };
            defective += 1;
            let opts = Options {
                timeout: Some(Duration::from_secs(20)),
                warp_sync,
                k_induction,
                only_intra_group: n.only_intra_group,
                only_divergence: n.only_divergence,
                benign: n.benign,
                check_arrays,
                abstraction: if n.equality { kpl_reduction::AbstractionChoice::Equality } else { kpl_reduction::AbstractionChoice::Auto },
                asymmetric_asserts: n.equality,
                ..Options::new(launch)
            };
            let r = verify(&c.core, &opts, &|_| {});
            assert!(
                r.outcome != Verdict::Verified,
                "UNSOUND: generated kernel {seed} with {m:?} has a {kind} in `kpl run` (warp-sync {warp_sync:?}, k-induction {k_induction}, {n:?}) but was verified:\n{text}"
            );
        }
    }
    (checked, defective)
}

#[test]
fn no_kernel_the_interpreter_finds_defective_is_verified() {
    // `KPL_SOUNDNESS_SEEDS=N` widens the sweep (a developer's longer run).
    let seeds = std::env::var("KPL_SOUNDNESS_SEEDS").ok().and_then(|s| s.parse().ok()).unwrap_or(60);
    let (checked, defective) = cross_check(0..seeds, |_| None, 0);
    assert!(checked >= 100, "only {checked} mutants checked");
    assert!(defective >= 30, "only {defective} mutants are defective: the mutations no longer inject defects");
}

#[test]
fn no_kernel_the_interpreter_finds_defective_is_verified_in_warp_synchronous_mode() {
    // The same oracle under GPUVerify's `--warp-sync`: warps of 2 and 4 threads.
    let (checked, defective) = cross_check(0..40, |seed| Some(if seed % 2 == 0 { 2 } else { 4 }), 0);
    assert!(checked >= 60, "only {checked} mutants checked");
    assert!(defective >= 15, "only {defective} mutants are defective in warp-synchronous mode");
}

#[test]
fn no_kernel_the_interpreter_finds_defective_is_verified_by_k_induction() {
    // The same oracle with every loop proved by 2-induction (`--k-induction-depth=2`): its
    // base case, step and their join after the loop.
    let (checked, defective) = cross_check(0..40, |_| None, 2);
    assert!(checked >= 60, "only {checked} mutants checked");
    assert!(defective >= 15, "only {defective} mutants are defective");
}

#[test]
fn no_kernel_the_interpreter_finds_defective_is_verified_under_narrowing_options() {
    // The same oracle with the options that narrow what is checked, each on both sides:
    // `--only-intra-group`, `--only-divergence`, benign tolerance, `/checkArrays:`; and the
    // equality abstraction with asymmetric assertions.
    let narrow = |seed: u64| match seed % 5 {
        0 => Narrowing { only_intra_group: true, ..Narrowing::default() },
        1 => Narrowing { only_divergence: true, ..Narrowing::default() },
        2 => Narrowing { benign: true, ..Narrowing::default() },
        3 => Narrowing { first_array_only: true, ..Narrowing::default() },
        _ => Narrowing { equality: true, ..Narrowing::default() },
    };
    let (checked, defective) = cross_check_narrowed(0..std::env::var("KPL_SOUNDNESS_SEEDS").ok().and_then(|s| s.parse().ok()).unwrap_or(60), |_| None, 0, narrow);
    assert!(checked >= 70, "only {checked} mutants checked");
    assert!(defective >= 15, "only {defective} mutants are defective under the narrowing options");
}
