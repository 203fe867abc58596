//! `kpl difftest`: run kernels in the SDV interpreter and on a real OpenCL implementation
//! (and CUDA, where there is one) on the same inputs, and compare the final arrays bit for
//! bit.

use crate::difftest::{arguments, first_difference, inputs_text, interpreter_options, reference_of, InputSet, Reference};
use crate::exit::Exit;
use crate::input;
use crate::opencl::{ArgValue, OpenCl};
use crate::options::LaunchArgs;
use kpl_emit::{emit, harness, Target};
use kpl_lang::{Checked, Launch};
use kpl_semantics::report::Outcome;
use kpl_semantics::{sdv, Inputs};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;

#[derive(clap::Args)]
pub struct Args {
    /// Kernel files (`.kpl`, `.cu`, `.cl`).
    files: Vec<PathBuf>,
    /// Input sets per kernel.
    #[arg(long, default_value_t = 20)]
    runs: u64,
    /// Seed of the first input set (the others follow).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Compare on these inputs instead of seeded ones (`kpl run --input` format, e.g. the
    /// tests `kpl testgen` writes); repeatable.
    #[arg(long = "input", value_name = "IN.json")]
    inputs: Vec<PathBuf>,
    /// Also test this many generated kernels (race- and divergence-free by construction).
    #[arg(long, value_name = "N")]
    generate: Option<u64>,
    /// Also run on CUDA (needs `nvcc` and a GPU; skipped with a message otherwise).
    #[arg(long)]
    cuda: bool,
    /// Write each kernel that differs to DIR/NAME.kpl (in KPL; CUDA and OpenCL kernels as
    /// lowered), to replay with `kpl run` and `kpl emit`.
    #[arg(long, value_name = "DIR")]
    keep: Option<PathBuf>,
    #[command(flatten)]
    launch: LaunchArgs,
}

/// A kernel to compare, or why it cannot be (its diagnostics are printed already).
type Job = Result<(Checked, Launch), Exit>;

enum Verdict {
    Agrees { compared: u64, skipped: u64 },
    Differs(String),
    Defect(String),
    Skipped(String),
}

