//! Locals of host code that a loop gives each value of a constant array, on the token
//! stream: `int sizes[] = {32, 64, 128}; for (int j = 0; j < sizeof(sizes) / sizeof(int);
//! j++) { int block_size = sizes[j]; ... k<<<g, block_size>>>(...); }`, as benchmarks and
//! tests launch a kernel at each of several sizes. Each such local (`block_size`) is a
//! constant in each of the loop's iterations; `forks` gives the function's environments,
//! one per iteration (per combination, for several loops), so each launch is read with each
//! of its sizes. The array must be a local of the function initialised with constants and
//! only indexed, measured (`sizeof`) or ranged over by value after; the loop must count its
//! variable by one from a constant start up to a constant bound (or the array's length) and
//! change it nowhere else. A range-`for` over such an array or a braced list of constants
//! (`for (int b : {32, 64})`) gives its variable each value likewise (a `std::vector` of
//! integers initialised with constants and only read counts as such an array), and a counting loop
//! whose body indexes such an array with its variable (`run(sizes[j])`) gives the variable
//! each index (`Env::arrays` makes the element a constant).

use crate::sema::host_constants::{closing, eval, only_read, scalar_bytes, ByValue, Env, Local, Tok, Value, INT_WORDS};
use crate::text::tokens::{spelling, CTok};

/// At most this many environments come out of one function's loops; past it, none of its
/// loop locals is a constant. (Two loops one after the other over the same six block sizes,
/// llm.c's check loop and benchmark loop, make 36; the launches they give are the same six,
/// `launches::find` keeps each once.)
const MAX_FORKS: usize = 64;

/// A constant array local `int NAME[] = {...};`, only indexed, measured (`sizeof`) or
/// ranged over (`for (int v : NAME)`) after.
struct Array {
    name: String,
    values: Vec<i64>,
    /// The bytes of an element.
    bytes: u32,
}

/// A `std::vector` of integers declared with its elements at `k` (its name):
/// `std::vector<int> NAME = {...};` or `std::vector<int> NAME{...};`: the element type's
/// words and the `{` of the list.
fn vector_declaration(body: &[Tok], k: usize) -> Option<(Vec<String>, usize)> {
    let gt = k.checked_sub(1)?;
    if body[gt].1 != CTok::P(">") {
        return None;
    }
    let lt = (0..gt).rev().find(|&i| body[i].1 == CTok::P("<"))?;
    let is_vector = lt >= 1 && matches!(&body[lt - 1].1, CTok::Ident(v) if v == "vector");
    let words: Vec<String> = body[lt + 1..gt].iter().map(|t| spelling(&t.1)).collect();
    if !is_vector || words.is_empty() || !words.iter().all(|w| INT_WORDS.contains(&w.as_str())) {
        return None;
    }
    let open = match (body.get(k + 1).map(|t| &t.1), body.get(k + 2).map(|t| &t.1)) {
        (Some(CTok::P("=")), Some(CTok::P("{"))) => k + 2,
        (Some(CTok::P("{")), _) => k + 1,
        _ => return None,
    };
    Some((words, open))
}

