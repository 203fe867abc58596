//! `kpl crosscheck`: KLEE-CL's crosscheck of a kernel against its sequential C reference
//! (`kpl_crosscheck`): both loaded by the C front end, the reference as a one-thread
//! kernel, paired by parameter position; the verdict, its input written for replay.

use crate::exit::Exit;
use crate::options::{ArrayLengths, CheckArgs, LaunchArgs};
use crate::{input, limits, progress, render};
use kpl_crosscheck::explore::{Side, Verdict};
use kpl_crosscheck::pairing::{self, Kind, Pair};
use kpl_crosscheck::Assumptions;
use kpl_semantics::ir::Ex;
use kpl_semantics::report::Outcome;
use kpl_semantics::{Inputs, Program};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

#[derive(clap::Args)]
pub struct Args {
    /// The file with the kernel (and, unless `--reference-file` says otherwise, the
    /// reference).
    pub file: PathBuf,
    /// A file holding the reference function instead (`.c`, `.cpp` or `.cu` read as CUDA,
    /// `.cl` as OpenCL).
    #[arg(long = "reference-file", value_name = "FILE")]
    pub reference_file: Option<PathBuf>,
    /// Assume what KLEE-CL may assume of floats, comma separated: `float-reassoc` (addition
    /// and multiplication associative), `mul-zero` (`x * 0 = 0`, `x + 0 = x`), `fma`
    /// (contraction changes no result: `fmaf(a, b, c)` is `a * b + c`).
    #[arg(long, value_name = "A,...", value_delimiter = ',', value_parser = parse_assumption)]
    pub assume: Vec<String>,
    /// The number of elements of the kernel's arrays: `N` for every one, or `NAME=N` each
    /// (comma separated); accesses outside are out-of-bounds defects on either side.
    #[arg(long = "array-len", value_name = "N|NAME=N,...", value_delimiter = ',')]
    pub array_len: Vec<String>,
    /// Fix a scalar parameter of both sides: NAME=V (the kernel's name; decimal, 0x hex, or
    /// negative), as `--kernel-args` fixes them all.
    #[arg(long = "param", value_name = "NAME=V")]
    pub params: Vec<String>,
    /// Explore at most this many paths of the two programs together (then inconclusive).
    #[arg(long = "max-paths", value_name = "N", default_value_t = 1000)]
    pub max_paths: usize,
    /// Random inputs tried on a path whose outputs neither the terms nor the solver decide.
    #[arg(long, value_name = "N", default_value_t = 32)]
    pub tries: usize,
    /// Interpreter steps per run.
    #[arg(long = "max-steps", default_value_t = 20_000_000)]
    pub max_steps: u64,
    /// Stop after this many seconds (the verdict is then inconclusive).
    #[arg(long, value_name = "SECONDS", value_parser = crate::options::parse_seconds)]
    pub timeout: Option<f64>,
    /// The seed of the first input and of every input value no path constraint fixes.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Write a mismatch's or defect's input here, for `kpl run --input`: DIR/kernel.json (the
    /// kernel's names) and DIR/reference.json (the reference's).
    #[arg(long, value_name = "DIR")]
    pub witness: Option<PathBuf>,
    /// Print the report as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Where the kernel and its reference are equivalent, write the certificate of it to
    /// DIR/certificate.json: every path with its input and the proofs of its outputs'
    /// equalities, for `kpl check-cert` (one launch: give it on the command line when the
    /// program launches the kernel several ways).
    #[arg(long, value_name = "DIR")]
    pub certify: Option<PathBuf>,
    #[command(flatten)]
    pub launch: LaunchArgs,
    #[command(flatten)]
    pub check: CheckArgs,
}

fn parse_assumption(s: &str) -> Result<String, String> {
    match s {
        "float-reassoc" | "mul-zero" | "fma" => Ok(s.to_string()),
        _ => Err(format!("unknown assumption `{s}` (float-reassoc, mul-zero, fma)")),
    }
}

/// The most threads a crosscheck runs symbolically (each thread's values carry terms).
const MAX_THREADS: u64 = 1 << 12;

