//! The lowering to linear integer arithmetic over-approximates the words (every word model
//! is a model of the lowering, so the lowering's *unsat* proves the query's), and is exact on
//! the operations it models exactly. Checked on random ground terms against Z3's own
//! bit-vector evaluation, and on the query it is there for.

use kpl_certify::seq_to_vc::Encoding;
use kpl_certify::solve::{Answer, Session};
use kpl_certify::vc::{Terms, Vc, Word};
use kpl_certify::vc_to_lia::LiaLowering;
use kpl_certify::vc_to_z3::Lowering;
use kpl_lang::rng::Rng;
use z3::ast::{Bool, Int};
use z3::{SatResult, Solver};

const INTERESTING: [u32; 9] = [0, 1, 2, 31, 32, 0x7fff_ffff, 0x8000_0000, 0xffff_fffe, 0xffff_ffff];

fn word(r: &mut Rng) -> u32 {
    if r.chance(1, 2) {
        INTERESTING[r.below(INTERESTING.len() as u64) as usize]
    } else if r.chance(1, 2) {
        r.below(100) as u32
    } else {
        r.next_u32()
    }
}

/// A random word term of at most `depth` levels of operations over literals; `exact` says
/// whether every operation in it is one the lowering models exactly.
fn term(t: &mut Terms, r: &mut Rng, depth: u32, exact: &mut bool) -> egg::Id {
    if depth == 0 || r.chance(1, 4) {
        return t.add(Vc::Word(Word(word(r))));
    }
    let a = term(t, r, depth - 1, exact);
    // Right operands of the operations modelled for literals only: literals.
    let k = t.add(Vc::Word(Word(match r.below(4) {
        0 => r.below(40) as u32,
        1 => 0xff,
        2 => 0xffff_ffe0,
        _ => word(r),
    })));
    let b = if r.chance(1, 2) { k } else { term(t, r, depth - 1, exact) };
    let literal = b == k;
    let n = match r.below(16) {
        0 => Vc::Add([a, b]),
        1 => Vc::Sub([a, b]),
        2 => Vc::Neg([a]),
        3 => Vc::BvNot([a]),
        4 => Vc::Mul([a, b]),
        5 => Vc::Udiv([a, b]),
        6 => Vc::Urem([a, b]),
        7 => Vc::Shl([a, b]),
        8 => Vc::Lshr([a, b]),
        9 => Vc::BvAnd([a, b]),
        10 => Vc::BvOr([a, b]),
        11 => Vc::Sdiv([a, b]),
        12 => Vc::Ashr([a, b]),
        13 => {
            let c = t.add(Vc::Slt([a, b]));
            Vc::Ite([c, a, b])
        }
        14 => {
            let c = t.add(Vc::Ule([a, b]));
            Vc::Ite([c, b, a])
        }
        _ => {
            let c = t.add(Vc::Sle([b, a]));
            Vc::Ite([c, a, b])
        }
    };
    let modelled = match &n {
        Vc::Mul(_) | Vc::Udiv(_) | Vc::Urem(_) | Vc::Shl(_) | Vc::Lshr(_) => literal,
        Vc::BvAnd(_) => {
            let m = match t.node(k) {
                Vc::Word(w) => w.0 as u64,
                _ => 0,
            };
            literal && ((m + 1).is_power_of_two() || ((1u64 << 32) - m).is_power_of_two())
        }
        Vc::BvOr(_) | Vc::Sdiv(_) | Vc::Ashr(_) => false,
        _ => true,
    };
    *exact &= modelled;
    t.add(n)
}

#[test]
fn every_word_value_is_a_value_of_the_lowering_and_modelled_operations_are_exact() {
    let mut r = Rng::new(0x11a);
    let (mut exact_checked, mut checked) = (0, 0);
    for _ in 0..400 {
        let mut t = Terms::default();
        let mut exact = true;
        let id = term(&mut t, &mut r, 3, &mut exact);
        let value = Lowering::new().lower(&t, id).as_bv().and_then(|b| z3::ast::Ast::simplify(&b).as_u64()).expect("a ground word term evaluates");
        let mut low = LiaLowering::new();
        let x = low.lower(&t, id).as_int().expect("a word lowers to an integer");
        let side = low.take_side_conditions();
        let s = Solver::new();
        for c in &side {
            s.assert(c);
        }
        s.assert(&x.eq(&Int::from_u64(value)));
        assert_eq!(s.check(), SatResult::Sat, "the word value {value} is no value of the lowering of {}", t.show(id));
        checked += 1;
        if exact {
            let s = Solver::new();
            for c in &side {
                s.assert(c);
            }
            s.assert(&x.eq(&Int::from_u64(value)).not());
            assert_eq!(s.check(), SatResult::Unsat, "the lowering of {} is not exact", t.show(id));
            exact_checked += 1;
        }
    }
    assert!(exact_checked > 100 && checked - exact_checked > 50, "{exact_checked} exact of {checked}");
}

