//! Inputs of a run: params and initial array contents, given explicitly (`--param`,
//! `--input IN.json`) or drawn from a seed by a documented deterministic generator.
//!
//! The generator: with `H` the 64-bit FNV-1a hash of a name and `mix` SplitMix64's output
//! function, a param `p` is the high 32 bits of `mix(seed ^ H("param p"))`; element `i` of
//! a global array `A` is the high 32 bits of `mix(mix(seed ^ H(A)) ^ i)`; element `i` of a
//! shared array `A` in group `g` (linear index) is the high 32 bits of
//! `mix(mix(seed ^ H(A)) ^ ((g + 1) << 32) ^ i)`. Elements are generated when first used, so
//! an unsized array costs only what the run touches.

use kpl_lang::rng::mix;
use serde_json::Value;
use std::collections::BTreeMap;

/// Values given for one array; everything else comes from the seed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Given {
    /// Elements for every group (global arrays; or shared arrays, the same in every group).
    pub all: BTreeMap<u32, u32>,
    /// Elements for one group of a shared array (linear group index).
    pub per_group: BTreeMap<u32, BTreeMap<u32, u32>>,
}

/// The inputs of a run.
#[derive(Clone, Debug, Default)]
pub struct Inputs {
    pub seed: u64,
    pub params: BTreeMap<String, u32>,
    pub arrays: BTreeMap<String, Given>,
    /// The groups to start, the others never (an input file's `groups`, as a witness
    /// replayed that way has it: `Options::groups`); `None`: every group.
    pub groups: Option<Vec<u32>>,
    /// The grid the input was found under (a witness of a grid the host code computes at
    /// run time): a run must be of that grid.
    pub grid: Option<[u32; 3]>,
}

pub fn fnv1a(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3))
}

impl Inputs {
    pub fn from_seed(seed: u64) -> Inputs {
        Inputs { seed, ..Inputs::default() }
    }

    /// Give one initial element (`group`: one group of a shared array; `None`: every one).
    pub fn set_element(&mut self, array: &str, group: Option<u32>, index: u32, v: u32) {
        let given = self.arrays.entry(array.to_string()).or_default();
        match group {
            Some(g) => {
                given.per_group.entry(g).or_default().insert(index, v);
            }
            None => {
                given.all.insert(index, v);
            }
        }
    }

    pub fn param(&self, name: &str) -> u32 {
        self.params
            .get(name)
            .copied()
            .unwrap_or_else(|| (mix(self.seed ^ fnv1a(&format!("param {name}"))) >> 32) as u32)
    }

    /// The initial value of an element (`group` is `None` for a global array).
    pub fn element(&self, array: &str, group: Option<u32>, index: u32) -> u32 {
        if let Some(given) = self.arrays.get(array) {
            if let Some(v) = group.and_then(|g| given.per_group.get(&g)).and_then(|m| m.get(&index)) {
                return *v;
            }
            if let Some(v) = given.all.get(&index) {
                return *v;
            }
        }
        self.generator(array, group)(index)
    }

    /// The initial values of elements `0..n`, each as `element` gives it (in one pass).
    pub fn contents(&self, array: &str, group: Option<u32>, n: u32) -> Vec<u32> {
        let mut out: Vec<u32> = (0..n).map(self.generator(array, group)).collect();
        if let Some(given) = self.arrays.get(array) {
            let one = group.and_then(|g| given.per_group.get(&g));
            for (&i, &v) in given.all.range(..n).chain(one.into_iter().flat_map(|m| m.range(..n))) {
                out[i as usize] = v;
            }
        }
        out
    }

    /// The seeded generator of an array's elements (of one group's, for a shared array).
    fn generator(&self, array: &str, group: Option<u32>) -> impl Fn(u32) -> u32 {
        let base = mix(self.seed ^ fnv1a(array));
        let g = group.map(|g| (g as u64 + 1) << 32).unwrap_or(0);
        move |index| (mix(base ^ g ^ index as u64) >> 32) as u32
    }

    /// The arbitrary value a `havoc` gives: the `n`-th havoc thread `t` performs, at
    /// statement `stmt` (the same in every interpreter, since a thread performs its
    /// havocs in program order in each).
    pub fn havoc_value(&self, stmt: u32, t: &crate::report::ThreadId, n: u32) -> u32 {
        let who = t.group.iter().chain(&t.local).fold(0u64, |h, &x| mix(h ^ x as u64));
        (mix(mix(self.seed ^ 0x6861_766f_63u64) ^ who ^ ((stmt as u64) << 32 | n as u64)) >> 32) as u32
    }