pub fn run(a: Args) -> Exit {
    let Some(reference) = a.launch.reference.clone() else {
        eprintln!("error: `kpl crosscheck` needs the sequential reference function: `--reference=F`");
        return Exit::BadInput;
    };
    if let Some(dir) = &a.witness {
        // A directory with only an earlier witness in it (or one per launch) is written again.
        fn only_witness(dir: &Path, depth: u32) -> bool {
            std::fs::read_dir(dir).is_ok_and(|rd| {
                rd.filter_map(|e| e.ok()).all(|e| {
                    let name = e.file_name().to_string_lossy().into_owned();
                    let file = e.file_type().is_ok_and(|t| t.is_file());
                    (["kernel.json", "reference.json"].contains(&name.as_str()) && file)
                        || (depth == 0 && name.strip_prefix("launch-").is_some_and(|n| n.parse::<u32>().is_ok()) && only_witness(&e.path(), 1))
                })
            })
        }
        let earlier = only_witness(dir, 0);
        if !earlier {
            if let Err(e) = input::check_output_dir(dir) {
                return e;
            }
        }
    }
    let lens = match ArrayLengths::parse(&a.array_len) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("error: `--array-len`: {e}");
            return Exit::BadInput;
        }
    };
    if let Some(dir) = &a.certify {
        if let Err(e) = input::check_output_dir(dir) {
            return e;
        }
    }
    let _watchdog = limits::command_watchdog(a.timeout, &a.file.display().to_string(), a.json);
    let started = Instant::now();
    input::set_warp_sync(a.check.warp_sync);
    input::QUIET_HOST_SKIPS.store(true, std::sync::atomic::Ordering::Relaxed);
    // The kernel, as `kpl run` loads it: under each launch its program's host code makes.
    let mut kargs = a.launch.clone();
    kargs.reference = None;
    let contexts = input::host_contexts(&a.file, &kargs);
    if contexts > 1 && a.certify.is_some() {
        eprintln!("error: `--certify` certifies one launch, and the program launches the kernel {contexts} ways: give the launch (`--blockDim`, `--gridDim`, `--kernel-args`)");
        return Exit::BadInput;
    }
    let mut reports = Vec::new();
    let mut exit = Exit::Ok;
    for c in 0..contexts.max(1) {
        input::set_host_context((contexts > 1).then_some(c));
        let (e, report) = one_launch(&a, &reference, &lens, &kargs, started, (contexts > 1).then_some(c));
        exit = exit.max(e);
        reports.extend(report);
        if e == Exit::BadInput {
            break;
        }
    }
    input::set_host_context(None);
    // (Bad input has no report: its diagnostics are on standard error.)
    if a.json && !reports.is_empty() {
        let v = if reports.len() == 1 { reports.pop().unwrap_or_default() } else { Value::Array(reports) };
        println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
    }
    exit
}

/// The two sides as the crosscheck runs them (and `check-cert` runs them again).
pub struct Prepared {
    pub src: input::Source,
    pub rsrc: input::Source,
    pub c: kpl_lang::Checked,
    pub rc: kpl_lang::Checked,
    pub launch: kpl_lang::Launch,
    pub kprog: Program,
    pub rprog: Program,
    pub pairs: Vec<Pair>,
    pub outputs: Vec<String>,
    /// The first input: the seed, and the params the preconditions pin.
    pub base: Inputs,
    pub assume: Assumptions,
    /// A side computes in double precision, which kpl computes as single.
    pub double: bool,
}