/// The function's constant array locals (and `std::vector`s of integers used as such).
fn arrays(body: &[Tok], env: &Env) -> Vec<Array> {
    let mut out = Vec::new();
    for k in 1..body.len() {
        let CTok::Ident(name) = &body[k].1 else { continue };
        let int_word = |t: &Tok| matches!(&t.1, CTok::Spec(w) | CTok::Ident(w) if INT_WORDS.contains(&w.as_str()));
        let (type_words, open) = match vector_declaration(body, k) {
            Some(v) => v,
            None => {
                let first = (0..k).rev().take_while(|&i| int_word(&body[i])).last();
                let Some(first) = first else { continue };
                if body.get(k + 1).map(|t| &t.1) != Some(&CTok::P("[")) {
                    continue;
                }
                let Some(close) = closing(body, k + 1) else { continue };
                if body.get(close + 1).map(|t| &t.1) != Some(&CTok::P("=")) || body.get(close + 2).map(|t| &t.1) != Some(&CTok::P("{")) {
                    continue;
                }
                (body[first..k].iter().map(|t| spelling(&t.1)).collect(), close + 2)
            }
        };
        let Some(bytes) = scalar_bytes(&type_words.iter().map(String::as_str).collect::<Vec<_>>()) else { continue };
        let Some(end) = closing(body, open) else { continue };
        let env = env.at(k);
        let values: Option<Vec<i64>> = crate::sema::coop::split_commas(&body[open + 1..end]).iter().map(|v| eval(v, &env)).collect();
        let Some(values) = values.filter(|v| !v.is_empty()) else { continue };
        // Every later use indexes it to read an element, or measures it.
        let read_only = (end + 1..body.len()).filter(|&u| matches!(&body[u].1, CTok::Ident(n) if n == name)).all(|u| {
            let measured = u >= 2 && matches!(body[u - 2].1, CTok::Kw("sizeof"));
            let indexed = body.get(u + 1).map(|t| &t.1) == Some(&CTok::P("["))
                && closing(body, u + 1).is_some_and(|c| !matches!(body.get(c + 1).map(|t| &t.1), Some(CTok::P(p)) if p.ends_with('=') && *p != "==" || *p == "++" || *p == "--"));
            // `for (int v : A)`, by value (`int &v` could write it).
            let ranged = u >= 1 && body[u - 1].1 == CTok::P(":") && body.get(u + 1).map(|t| &t.1) == Some(&CTok::P(")")) && {
                let decl = body[..u - 1].iter().rev().take_while(|t| t.1 != CTok::P("("));
                decl.into_iter().all(|t| !matches!(t.1, CTok::P("&" | "&&")))
            };
            // `v.size()`
            let sized = matches!(body.get(u + 1..u + 5).map(|w| w.iter().map(|t| &t.1).collect::<Vec<_>>()).as_deref(),
                Some([CTok::P("."), CTok::Ident(f), CTok::P("("), CTok::P(")")]) if f == "size");
            measured || indexed || ranged || sized
        });
        if read_only {
            out.push(Array { name: name.clone(), values, bytes });
        }
    }
    out
}

/// Does `body[from..to]` (a loop's body) only read `var`?
fn only_reads(body: &[Tok], from: usize, to: usize, var: &str, by_value: &ByValue) -> bool {
    (from..to).all(|u| !matches!(&body[u].1, CTok::Ident(n) if n == var) || only_read(body, u, by_value))
}

/// `sizeof(A) / sizeof(T)` (or `/ sizeof(A[0])`, `/ sizeof(*A)`, `/ N`) of a constant array
/// `A` of `N`-byte elements of type `T`: its length.
fn array_length(toks: &[Tok], arrays: &[Array]) -> Option<i64> {
    let words: Vec<String> = toks.iter().map(|t| spelling(&t.1)).collect();
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    // `v.size()` of a constant `std::vector`.
    if let [a, ".", "size", "(", ")"] = &words[..] {
        return arrays.iter().find(|x| x.name == *a).map(|x| x.values.len() as i64);
    }
    let ["sizeof", "(", a, ")", "/", divisor @ ..] = &words[..] else { return None };
    let array = arrays.iter().find(|x| x.name == *a)?;
    let size = array.bytes.to_string();
    let fits = match divisor {
        [n] => *n == size,
        ["sizeof", "(", inner @ .., ")"] => match inner {
            [b, "[", "0", "]"] | ["*", b] => b == a,
            words => words.iter().all(|w| INT_WORDS.contains(w)) && scalar_bytes(words) == Some(array.bytes),
        },
        _ => false,
    };
    fits.then_some(array.values.len() as i64)
}

