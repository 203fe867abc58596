//! VC terms ─► Z3 terms through the `z3` crate (its thread-local context).

use crate::vc::{Sort, Terms, Vc};
use egg::Id;
use z3::ast::{Array, Bool, Dynamic, BV};

/// Lowers terms of one arena, each node once.
pub struct Lowering {
    memo: crate::vc::Memo<Dynamic>,
    /// Remainders by non-zero literals as fresh constants below the literal
    /// (`opaque_remainders`), and the bounds not yet handed out (`take_side_conditions`).
    opaque_rem: bool,
    side: Vec<Bool>,
    /// Float built-ins (`Vc::App` of their names) as IEEE 754 arithmetic (`float_z3.rs`)
    /// instead of uninterpreted functions.
    exact_floats: bool,
}

fn z3_sort(s: Sort) -> z3::Sort {
    match s {
        Sort::Bool => z3::Sort::bool(),
        Sort::Word => z3::Sort::bitvector(32),
        Sort::Array => z3::Sort::array(&z3::Sort::bitvector(32), &z3::Sort::bitvector(32)),
    }
}

impl Lowering {
    pub fn new() -> Lowering {
        Lowering { memo: crate::vc::Memo::new(), opaque_rem: false, side: Vec::new(), exact_floats: false }
    }

    /// A lowering that gives float built-ins their IEEE 754 meaning, bit for bit.
    pub fn exact_floats() -> Lowering {
        Lowering { exact_floats: true, ..Lowering::new() }
    }

    /// A lowering that knows of `x % k`, for a literal `k != 0`, only that it is below `k`:
    /// a fresh constant with that bound (`take_side_conditions`). What holds of its terms
    /// holds of the real remainders too.
    pub fn opaque_remainders() -> Lowering {
        Lowering { opaque_rem: true, ..Lowering::new() }
    }

    crate::vc::lowering_methods!();

    fn bv(&mut self, t: &Terms, id: Id) -> BV {
        self.lower(t, id).as_bv().unwrap_or_else(|| BV::from_u64(0, 32))
    }

    fn arr(&mut self, t: &Terms, id: Id) -> Array {
        self.lower(t, id).as_array().unwrap_or_else(|| Array::fresh_const("bad", &z3_sort(Sort::Word), &z3_sort(Sort::Word)))
    }

