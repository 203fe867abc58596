//! C's integer expressions against a C compiler: random expressions mixing `int`,
//! `unsigned`, `long long`, `unsigned long long`, `short` and `unsigned char` operands,
//! casts, conditionals, comparisons, shifts, division and the logical operators, each
//! evaluated by `kpl run` on a one-thread CUDA kernel and by the machine's C compiler
//! (`cc -fwrapv`, whose signed overflow wraps as CUDA's does), on the same inputs. Every
//! word must agree. Expressions stay clear of what C leaves undefined even with `-fwrapv`
//! (division by zero, `INT_MIN / -1`, shifts past the width).

mod common;
use common::*;
use kpl_lang::rng::Rng;
use std::process::Command;

/// The C types the generator uses, with C's integer conversion rank and signedness.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum T {
    Int,
    UInt,
    Long,
    ULong,
    Short,
    UChar,
}

impl T {
    fn name(self) -> &'static str {
        match self {
            T::Int => "int",
            T::UInt => "unsigned",
            T::Long => "long long",
            T::ULong => "unsigned long long",
            T::Short => "short",
            T::UChar => "unsigned char",
        }
    }
    /// The integer promotions.
    fn promoted(self) -> T {
        match self {
            T::Short | T::UChar => T::Int,
            t => t,
        }
    }
    fn wide(self) -> bool {
        matches!(self, T::Long | T::ULong)
    }
    /// The usual arithmetic conversions of two operands.
    fn common(a: T, b: T) -> T {
        let (a, b) = (a.promoted(), b.promoted());
        if a == T::ULong || b == T::ULong {
            T::ULong
        } else if a == T::Long || b == T::Long {
            T::Long
        } else if a == T::UInt || b == T::UInt {
            T::UInt
        } else {
            T::Int
        }
    }
}

/// The variables every expression may read, with their types.
const VARS: &[(&str, T)] = &[("a", T::Int), ("b", T::UInt), ("c", T::Long), ("d", T::ULong), ("e", T::Short), ("f", T::UChar)];

const LITERALS: &[(&str, T)] = &[
    ("0", T::Int),
    ("1", T::Int),
    ("7", T::Int),
    ("-3", T::Int),
    ("2147483647", T::Int),
    ("4294967295u", T::UInt),
    ("0x80000000u", T::UInt),
    ("5ll", T::Long),
    ("-4294967296ll", T::Long),
    ("0x7fffffffffffffffll", T::Long),
    ("3ull", T::ULong),
    ("0xffffffff00000001ull", T::ULong),
];

fn expr(r: &mut Rng, depth: u32) -> (String, T) {
    if depth == 0 || r.chance(1, 5) {
        let &(s, t) = if r.chance(2, 3) { r.pick(VARS) } else { r.pick(LITERALS) };
        return (s.to_string(), t);
    }
    match r.below(9) {
        0 => {
            let (x, t) = expr(r, depth - 1);
            let op = *r.pick(&["-", "~", "!"]);
            let t = if op == "!" { T::Int } else { t.promoted() };
            (format!("({op} {x})"), t)
        }
        1 => {
            let (x, _) = expr(r, depth - 1);
            let t = *r.pick(&[T::Int, T::UInt, T::Long, T::ULong, T::Short, T::UChar]);
            (format!("(({}){x})", t.name()), t)
        }
        2 | 3 => {
            let (x, tx) = expr(r, depth - 1);
            let (y, ty) = expr(r, depth - 1);
            let op = *r.pick(&["+", "-", "*", "&", "|", "^"]);
            (format!("({x} {op} {y})"), T::common(tx, ty))
        }
        4 => {
            let (x, _) = expr(r, depth - 1);
            let (y, _) = expr(r, depth - 1);
            let op = *r.pick(&["<", "<=", ">", ">=", "==", "!=", "&&", "||"]);
            (format!("({x} {op} {y})"), T::Int)
        }
        5 => {
            // A shift by less than the promoted left operand's width.
            let (x, tx) = expr(r, depth - 1);
            let (y, _) = expr(r, depth - 1);
            let op = *r.pick(&["<<", ">>"]);
            let mask = if tx.promoted().wide() { 63 } else { 31 };
            (format!("({x} {op} (int)(({y}) & {mask}))"), tx.promoted())
        }
        6 => {
            // Division and remainder by a positive value: a literal, a small 32-bit value,
            // or any positive 64-bit one (never 0, never -1, which C leaves undefined).
            let (x, tx) = expr(r, depth - 1);
            let op = *r.pick(&["/", "%"]);
            let (y, _) = expr(r, depth - 1);
            match r.below(3) {
                0 => {
                    let k = *r.pick(&["1", "3", "10", "64", "100ll", "7ull", "4294967311ll"]);
                    let t = T::common(tx, if k.ends_with("ull") { T::ULong } else if k.ends_with("ll") { T::Long } else { T::Int });
                    (format!("({x} {op} {k})"), t)
                }
                1 => (format!("({x} {op} ((int)(({y}) & 127) + 1))"), T::common(tx, T::Int)),
                _ => {
                    let d = *r.pick(&["(long long)((({y}) & 0x7fffffffffffffffll) | 1)", "((unsigned long long)({y}) | 1ull)", "(long long)((({y}) & 0xffffffffll) | 1)"]);
                    let td = if d.starts_with("((unsigned") { T::ULong } else { T::Long };
                    (format!("({x} {op} {})", d.replace("{y}", &y)), T::common(tx, td))
                }
            }
        }
        _ => {
            let (c, _) = expr(r, depth - 1);
            let (x, tx) = expr(r, depth - 1);
            let (y, ty) = expr(r, depth - 1);
            (format!("({c} ? {x} : {y})"), T::common(tx, ty))
        }
    }
}