pub fn run(a: Args) -> Exit {
    if a.files.is_empty() && a.generate.is_none() {
        eprintln!("error: give kernel files, or `--generate N`");
        return Exit::BadInput;
    }
    let cl = match OpenCl::load() {
        Ok(cl) => cl,
        Err(e) => {
            eprintln!("kpl difftest: {e}; nothing was compared");
            eprintln!("(install an OpenCL implementation, e.g. Debian's pocl-opencl-icd and ocl-icd-libopencl1)");
            return Exit::Inconclusive;
        }
    };
    println!("comparing with OpenCL on {}", cl.name);
    let cuda = a.cuda && cuda_available();
    if a.cuda && !cuda {
        println!("CUDA: skipped (no `nvcc` with a GPU on this machine)");
    }
    let mut worst = Exit::Ok;
    let mut agreed = 0u64;
    let mut given = Vec::new();
    for f in &a.inputs {
        let text = match std::fs::read_to_string(f) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("error: cannot read `{}`: {e}", f.display());
                return Exit::BadInput;
            }
        };
        let mut i = Inputs::from_seed(0);
        if let Err(e) = i.merge_json(&text) {
            eprintln!("error: `{}`: {e}", f.display());
            return Exit::BadInput;
        }
        given.push((f.display().to_string(), i));
    }
    let sets = |seed: u64, runs: u64| -> Vec<InputSet> {
        if given.is_empty() {
            (0..runs).map(|r| InputSet::Seed(seed.wrapping_add(r))).collect()
        } else {
            given.iter().map(|(f, i)| InputSet::Given(f.clone(), i.clone())).collect()
        }
    };
    let mut jobs: Vec<(String, Job)> = Vec::new();
    for f in &a.files {
        jobs.push((f.display().to_string(), input::load(f, &a.launch, true).map(|(_, c, l)| (c, l))));
    }
    for g in 0..a.generate.unwrap_or(0) {
        let k = kpl_lang::generate::generate(a.seed.wrapping_mul(1_000_003).wrapping_add(g));
        let text = kpl_lang::printer::print_kernel(&k);
        let c = kpl_lang::check_kpl(&text).map_err(|_| Exit::Internal);
        jobs.push((format!("generated kernel `{}`", k.name.name), c.map(|c| (c.clone(), Launch::of(&c.kernel)))));
    }
    for (name, job) in jobs {
        let (c, launch) = match job {
            Ok(x) => x,
            Err(e) => {
                worst = worst.max(e);
                continue;
            }
        };
        let v = compare(&cl, &c, launch, &sets(a.seed, a.runs));
        let v = match v {
            Verdict::Agrees { .. } if cuda => compare_cuda(&c, launch, &sets(a.seed, a.runs)).unwrap_or(v),
            v => v,
        };
        match v {
            Verdict::Agrees { compared: 0, skipped } => {
                worst = worst.max(Exit::Inconclusive);
                println!("{name}: not compared: all {skipped} input sets skipped (infeasible or too long)");
            }
            Verdict::Agrees { compared, skipped } => {
                agreed += 1;
                let extra = if skipped > 0 { format!(" ({skipped} input sets skipped: infeasible or too long)") } else { String::new() };
                println!("{name}: agrees on {compared} input sets{extra}");
            }
            Verdict::Defect(msg) => {
                worst = worst.max(Exit::Defect);
                println!("{name}: not compared: the interpreter finds a defect first: {msg}");
            }
            Verdict::Differs(msg) => {
                worst = worst.max(Exit::Defect);
                println!("{name}: DIFFERS: {msg}");
                let text = kpl_lang::printer::print_kernel(&c.kernel);
                match &a.keep {
                    Some(dir) => {
                        let path = dir.join(format!("{}.kpl", c.kernel.name.name));
                        match std::fs::create_dir_all(dir).and_then(|_| std::fs::write(&path, &text)) {
                            Ok(()) => println!("  kept as {}", path.display()),
                            Err(e) => eprintln!("kpl difftest: cannot write {}: {e}", path.display()),
                        }
                    }
                    None if name.starts_with("generated") => println!("{text}"),
                    None => {}
                }
            }
            Verdict::Skipped(msg) => {
                worst = worst.max(Exit::Inconclusive);
                println!("{name}: skipped: {msg}");
            }
        }
    }
    println!("{agreed} kernel(s) agree");
    if agreed == 0 && worst == Exit::Ok {
        // Nothing was compared: no verdict to give (exit 2, as for any inconclusive run).
        worst = Exit::Inconclusive;
    }
    worst
}

fn compare(cl: &OpenCl, c: &Checked, launch: Launch, sets: &[InputSet]) -> Verdict {
    if launch.total_threads() > sdv::MAX_THREADS {
        return Verdict::Skipped("too many threads for the interpreter".into());
    }
    let prog = kpl_semantics::compile(&c.core, launch);
    let mut built: Option<(kpl_emit::Emitted, *mut std::ffi::c_void)> = None;
    let (mut compared, mut skipped) = (0, 0);
    let result = (|| {
        for s in sets {
            let Some(reference) = reference_of(&prog, s, &interpreter_options()) else {
                skipped += 1;
                continue;
            };
            let Reference { inputs, result: res, sizes: sz } = reference;
            if let Outcome::Defect(d) = &res.outcome {
                return Verdict::Defect(format!("{} with the inputs of {}", d.kind(), s.name()));
            }
            let e = match emit(&c.core, launch, Target::OpenCl, &|n| sz.get(n).copied().unwrap_or(1)) {
                Ok(e) => e,
                Err(e) => return Verdict::Skipped(e),
            };
            // Rebuild only when the source changes (unsized shared arrays take their size
            // from the run).
            if built.as_ref().map(|b| &b.0.source) != Some(&e.source) {
                if let Some((_, k)) = built.take() {
                    cl.release_kernel(k);
                }
                let k = match cl.build(&e.source, &e.name) {
                    Ok(k) => k,
                    Err(e) => return Verdict::Differs(e),
                };
                built = Some((e, k));
            }
            let Some((e, k)) = built.as_ref() else { continue };
            let mut args = arguments(e, launch, &inputs, &sz);
            if let Err(err) = cl.launch(*k, &mut args, launch.groups, launch.threads) {
                return Verdict::Differs(format!("the device run failed: {err}"));
            }
            if let Some(d) = first_difference(e, &args, &res.memory, launch, &inputs) {
                return Verdict::Differs(describe(&d, s, &inputs));
            }
            compared += 1;
        }
        Verdict::Agrees { compared, skipped }
    })();
    if let Some((_, k)) = built {
        cl.release_kernel(k);
    }
    result
}

