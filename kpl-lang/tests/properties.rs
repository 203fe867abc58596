//! Property tests of the KPL front end: generated kernels check, format to a fixed point and
//! survive the core form; 10,000 mutated inputs never panic it (the C front end's own are in
//! `c-front/tests/properties.rs`).

use kpl_lang::core::{is_core, strip_spans, to_core};
use kpl_lang::generate::generate;
use kpl_lang::printer::{format_source, print_kernel};
use kpl_lang::rng::Rng;
use kpl_lang::{check_kpl, parser};
use std::path::Path;

fn checked(src: &str) -> kpl_lang::Checked {
    match check_kpl(src) {
        Ok(c) => c,
        Err(d) => panic!("rejected:\n{src}\n{}", d.iter().map(|d| d.short("gen", src)).collect::<Vec<_>>().join("\n")),
    }
}

#[test]
fn generated_kernels_check_and_format_to_a_fixed_point() {
    for seed in 0..1500 {
        let k = generate(seed);
        let text = print_kernel(&k);
        let c = checked(&text);
        assert_eq!(strip_spans(&c.kernel), strip_spans(&k), "seed {seed}: printing changed the AST");
        let again = format_source(&c.kernel, &text, &c.comments);
        assert_eq!(again, text, "seed {seed}: fmt is not a fixed point");
        assert!(is_core(&c.core), "seed {seed}: core form still nests reads");
        let core_text = print_kernel(&c.core);
        let cc = checked(&core_text);
        assert_eq!(strip_spans(&to_core(&cc.kernel)), strip_spans(&cc.kernel), "seed {seed}: core of core changed");
    }
}

/// Source texts to mutate: the project's kernels, the golden inputs and generated kernels.
fn corpus() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for dir in [root.join("../tests/kernels"), root.join("tests/diagnostics")] {
        if let Ok(rd) = std::fs::read_dir(&dir) {
            let mut paths: Vec<_> = rd.filter_map(|e| e.ok()).map(|e| e.path()).collect();
            paths.sort();
            for p in paths.into_iter().filter(|p| p.extension().is_some_and(|e| e == "kpl")) {
                out.push(std::fs::read_to_string(p).unwrap());
            }
        }
    }
    for seed in 0..50 {
        out.push(print_kernel(&generate(10_000 + seed)));
    }
    out
}

const SNIPPETS: &[&str] = &[
    "{", "}", "(", ")", "[", "]", ";", ":=", "?", ":", ",", ".", "lid", "gid.y", "threads.z", "while", "if",
    "else", "local x", "barrier;", "break;", "continue;", "return;", "proc p(a)", "main", "kernel", "0x",
    "4294967296", "99999999999999999999999", "/*", "*/", "//", "\n", "A[", "min(", "implies(1,", "invariant",
    "assert", "assume", "requires", "shared Z[0];", "global G[*];", "param q;", "\u{00e9}", "\0", "\"", "=",
    "&&", "||", "!", "~", "-", "<<", ">>", "%", "/",
];

fn mutate(src: &str, rng: &mut Rng) -> String {
    let mut b: Vec<u8> = src.as_bytes().to_vec();
    for _ in 0..rng.range(1, 4) {
        let len = b.len().max(1) as u64;
        let at = rng.below(len) as usize;
        let at = at.min(b.len());
        match rng.below(6) {
            0 => {
                let end = (at + rng.range(1, 12) as usize).min(b.len());
                b.drain(at..end);
            }
            1 => {
                let s = rng.pick(SNIPPETS).as_bytes();
                b.splice(at..at, s.iter().copied());
            }
            2 => {
                let end = (at + rng.range(1, 40) as usize).min(b.len());
                let piece: Vec<u8> = b[at..end].to_vec();
                let to = rng.below(b.len() as u64 + 1) as usize;
                b.splice(to..to, piece);
            }
            3 => b.truncate(at),
            4 => {
                if at < b.len() {
                    b[at] = rng.below(128) as u8;
                }
            }
            _ => {
                let s = rng.pick(SNIPPETS).as_bytes();
                let end = (at + s.len()).min(b.len());
                b.splice(at..end, s.iter().copied());
            }
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

/// Run the whole front end on `src`; only a panic is a failure.
fn front_end(src: &str) {
    let parsed = parser::parse(src);
    for d in &parsed.errors {
        let _ = d.render("fuzz.kpl", src);
    }
    if let Ok(c) = check_kpl(src) {
        let text = format_source(&c.kernel, src, &c.comments);
        let _ = print_kernel(&c.core);
        // A kernel that checks must still check after formatting.
        assert!(check_kpl(&text).is_ok(), "formatted kernel no longer checks:\n{src}\n---\n{text}");
    }
}

#[test]
fn ten_thousand_mutated_inputs_never_panic() {
    on_big_stack(mutated_kpl_inputs);
}

fn mutated_kpl_inputs() {
    let corpus = corpus();
    assert!(corpus.len() > 50);
    let mut rng = Rng::new(0x6675_7A7A);
    let mut n = 0;
    while n < 10_000 {
        let base = &corpus[rng.below(corpus.len() as u64) as usize];
        let input = mutate(base, &mut rng);
        let result = std::panic::catch_unwind(|| front_end(&input));
        assert!(result.is_ok(), "the front end panicked on:\n{input}");
        n += 1;
    }
}

/// Run on a large stack, as the `kpl` binary runs its work (`src/limits.rs`).
fn on_big_stack(f: fn()) {
    let t = std::thread::Builder::new().stack_size(1 << 30).spawn(f).unwrap();
    if let Err(e) = t.join() {
        std::panic::resume_unwind(e);
    }
}