/// Load, pair and rename the kernel and its reference under the current launch context.
pub fn prepare(a: &Args, reference: &str, lens: &ArrayLengths, kargs: &LaunchArgs) -> Result<Prepared, Exit> {
    macro_rules! bad {
        ($e:expr) => {
            return Err($e)
        };
    }
    let reference = reference.to_string();
    // `--assume=fma`: both sides read `fmaf(a, b, c)` as `a * b + c`.
    let contract = a.assume.iter().any(|x| x == "fma");
    let kargs = &LaunchArgs { contract, ..kargs.clone() };
    let (src, c, launch) = input::load(&a.file, kargs, true)?;
    if launch.total_threads() > MAX_THREADS {
        eprintln!("error: the launch has {} threads; a crosscheck runs at most {MAX_THREADS}", launch.total_threads());
        bad!(Exit::BadInput);
    }
    // The reference: a one-thread kernel of its file, `--kernel-args` given to it by name.
    let mut rargs = LaunchArgs { contract, ..a.launch.clone() };
    rargs.kernel = None;
    rargs.block_dim = None;
    rargs.grid_dim = None;
    rargs.kernel_args = a.launch.kernel_args.as_ref().map(|(_, v)| (reference.clone(), v.clone()));
    let rfile = a.reference_file.clone().unwrap_or_else(|| a.file.clone());
    if a.reference_file.is_some() {
        let ext = rfile.extension().and_then(|e| e.to_str()).unwrap_or("");
        match ext {
            "cl" => input::set_file_language(&rfile, "opencl"),
            "c" | "cc" | "cpp" | "cxx" | "h" | "hpp" | "cu" | "cuh" => input::set_file_language(&rfile, "cuda"),
            _ => {
                eprintln!("error: `--reference-file` must be a C, C++, CUDA or OpenCL file (`.c`, `.cpp`, `.cu`, `.cl`), not `{}`", rfile.display());
                bad!(Exit::BadInput);
            }
        }
    }
    let (rsrc, rc, rlaunch) = input::load(&rfile, &rargs, true)?;
    // Double precision in the reference: kpl's floats are single, so no verdict on values.
    let mut double = rc.warnings.iter().any(|w| w.message.contains(kpl_c::sema::reference::DOUBLE_WARNING));
    if let Some(d) = input::double_precision(&a.file, kargs, &src, &c.kernel.name.name) {
        input::report(&src, &[d]);
        double = true;
    }
    let pairing = match pairing::pair(&c.core, &rc.core) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            bad!(Exit::BadInput);
        }
    };
    let mut kprog = kpl_semantics::compile(&c.core, launch);
    let mut rprog = kpl_semantics::compile(&rc.core, rlaunch);
    let pairs = pairing.pairs;
    pairing::rename(&mut rprog, &pairs);
    // Its own name too: what the two sides' runs cannot follow (`lost:NAME:N`) must never
    // be one variable, even where the reference is the kernel's own function.
    rprog.name = format!("ref:{}", rprog.name);
    // A wider side's extra words (the high word of a `size_t` beside a `uint`) are 0.
    for (kernel_side, name) in &pairing.zero_words {
        if *kernel_side {
            pairing::pin_zero(&mut kprog, name);
        } else {
            pairing::pin_zero(&mut rprog, &format!("ref:{name}"));
        }
    }
    // `--param`: a precondition of the kernel, which the loop below gives the reference.
    for p in &a.params {
        let (name, v) = match crate::options::parse_param(p) {
            Ok(x) => x,
            Err(e) => {
                eprintln!("error: {e}");
                bad!(Exit::BadInput);
            }
        };
        let Some(i) = kprog.params.iter().position(|n| *n == name) else {
            eprintln!("error: `--param`: the kernel has no scalar parameter `{name}` (it has {})", kprog.params.join(", "));
            bad!(Exit::BadInput);
        };
        let e = Ex::Bin(kpl_lang::ast::BinOp::Eq, Box::new(Ex::Param(i as u32)), Box::new(Ex::Const(v)));
        kprog.requires.push((e, kpl_lang::Span::new(0, 0)));
    }
    // A param the kernel's preconditions pin (`--kernel-args`, the host code's launch) is
    // pinned for the reference too.
    let pinned = kpl_semantics::inputs::pinned_params(&kprog);
    for (name, v) in &pinned {
        if let Some(i) = rprog.params.iter().position(|p| p == name) {
            let e = Ex::Bin(kpl_lang::ast::BinOp::Eq, Box::new(Ex::Param(i as u32)), Box::new(Ex::Const(*v)));
            rprog.requires.push((e, kpl_lang::Span::new(0, 0)));
        }
    }
    let outputs: Vec<String> = pairs.iter().filter(|p| p.kind == Kind::Array).map(|p| p.kernel.clone()).collect();
    for p in [&mut kprog, &mut rprog] {
        if let Err(e) = lens.apply(p, Some(&outputs)) {
            eprintln!("error: `--array-len`: {e}");
            bad!(Exit::BadInput);
        }
    }
    let mut base = Inputs::from_seed(a.seed);
    base.params.extend(pinned);
    base.params.extend(kpl_semantics::inputs::pinned_params(&rprog));
    let assume = Assumptions {
        reassoc: a.assume.iter().any(|x| x == "float-reassoc"),
        mul_zero: a.assume.iter().any(|x| x == "mul-zero"),
        fma: a.assume.iter().any(|x| x == "fma"),
    };
    Ok(Prepared { src, rsrc, c, rc, launch, kprog, rprog, pairs, outputs, base, assume, double })
}