/// The declarations of `VARS` from six 32-bit inputs `p0`..`p5`.
const DECLS: &str = "  int a = (int)p0; unsigned b = p1;\n  long long c = (long long)(((unsigned long long)p2 << 32) | p3);\n  unsigned long long d = ((unsigned long long)p4 << 32) | p5;\n  short e = (short)p0; unsigned char f = (unsigned char)p1;\n";

/// Compile `ref.c` in `dir` with the C compiler (signed overflow wrapping, as on GPUs), run
/// it, and give each line of its output as words.
fn c_reference(dir: &std::path::Path) -> Vec<Vec<u32>> {
    let exe = dir.join("ref");
    let cc = Command::new("cc").args(["-fwrapv", "-O0", "-w", "-o"]).arg(&exe).arg(dir.join("ref.c")).output().expect("a C compiler `cc` (scripts/setup.sh installs build-essential)");
    assert!(cc.status.success(), "cc failed: {}", String::from_utf8_lossy(&cc.stderr));
    let out = String::from_utf8(Command::new(&exe).output().unwrap().stdout).unwrap();
    out.lines().map(|l| l.split_whitespace().map(|w| w.parse().unwrap()).collect()).collect()
}

/// `kpl run` of `k.cu` in `dir` with the params `p0`, `p1`, ... : the words of `out`.
fn kpl_outputs(dir: &std::path::Path, params: &[u32], words: usize) -> Vec<Option<u32>> {
    let mut args = vec!["run".to_string(), "--json".into(), "--blockDim=1".into(), "--gridDim=1".into()];
    for (j, v) in params.iter().enumerate() {
        args.push("--param".into());
        args.push(format!("p{j}={v}"));
    }
    args.push("k.cu".into());
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = kpl_in(dir, &a);
    assert_eq!(o.code, 0, "{}{}\n{}", o.stdout, o.stderr, std::fs::read_to_string(dir.join("k.cu")).unwrap_or_default());
    let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    let out = &v["memory"]["out"];
    (0..words).map(|k| out.get(k.to_string()).or_else(|| out.get(k)).and_then(|x| x.as_u64()).map(|x| x as u32)).collect()
}

#[test]
fn integer_expressions_agree_with_a_c_compiler() {
    // Six kernels of 50 expressions, each on 6 inputs: 1,800 comparisons.
    for round in 0..6 {
        one_round(round);
    }
}