/// A counting loop `for (int J = START; J < BOUND; J++) {` at `k` (the `for`): its variable,
/// its first value, its bound, and its body's `{` and `}`.
fn counting_loop(body: &[Tok], k: usize, env: &Env, arrays: &[Array], by_value: &ByValue) -> Option<(String, i64, i64, usize, usize)> {
    if !matches!(&body[k].1, CTok::Kw("for")) || body.get(k + 1).map(|t| &t.1) != Some(&CTok::P("(")) {
        return None;
    }
    let close = closing(body, k + 1)?;
    let head = &body[k + 2..close];
    let semis: Vec<usize> = head.iter().enumerate().filter(|(_, t)| t.1 == CTok::P(";")).map(|(i, _)| i).collect();
    let [s1, s2] = semis[..] else { return None };
    // `int J = START`
    let init = &head[..s1];
    let eq = init.iter().position(|t| t.1 == CTok::P("="))?;
    let CTok::Ident(var) = &init.get(eq.checked_sub(1)?)?.1 else { return None };
    let env = env.at(k);
    let start = eval(&init[eq + 1..], &env)?;
    // `J < BOUND`, `sizeof(A) / sizeof(T)` the length of a constant array `A`.
    let cond = &head[s1 + 1..s2];
    if !matches!(cond.first().map(|t| &t.1), Some(CTok::Ident(n)) if n == var) || cond.get(1).map(|t| &t.1) != Some(&CTok::P("<")) {
        return None;
    }
    let bound = eval(&cond[2..], &env).or_else(|| array_length(&cond[2..], arrays))?;
    // `J++`, `++J`, `J += 1`
    let step = &head[s2 + 1..];
    let steps_by_one = match step.iter().map(|t| &t.1).collect::<Vec<_>>()[..] {
        [CTok::Ident(n), CTok::P("++")] | [CTok::P("++"), CTok::Ident(n)] => n == var,
        [CTok::Ident(n), CTok::P("+="), CTok::Int(1, _)] => n == var,
        _ => false,
    };
    if !steps_by_one || body.get(close + 1).map(|t| &t.1) != Some(&CTok::P("{")) {
        return None;
    }
    let end = closing(body, close + 1)?;
    // The body only reads the variable.
    only_reads(body, close + 1, end, var, by_value).then(|| (var.clone(), start, bound, close + 1, end))
}

/// A range loop over constants, `for (int V : A) {` of a constant array `A` or `for (int V :
/// {32, 64}) {`, at `k` (the `for`): its variable (at its index in `body`), the values it
/// takes, and its body's `}`; the body must only read the variable.
fn range_loop(body: &[Tok], k: usize, env: &Env, arrays: &[Array], by_value: &ByValue) -> Option<(String, usize, Vec<i64>, usize)> {
    if !matches!(&body[k].1, CTok::Kw("for")) || body.get(k + 1).map(|t| &t.1) != Some(&CTok::P("(")) {
        return None;
    }
    let close = closing(body, k + 1)?;
    let colon = (k + 2..close).find(|&i| body[i].1 == CTok::P(":"))?;
    // `int V`, `const unsigned V`: integer words, then the name.
    let int_word = |t: &Tok| matches!(&t.1, CTok::Spec(w) | CTok::Ident(w) if INT_WORDS.contains(&w.as_str()) && w != "auto");
    let CTok::Ident(var) = &body.get(colon.checked_sub(1)?)?.1 else { return None };
    if colon < k + 4 || !body[k + 2..colon - 1].iter().all(int_word) {
        return None;
    }
    let range = &body[colon + 1..close];
    let values = match range {
        [(_, CTok::Ident(a), _)] => arrays.iter().find(|x| x.name == *a)?.values.clone(),
        [(_, CTok::P("{"), _), inner @ .., (_, CTok::P("}"), _)] => {
            let env = env.at(k);
            crate::sema::coop::split_commas(inner).iter().map(|v| eval(v, &env)).collect::<Option<Vec<i64>>>()?
        }
        _ => return None,
    };
    if values.is_empty() || body.get(close + 1).map(|t| &t.1) != Some(&CTok::P("{")) {
        return None;
    }
    let end = closing(body, close + 1)?;
    only_reads(body, close + 1, end, var, by_value).then(|| (var.clone(), colon - 1, values, end))
}

