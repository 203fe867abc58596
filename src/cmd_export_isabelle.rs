//! `kpl export-isabelle`: write an Isabelle/HOL session with KPL's semantics, the kernel as a
//! term and the differential check of one run; `kpl certify` adds the
//! certificate's lemmas through `write_session`.

use crate::difftest::{interpreter_options, reference};
use crate::exit::Exit;
use crate::input;
use crate::options::{InputArgs, LaunchArgs};
use kpl_isabelle::kpl_to_isabelle::RunData;
use kpl_isabelle::CertInput;
use kpl_lang::{Checked, Launch};
use kpl_semantics::sdv;
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct Args {
    /// The kernel file.
    file: PathBuf,
    /// The directory to write the session to (created if missing).
    #[arg(short = 'o', long = "output", value_name = "DIR")]
    out: PathBuf,
    /// The inputs of the differential check. Without `--param` or `--input`, the params of
    /// input set `--seed` are shrunk until the run is feasible and at most 50,000
    /// thread-statements long, as `kpl difftest` does.
    #[command(flatten)]
    inputs: InputArgs,
    #[command(flatten)]
    launch: LaunchArgs,
}

pub fn run(a: Args) -> Exit {
    if let Err(e) = input::check_output_dir(&a.out) {
        return e;
    }
    let (src, c, launch) = match input::load(&a.file, &a.launch, true) {
        Ok(x) => x,
        Err(e) => return e,
    };
    if let Some(d) = unsupported(&c) {
        input::report(&src, &[d]);
        return Exit::BadInput;
    }
    let run = match run_for(&c, launch, &src.path, &a.inputs) {
        Ok(r) => r,
        Err(e) => return e,
    };
    match write_session(&a.out, &c, launch, run.as_ref(), None, None) {
        Ok(e) => {
            println!("{}: Isabelle session written to {} ({} files; build with `isabelle build -D {}`)", src.path, a.out.display(), e.files.len(), a.out.display());
            let stated = e.files.iter().any(|(n, t)| n.starts_with("Kernel_") && t.contains("\nlemma run_"));
            match &run {
                Some(r) if stated => println!("differential check: `{}` ends with outcome {}", r.command, r.outcome),
                Some(r) => eprintln!(
                    "note: the session has no differential check: the kernel uses float operations, which the theories leave uninterpreted (`{}` ends with outcome {})",
                    r.command, r.outcome
                ),
                None => {}
            }
            Exit::Ok
        }
        Err(e) => e,
    }
}

/// What keeps a kernel out of the Isabelle export, as a diagnostic.
pub fn unsupported(c: &Checked) -> Option<kpl_lang::Diagnostic> {
    let (span, msg) = kpl_isabelle::kpl_to_isabelle::unsupported(&c.core)?;
    Some(kpl_lang::Diagnostic::error(msg, span))
}

/// The longest run (thread-statements) the differential lemma states when no inputs are
/// given. Isabelle's compiled `run_kernel` keeps memories as chains of function updates, so
/// its time grows with the square of the writes: runs of 19,000 and 35,000 thread-statements
/// writing thousands of elements (`strided_overflow`, `strided_bounded`) took over 300 s,
/// and a kernel's session should check in seconds.
const EVAL_STEPS: u64 = 5_000;

/// The run the differential check states, when the interpreter can do it.
pub fn run_for(c: &Checked, launch: Launch, path: &str, given: &InputArgs) -> Result<Option<RunData>, Exit> {
    if launch.total_threads() > sdv::MAX_THREADS {
        eprintln!("note: the launch is too large for the interpreter; the session has no differential check");
        return Ok(None);
    }
    let prog = kpl_semantics::compile(&c.core, launch);
    let (inputs, result) = if given.params.is_empty() && given.input.is_none() {
        // Short runs: `kpl_run` runs the semantics inside Isabelle, far slower than kpl.
        let short = sdv::Options { max_steps: EVAL_STEPS, ..interpreter_options() };
        match reference(&prog, given.seed, &short) {
            Some(r) => (r.inputs, r.result),
            None => {
                eprintln!("note: no input set near seed {} is feasible and short; the session has no differential check", given.seed);
                return Ok(None);
            }
        }
    } else {
        let inputs = given.inputs(&prog)?;
        let r = kpl_semantics::run(&prog, inputs.clone(), &interpreter_options());
        (inputs, r)
    };
    let params: String = prog.params.iter().map(|p| format!(" --param {p}={}", inputs.param(p))).collect();
    let command = format!("kpl run --seed {}{params} {path}", inputs.seed);
    Ok(Some(crate::isabelle::run_data(&prog, &inputs, &result, command)))
}

/// Write the session (and check its theories with our syntax checker first).
pub fn write_session(
    dir: &Path,
    c: &Checked,
    launch: Launch,
    run: Option<&RunData>,
    cert: Option<CertInput>,
    left_out: Option<&str>,
) -> Result<kpl_isabelle::Export, Exit> {
    let e = kpl_isabelle::export(&c.core, launch, run, &crate::isabelle::rules(), cert, left_out).map_err(|m| {
        eprintln!("kpl: internal error: Isabelle export: {m}");
        Exit::Internal
    })?;
    let problems = kpl_isabelle::syntax_check::check(&e.files);
    if !problems.is_empty() {
        eprintln!("kpl: internal error: the exported theories are malformed:\n  {}", problems.join("\n  "));
        return Err(Exit::Internal);
    }
    std::fs::create_dir_all(dir).map_err(|err| {
        eprintln!("error: cannot create `{}`: {err}", dir.display());
        Exit::BadInput
    })?;
    for (name, text) in &e.files {
        if let Some(parent) = dir.join(name).parent() {
            std::fs::create_dir_all(parent).map_err(|err| {
                eprintln!("error: cannot create `{}`: {err}", parent.display());
                Exit::BadInput
            })?;
        }
        std::fs::write(dir.join(name), text).map_err(|err| {
            eprintln!("error: cannot write `{}`: {err}", dir.join(name).display());
            Exit::BadInput
        })?;
    }
    Ok(e)
}