/// The options of the search (and of `check-cert`'s runs).
pub fn search_options(a: &Args, assume: Assumptions, started: Instant) -> kpl_crosscheck::Options {
    kpl_crosscheck::Options {
        assume,
        max_paths: a.max_paths.max(1),
        max_steps: a.max_steps,
        deadline: a.timeout.map(|t| started + Duration::from_secs_f64(t)),
        query_timeout: Duration::from_secs(10),
        element_timeout: Duration::from_secs(2),
        tries: a.tries,
        seed: a.seed,
        kernel_run: a.check.run_options(&a.file, a.max_steps),
        reference_run: a.check.run_options(&a.file, a.max_steps),
        progress: Some(|paths, runs| progress::show(&format!("crosscheck: {paths} paths explored, {runs} runs"))),
        record: a.certify.is_some(),
    }
}

/// The crosscheck under one launch of the kernel (the command line's, or one its program's
/// host code makes): the exit code, and the JSON report (`None` for bad input).
/// `context`: which of the program's launches, where it has several (each launch's witness
/// goes to `DIR/launch-N`).
fn one_launch(a: &Args, reference: &str, lens: &ArrayLengths, kargs: &LaunchArgs, started: Instant, context: Option<usize>) -> (Exit, Option<Value>) {
    macro_rules! bad {
        ($e:expr) => {
            return ($e, None)
        };
    }
    let Prepared { src, rsrc, c, rc, launch, kprog, rprog, pairs, outputs, base, assume, double } = match prepare(a, reference, lens, kargs) {
        Ok(p) => p,
        Err(e) => bad!(e),
    };
    let o = search_options(a, assume, started);
    progress::show(&format!("{}: crosschecking `{}` against `{}`", src.path, kprog.name, reference));
    let mut r = kpl_crosscheck::crosscheck(&kprog, &rprog, &outputs, &base, &o);
    if double && matches!(r.verdict, Verdict::Equivalent | Verdict::Mismatch { .. }) {
        let found = if matches!(r.verdict, Verdict::Equivalent) { "equal outputs" } else { "a mismatch" };
        r.verdict = Verdict::Inconclusive(format!("kpl found {found} computing `double`s as `float`s, which is not what the C program computes (see the warning)"));
    }
    progress::clear();
    let st = &r.stats;
    let what = format!("kernel `{}` against reference `{}`", kprog.name, reference);
    let assumed = if !assume.names().is_empty() { format!(" (assuming {})", assume.names().join(", ")) } else { String::new() };
    let counts = format!(
        "{} path{}, {} run{}; {} output element{} compared: {} equal as terms, {} by canonical forms, {} by the solver",
        st.paths,
        plural(st.paths),
        st.runs,
        plural(st.runs),
        st.elements,
        plural(st.elements),
        st.by_terms,
        st.by_canon,
        st.by_solver
    );
    let after = format!("after {} path{} and {} run{}", st.paths, plural(st.paths), st.runs, plural(st.runs));
    let mut report = json!({
        "file": src.path, "kernel": kprog.name, "reference": reference,
        "assumptions": assume.names(),
        "paths": st.paths, "runs": st.runs,
        "elements": { "compared": st.elements, "by_terms": st.by_terms, "by_canonical_forms": st.by_canon, "by_solver": st.by_solver,
                      "float": st.float_elements, "float_by_forms": st.float_by_forms },
        "solver_calls": st.solver_calls, "solver_ms": st.solver_time.as_millis() as u64,
        "time_ms": started.elapsed().as_millis() as u64,
    });
    let exit = match &r.verdict {
        Verdict::Equivalent => {
            report["verdict"] = json!("equivalent");
            if !a.json {
                println!("{}: {what}: equivalent on every input{assumed} ({counts})", src.path);
            }
            match &a.certify {
                None => Exit::Ok,
                Some(dir) => {
                    let p = Prepared { src, rsrc, c, rc, launch, kprog, rprog, pairs, outputs, base, assume, double };
                    match crate::crosscheck_cert::write(a, &p, &o, &r, dir) {
                        Ok((path, paths, steps)) => {
                            report["certificate"] = json!(path.display().to_string());
                            if !a.json {
                                println!("certificate written to {} ({paths} path{}, {steps} rewrite steps); check it with `kpl check-cert {}`", path.display(), plural(paths), dir.display());
                            }
                            Exit::Ok
                        }
                        Err(e) => {
                            eprintln!("error: no certificate: {e}");
                            report["certificate_error"] = json!(e);
                            Exit::Inconclusive
                        }
                    }
                }
            }
        }
        Verdict::Inconclusive(why) => {
            report["verdict"] = json!("inconclusive");
            report["reason"] = json!(why);
            if !a.json {
                println!("{}: {what}: inconclusive{assumed}: {why} ({counts})", src.path);
            }
            Exit::Inconclusive
        }
        Verdict::Mismatch { inputs, diff, exact } => {
            report["verdict"] = json!("mismatch");
            let touched = touched_by(&kprog, &rprog, inputs, &outputs, &o);
            let files = match write_witness(witness_dir(a, context).as_deref(), &pairs, inputs, &kprog, &outputs, lens, &touched) {
                Ok(f) => f,
                Err(e) => bad!(e),
            };
            let show = |w: u32| format!("{:#010x} ({:?} as a float, {} as an int)", w, f32::from_bits(w), w as i32);
            report["mismatch"] = json!({
                "array": diff.array, "index": diff.index,
                "kernel": diff.kernel, "reference": diff.reference,
                "kernel_float": f32::from_bits(diff.kernel).to_string(), "reference_float": f32::from_bits(diff.reference).to_string(),
                "exact_arithmetic": exact,
                "input": input_json(inputs, &kprog, &outputs, lens, &touched, None),
            });
            if !a.json {
                println!("{}: {what}: mismatch{assumed}", src.path);
                println!("  `{}[{}]` is {} after the kernel", diff.array, diff.index, show(diff.kernel));
                println!("  `{}[{}]` is {} after the reference", diff.array, diff.index, show(diff.reference));
                if *exact {
                    println!("  on small whole numbers, where every sum and product is exact: the difference is not one of rounding");
                } else if assume.any() {
                    println!("  the element's canonical forms differ under the assumptions, and on this input its bits do");
                }
                println!("  both replayed in the interpreter on the input{} ({after})", params_text(inputs, &kprog));
            }
            replay_lines(a, &src.path, &pairs, &files, context.map(|_| launch), &mut report);
            Exit::Defect
        }
        Verdict::Defect { side, inputs, outcome } => {
            report["verdict"] = json!("defect");
            let touched = touched_by(&kprog, &rprog, inputs, &outputs, &o);
            let files = match write_witness(witness_dir(a, context).as_deref(), &pairs, inputs, &kprog, &outputs, lens, &touched) {
                Ok(f) => f,
                Err(e) => bad!(e),
            };
            let (s, who) = match side {
                Side::Kernel => (&src, "kernel"),
                Side::Reference => (&rsrc, "reference"),
            };
            report["side"] = json!(who);
            if let Outcome::Defect(d) = outcome {
                report["defect"] = render::defect_json(&s.text, d);
                let dims = if *side == Side::Kernel { launch.dims_used() } else { 1 };
                let layouts = if *side == Side::Kernel { &c.layouts } else { &rc.layouts };
                let mut diag = render::defect_diagnostic(d, dims, layouts);
                diag.help.push(format!("found by `kpl crosscheck` in the {who}, replayed in the interpreter{}", params_text(inputs, &kprog)));
                if !a.json {
                    input::report(s, &[diag]);
                }
            }
            if !a.json {
                println!("{}: {what}: a defect of the {who} ({after})", src.path);
            }
            replay_lines(a, &src.path, &pairs, &files, context.map(|_| launch), &mut report);
            Exit::Defect
        }
    };
    if a.certify.is_some() && report["verdict"] != "equivalent" {
        eprintln!("note: no certificate: a certificate is written for an `equivalent` verdict only");
    }
    (exit, Some(report))
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

fn params_text(inputs: &Inputs, p: &Program) -> String {
    if p.params.is_empty() {
        return String::new();
    }
    // Small values as integers, the others (float bits, most likely) in hex.
    let show = |v: u32| if (v as i32).unsigned_abs() < 1 << 16 { (v as i32).to_string() } else { format!("{v:#010x}") };
    let ps: Vec<String> = p.params.iter().map(|n| format!("{n}={}", show(inputs.param(n)))).collect();
    format!(" with {}", ps.join(", "))
}

/// An input as `kpl run --input` reads it: every param, and every element of the output
/// arrays up to their length (or, unsized, each element either side's run touches), named
/// by `rename` (the reference's names) or as the kernel names them.
fn input_json(inputs: &Inputs, kprog: &Program, outputs: &[String], lens: &ArrayLengths, touched: &[(String, u32)], rename: Option<&[Pair]>) -> Value {
    let name_of = |n: &str| match rename {
        Some(pairs) => pairs.iter().find(|p| p.kernel == n).map(|p| p.reference.clone()).unwrap_or_else(|| n.to_string()),
        None => n.to_string(),
    };
    let params: BTreeMap<String, u32> = kprog.params.iter().map(|n| (name_of(n), inputs.param(n))).collect();
    let indices = |name: &str| -> Vec<u32> {
        let mut v: Vec<u32> = touched.iter().filter(|(n, _)| n == name).map(|(_, i)| *i).collect();
        v.extend(inputs.arrays.get(name).map(|g| g.all.keys().copied().collect::<Vec<u32>>()).unwrap_or_default());
        v.sort_unstable();
        v.dedup();
        v
    };
    let mut arrays = serde_json::Map::new();
    for out in outputs {
        let len = lens.of(out);
        let idx: Vec<u32> = match len {
            Some(l) => (0..l).collect(),
            None => indices(out),
        };
        let m: serde_json::Map<String, Value> = idx.iter().map(|i| (i.to_string(), json!(inputs.element(out, None, *i)))).collect();
        arrays.insert(name_of(out), Value::Object(m));
    }
    json!({ "params": params, "arrays": arrays })
}

/// The elements of the output arrays that either side's run on `inputs` touches.
fn touched_by(k: &Program, r: &Program, inputs: &Inputs, outputs: &[String], o: &kpl_crosscheck::Options) -> Vec<(String, u32)> {
    let runs = kpl_crosscheck::concrete::run_both(k, r, inputs, &o.kernel_run, &o.reference_run);
    let mut out = Vec::new();
    for (name, contents) in runs.kernel.memory.iter().chain(&runs.reference.memory) {
        if !outputs.contains(name) {
            continue;
        }
        match contents {
            kpl_semantics::report::ArrayContents::Dense(v) => out.extend((0..v.len() as u32).map(|i| (name.clone(), i))),
            kpl_semantics::report::ArrayContents::Sparse(m) => out.extend(m.keys().map(|i| (name.clone(), *i))),
            _ => {}
        }
    }
    out
}

/// Where `--witness` puts a launch's witness: DIR, or DIR/launch-N for the program's Nth.
fn witness_dir(a: &Args, context: Option<usize>) -> Option<PathBuf> {
    let d = a.witness.clone()?;
    Some(match context {
        Some(c) => d.join(format!("launch-{}", c + 1)),
        None => d,
    })
}

/// Write the witness's two inputs in `dir` (`--witness`); their paths.
fn write_witness(
    dir: Option<&Path>,
    pairs: &[Pair],
    inputs: &Inputs,
    kprog: &Program,
    outputs: &[String],
    lens: &ArrayLengths,
    touched: &[(String, u32)],
) -> Result<Option<(PathBuf, PathBuf)>, Exit> {
    let Some(dir) = dir else { return Ok(None) };
    if let Err(e) = std::fs::create_dir_all(dir) {
        eprintln!("error: cannot create `{}`: {e}", dir.display());
        return Err(Exit::BadInput);
    }
    let (k, r) = (dir.join("kernel.json"), dir.join("reference.json"));
    for (f, v) in [(&k, input_json(inputs, kprog, outputs, lens, touched, None)), (&r, input_json(inputs, kprog, outputs, lens, touched, Some(pairs)))] {
        if let Err(e) = std::fs::write(f, serde_json::to_string_pretty(&v).unwrap_or_default() + "\n") {
            eprintln!("error: cannot write `{}`: {e}", f.display());
            return Err(Exit::BadInput);
        }
    }
    Ok(Some((k, r)))
}

/// The commands that replay a witness, printed and in the report.
/// `launch`: the launch of the program's host code this crosscheck ran under, where it has
/// several (the replay must pick it).
fn replay_lines(a: &Args, path: &str, pairs: &[Pair], files: &Option<(PathBuf, PathBuf)>, launch: Option<kpl_lang::Launch>, report: &mut Value) {
    let Some((k, r)) = files else {
        if !a.json {
            println!("  (`--witness DIR` writes the input for `kpl run --input`)");
        }
        return;
    };
    let mut given = a.launch.clone();
    if let Some(l) = launch {
        given.block_dim = Some(l.threads);
        given.grid_dim = Some(l.groups);
    }
    let launch = launch_text(&given);
    let kernel = a.launch.kernel.as_ref().map(|k| format!(" --kernel={k}")).unwrap_or_default();
    let rfile = a.reference_file.as_deref().map(Path::display).map(|d| d.to_string()).unwrap_or_else(|| path.to_string());
    let reference = a.launch.reference.clone().unwrap_or_default();
    let lens = if a.array_len.is_empty() { String::new() } else { format!(" --array-len={}", a.array_len.join(",")) };
    // The reference names its arrays its own way: its lengths by position.
    let rlens = if a.array_len.is_empty() { String::new() } else { format!(" --array-len={}", reference_lengths(&a.array_len, pairs).join(",")) };
    let fma = if a.assume.iter().any(|x| x == "fma") { " --fma-as-mul-add" } else { "" };
    let kl = format!("kpl run {path}{kernel}{launch}{lens}{fma} --input {}", k.display());
    let rl = format!("kpl run {rfile} --reference={reference}{rlens}{fma} --input {}", r.display());
    if !a.json {
        println!("  replay: {kl}");
        println!("          {rl}");
    }
    report["replay"] = json!([kl, rl]);
}

/// `--array-len`'s values with the kernel's array names as the reference's.
fn reference_lengths(xs: &[String], pairs: &[Pair]) -> Vec<String> {
    xs.iter()
        .map(|x| match x.split_once('=') {
            Some((k, v)) => {
                let r = pairs.iter().find(|p| p.kernel == k.trim()).map(|p| p.reference.clone()).unwrap_or_else(|| k.to_string());
                format!("{r}={v}")
            }
            None => x.clone(),
        })
        .collect()
}

fn launch_text(l: &LaunchArgs) -> String {
    let d = |x: [u32; 3]| format!("[{},{},{}]", x[0], x[1], x[2]);
    let mut s = String::new();
    if let Some(b) = l.block_dim.or(l.local_size) {
        s += &format!(" --blockDim={}", d(b));
    }
    if let Some(g) = l.grid_dim.or(l.num_groups) {
        s += &format!(" --gridDim={}", d(g));
    }
    if let Some((k, v)) = &l.kernel_args {
        let vs: Vec<String> = v.iter().map(|x| x.to_string()).collect();
        s += &format!(" --kernel-args={k},{}", vs.join(","));
    }
    s
}
