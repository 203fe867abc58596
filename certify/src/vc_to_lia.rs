//! VC terms ─► linear integer arithmetic (Z3's `Int`), an over-approximation for proving
//! queries unsatisfiable where bit-blasting is slow.
//!
//! A word is its unsigned value, an integer in `[0, 2^32)`. Addition, subtraction,
//! negation, comparisons (signed ones through the two's-complement value), equality,
//! `ite`, arrays, and multiplication, division, remainder and shifts by a literal are
//! exact (a wrap is an `ite`, a product by a literal `k` is `a*k - 2^32*q` with `0 <= q < k`,
//! a quotient `q` with `a = k*q + r`); every other operation (a product of two unknowns,
//! `bvor`, signed division, ...) is a fresh integer in the word range, and uninterpreted
//! functions stay uninterpreted. Every model of a query over words is then a model of its
//! lowering (each fresh integer at the value of the operation it stands for), so a lowering
//! the solver shows unsatisfiable proves the query unsatisfiable; a model of the lowering
//! proves nothing. What bit-blasting finds hard and this does not: `i1*C + k == i2*C + j`
//! with `k, j < C`, `i1 != i2` and no wrap, the race check of a row-per-thread kernel
//! (`inp + i * C`), which for `C` = 50257 takes a SAT solver seconds.

use crate::vc::{Sort, Terms, Vc};
use egg::Id;
use z3::ast::{Array, Bool, Dynamic, Int};

/// 2^32.
const M: u64 = 1 << 32;

/// Lowers terms of one arena, each node once; the range and definition constraints of the
/// integers it makes are handed out by `take_side_conditions`.
#[derive(Default)]
pub struct LiaLowering {
    memo: crate::vc::Memo<Dynamic>,
    side: Vec<Bool>,
    fresh: usize,
}

fn int_sort(s: Sort) -> z3::Sort {
    match s {
        Sort::Bool => z3::Sort::bool(),
        Sort::Word => z3::Sort::int(),
        Sort::Array => z3::Sort::array(&z3::Sort::int(), &z3::Sort::int()),
    }
}

fn lit(v: u64) -> Int {
    Int::from_u64(v)
}

impl LiaLowering {
    pub fn new() -> LiaLowering {
        LiaLowering::default()
    }

    crate::vc::lowering_methods!();

    fn int(&mut self, t: &Terms, id: Id) -> Int {
        self.lower(t, id).as_int().unwrap_or_else(|| lit(0))
    }

    fn arr(&mut self, t: &Terms, id: Id) -> Array {
        self.lower(t, id).as_array().unwrap_or_else(|| Array::fresh_const("bad", &z3::Sort::int(), &z3::Sort::int()))
    }

    /// A fresh integer in `[lo, hi)`.
    fn fresh_in(&mut self, lo: u64, hi: u64) -> Int {
        self.fresh += 1;
        let x = Int::new_const(format!("kpl_lia!{}", self.fresh));
        self.side.push(x.ge(&lit(lo)));
        self.side.push(x.lt(&lit(hi)));
        x
    }

    /// A fresh word: what the lowering does not model.
    fn opaque(&mut self) -> Int {
        self.fresh_in(0, M)
    }

    /// `a * k mod 2^32` for a literal `k`.
    fn times(&mut self, a: &Int, k: u64) -> Int {
        if k == 0 {
            return lit(0);
        }
        if k == 1 {
            return a.clone();
        }
        let q = self.fresh_in(0, k);
        let r = Int::sub(&[Int::mul(&[a.clone(), lit(k)]), Int::mul(&[q, lit(M)])]);
        self.side.push(r.ge(&lit(0)));
        self.side.push(r.lt(&lit(M)));
        r
    }

    /// `a / k` and `a % k` for a literal `k > 0`.
    fn div_rem(&mut self, a: &Int, k: u64) -> (Int, Int) {
        if k == 1 {
            return (a.clone(), lit(0));
        }
        let q = self.fresh_in(0, M / k + 1);
        let r = self.fresh_in(0, k);
        self.side.push(a.eq(&Int::add(&[Int::mul(&[q.clone(), lit(k)]), r.clone()])));
        (q, r)
    }

    /// The two's-complement value of a word.
    fn signed(a: &Int) -> Int {
        a.ge(&lit(M / 2)).ite(&Int::sub(&[a.clone(), lit(M)]), a)
    }

    fn literal(t: &Terms, id: Id) -> Option<u64> {
        match t.node(id) {
            Vc::Word(w) => Some(w.0 as u64),
            _ => None,
        }
    }