    /// Read `{"params": {...}, "arrays": {...}}` (CLI.md's witness format). An array is a
    /// list (elements from 0), an object from index to value, or, for a shared array, a
    /// list of such per group. Values may be numbers (negative ones wrap) or "0x.." strings.
    /// `"groups": [g, ...]`, where a witness has it, starts only those groups; `"grid": [x,
    /// y, z]` is the grid it was found under.
    pub fn merge_json(&mut self, text: &str) -> Result<(), String> {
        let v: Value = serde_json::from_str(text).map_err(|e| format!("not valid JSON: {e}"))?;
        let obj = v.as_object().ok_or("the input must be a JSON object with `params` and `arrays`")?;
        for key in obj.keys() {
            if !["params", "arrays", "groups", "grid"].contains(&key.as_str()) {
                return Err(format!("unknown key `{key}` (expected `params`, `arrays`, `groups` and `grid`)"));
            }
        }
        if let Some(g) = obj.get("grid") {
            let g = g.as_array().filter(|g| g.len() == 3).ok_or("`grid` must be a list of three sizes")?;
            let g: Result<Vec<u32>, String> = g.iter().map(|x| word(x).map_err(|e| format!("`grid`: {e}"))).collect();
            let g = g?;
            self.grid = Some([g[0], g[1], g[2]]);
        }
        if let Some(gs) = obj.get("groups") {
            let gs = gs.as_array().ok_or("`groups` must be a list of group indices")?;
            let gs: Result<Vec<u32>, String> = gs.iter().map(|g| word(g).map_err(|e| format!("`groups`: {e}"))).collect();
            self.groups = Some(gs?);
        }
        if let Some(ps) = obj.get("params") {
            let ps = ps.as_object().ok_or("`params` must be an object of name: value")?;
            for (k, v) in ps {
                self.params.insert(k.clone(), word(v).map_err(|e| format!("param `{k}`: {e}"))?);
            }
        }
        if let Some(arrs) = obj.get("arrays") {
            let arrs = arrs.as_object().ok_or("`arrays` must be an object of name: contents")?;
            for (k, v) in arrs {
                let g = self.arrays.entry(k.clone()).or_default();
                fill(g, v).map_err(|e| format!("array `{k}`: {e}"))?;
            }
        }
        Ok(())
    }
}

fn word(v: &Value) -> Result<u32, String> {
    if let Some(n) = v.as_u64() {
        return u32::try_from(n).map_err(|_| format!("{n} does not fit in 32 bits"));
    }
    if let Some(n) = v.as_i64() {
        return i32::try_from(n).map(|x| x as u32).map_err(|_| format!("{n} does not fit in 32 bits"));
    }
    if let Some(s) = v.as_str() {
        let t = s.trim();
        let r = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
            Some(h) => u32::from_str_radix(h, 16),
            None => t.parse::<u32>(),
        };
        return r.map_err(|_| format!("`{s}` is not a 32-bit number"));
    }
    Err(format!("`{v}` is not a 32-bit number"))
}

fn elements(v: &Value) -> Result<BTreeMap<u32, u32>, String> {
    // (Collected at once: a map built from sorted keys in bulk, not element by element.)
    match v {
        Value::Array(xs) => xs.iter().enumerate().map(|(i, x)| Ok((i as u32, word(x)?))).collect(),
        Value::Object(m) => m
            .iter()
            .map(|(k, x)| Ok((k.parse().map_err(|_| format!("index `{k}` is not a number"))?, word(x)?)))
            .collect(),
        _ => Err("expected a list or an object of index: value".into()),
    }
}

fn fill(g: &mut Given, v: &Value) -> Result<(), String> {
    if let Value::Array(xs) = v {
        if xs.first().is_some_and(|x| x.is_array() || x.is_object()) {
            for (gi, x) in xs.iter().enumerate() {
                g.per_group.insert(gi as u32, elements(x)?);
            }
            return Ok(());
        }
    }
    let given = elements(v)?;
    if g.all.is_empty() {
        g.all = given;
    } else {
        g.all.extend(given);
    }
    Ok(())
}

/// The params a top-level `requires` sets equal to a constant (`p == c` or `c == p`, as
/// `--kernel-args` gives them): a run takes these values unless told others.
pub fn pinned_params(prog: &crate::Program) -> Vec<(String, u32)> {
    use kpl_lang::ast::BinOp;
    use crate::ir::Ex;
    prog.requires
        .iter()
        .filter_map(|(e, _)| match e {
            Ex::Bin(BinOp::Eq, a, b) => match (&**a, &**b) {
                (Ex::Param(i), Ex::Const(c)) | (Ex::Const(c), Ex::Param(i)) => Some((prog.params.get(*i as usize)?.clone(), *c)),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeded_values_are_deterministic_and_overridable() {
        let mut i = Inputs::from_seed(1);
        let a = i.element("A", None, 5);
        assert_eq!(a, Inputs::from_seed(1).element("A", None, 5));
        assert_ne!(i.element("A", Some(0), 5), i.element("A", Some(1), 5));
        i.merge_json(r#"{"params": {"n": -1}, "arrays": {"A": {"5": "0x10"}, "S": [[1], [2]]}}"#).unwrap();
        assert_eq!(i.param("n"), u32::MAX);
        assert_eq!(i.element("A", None, 5), 16);
        assert_eq!(i.element("S", Some(1), 0), 2);
        for (name, group) in [("A", None), ("S", Some(1)), ("S", Some(0)), ("B", Some(3))] {
            let each: Vec<u32> = (0..8).map(|k| i.element(name, group, k)).collect();
            assert_eq!(i.contents(name, group, 8), each, "{name} {group:?}");
        }
        assert!(i.merge_json(r#"{"params": {"n": 5000000000}}"#).is_err());
        assert!(i.merge_json(r#"{"nope": 1}"#).is_err());
    }
}