    fn build(&mut self, t: &Terms, id: Id) -> Dynamic {
        macro_rules! bv2 {
            ($a:expr, $b:expr, $m:ident) => {{
                let (a, b) = (self.bv(t, $a), self.bv(t, $b));
                Dynamic::from_ast(&a.$m(&b))
            }};
        }
        match t.node(id).clone() {
            Vc::Add([a, b]) => bv2!(a, b, bvadd),
            Vc::Sub([a, b]) => bv2!(a, b, bvsub),
            Vc::Mul([a, b]) => bv2!(a, b, bvmul),
            Vc::Udiv([a, b]) => bv2!(a, b, bvudiv),
            Vc::Urem([_, b]) if self.opaque_rem && matches!(t.node(b), Vc::Word(w) if w.0 != 0) => {
                let r = BV::new_const(format!("kpl_rem!{}", usize::from(id)), 32);
                let k = self.bv(t, b);
                self.side.push(r.bvult(&k));
                Dynamic::from_ast(&r)
            }
            Vc::Urem([a, b]) => bv2!(a, b, bvurem),
            Vc::Sdiv([a, b]) => bv2!(a, b, bvsdiv),
            Vc::Srem([a, b]) => bv2!(a, b, bvsrem),
            Vc::Shl([a, b]) => bv2!(a, b, bvshl),
            Vc::Lshr([a, b]) => bv2!(a, b, bvlshr),
            Vc::Ashr([a, b]) => bv2!(a, b, bvashr),
            Vc::BvAnd([a, b]) => bv2!(a, b, bvand),
            Vc::BvOr([a, b]) => bv2!(a, b, bvor),
            Vc::BvXor([a, b]) => bv2!(a, b, bvxor),
            Vc::Ult([a, b]) => bv2!(a, b, bvult),
            Vc::Ule([a, b]) => bv2!(a, b, bvule),
            Vc::Slt([a, b]) => bv2!(a, b, bvslt),
            Vc::Sle([a, b]) => bv2!(a, b, bvsle),
            Vc::BvNot([a]) => Dynamic::from_ast(&self.bv(t, a).bvnot()),
            Vc::Neg([a]) => Dynamic::from_ast(&self.bv(t, a).bvneg()),
            Vc::Eq([a, b]) => {
                let (a, b) = (self.lower(t, a), self.lower(t, b));
                Dynamic::from_ast(&a.eq(&b))
            }
            Vc::And([a, b]) => {
                let (a, b) = (self.bool(t, a), self.bool(t, b));
                Dynamic::from_ast(&Bool::and(&[a, b]))
            }
            Vc::Or([a, b]) => {
                let (a, b) = (self.bool(t, a), self.bool(t, b));
                Dynamic::from_ast(&Bool::or(&[a, b]))
            }
            Vc::Not([a]) => Dynamic::from_ast(&self.bool(t, a).not()),
            Vc::Implies([a, b]) => {
                let (a, b) = (self.bool(t, a), self.bool(t, b));
                Dynamic::from_ast(&a.implies(&b))
            }
            Vc::Ite([c, a, b]) => {
                let c = self.bool(t, c);
                let (a, b) = (self.lower(t, a), self.lower(t, b));
                c.ite(&a, &b)
            }
            Vc::Select([a, i]) => {
                let (a, i) = (self.arr(t, a), self.bv(t, i));
                a.select(&i)
            }
            Vc::Store([a, i, v]) => {
                let (a, i, v) = (self.arr(t, a), self.bv(t, i), self.lower(t, v));
                Dynamic::from_ast(&a.store(&i, &v))
            }
            Vc::App(f, args) if self.exact_floats && crate::float_z3::is_exact_float(f.as_str()) => {
                let words: Vec<BV> = args.iter().map(|a| self.bv(t, *a)).collect();
                let w = crate::float_z3::apply(f.as_str(), &words).unwrap_or_else(|| BV::from_u64(0, 32));
                Dynamic::from_ast(&w)
            }
            Vc::App(f, args) => {
                let args: Vec<Dynamic> = args.iter().map(|a| self.lower(t, *a)).collect();
                let word = z3_sort(Sort::Word);
                let domain: Vec<&z3::Sort> = args.iter().map(|_| &word).collect();
                let decl = z3::FuncDecl::new(f.as_str(), &domain, &word);
                let refs: Vec<&dyn z3::ast::Ast> = args.iter().map(|a| a as &dyn z3::ast::Ast).collect();
                decl.apply(&refs)
            }
            Vc::Word(w) => Dynamic::from_ast(&BV::from_u64(w.0 as u64, 32)),
            Vc::Bool(b) => Dynamic::from_ast(&Bool::from_bool(b)),
            Vc::Var(s) if t.aliases.contains_key(&s) => {
                let target = t.aliases[&s];
                self.lower(t, target)
            }
            Vc::Var(s) => {
                let sort = t.sorts.get(&s).copied().unwrap_or(Sort::Word);
                let name = s.as_str();
                match sort {
                    Sort::Bool => Dynamic::from_ast(&Bool::new_const(name)),
                    Sort::Word => Dynamic::from_ast(&BV::new_const(name, 32)),
                    Sort::Array => Dynamic::from_ast(&Array::new_const(name, &z3_sort(Sort::Word), &z3_sort(Sort::Word))),
                }
            }
        }
    }
}

impl Default for Lowering {
    fn default() -> Self {
        Lowering::new()
    }
}
