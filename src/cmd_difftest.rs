//! `kpl difftest`: run kernels in the SDV interpreter and on a real OpenCL implementation
//! and/or CUDA (`--cuda`, where there is one) on the same inputs, and compare the final
//! arrays bit for bit.

use crate::difftest::{first_difference, interpreter_options, reference_of, InputSet, Reference, Skip};
use crate::difftest_device::{cuda_gpu, CudaDevice, Device, Failure, OpenClDevice};
use crate::exit::Exit;
use crate::input;
use crate::opencl::OpenCl;
use crate::options::LaunchArgs;
use kpl_emit::emit;
use kpl_lang::{Checked, Launch};
use kpl_semantics::report::Outcome;
use kpl_semantics::{sdv, Inputs};
use std::path::PathBuf;

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
    /// The interpreter's budget per input set, in thread-statements: an input set whose run
    /// needs more is skipped, and the report says so with this limit
    #[arg(long = "max-steps", value_name = "N", default_value_t = crate::difftest::DEFAULT_MAX_STEPS)]
    max_steps: u64,
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

/// Input sets skipped: infeasible, past the budget, too large to compare.
#[derive(Default)]
struct Skipped {
    infeasible: u64,
    too_long: u64,
    too_large: u64,
}

impl Skipped {
    fn total(&self) -> u64 {
        self.infeasible + self.too_long + self.too_large
    }

    /// Why, as the report says it: `3 infeasible, 17 longer than 2000000 thread-statements
    /// (`--max-steps` raises the limit)`.
    fn why(&self, max_steps: u64) -> String {
        let mut parts = Vec::new();
        if self.infeasible > 0 {
            parts.push(format!("{} infeasible (no input tried meets the `requires`)", self.infeasible));
        }
        if self.too_long > 0 {
            parts.push(format!("{} longer than {max_steps} thread-statements: `--max-steps` raises the limit", self.too_long));
        }
        if self.too_large > 0 {
            parts.push(format!("{} with arrays too large to compare on a device", self.too_large));
        }
        parts.join("; ")
    }
}

enum Verdict {
    /// `dropped`: the devices that could not run the kernel, and why (the others agree).
    /// `skipped`: input sets with no reference run, by why (`difftest::Skip`).
    Agrees { compared: u64, skipped: Skipped, dropped: Vec<String> },
    Differs(String),
    Defect(String),
    Skipped(String),
}