/// The environments of a function whose constants are `env`: one per combination of the
/// iterations of its counting loops over constant arrays, each with the locals that such a
/// loop's iteration fixes (`int b = A[J];`, declared never to change) set to their values;
/// `env` alone where there are none, or too many combinations.
pub(crate) fn forks(body: &[Tok], env: Env, by_value: &ByValue) -> Vec<Env> {
    let mut env = env;
    let arrays = arrays(body, &env);
    for a in &arrays {
        env.arrays.insert(a.name.clone(), a.values.clone());
    }
    // For each loop, the locals its iterations fix: (local's index, array's values).
    let mut loops: Vec<Vec<Vec<(usize, i64)>>> = Vec::new();
    for k in 0..body.len() {
        // `for (int v : A)`: its variable a local of the body, one value an iteration.
        if let Some((var, at, values, end)) = range_loop(body, k, &env, &arrays, by_value) {
            env.locals.push(Local { name: var, from: at, to: end, value: None, fixed: None });
            let li = env.locals.len() - 1;
            loops.push(values.into_iter().map(|v| vec![(li, v)]).collect());
            continue;
        }
        let Some((var, start, bound, open, close)) = counting_loop(body, k, &env, &arrays, by_value) else { continue };
        let mut fixed: Vec<(usize, &[i64])> = Vec::new();
        for (li, l) in env.locals.iter().enumerate() {
            let Some(init) = l.fixed.as_ref().and_then(|f| f.init.as_ref()).filter(|_| l.value.is_none() && open < l.from && l.from < close) else { continue };
            // `A [ J ]`
            if let [(_, CTok::Ident(a), _), (_, CTok::P("["), _), (_, CTok::Ident(j), _), (_, CTok::P("]"), _)] = &init[..] {
                if *j == var {
                    if let Some(array) = arrays.iter().find(|x| x.name == *a) {
                        fixed.push((li, &array.values));
                    }
                }
            }
        }
        // No such local, but the body indexes a constant array with the variable itself
        // (`run(sizes[j])`, `k<<<g, sizes[j]>>>`): the variable is the iteration's constant.
        let indexes = (open..close.saturating_sub(3)).any(|u| {
            matches!((&body[u].1, &body[u + 1].1, &body[u + 2].1, &body[u + 3].1),
                (CTok::Ident(a), CTok::P("["), CTok::Ident(j), CTok::P("]")) if *j == var && arrays.iter().any(|x| x.name == *a))
        });
        if fixed.is_empty() && indexes && start >= 0 {
            env.locals.push(Local { name: var.clone(), from: open, to: close, value: None, fixed: None });
            let li = env.locals.len() - 1;
            loops.push((start..bound).map(|j| vec![(li, j)]).collect());
            continue;
        }
        if fixed.is_empty() || start < 0 {
            continue;
        }
        let iterations: Vec<Vec<(usize, i64)>> =
            (start..bound).map_while(|j| fixed.iter().map(|(li, values)| values.get(j as usize).map(|v| (*li, *v))).collect::<Option<Vec<_>>>()).collect();
        if (iterations.len() as i64) < bound - start || iterations.is_empty() {
            continue;
        }
        loops.push(iterations);
    }
    let combinations: usize = loops.iter().map(Vec::len).product();
    if loops.is_empty() || combinations > MAX_FORKS {
        return vec![env];
    }
    let mut out = vec![env];
    for iterations in &loops {
        out = out
            .iter()
            .flat_map(|e| {
                iterations.iter().map(move |it| {
                    let mut e = e.clone();
                    for (li, v) in it {
                        e.locals[*li].value = Some(Value::Int(*v));
                    }
                    e
                })
            })
            .collect();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(src: &str) -> Vec<Tok> {
        let (lexed, _) = crate::text::lexer::lex(src);
        let (toks, _) = crate::text::tokens::convert(&lexed, crate::text::tokens::Dialect::Cuda);
        toks
    }

    /// The values `forks` gives `name` at the last use of it in `src` (a function body).
    fn values(src: &str, name: &str) -> Vec<Option<i64>> {
        let b = body(src);
        let env = crate::sema::host_constants::constants(&b, &Env::default(), &[], &ByValue::new());
        let at = b.iter().rposition(|t| matches!(&t.1, CTok::Ident(n) if n == name)).unwrap();
        forks(&b, env, &ByValue::new()).iter().map(|e| e.at(at).ints.get(name).copied()).collect()
    }

    #[test]
    fn a_local_taken_from_a_constant_array_in_a_counting_loop_has_each_value() {
        let src = "{ int block_sizes[] = {32, 64, 128}; for (int j = 0; j < sizeof(block_sizes) / sizeof(int); j++) { int block_size = block_sizes[j]; printf(\"%d\", block_size); } }";
        assert_eq!(values(src, "block_size"), [Some(32), Some(64), Some(128)]);
        // A constant bound, a start past 0, `sizeof(a[0])`.
        let src = "{ const int n = 2; int s[] = {8, 16, 32}; for (int j = 1; j <= 0 || j < n + 1; j++) { int b = s[j]; printf(\"%d\", b); } }";
        assert_eq!(values(src, "b"), [None], "a condition other than `j < BOUND` is not read");
        let src = "{ int s[] = {8, 16, 32}; for (int j = 1; j < sizeof(s) / sizeof(s[0]); ++j) { int b = s[j]; printf(\"%d\", b); } }";
        assert_eq!(values(src, "b"), [Some(16), Some(32)]);
    }

    #[test]
    fn an_element_of_a_constant_array_at_the_loops_variable_has_each_value() {
        // Used inline, with no local taken from it: the loop's variable is each index.
        let src = "{ int sizes[] = {32, 64, 128}; for (int j = 0; j < 3; j++) { run(sizes[j]); printf(\"%d\", j); } }";
        assert_eq!(values(src, "j"), [Some(0), Some(1), Some(2)]);
        let b = body(src);
        let env = crate::sema::host_constants::constants(&b, &Env::default(), &[], &ByValue::new());
        let at = b.iter().position(|t| matches!(&t.1, CTok::Ident(n) if n == "run")).unwrap();
        let arg = &b[at + 2..at + 6];
        let got: Vec<Option<i64>> = forks(&b, env, &ByValue::new()).iter().map(|e| eval(arg, &e.at(at))).collect();
        assert_eq!(got, [Some(32), Some(64), Some(128)]);
        // An index past the array: no value.
        let src = "{ int sizes[] = {32, 64}; for (int j = 0; j < 3; j++) { run(sizes[j]); printf(\"%d\", j); } }";
        let b = body(src);
        let env = crate::sema::host_constants::constants(&b, &Env::default(), &[], &ByValue::new());
        let at = b.iter().position(|t| matches!(&t.1, CTok::Ident(n) if n == "run")).unwrap();
        let got: Vec<Option<i64>> = forks(&b, env, &ByValue::new()).iter().map(|e| eval(&b[at + 2..at + 6], &e.at(at))).collect();
        assert_eq!(got, [Some(32), Some(64), None]);
    }

    #[test]
    fn a_constant_std_vector_is_read_as_a_constant_array() {
        let src = "{ std::vector<int> sizes = {32, 64, 128}; for (int b : sizes) { printf(\"%d\", b); } }";
        assert_eq!(values(src, "b"), [Some(32), Some(64), Some(128)]);
        let src = "{ std::vector<int> sizes{16, 32}; for (int j = 0; j < sizes.size(); j++) { int b = sizes[j]; printf(\"%d\", b); } }";
        assert_eq!(values(src, "b"), [Some(16), Some(32)]);
        // Changed after its declaration: not a constant.
        let src = "{ std::vector<int> sizes = {32}; sizes.push_back(64); for (int b : sizes) { printf(\"%d\", b); } }";
        assert_eq!(values(src, "b"), [None]);
    }

    #[test]
    fn a_range_loop_over_constants_gives_its_variable_each_value() {
        let src = "{ int sizes[] = {32, 64}; for (int b : sizes) { printf(\"%d\", b); } }";
        assert_eq!(values(src, "b"), [Some(32), Some(64)]);
        let src = "{ const int base = 8; for (const int b : {base, 2 * base, 128}) { printf(\"%d\", b); } }";
        assert_eq!(values(src, "b"), [Some(8), Some(16), Some(128)]);
        // Written through a reference: no constant array.
        assert_eq!(values("{ int s[] = {1, 2}; for (int &r : s) { r = 5; } for (int b : s) { printf(\"%d\", b); } }", "b"), [None]);
        // Changed in the body, or a range of run-time values: no constant.
        assert_eq!(values("{ for (int b : {1, 2}) { b += 1; printf(\"%d\", b); } }", "b"), [None]);
        assert_eq!(values("{ for (int b : {n, 2}) { printf(\"%d\", b); } }", "b"), [None]);
    }

    #[test]
    fn nothing_that_may_change_the_values_is_read() {
        for src in [
            // The array written.
            "{ int s[] = {8, 16}; s[1] = 3; for (int j = 0; j < 2; j++) { int b = s[j]; printf(\"%d\", b); } }",
            // The counter changed in the body.
            "{ int s[] = {8, 16}; for (int j = 0; j < 2; j++) { int b = s[j]; j += 1; printf(\"%d\", b); } }",
            // The bound past the array.
            "{ int s[] = {8, 16}; for (int j = 0; j < 3; j++) { int b = s[j]; printf(\"%d\", b); } }",
            // The local changed.
            "{ int s[] = {8, 16}; for (int j = 0; j < 2; j++) { int b = s[j]; b *= 2; printf(\"%d\", b); } }",
            // A divisor that is not the element's size.
            "{ int s[] = {8, 16}; for (int j = 0; j < sizeof(s) / sizeof(char); j++) { int b = s[j]; printf(\"%d\", b); } }",
        ] {
            assert!(values(src, "b").iter().all(Option::is_none), "{src}");
        }
    }
}
