//! Golden tests of the CUDA and OpenCL front ends: each `lowering/*.cu` or `*.cl` (with its
//! options on a first `// args:` line) must lower to the KPL in `*.expected`, or give the
//! diagnostics there. Refresh with `UPDATE_EXPECT=1 cargo test`.

use kpl_c::{check_c, Dialect, FrontOptions};
use kpl_lang::launch::parse_dims;
use kpl_lang::printer::print_kernel;
use kpl_lang::{Launch, Span};
use std::path::Path;

pub fn options(src: &str, dialect: Dialect) -> FrontOptions {
    let mut o = FrontOptions::new(dialect);
    let mut threads = None;
    let mut groups = None;
    let args = src.lines().next().and_then(|l| l.strip_prefix("// args:")).unwrap_or("");
    for a in args.split_whitespace() {
        if let Some(v) = a.strip_prefix("--blockDim=").or_else(|| a.strip_prefix("--local_size=")) {
            threads = parse_dims(v).ok();
        } else if let Some(v) = a.strip_prefix("--gridDim=").or_else(|| a.strip_prefix("--num_groups=")) {
            groups = parse_dims(v).ok();
        } else if let Some(v) = a.strip_prefix("-D") {
            o.defines.push(v.to_string());
        } else if let Some(v) = a.strip_prefix("-I") {
            o.include_dirs.push(v.to_string());
        } else if let Some(v) = a.strip_prefix("--kernel=") {
            o.kernel = Some(v.to_string());
        } else if let Some(v) = a.strip_prefix("--warp-sync=") {
            o.warp_sync = v.parse().ok();
        } else if let Some(v) = a.strip_prefix("--check-function=") {
            // The kernel that `--no-inline` builds to check a device function on its own.
            o.check_function = Some(v.to_string());
        } else if let Some(v) = a.strip_prefix("--pointer-bitwidth=") {
            o.pointer_bits = v.parse().unwrap_or(64);
        } else if a == "--invariants-as-candidates" {
            o.invariants_as_candidates = true;
        } else if a == "--no-annotations" {
            o.annotations = kpl_c::annotations::Annotations::None;
        } else if a == "--only-requires" {
            o.annotations = kpl_c::annotations::Annotations::OnlyRequires;
        } else if let Some(v) = a.strip_prefix("--kernel-args=") {
            let mut parts = v.split(',');
            let name = parts.next().unwrap_or("").to_string();
            let vals = parts.map(|x| u64::from_str_radix(x.trim_start_matches("0x"), 16).unwrap_or(0)).collect();
            o.kernel_args = Some((name, vals));
        }
    }
    if let Some(t) = threads {
        o.launch = Some(Launch::new(groups.unwrap_or([1, 1, 1]), t));
    }
    o
}

/// `line:col`, or `file:line:col` in an included header.
fn place(src: &str, s: Span) -> String {
    match kpl_lang::span::locate(src, s.start) {
        (Some(f), l, c, _) => format!("{f}:{l}:{c}"),
        (None, l, c, _) => format!("{l}:{c}"),
    }
}

/// The file and the headers it includes, as the `kpl` binary reads them (paths relative
/// to the golden directory, which the test runs in).
fn read_with_headers(dir: &Path, name: &str, o: &mut FrontOptions) -> String {
    let text = std::fs::read_to_string(dir.join(name)).unwrap();
    o.file = name.to_string();
    let mut read = |p: &str| std::fs::read_to_string(dir.join(p)).ok().filter(|_| dir.join(p).is_file());
    kpl_c::include::bundle(name, &text, &o.include_dirs, &mut read)
}

/// On a thread with a large stack, as the `kpl` binary runs its work: a runaway macro
/// expands into a tree a million levels deep, which the nesting limit refuses but whose
/// drop still recurses.
#[test]
fn every_lowering_rule_has_its_golden_output() {
    let t = std::thread::Builder::new().stack_size(1 << 30).spawn(golden_outputs).unwrap();
    if let Err(e) = t.join() {
        std::panic::resume_unwind(e);
    }
}

fn golden_outputs() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/lowering");
    let update = std::env::var("UPDATE_EXPECT").is_ok();
    let mut paths: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    paths.sort();
    let mut failures = Vec::new();
    let mut n = 0;
    for p in paths.iter().filter(|p| p.extension().is_some_and(|e| e == "cu" || e == "cl")) {
        n += 1;
        let first = std::fs::read_to_string(p).unwrap();
        let dialect = if p.extension().is_some_and(|e| e == "cu") { Dialect::Cuda } else { Dialect::OpenCl };
        let mut o = options(&first, dialect);
        let src = read_with_headers(&dir, p.file_name().unwrap().to_str().unwrap(), &mut o);
        let got = match check_c(&src, &o) {
            Ok(c) => {
                // The lowered kernel must itself be well-formed KPL.
                let text = print_kernel(&c.kernel);
                assert!(kpl_lang::check_kpl(&text).is_ok(), "{}: lowered KPL does not check:\n{text}", p.display());
                text
            }
            Err(ds) => ds
                .iter()
                .map(|d| format!("{}: error: {}\n", place(&src, d.span), d.message))
                .collect(),
        };
        let exp = p.with_extension(format!("{}.expected", p.extension().unwrap().to_str().unwrap()));
        if update {
            std::fs::write(&exp, &got).unwrap();
            continue;
        }
        let want = std::fs::read_to_string(&exp).unwrap_or_default();
        if want != got {
            failures.push(format!("--- {}\nexpected:\n{want}\ngot:\n{got}", p.display()));
        }
    }
    assert!(n >= 30, "only {n} golden C inputs");
    assert!(failures.is_empty(), "{} mismatches (UPDATE_EXPECT=1 refreshes):\n{}", failures.len(), failures.join("\n"));
}
