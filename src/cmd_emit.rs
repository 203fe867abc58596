//! `kpl emit`: a kernel as OpenCL C or CUDA C, with a host harness.

use crate::exit::Exit;
use crate::input;
use crate::options::LaunchArgs;
use kpl_emit::{emit, harness, Target};
use crate::difftest::{interpreter_options, reference};
use kpl_semantics::{sdv, Inputs};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// The kernel file.
    file: PathBuf,
    /// Emit OpenCL C (the default).
    #[arg(long, conflicts_with = "cuda")]
    opencl: bool,
    /// Emit CUDA C.
    #[arg(long)]
    cuda: bool,
    /// Write the kernel, its host harness (`host.c` or `kernel.cu`) and the inputs of
    /// `--seed` (`in.txt`) to this directory; without it, print the kernel.
    #[arg(short = 'o', long = "output", value_name = "DIR")]
    out: Option<PathBuf>,
    /// Seed of the inputs written to `in.txt` (and of the run that sizes unsized arrays).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    #[command(flatten)]
    launch: LaunchArgs,
}

pub fn run(a: Args) -> Exit {
    let (src, c, launch) = match input::load(&a.file, &a.launch, true) {
        Ok(x) => x,
        Err(e) => return e,
    };
    if launch.threads_per_group() > u32::MAX as u64 || launch.num_groups() > u32::MAX as u64 {
        eprintln!("error: the launch has {} threads per group and {} groups; emitted code counts each in 32 bits", launch.threads_per_group(), launch.num_groups());
        return Exit::BadInput;
    }
    let target = if a.cuda { Target::Cuda } else { Target::OpenCl };
    // The inputs of difftest's input set `--seed` (params shrunk until the run is feasible
    // and short); unsized arrays get the size that run needs.
    let prog = kpl_semantics::compile(&c.core, launch);
    let reference = (launch.total_threads() <= sdv::MAX_THREADS).then(|| reference(&prog, a.seed, &interpreter_options())).flatten();
    let (inputs, sizes) = match reference {
        Some(r) => (r.inputs, r.sizes),
        None => {
            // A harness needs each array's size; without a run, an unsized one has none, and
            // a guess would let the kernel write past its buffer (issue 62).
            let no_size: Vec<&str> = prog.arrays.iter().filter(|x| x.size.is_none()).map(|x| x.name.as_str()).collect();
            if !no_size.is_empty() && (a.out.is_some() || a.cuda) {
                eprintln!(
                    "error: {}: no run of input set {} fits the interpreter's budget, so kpl cannot size the unsized array(s) {} that the harness must allocate (it would write past them); try another `--seed`, or declare their sizes",
                    src.path,
                    a.seed,
                    no_size.join(", ")
                );
                return Exit::Inconclusive;
            }
            (Inputs::from_seed(a.seed), Default::default())
        }
    };
    // An array's declared size (the harness and `in.txt` allocate all of it, with or without
    // a run); an unsized one's from the run (1 word without a run, said above).
    let mut sizes = sizes;
    for x in &prog.arrays {
        if let Some(n) = x.size {
            sizes.insert(x.name.clone(), n);
        }
    }
    let size_of = |n: &str| sizes.get(n).copied().unwrap_or(1);
    let e = match emit(&c.core, launch, target, &size_of) {
        Ok(e) => e,
        Err(msg) => {
            eprintln!("error: {}: {msg}", src.path);
            return Exit::BadInput;
        }
    };
    let Some(dir) = a.out else {
        match target {
            Target::OpenCl => print!("{}", e.source),
            Target::Cuda => print!("{}", harness::cuda_program(&e, launch, &size_of)),
        }
        return Exit::Ok;
    };
    let files: Vec<(&str, String)> = match target {
        Target::OpenCl => vec![("kernel.cl", e.source.clone()), ("host.c", harness::opencl_host(&e, launch, &size_of))],
        Target::Cuda => vec![("kernel.cu", harness::cuda_program(&e, launch, &size_of))],
    };
    if let Err(err) = std::fs::create_dir_all(&dir) {
        eprintln!("error: cannot create `{}`: {err}", dir.display());
        return Exit::BadInput;
    }
    let input = crate::difftest::inputs_text(&e, launch, &inputs, &sizes);
    for (name, text) in files.into_iter().chain([("in.txt", input)]) {
        if let Err(err) = std::fs::write(dir.join(name), text) {
            eprintln!("error: cannot write `{}`: {err}", dir.join(name).display());
            return Exit::BadInput;
        }
    }
    let how = match target {
        Target::OpenCl => "cc host.c -lOpenCL -o host && ./host in.txt out.txt",
        Target::Cuda => "nvcc --fmad=false kernel.cu -o kernel && ./kernel in.txt out.txt",
    };
    println!("{}: written to {} (run: cd {} && {how})", src.path, dir.display(), dir.display());
    Exit::Ok
}