fn one_round(round: u64) {
    let dir = scratch(&format!("c-expr-{round}"));
    std::fs::create_dir_all(&dir).unwrap();
    let mut r = Rng::new(0x5EED_C0DE ^ round.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    const EXPRS: usize = 50;
    const INPUTS: usize = 6;
    let exprs: Vec<String> = (0..EXPRS).map(|_| expr(&mut r, 4).0).collect();
    let body: String = exprs
        .iter()
        .enumerate()
        .map(|(i, e)| format!("  {{ unsigned long long v = (unsigned long long)({e});\n    out[{}] = (unsigned)v; out[{}] = (unsigned)(v >> 32); }}\n", 2 * i, 2 * i + 1))
        .collect();
    let kernel = format!("__global__ void k(unsigned *out, unsigned p0, unsigned p1, unsigned p2, unsigned p3, unsigned p4, unsigned p5) {{\n{DECLS}{body}}}\n");
    std::fs::write(dir.join("k.cu"), &kernel).unwrap();
    let special = [0u32, 1, 0xffff_ffff, 0x7fff_ffff, 0x8000_0000, 0xffff_fff0];
    let inputs: Vec<[u32; 6]> = (0..INPUTS)
        .map(|i| std::array::from_fn(|j| if (i + j) % 3 == 0 { special[(i * 7 + j) % special.len()] } else { r.next_u32() }))
        .collect();
    // The C side: every expression on every input, one line of words per input.
    let calls: String = inputs.iter().map(|p| format!("  run({}u, {}u, {}u, {}u, {}u, {}u);\n", p[0], p[1], p[2], p[3], p[4], p[5])).collect();
    let prints: String =
        exprs.iter().map(|e| format!("  {{ unsigned long long v = (unsigned long long)({e}); printf(\"%u %u \", (unsigned)v, (unsigned)(v >> 32)); }}\n")).collect();
    let c = format!(
        "#include <stdio.h>\nstatic void run(unsigned p0, unsigned p1, unsigned p2, unsigned p3, unsigned p4, unsigned p5) {{\n{DECLS}{prints}  printf(\"\\n\");\n}}\nint main(void) {{\n{calls}  return 0;\n}}\n"
    );
    std::fs::write(dir.join("ref.c"), &c).unwrap();
    let want = c_reference(&dir);
    assert_eq!(want.len(), INPUTS);
    for (p, want) in inputs.iter().zip(&want) {
        let got = kpl_outputs(&dir, p, 2 * exprs.len());
        for (i, e) in exprs.iter().enumerate() {
            assert_eq!((got[2 * i], got[2 * i + 1]), (Some(want[2 * i]), Some(want[2 * i + 1])), "expression {i} on inputs {p:?}: {e}");
        }
    }
    if std::env::var("KPL_KEEP").is_err() { let _ = std::fs::remove_dir_all(&dir); }
}

/// Pointer arithmetic against the C compiler: differences, comparisons and reads through
/// pointers into one array, at indices the inputs give (kept inside the array).
#[test]
fn pointer_expressions_agree_with_a_c_compiler() {
    let dir = scratch("c-ptr");
    std::fs::create_dir_all(&dir).unwrap();
    let mut r = Rng::new(0x9017_7E55);
    let idx = ["(a & 31)", "(int)(b % 16u)", "((e & 15) + 3)", "((int)f & 7)", "(int)(c & 31ll)", "7"];
    let pick = |r: &mut Rng| r.pick(&idx).to_string();
    let mut exprs = Vec::new();
    for _ in 0..60 {
        let (i, j) = (pick(&mut r), pick(&mut r));
        let e = match r.below(7) {
            0 => format!("(int)((L + {i}) - (L + {j}))"),
            1 => format!("(int)(&L[{i}] - &L[{j}])"),
            2 => format!("((L + {i}) {} (L + {j}))", r.pick(&["<", "<=", ">", ">=", "==", "!="])),
            3 => format!("*(L + {i})"),
            4 => format!("*(L + {i} + {j} % 8)"),
            5 => format!("(*(L + {i} + 1) - *(L + {j}))"),
            _ => format!("(int)((L + 40) - (L + {i}) + ((L + {j}) - L))"),
        };
        exprs.push(e);
    }
    let decls = "  int a = (int)p0; unsigned b = p1; long long c = (long long)p2; short e = (short)p3; unsigned char f = (unsigned char)p4;\n  int L[64];\n  for (int t = 0; t < 64; t++) L[t] = t * 7 + 3;\n";
    let body: String = exprs.iter().enumerate().map(|(k, e)| format!("  out[{k}] = (unsigned)({e});\n")).collect();
    let kernel = format!("__global__ void k(unsigned *out, unsigned p0, unsigned p1, unsigned p2, unsigned p3, unsigned p4) {{\n{decls}{body}}}\n");
    std::fs::write(dir.join("k.cu"), &kernel).unwrap();
    let prints: String = exprs.iter().map(|e| format!("  printf(\"%u \", (unsigned)({e}));\n")).collect();
    let inputs: Vec<[u32; 5]> = (0..6).map(|_| std::array::from_fn(|_| r.next_u32())).collect();
    let calls: String = inputs.iter().map(|p| format!("  run({}u, {}u, {}u, {}u, {}u);\n", p[0], p[1], p[2], p[3], p[4])).collect();
    let c = format!("#include <stdio.h>\nstatic void run(unsigned p0, unsigned p1, unsigned p2, unsigned p3, unsigned p4) {{\n{decls}{prints}  printf(\"\\n\");\n}}\nint main(void) {{\n{calls}  return 0;\n}}\n");
    std::fs::write(dir.join("ref.c"), &c).unwrap();
    let want = c_reference(&dir);
    for (p, want) in inputs.iter().zip(&want) {
        let got = kpl_outputs(&dir, p, exprs.len());
        for (k, e) in exprs.iter().enumerate() {
            assert_eq!(got[k], Some(want[k]), "expression {k} on inputs {p:?}: {e}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
