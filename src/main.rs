//! The `kpl` command line: parses options (clap), calls the pipeline's stages and renders
//! their reports as text or JSON. The only crate that does file and terminal I/O.

mod ceilings;
mod cmd_certify;
mod cmd_check;
mod cmd_check_cert;
mod cmd_difftest;
mod cmd_emit;
mod cmd_export_isabelle;
mod cmd_fmt;
mod cmd_perf;
mod cmd_run;
mod cmd_testgen;
mod cmd_crosscheck;
mod crosscheck_cert;
mod cmd_verify;
mod difftest;
mod difftest_device;
mod exit;
mod file_tree;
mod gpuverify_text;
mod host_launch;
mod input;
mod limits;
mod isabelle;
mod opencl;
mod options;
mod progress;
mod render;
mod sarif;
mod schedules_report;
mod replay;
mod result_cache;

use clap::{Parser, Subcommand};
use exit::Exit;

/// kpl proves GPU kernels free of data races, barrier divergence, assertion failures and
/// out-of-bounds accesses, for every input and every pair of threads.
#[derive(Parser)]
#[command(name = "kpl", version, about, long_about = None, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// The most memory kpl's heap may use, in MiB (Z3 gets a third as much again); past it
    /// the command ends as inconclusive (exit 2), naming this limit.
    #[arg(long = "memory-limit", value_name = "MiB", global = true, default_value_t = limits::DEFAULT_MEMORY_MIB)]
    memory_limit: u64,
    /// Show at most this many errors per file (0: all).
    #[arg(long = "error-limit", value_name = "N", global = true, default_value_t = input::DEFAULT_ERROR_LIMIT)]
    error_limit: usize,
    /// The language of the kernel files, whatever their names (`.cuh`, `.h`, standard
    /// input given as `-`, which is KPL otherwise): `kpl`, `cuda` or `opencl`.
    #[arg(short = 'x', value_name = "LANG", global = true, value_parser = ["kpl", "cuda", "opencl"])]
    language: Option<String>,
    /// No progress messages (on a terminal a line rewritten in place; elsewhere, as in CI, a
    /// line every 5 s once a run has lasted that long).
    #[arg(short = 'q', long = "quiet", global = true)]
    quiet: bool,
}

#[global_allocator]
static ALLOC: limits::Counting = limits::Counting;

#[derive(Subcommand)]
enum Command {
    /// Parse, resolve and check kernels; print diagnostics (exit 3 on any error).
    Check(cmd_check::Args),
    /// Print a kernel in canonical KPL (with `--core`: its core form, every array access a
    /// basic statement).
    Fmt(cmd_fmt::Args),
    /// Run a kernel in the SDV reference interpreter on concrete inputs (all threads, all
    /// groups); report the first race, divergence, assertion failure or out-of-bounds access.
    Run(cmd_run::Args),
    /// Prove a kernel free of data races, barrier divergence, assertion failures and
    /// out-of-bounds accesses for every input and every pair of threads (GPUVerify's
    /// method); report each defect with a witness replayed in the interpreter.
    Verify(cmd_verify::Args),
    /// Verify a kernel and write its certificate (DIR/certificate.json): the verification
    /// conditions before and after simplification, the rewrite steps between them, the
    /// invariants used and the solver's answers.
    Certify(cmd_certify::Args),
    /// Re-check a certificate without trusting the run that made it: re-derive its
    /// verification conditions from the kernel, replay every rewrite step, and re-prove
    /// every condition with a second solver (cvc5, or a fresh z3 process); for a
    /// crosscheck's (`kpl crosscheck --certify`), re-run every path and check that they
    /// cover every input.
    CheckCert(cmd_check_cert::Args),
    /// Write an Isabelle/HOL session: KPL's SDV semantics, the kernel as a term, and a
    /// lemma (by the compiled semantics) that the executable semantics computes what kpl's interpreter did.
    ExportIsabelle(cmd_export_isabelle::Args),
    /// Emit a kernel as OpenCL C (or CUDA C with `--cuda`) with a host harness.
    Emit(cmd_emit::Args),
    /// Find performance bugs (GKLEE's): shared-memory bank conflicts, uncoalesced global
    /// accesses and divergent warps, on a run or (`--all-inputs`) for every input.
    Perf(cmd_perf::Args),
    /// Generate tests (GKLEE's): explore a kernel's paths over symbolic params and array
    /// contents, keep a small covering set, replay each, and report coverage.
    Testgen(cmd_testgen::Args),
    /// Crosscheck a kernel against the sequential C function it was ported from (KLEE-CL's):
    /// equal outputs on every input of the sizes given, or an input where they differ.
    Crosscheck(cmd_crosscheck::Args),
    /// Run kernels in the interpreter and on a real OpenCL implementation (and CUDA with
    /// `--cuda`) on the same inputs, and compare the final arrays bit for bit.
    Difftest(cmd_difftest::Args),
}

fn main() {
    exit::install_panic_hook();
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { Exit::BadInput } else { Exit::Ok };
            let _ = e.print();
            std::process::exit(code as i32);
        }
    };
    // The process's own limits (`ulimit -v`, a cgroup) lower the stacks and the heap limit.
    let ceilings = ceilings::Ceilings::of_process();
    let threads = std::thread::available_parallelism().map(|n| n.get() as u64).unwrap_or(1);
    let (heap, _) = ceilings.heap_mib(cli.memory_limit, threads);
    limits::set_stack(ceilings.stack());
    limits::set_memory_limit(heap);
    input::set_error_limit(cli.error_limit);
    progress::init(cli.quiet);
    if let Some(l) = &cli.language {
        input::set_language(l);
    }
    kpl_certify::set_solver_memory_limit(heap / 3);
    limits::report_solver_aborts();
    let code = limits::with_big_stack(move || dispatch(cli.command));
    // What is still buffered must reach its reader too (a full disk fails only here).
    match std::io::Write::flush(&mut std::io::stdout()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(exit::CLOSED_PIPE),
        Err(e) => exit::output_failed("output", &e.to_string()),
        Ok(()) => {}
    }
    std::process::exit(code as i32);
}

fn dispatch(command: Command) -> Exit {
    match command {
        Command::Check(a) => cmd_check::run(a),
        Command::Fmt(a) => cmd_fmt::run(a),
        Command::Run(a) => cmd_run::run(a),
        Command::Verify(a) => cmd_verify::run(a),
        Command::Certify(a) => cmd_certify::run(a),
        Command::CheckCert(a) => cmd_check_cert::run(a),
        Command::ExportIsabelle(a) => cmd_export_isabelle::run(a),
        Command::Emit(a) => cmd_emit::run(a),
        Command::Difftest(a) => cmd_difftest::run(a),
        Command::Perf(a) => cmd_perf::run(a),
        Command::Testgen(a) => cmd_testgen::run(a),
        Command::Crosscheck(a) => cmd_crosscheck::run(a),
    }
}

#[cfg(test)]
mod tests {
    /// clap's own checks of the command line (unique names and short flags, defaults that
    /// parse), which it runs only in debug builds otherwise.
    #[test]
    fn the_command_line_is_well_formed() {
        use clap::CommandFactory;
        super::Cli::command().debug_assert();
    }
}