fn describe(d: &crate::difftest::Difference, set: &InputSet, inputs: &Inputs) -> String {
    let group = d.group.map(|g| format!(" of group {g}")).unwrap_or_default();
    format!(
        "{}[{}]{group} is {} in the interpreter and {} on the device (inputs: `{}`)",
        d.array, d.index, d.interpreter, d.device, set.replay(inputs)
    )
}

fn cuda_available() -> bool {
    let ok = |cmd: &str, arg: &str| Command::new(cmd).arg(arg).output().is_ok_and(|o| o.status.success());
    ok("nvcc", "--version") && ok("nvidia-smi", "-L")
}

/// The CUDA path: emit the program with its harness, build it with nvcc, run it per input
/// set and compare its output file.
fn compare_cuda(c: &Checked, launch: Launch, sets: &[InputSet]) -> Option<Verdict> {
    let prog = kpl_semantics::compile(&c.core, launch);
    let dir = std::env::temp_dir().join(format!("kpl-cuda-{}", std::process::id()));
    std::fs::create_dir_all(&dir).ok()?;
    let mut compiled: Option<String> = None;
    for s in sets {
        let Some(Reference { inputs, result: res, sizes: sz }) = reference_of(&prog, s, &interpreter_options()) else { continue };
        if res.outcome != Outcome::Ok {
            continue;
        }
        let size_of = |n: &str| sz.get(n).copied().unwrap_or(1);
        let e = emit(&c.core, launch, Target::Cuda, &size_of).ok()?;
        let program = harness::cuda_program(&e, launch, &size_of);
        std::fs::write(dir.join("in.txt"), inputs_text(&e, launch, &inputs, &sz)).ok()?;
        // nvcc is slow: the program is compiled again only when it changes (the sizes of
        // unsized arrays, which each input set chooses, are part of it).
        if compiled.as_ref() != Some(&program) {
            std::fs::write(dir.join("kernel.cu"), &program).ok()?;
            let built = Command::new("nvcc").args(["--fmad=false", "-o"]).arg(dir.join("kernel")).arg(dir.join("kernel.cu")).output().ok()?;
            if !built.status.success() {
                return Some(Verdict::Differs(format!("nvcc rejected the emitted program: {}", String::from_utf8_lossy(&built.stderr))));
            }
            compiled = Some(program);
        }
        let ran = Command::new(dir.join("kernel")).arg(dir.join("in.txt")).arg(dir.join("out.txt")).output().ok()?;
        if !ran.status.success() {
            return Some(Verdict::Differs(format!("the CUDA run failed: {}", String::from_utf8_lossy(&ran.stderr))));
        }
        let out = std::fs::read_to_string(dir.join("out.txt")).ok()?;
        let mut args = arguments(&e, launch, &inputs, &sz);
        read_outputs(&e, &out, &mut args);
        if let Some(d) = first_difference(&e, &args, &res.memory, launch, &inputs) {
            return Some(Verdict::Differs(format!("on CUDA: {}", describe(&d, s, &inputs))));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    None
}

/// Fill the buffers of `args` from a harness's output file.
fn read_outputs(e: &kpl_emit::Emitted, out: &str, args: &mut [ArgValue]) {
    let mut by_name: BTreeMap<String, Vec<u32>> = BTreeMap::new();
    for line in out.lines() {
        let mut it = line.split_whitespace();
        let (Some(kind), Some(name)) = (it.next(), it.next()) else { continue };
        let skip = if kind == "shared" { 2 } else { 1 };
        let vals: Vec<u32> = it.skip(skip).filter_map(|w| w.parse().ok()).collect();
        by_name.insert(name.to_string(), vals);
    }
    for (a, v) in e.args.iter().zip(args.iter_mut()) {
        let name = match a {
            kpl_emit::Arg::Global(n) | kpl_emit::Arg::SharedFinal { array: n, .. } => n,
            _ => continue,
        };
        if let (Some(vals), ArgValue::Buffer { data, .. }) = (by_name.get(name), v) {
            *data = vals.clone();
        }
    }
}
