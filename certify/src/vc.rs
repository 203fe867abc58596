//! The verification-condition language: terms over 32-bit words, booleans and arrays from
//! words to words, as an `egg::Language` (so the e-graph simplifier works on it directly),
//! with SMT-LIB 2 spellings, and a hash-consed arena of terms.

use egg::{define_language, Id, Language, RecExpr, Symbol};
use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;

pub use kpl_reduction::seq::Sort;

/// A 32-bit literal, written as SMT-LIB's `#x0000002a`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Word(pub u32);

impl FromStr for Word {
    type Err = ();
    fn from_str(s: &str) -> Result<Word, ()> {
        let h = s.strip_prefix("#x").ok_or(())?;
        if h.len() != 8 {
            return Err(());
        }
        u32::from_str_radix(h, 16).map(Word).map_err(|_| ())
    }
}

impl fmt::Display for Word {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#x{:08x}", self.0)
    }
}

define_language! {
    /// A VC term. Sorts: `Word` (32-bit), `Bool`, `Array` (Word to Word).
    pub enum Vc {
        "bvadd" = Add([Id; 2]),
        "bvsub" = Sub([Id; 2]),
        "bvmul" = Mul([Id; 2]),
        "bvudiv" = Udiv([Id; 2]),
        "bvurem" = Urem([Id; 2]),
        "bvsdiv" = Sdiv([Id; 2]),
        "bvsrem" = Srem([Id; 2]),
        "bvshl" = Shl([Id; 2]),
        "bvlshr" = Lshr([Id; 2]),
        "bvashr" = Ashr([Id; 2]),
        "bvand" = BvAnd([Id; 2]),
        "bvor" = BvOr([Id; 2]),
        "bvxor" = BvXor([Id; 2]),
        "bvnot" = BvNot([Id; 1]),
        "bvneg" = Neg([Id; 1]),
        "bvult" = Ult([Id; 2]),
        "bvule" = Ule([Id; 2]),
        "bvslt" = Slt([Id; 2]),
        "bvsle" = Sle([Id; 2]),
        "=" = Eq([Id; 2]),
        "and" = And([Id; 2]),
        "or" = Or([Id; 2]),
        "not" = Not([Id; 1]),
        "=>" = Implies([Id; 2]),
        "ite" = Ite([Id; 3]),
        "select" = Select([Id; 2]),
        "store" = Store([Id; 3]),
        Word(Word),
        Bool(bool),
        Var(Symbol),
        // An uninterpreted function from words to a word: `(fadd a b)`.
        App(Symbol, Vec<Id>),
    }
}

impl Vc {
    /// The sort of a node, given its children's sorts (`Var`s need the table).
    pub fn sort(&self, child: impl Fn(Id) -> Sort, vars: &HashMap<Symbol, Sort>) -> Sort {
        match self {
            Vc::Word(_) => Sort::Word,
            Vc::Bool(_) => Sort::Bool,
            Vc::Var(s) => vars.get(s).copied().unwrap_or(Sort::Word),
            Vc::Ult(_) | Vc::Ule(_) | Vc::Slt(_) | Vc::Sle(_) | Vc::Eq(_) | Vc::And(_) | Vc::Or(_) | Vc::Not(_) => Sort::Bool,
            Vc::Implies(_) => Sort::Bool,
            Vc::Ite([_, a, _]) => child(*a),
            Vc::Select(_) => Sort::Word,
            Vc::Store(_) => Sort::Array,
            Vc::App(..) => Sort::Word,
            _ => Sort::Word,
        }
    }
}

/// A hash-consed arena of terms with the sorts of their variables.
#[derive(Clone, Default)]
pub struct Terms {
    pub expr: RecExpr<Vc>,
    memo: HashMap<Vc, Id>,
    pub sorts: HashMap<Symbol, Sort>,
    /// Symbols defined by a term elsewhere (inlined definitions): evaluating a symbol in
    /// a model means evaluating its term.
    pub aliases: HashMap<Symbol, Id>,
}

