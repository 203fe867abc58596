//! Property tests of the C front end: 5,000 mutated CUDA and OpenCL inputs never panic it,
//! and what it accepts is well-formed KPL.

use kpl_c::{check_c, Dialect, FrontOptions};
use kpl_lang::printer::print_kernel;
use kpl_lang::rng::Rng;
use kpl_lang::{check_kpl, Launch};
use std::path::Path;

/// C sources to mutate: the golden lowering inputs and the CUDA/OpenCL corpus.
fn c_corpus() -> Vec<(String, Dialect)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for dir in [root.join("tests/lowering"), root.join("../tests/kernels-cuda")] {
        if let Ok(rd) = std::fs::read_dir(&dir) {
            let mut paths: Vec<_> = rd.filter_map(|e| e.ok()).map(|e| e.path()).collect();
            paths.sort();
            for p in paths {
                // The runaway macro has its golden test; mutated, it only costs seconds each.
                if p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("macro_runaway")) {
                    continue;
                }
                let d = match p.extension().and_then(|e| e.to_str()) {
                    Some("cu") => Dialect::Cuda,
                    Some("cl") => Dialect::OpenCl,
                    _ => continue,
                };
                out.push((std::fs::read_to_string(p).unwrap(), d));
            }
        }
    }
    out
}

const C_SNIPPETS: &[&str] = &[
    "#define X(a) a##a", "#if 1", "#endif", "#else", "#include <x.h>", "__syncthreads();", "threadIdx.", "blockIdx.y",
    "for (;;)", "do {", "} while (0);", "return;", "return x;", "&&", "||", "?", ":", "++", "--", "+=", "<<=", "(int)",
    "(float)", "__shared__ int s[4];", "__device__ int f(int a) { return a; }", "f(", "[", "]", "{", "}", "(", ")", ";",
    "__assert(", "__invariant(", "get_local_id(", "barrier(", "0x", "1.5f", "'a'", "\"s\"", "->", "*", "&",
];

fn c_mutate(src: &str, rng: &mut Rng) -> String {
    let mut b: Vec<u8> = src.as_bytes().to_vec();
    for _ in 0..rng.range(1, 4) {
        let at = (rng.below(b.len().max(1) as u64) as usize).min(b.len());
        match rng.below(4) {
            0 => {
                let end = (at + rng.range(1, 10) as usize).min(b.len());
                b.drain(at..end);
            }
            1 => {
                let s = rng.pick(C_SNIPPETS).as_bytes();
                b.splice(at..at, s.iter().copied());
            }
            2 => b.truncate(at),
            _ => {
                let end = (at + rng.range(1, 30) as usize).min(b.len());
                let piece: Vec<u8> = b[at..end].to_vec();
                let to = rng.below(b.len() as u64 + 1) as usize;
                b.splice(to..to, piece);
            }
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

/// Run on a large stack, as the `kpl` binary runs its work (`src/limits.rs`): deep inputs
/// recurse deeply even where the front end refuses them.
fn on_big_stack(f: fn()) {
    let t = std::thread::Builder::new().stack_size(1 << 30).spawn(f).unwrap();
    if let Err(e) = t.join() {
        std::panic::resume_unwind(e);
    }
}

#[test]
fn five_thousand_mutated_c_inputs_never_panic() {
    on_big_stack(mutated_c_inputs);
}

fn mutated_c_inputs() {
    let corpus = c_corpus();
    assert!(corpus.len() > 30);
    let mut rng = Rng::new(0x4375_6461);
    for n in 0..5_000 {
        let (base, dialect) = &corpus[rng.below(corpus.len() as u64) as usize];
        let input = c_mutate(base, &mut rng);
        let launch = Some(Launch::new([2, 1, 1], [8, 2, 1])).filter(|_| n % 7 != 0);
        let o = FrontOptions { defines: vec!["N=4".into()], launch, ..FrontOptions::new(*dialect) };
        let result = std::panic::catch_unwind(|| {
            if let Ok(c) = check_c(&input, &o) {
                // What the C front end accepts is well-formed KPL.
                let text = print_kernel(&c.kernel);
                assert!(check_kpl(&text).is_ok(), "lowered KPL does not check:\n{input}\n---\n{text}");
            }
        });
        assert!(result.is_ok(), "the C front end panicked on:\n{input}");
    }
}