#[test]
fn a_row_per_thread_race_check_is_unsat_in_integers() {
    // i1*50257 + k == i2*50257 + j with k, j < 50257, i1 != i2 < 8192: a SAT solver takes
    // seconds; the lowering, none. And with the bound on i1 gone (a product that wraps), it
    // must not be shown unsatisfiable: 85474 * 50257 wraps to a multiple of 50257 below 2^32.
    let mut t = Terms::default();
    let v = |t: &mut Terms, n: &str| t.var(n, kpl_certify::vc::Sort::Word);
    let (i1, i2, k, j) = (v(&mut t, "i1"), v(&mut t, "i2"), v(&mut t, "k"), v(&mut t, "j"));
    let (c, n) = (t.word(50257), t.word(8192));
    let p1 = t.add(Vc::Mul([i1, c]));
    let p2 = t.add(Vc::Mul([i2, c]));
    let (a, b) = (t.add(Vc::Add([p1, k])), t.add(Vc::Add([p2, j])));
    let same = t.add(Vc::Eq([a, b]));
    let equal_ids = t.add(Vc::Eq([i1, i2]));
    let differ = t.not(equal_ids);
    let mut facts = vec![same, differ];
    for (x, bound) in [(k, c), (j, c), (i2, n)] {
        facts.push(t.add(Vc::Ult([x, bound])));
    }
    let wrapping = facts.clone();
    facts.push(t.add(Vc::Ult([i1, n])));
    let unsat_in_integers = |facts: &[egg::Id]| {
        let mut low = LiaLowering::new();
        let s = Solver::new();
        let fs: Vec<Bool> = facts.iter().map(|f| low.bool(&t, *f)).collect();
        for f in fs.iter().chain(low.take_side_conditions().iter()) {
            s.assert(f);
        }
        s.check() == SatResult::Unsat
    };
    assert!(unsat_in_integers(&facts));
    assert!(!unsat_in_integers(&wrapping));
    // Through a session, whose first bit-blasting share is short: the answer is unsat.
    let goal = facts.iter().skip(1).fold(facts[0], |acc, f| t.and(acc, *f));
    let enc = Encoding { terms: t, defs: vec![], checks: vec![], guards: vec![], candidate_fails: vec![], notes: vec![], inputs: vec![] };
    let mut s = Session::new(&enc, None);
    assert!(matches!(s.check(&[goal], &[]), Answer::Unsat));
}

#[test]
fn a_model_of_the_integers_is_taken_only_where_the_words_confirm_it() {
    // Asked in integers first: a model of `x*50257 + k == y*50257 + j` with `x != y` and
    // `k, j < 50257` (the wrapping race query) comes back as a model of the words, and so
    // does one of `x*y == 6`, which the integers leave apart (a product of two unknowns is a
    // fresh integer there): the words then find their own. Each model satisfies the goal in
    // words.
    let mut t = Terms::default();
    let v = |t: &mut Terms, n: &str| t.var(n, kpl_certify::vc::Sort::Word);
    let (x, y, k, j) = (v(&mut t, "x"), v(&mut t, "y"), v(&mut t, "k"), v(&mut t, "j"));
    let c = t.word(50257);
    let (px, py) = (t.add(Vc::Mul([x, c])), t.add(Vc::Mul([y, c])));
    let (a, b) = (t.add(Vc::Add([px, k])), t.add(Vc::Add([py, j])));
    let same = t.add(Vc::Eq([a, b]));
    let equal = t.add(Vc::Eq([x, y]));
    let differ = t.not(equal);
    let (kb, jb) = (t.add(Vc::Ult([k, c])), t.add(Vc::Ult([j, c])));
    let race = [same, differ, kb, jb].into_iter().reduce(|acc, f| t.and(acc, f)).unwrap();
    let xy = t.add(Vc::Mul([x, y]));
    let six = t.word(6);
    let product = t.add(Vc::Eq([xy, six]));
    let big = t.word(1000);
    let x_big = t.add(Vc::Ult([big, x]));
    let product = t.and(product, x_big);
    let enc = Encoding { terms: t, defs: vec![], checks: vec![], guards: vec![], candidate_fails: vec![], notes: vec![], inputs: vec![] };
    for goal in [race, product] {
        let mut s = Session::new(&enc, None);
        s.habits.integers_first = true;
        let Answer::Sat(m) = s.check(&[goal], &[]) else { panic!("{} is satisfiable", enc.terms.show(goal)) };
        assert!(s.eval_bool(&m, goal), "the model satisfies {} in words", enc.terms.show(goal));
    }
}