impl Terms {
    pub fn add(&mut self, n: Vc) -> Id {
        if let Some(&id) = self.memo.get(&n) {
            return id;
        }
        let id = self.expr.add(n.clone());
        self.memo.insert(n, id);
        id
    }
    pub fn var(&mut self, name: &str, sort: Sort) -> Id {
        let s = Symbol::from(name);
        self.sorts.insert(s, sort);
        self.add(Vc::Var(s))
    }
    pub fn word(&mut self, w: u32) -> Id {
        self.add(Vc::Word(Word(w)))
    }
    pub fn bool(&mut self, b: bool) -> Id {
        self.add(Vc::Bool(b))
    }
    pub fn node(&self, id: Id) -> &Vc {
        &self.expr[id]
    }
    pub fn and(&mut self, a: Id, b: Id) -> Id {
        match (self.node(a), self.node(b)) {
            (Vc::Bool(true), _) => b,
            (_, Vc::Bool(true)) => a,
            (Vc::Bool(false), _) | (_, Vc::Bool(false)) => self.bool(false),
            _ if a == b => a,
            _ => self.add(Vc::And([a, b])),
        }
    }
    pub fn or(&mut self, a: Id, b: Id) -> Id {
        match (self.node(a), self.node(b)) {
            (Vc::Bool(false), _) => b,
            (_, Vc::Bool(false)) => a,
            (Vc::Bool(true), _) | (_, Vc::Bool(true)) => self.bool(true),
            _ if a == b => a,
            _ => self.add(Vc::Or([a, b])),
        }
    }
    pub fn not(&mut self, a: Id) -> Id {
        match self.node(a) {
            Vc::Bool(b) => {
                let b = !*b;
                self.bool(b)
            }
            Vc::Not([x]) => *x,
            _ => self.add(Vc::Not([a])),
        }
    }
    pub fn implies(&mut self, a: Id, b: Id) -> Id {
        match (self.node(a), self.node(b)) {
            (Vc::Bool(true), _) => b,
            (Vc::Bool(false), _) | (_, Vc::Bool(true)) => self.bool(true),
            _ => self.add(Vc::Implies([a, b])),
        }
    }
    pub fn sort_of(&self, id: Id) -> Sort {
        self.expr[id].sort(|c| self.sort_of(c), &self.sorts)
    }

    /// The term rooted at `id` as an s-expression (subterms printed in full).
    pub fn show(&self, id: Id) -> String {
        let mut out = String::new();
        self.write(id, &mut out);
        out
    }

    fn write(&self, id: Id, out: &mut String) {
        let n = &self.expr[id];
        if n.is_leaf() {
            out.push_str(&n.to_string());
            return;
        }
        out.push('(');
        out.push_str(&n.to_string());
        for c in n.children() {
            out.push(' ');
            self.write(*c, out);
        }
        out.push(')');
    }

    /// The sub-DAG rooted at `id` as its own `RecExpr` (for the simplifier and certificates).
    pub fn extract(&self, id: Id) -> RecExpr<Vc> {
        let mut out = RecExpr::default();
        let mut map: HashMap<Id, Id> = HashMap::new();
        self.copy(id, &mut out, &mut map);
        out
    }

    fn copy(&self, id: Id, out: &mut RecExpr<Vc>, map: &mut HashMap<Id, Id>) -> Id {
        if let Some(&m) = map.get(&id) {
            return m;
        }
        let n = self.expr[id].clone().map_children(|c| self.copy(c, out, map));
        let new = out.add(n);
        map.insert(id, new);
        new
    }

    /// Number of distinct nodes reachable from `roots`.
    pub fn size(&self, roots: &[Id]) -> usize {
        self.reachable(roots).len()
    }

    /// Every node reachable from `roots`, each once.
    pub fn reachable(&self, roots: &[Id]) -> Vec<Id> {
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        let mut stack: Vec<Id> = roots.to_vec();
        while let Some(i) = stack.pop() {
            if seen.insert(i) {
                out.push(i);
                stack.extend(self.expr[i].children().iter().copied());
            }
        }
        out
    }

    /// Does a term of `roots` apply a function (`Vc::App`: a float operation)?
    pub fn applies_function(&self, roots: &[Id]) -> bool {
        self.reachable(roots).iter().any(|&n| matches!(self.expr[n], Vc::App(..)))
    }
}

/// A value per node of an arena, each computed once (the lowerings to Z3, `vc_to_z3` and
/// `vc_to_lia`).
pub struct Memo<T>(Vec<Option<T>>);

impl<T: Clone> Memo<T> {
    pub fn new() -> Memo<T> {
        Memo(Vec::new())
    }
    /// The value of `id`, if computed (the memo grows with the arena).
    pub fn get(&mut self, t: &Terms, id: Id) -> Option<T> {
        if self.0.len() < t.expr.as_ref().len() {
            self.0.resize(t.expr.as_ref().len(), None);
        }
        self.0[usize::from(id)].clone()
    }
    pub fn set(&mut self, id: Id, v: T) {
        self.0[usize::from(id)] = Some(v);
    }
}

impl<T: Clone> Default for Memo<T> {
    fn default() -> Memo<T> {
        Memo::new()
    }
}

/// The methods the lowerings to Z3 share (`vc_to_z3`, `vc_to_lia`), for a struct with a
/// `memo: Memo<Dynamic>`, a `side: Vec<Bool>` and a `build(&mut self, &Terms, Id) -> Dynamic`.
macro_rules! lowering_methods {
    () => {
        /// The side conditions of what was lowered since the last call (bounds of fresh
        /// constants, definitions of quotients), to be asserted with it.
        pub fn take_side_conditions(&mut self) -> Vec<Bool> {
            std::mem::take(&mut self.side)
        }

        pub fn bool(&mut self, t: &Terms, id: Id) -> Bool {
            self.lower(t, id).as_bool().unwrap_or_else(|| Bool::from_bool(false))
        }

        /// The term `id`, lowered once.
        pub fn lower(&mut self, t: &Terms, id: Id) -> Dynamic {
            if let Some(d) = self.memo.get(t, id) {
                return d;
            }
            let d = self.build(t, id);
            self.memo.set(id, d.clone());
            d
        }
    };
}
pub(crate) use lowering_methods;