pub fn run(a: Args) -> Exit {
    if a.files.is_empty() && a.generate.is_none() {
        eprintln!("error: give kernel files, or `--generate N`");
        return Exit::BadInput;
    }
    let cuda = if a.cuda { cuda_gpu() } else { None };
    let cl = match OpenCl::load() {
        Ok(cl) => Some(cl),
        Err(e) if cuda.is_some() => {
            println!("OpenCL: {e}; comparing with CUDA alone");
            None
        }
        Err(e) => {
            eprintln!("kpl difftest: {e}; nothing was compared");
            eprintln!("(install an OpenCL implementation, e.g. Debian's pocl-opencl-icd and ocl-icd-libopencl1)");
            return Exit::Inconclusive;
        }
    };
    if let Some(cl) = &cl {
        println!("comparing with OpenCL on {}", cl.name);
    }
    match &cuda {
        Some(gpu) => println!("comparing with CUDA on {gpu} (nvcc)"),
        None if a.cuda => println!("CUDA: skipped (no `nvcc` with a GPU on this machine)"),
        None => {}
    }
    let mut worst = Exit::Ok;
    let mut agreed = 0u64;
    let mut given = Vec::new();
    for f in &a.inputs {
        let text = match crate::input::read_bytes(f) {
            Ok(t) => String::from_utf8_lossy(&t).into_owned(),
            Err(e) => {
                eprintln!("error: {e}");
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
        let prog = kpl_semantics::compile(&c.core, launch);
        if let Some((f, e)) = given.iter().find_map(|(f, i)| crate::options::fits(&prog, i).err().map(|e| (f, e))) {
            eprintln!("error: `{f}` for {name}: {e}");
            worst = worst.max(Exit::BadInput);
            continue;
        }
        let mut devices: Vec<Box<dyn Device + '_>> = Vec::new();
        if let Some(cl) = &cl {
            devices.push(Box::new(OpenClDevice::new(cl)));
        }
        if cuda.is_some() {
            devices.push(Box::new(CudaDevice::new(&c.kernel.name.name)));
        }
        // The interpreter judges races as `kpl run` does: a `.cu`/`.cl` file tolerates
        // equal-value write-write races (GPUVerify's default), which leave one final value.
        let opts = kpl_semantics::Options { benign: crate::options::benign_by_default(std::path::Path::new(&name)), max_steps: a.max_steps, ..interpreter_options() };
        let v = compare(&mut devices, &c, launch, &sets(a.seed, a.runs), &opts);
        match v {
            Verdict::Agrees { compared: 0, skipped, dropped } if dropped.is_empty() => {
                worst = worst.max(Exit::Inconclusive);
                println!("{name}: not compared: all {} input sets skipped ({})", skipped.total(), skipped.why(a.max_steps));
            }
            Verdict::Agrees { compared: 0, dropped, .. } => {
                worst = worst.max(Exit::Inconclusive);
                println!("{name}: skipped: {}", dropped.join("; "));
            }
            Verdict::Agrees { compared, skipped, dropped } => {
                agreed += 1;
                let mut extra = if skipped.total() > 0 { format!(" ({} input sets skipped: {})", skipped.total(), skipped.why(a.max_steps)) } else { String::new() };
                if !dropped.is_empty() {
                    extra.push_str(&format!("; not compared {}", dropped.join("; ")));
                }
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

/// The most schedules explored per input set of a kernel with atomics (one delay each),
/// and the most thread-statements they may take together.
const MAX_SCHEDULES: usize = 256;
const SCHEDULE_STEPS: u64 = 50_000_000;

/// Run every input set in the interpreter and on each device, and compare the final arrays.
fn compare(devices: &mut [Box<dyn Device + '_>], c: &Checked, launch: Launch, sets: &[InputSet], opts: &kpl_semantics::Options) -> Verdict {
    if launch.total_threads() > sdv::MAX_THREADS {
        return Verdict::Skipped("too many threads for the interpreter".into());
    }
    let prog = kpl_semantics::compile(&c.core, launch);
    let (mut compared, mut skipped) = (0, Skipped::default());
    let mut live = vec![true; devices.len()];
    let mut dropped = Vec::new();
    for s in sets {
        let Reference { inputs, result: res, sizes: sz } = match reference_of(&prog, s, opts) {
            Ok(r) => r,
            Err(why) => {
                match why {
                    Skip::Infeasible => skipped.infeasible += 1,
                    Skip::TooLong => skipped.too_long += 1,
                    Skip::TooLarge => skipped.too_large += 1,
                }
                continue;
            }
        };
        if let Outcome::Defect(d) = &res.outcome {
            return Verdict::Defect(format!("{} with the inputs of {}", d.kind(), s.name()));
        }
        // Atomics may make the result depend on the order in which threads reach them
        // (a ticket counter, say): then no device is wrong to give another of the results.
        if prog.first_snapshot().is_some() {
            return Verdict::Skipped("ghost arrays (`snapshot`) have no device counterpart".into());
        }
        if prog.has_atomics() && prog.has_warp_collectives() {
            return Verdict::Skipped(
                "atomics with warp collectives: the schedule exploration that tells whether the result depends on the order of \
                 the atomics does not model warp collectives"
                    .into(),
            );
        }
        if prog.has_atomics() {
            let schedules = (SCHEDULE_STEPS / res.steps.max(1)).clamp(2, MAX_SCHEDULES as u64) as usize;
            let explored = kpl_semantics::schedules::explore(&prog, &inputs, 1, interpreter_options().max_steps, schedules);
            if explored.differing().next().is_some() {
                return Verdict::Skipped(format!(
                    "the final memory depends on the order of the atomics with the inputs of {} (`{} --delays 1` shows the results)",
                    s.name(),
                    s.replay(&inputs)
                ));
            }
        }
        let mut ran = false;
        for (device, live) in devices.iter_mut().zip(live.iter_mut()) {
            if !*live {
                continue;
            }
            let emitted = emit(&c.core, launch, device.target(), &|n| sz.get(n).copied().unwrap_or(1));
            let ran_here = emitted.map_err(Failure::Skipped).and_then(|e| Ok((device.run(&e, launch, &inputs, &sz)?, e)));
            let (args, e) = match ran_here {
                Ok(x) => x,
                Err(Failure::Differs(msg)) => return Verdict::Differs(format!("{}{msg}", device.label())),
                Err(Failure::Skipped(msg)) => {
                    // This device cannot run the kernel: the others go on.
                    dropped.push(format!("{}{msg}", device.label()));
                    *live = false;
                    continue;
                }
            };
            if let Some(d) = first_difference(&e, &args, &res.memory, launch, &inputs) {
                return Verdict::Differs(format!("{}{}", device.label(), describe(&d, s, &inputs)));
            }
            ran = true;
        }
        if !ran {
            break;
        }
        compared += 1;
    }
    Verdict::Agrees { compared, skipped, dropped }
}

fn describe(d: &crate::difftest::Difference, set: &InputSet, inputs: &Inputs) -> String {
    let group = d.group.map(|g| format!(" of group {g}")).unwrap_or_default();
    format!(
        "{}[{}]{group} is {} in the interpreter and {} on the device (inputs: `{}`)",
        d.array, d.index, d.interpreter, d.device, set.replay(inputs)
    )
}