    fn build(&mut self, t: &Terms, id: Id) -> Dynamic {
        let word = |x: Int| Dynamic::from_ast(&x);
        let boolean = |x: Bool| Dynamic::from_ast(&x);
        match t.node(id).clone() {
            Vc::Add([a, b]) => {
                let s = Int::add(&[self.int(t, a), self.int(t, b)]);
                word(s.ge(&lit(M)).ite(&Int::sub(&[s.clone(), lit(M)]), &s))
            }
            Vc::Sub([a, b]) => {
                let d = Int::sub(&[self.int(t, a), self.int(t, b)]);
                word(d.lt(&lit(0)).ite(&Int::add(&[d.clone(), lit(M)]), &d))
            }
            Vc::Neg([a]) => {
                let a = self.int(t, a);
                word(a.eq(&lit(0)).ite(&lit(0), &Int::sub(&[lit(M), a])))
            }
            Vc::BvNot([a]) => word(Int::sub(&[lit(M - 1), self.int(t, a)])),
            Vc::Mul([a, b]) => match (Self::literal(t, a), Self::literal(t, b)) {
                (Some(k), _) => {
                    let b = self.int(t, b);
                    word(self.times(&b, k))
                }
                (_, Some(k)) => {
                    let a = self.int(t, a);
                    word(self.times(&a, k))
                }
                _ => word(self.opaque()),
            },
            Vc::Shl([a, b]) => match Self::literal(t, b) {
                Some(k) if k >= 32 => word(lit(0)),
                Some(k) => {
                    let a = self.int(t, a);
                    word(self.times(&a, 1 << k))
                }
                None => word(self.opaque()),
            },
            Vc::Udiv([a, b]) | Vc::Urem([a, b]) | Vc::Lshr([a, b]) => {
                let rem = matches!(t.node(id), Vc::Urem(_));
                let k = match (t.node(id), Self::literal(t, b)) {
                    (Vc::Lshr(_), Some(s)) if s >= 32 => return word(lit(0)),
                    (Vc::Lshr(_), Some(s)) => Some(1u64 << s),
                    (_, k) => k,
                };
                match k {
                    // SMT-LIB: `a / 0` is all ones, `a % 0` is `a`.
                    Some(0) if rem => {
                        let a = self.int(t, a);
                        word(a)
                    }
                    Some(0) => word(lit(M - 1)),
                    Some(k) => {
                        let a = self.int(t, a);
                        let (q, r) = self.div_rem(&a, k);
                        word(if rem { r } else { q })
                    }
                    None => word(self.opaque()),
                }
            }
            Vc::BvAnd([a, b]) => {
                let (x, mask) = match (Self::literal(t, a), Self::literal(t, b)) {
                    (_, Some(m)) => (a, m),
                    (Some(m), _) => (b, m),
                    _ => return word(self.opaque()),
                };
                let x = self.int(t, x);
                if mask == M - 1 {
                    word(x)
                } else if (mask + 1).is_power_of_two() {
                    // The low bits: a remainder.
                    word(self.div_rem(&x, mask + 1).1)
                } else if (M - mask).is_power_of_two() {
                    // The high bits: `x` less its low bits.
                    let low = self.div_rem(&x, M - mask).1;
                    word(Int::sub(&[x, low]))
                } else {
                    word(self.opaque())
                }
            }
            Vc::Sdiv(_) | Vc::Srem(_) | Vc::Ashr(_) | Vc::BvOr(_) | Vc::BvXor(_) => word(self.opaque()),
            Vc::Ult([a, b]) => boolean(self.int(t, a).lt(&self.int(t, b))),
            Vc::Ule([a, b]) => boolean(self.int(t, a).le(&self.int(t, b))),
            Vc::Slt([a, b]) => boolean(Self::signed(&self.int(t, a)).lt(&Self::signed(&self.int(t, b)))),
            Vc::Sle([a, b]) => boolean(Self::signed(&self.int(t, a)).le(&Self::signed(&self.int(t, b)))),
            Vc::Eq([a, b]) => {
                let (a, b) = (self.lower(t, a), self.lower(t, b));
                boolean(a.eq(&b))
            }
            Vc::And([a, b]) => boolean(Bool::and(&[self.bool(t, a), self.bool(t, b)])),
            Vc::Or([a, b]) => boolean(Bool::or(&[self.bool(t, a), self.bool(t, b)])),
            Vc::Not([a]) => boolean(self.bool(t, a).not()),
            Vc::Implies([a, b]) => boolean(self.bool(t, a).implies(&self.bool(t, b))),
            Vc::Ite([c, a, b]) => {
                let c = self.bool(t, c);
                let (a, b) = (self.lower(t, a), self.lower(t, b));
                c.ite(&a, &b)
            }
            Vc::Select([a, i]) => {
                let (a, i) = (self.arr(t, a), self.int(t, i));
                let v = a.select(&i);
                // An array's elements are words.
                if let Some(x) = v.as_int() {
                    self.side.push(x.ge(&lit(0)));
                    self.side.push(x.lt(&lit(M)));
                }
                v
            }
            Vc::Store([a, i, v]) => {
                let (a, i, v) = (self.arr(t, a), self.int(t, i), self.lower(t, v));
                Dynamic::from_ast(&a.store(&i, &v))
            }
            Vc::App(f, args) => {
                let args: Vec<Dynamic> = args.iter().map(|a| self.lower(t, *a)).collect();
                let int = z3::Sort::int();
                let domain: Vec<&z3::Sort> = args.iter().map(|_| &int).collect();
                let decl = z3::FuncDecl::new(format!("{}!lia", f.as_str()), &domain, &int);
                let refs: Vec<&dyn z3::ast::Ast> = args.iter().map(|a| a as &dyn z3::ast::Ast).collect();
                let r = decl.apply(&refs);
                if let Some(x) = r.as_int() {
                    self.side.push(x.ge(&lit(0)));
                    self.side.push(x.lt(&lit(M)));
                }
                r
            }
            Vc::Word(w) => word(lit(w.0 as u64)),
            Vc::Bool(b) => boolean(Bool::from_bool(b)),
            Vc::Var(s) if t.aliases.contains_key(&s) => {
                let target = t.aliases[&s];
                self.lower(t, target)
            }
            Vc::Var(s) => {
                let sort = t.sorts.get(&s).copied().unwrap_or(Sort::Word);
                let name = format!("{}!lia", s.as_str());
                match sort {
                    Sort::Bool => boolean(Bool::new_const(name)),
                    Sort::Word => {
                        let x = Int::new_const(name);
                        self.side.push(x.ge(&lit(0)));
                        self.side.push(x.lt(&lit(M)));
                        word(x)
                    }
                    Sort::Array => Dynamic::from_ast(&Array::new_const(name, &int_sort(Sort::Word), &int_sort(Sort::Word))),
                }
            }
        }
    }
}
