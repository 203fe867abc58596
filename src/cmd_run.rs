//! `kpl run`: run a kernel in the SDV reference interpreter on concrete inputs.

use crate::exit::Exit;
use crate::options::{CheckArgs, InputArgs, LaunchArgs};
use crate::{input, render};
use kpl_semantics::report::Outcome;
use kpl_semantics::sdv;
use serde_json::json;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// The kernel file.
    file: PathBuf,
    #[command(flatten)]
    inputs: InputArgs,
    /// Write the final memory as JSON to this file.
    #[arg(long, value_name = "OUT.json")]
    output: Option<PathBuf>,
    /// Give up with outcome `timeout` after this many thread-statements.
    #[arg(long = "max-steps", default_value_t = 100_000_000)]
    max_steps: u64,
    /// Give up with outcome `timeout` (exit 2) after this many seconds, front end included.
    #[arg(long, value_name = "SECONDS", value_parser = crate::options::parse_seconds)]
    timeout: Option<f64>,
    /// Print the last N statements executed before the end (default 200).
    #[arg(long, value_name = "N", num_args = 0..=1, require_equals = true, default_missing_value = "200")]
    trace: Option<usize>,
    /// Print the report as one JSON object.
    #[arg(long)]
    json: bool,
    /// The number of elements of the kernel's unsized arrays (a C kernel's pointer
    /// parameters): `N` for every one, or `NAME=N` each; accesses past them are
    /// out-of-bounds defects.
    #[arg(long = "array-len", value_name = "N|NAME=N,...", value_delimiter = ',')]
    array_len: Vec<String>,
    /// Also explore the schedules of each group's atomics with at most K delays from the
    /// canonical order (NFM 2013's delay bounding), reporting every assertion failure and
    /// every final memory that differs from the canonical schedule's, with its schedule.
    #[arg(long, value_name = "K")]
    delays: Option<usize>,
    /// Judge races by happens-before instead of SDV: one run of every warp interleaved on a
    /// sequentially consistent memory, checked with BARRACUDA's rules (PLDI 2017): fences
    /// and their scopes, releases and acquires through a flag, atomics, barriers per
    /// memory, and with `--warp-sync=N` lock-step warps and branch-ordering races.
    #[arg(long, conflicts_with_all = ["delays", "trace"])]
    hb: bool,
    /// Start only these groups (linear indices, x fastest), the others never: the schedule
    /// where they run first, as `kpl verify` replays a witness's groups. Refused where a
    /// kernel waits for or speaks of every thread (a grid barrier, `global assert`, an
    /// assertion of two threads).
    #[arg(long, value_name = "G,...", value_delimiter = ',', conflicts_with_all = ["delays", "hb"])]
    groups: Option<Vec<u32>>,
    /// With `--delays`: explore at most this many schedules.
    #[arg(long = "max-schedules", value_name = "N", default_value_t = 10_000)]
    max_schedules: usize,
    /// Read `fmaf(a, b, c)` (and `fma`, `mad`) as `a * b + c` rather than an arbitrary float:
    /// the replay of `kpl crosscheck --assume=fma`.
    #[arg(long = "fma-as-mul-add")]
    fma_as_mul_add: bool,
    #[command(flatten)]
    launch: LaunchArgs,
    #[command(flatten)]
    check: CheckArgs,
}

pub fn run(a: Args) -> Exit {
    input::set_warp_sync(a.check.warp_sync);
    let _watchdog = crate::limits::command_watchdog(a.timeout, &a.file.display().to_string(), a.json);
    let largs = LaunchArgs { contract: a.fma_as_mul_add, ..a.launch.clone() };
    let (src, c, launch) = match input::load(&a.file, &largs, true) {
        Ok(x) => x,
        Err(e) => return e,
    };
    if launch.total_threads() > sdv::MAX_THREADS {
        eprintln!(
            "error: the launch has {} threads; the interpreter runs at most {}",
            launch.total_threads(),
            sdv::MAX_THREADS
        );
        return Exit::BadInput;
    }
    if let Err(e) = a.check.known_arrays(&c) {
        return e;
    }
    let mut prog = kpl_semantics::compile(&c.core, launch);
    if let Err(e) = crate::options::ArrayLengths::parse(&a.array_len).and_then(|l| l.apply(&mut prog, None)) {
        eprintln!("error: `--array-len`: {e}");
        return Exit::BadInput;
    }
    let inputs = match a.inputs.inputs(&prog) {
        Ok(i) => i,
        Err(e) => return e,
    };
    if let Some(g) = inputs.grid.filter(|g| *g != launch.groups) {
        let d = crate::host_launch::dims(g);
        eprintln!("error: the input was found under a grid of {d} groups, and this run's grid is {}: give `--gridDim={d}`", crate::host_launch::dims(launch.groups));
        return Exit::BadInput;
    }
    let opts = sdv::Options {
        max_steps: a.max_steps,
        trace: a.trace.unwrap_or(0),
        inter_group: !a.check.only_intra_group,
        benign: a.check.benign(&a.file),
        warp_sync: a.check.warp_sync,
        progress: Some(crate::progress::steps as fn(u64)),
        race_arrays: a.check.race_arrays(),
        // (An input file's `groups`, a witness replayed that way, unless told otherwise.)
        groups: a.groups.clone().or_else(|| inputs.groups.clone()),
    };
    if let Some(gs) = &opts.groups {
        let why = if a.hb || a.delays.is_some() {
            // (An input file's `groups`: the command line's conflict with these already.)
            Some("`--hb` and `--delays` start every group; the input's `groups` is for the plain `kpl run`".to_string())
        } else if gs.is_empty() {
            Some("no group named: at least one must start".to_string())
        } else if !prog.groups_apart() {
            Some("the kernel waits for or speaks of every thread of the launch (a grid barrier, `global assert`, or an assertion of two threads): its groups cannot run apart".to_string())
        } else {
            gs.iter().find(|&&g| g as u64 >= launch.num_groups()).map(|g| format!("group {g} is not in the launch of {} groups", launch.num_groups()))
        };
        if let Some(why) = why {
            eprintln!("error: `--groups`: {why}");
            return Exit::BadInput;
        }
    }
    if let (Some(_), Some(span)) = (a.delays, prog.first_warp_collective()) {
        let d = kpl_lang::Diagnostic::error("`--delays` does not model warp collectives (shuffles, votes) yet", span)
            .with_help("its executor runs one thread at a time; the plain `kpl run` runs warps in lock step");
        input::report(&src, &[d]);
        return Exit::BadInput;
    }
    if let (Some(_), Some(span)) = (a.delays, prog.first_grid_barrier()) {
        let d = kpl_lang::Diagnostic::error("`--delays` does not model grid barriers yet", span)
            .with_help("its executor runs the groups one after another; the plain `kpl run` and `--hb` run them together");
        input::report(&src, &[d]);
        return Exit::BadInput;
    }
    if let (true, Some(span)) = (a.delays.is_some() || a.hb, prog.first_snapshot()) {
        let flag = if a.hb { "--hb" } else { "--delays" };
        let d = kpl_lang::Diagnostic::error(format!("`{flag}` does not model ghost arrays (`snapshot`) yet"), span)
            .with_help("the plain `kpl run` keeps each thread's copy");
        input::report(&src, &[d]);
        return Exit::BadInput;
    }
    let schedules = a.delays.map(|k| kpl_semantics::schedules::explore(&prog, &inputs, k, a.max_steps, a.max_schedules.max(1)));
    let r = if a.hb { kpl_semantics::hb_run::run(&prog, &inputs, &opts) } else { sdv::run(&prog, inputs, &opts) };
    crate::progress::clear();
    // What a `--hb` verdict rests on, for the report.
    let mode = if a.hb { " (happens-before, one interleaving)" } else { "" };
    if let Some(out) = &a.output {
        let text = serde_json::to_string_pretty(&render::memory_json(&r.memory)).unwrap_or_default();
        if let Err(e) = std::fs::write(out, text + "\n") {
            eprintln!("error: cannot write `{}`: {e}", out.display());
            return Exit::BadInput;
        }
    }
    let n = launch.dims_used();
    if a.json {
        let mut v = json!({ "file": src.path, "outcome": r.outcome.name(), "steps": r.steps, "mode": if a.hb { "hb" } else { "sdv" },
                            "memory": render::memory_json(&r.memory) });
        match &r.outcome {
            Outcome::Defect(d) => v["defect"] = render::defect_json(&src.text, d),
            Outcome::Infeasible { span, .. } => {
                let (line, col) = render::pos_json(&src.text, *span);
                v["infeasible_at"] = json!({ "line": line, "col": col });
            }
            _ => {}
        }
        if let Some(e) = &schedules {
            v["schedules"] = crate::schedules_report::json(&src, &prog, e, a.delays.unwrap_or(0));
        }
        if a.trace.is_some() {
            v["trace"] = r
                .trace
                .iter()
                .map(|t| {
                    let info = &prog.stmts[t.stmt as usize];
                    let (line, col) = render::pos_json(&src.text, info.span);
                    json!({ "line": line, "col": col, "stmt": info.text, "enabled": t.enabled })
                })
                .collect();
        }
        println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
    } else {
        if a.trace.is_some() {
            println!("trace (last {} steps):", r.trace.len());
            for t in &r.trace {
                let info = &prog.stmts[t.stmt as usize];
                let (line, col) = render::pos_json(&src.text, info.span);
                println!("  {}:{line}:{col}  {:<40} [{} enabled]", src.path, info.text, t.enabled);
            }
        }
        match &r.outcome {
            Outcome::Ok if a.hb => println!("{}: ok{mode}: no race in {} thread-instructions", src.path, r.steps),
            Outcome::Ok => println!("{}: ok ({} thread-statements)", src.path, r.steps),
            Outcome::Timeout => println!("{}: timeout after {} thread-statements (--max-steps)", src.path, r.steps),
            Outcome::Infeasible { span, thread } => {
                let who = thread.map(|t| format!(" in {}", render::thread_text(&t, n))).unwrap_or_default();
                let d = kpl_lang::Diagnostic::note(format!("infeasible: this is false{who}"), *span)
                    .with_help("the inputs violate a `requires` or an `assume`; the run is not an execution of the kernel");
                input::report(&src, &[d]);
                println!("{}: infeasible", src.path);
            }
            Outcome::Defect(d) => {
                let mut diag = render::defect_diagnostic(d, n, &c.layouts);
                if a.hb && d.kind() == "race" {
                    diag = diag.with_help(
                        "neither access happens before the other: no barrier, lock-step warp or release/acquire pair (a fence of the right scope on each side, releasing before the store and acquiring after the load) orders them",
                    );
                }
                input::report(&src, &[diag]);
                let unit = if a.hb { "thread-instructions" } else { "thread-statements" };
                println!("{}: {} after {} {unit}{mode}", src.path, d.kind(), r.steps);
            }
        }
        if let Some(e) = &schedules {
            crate::schedules_report::text(&src, &prog, e, a.delays.unwrap_or(0), n);
        }
    }
    if schedules.as_ref().is_some_and(crate::schedules_report::found_something) {
        return Exit::Defect;
    }
    match r.outcome {
        Outcome::Ok => Exit::Ok,
        Outcome::Defect(_) => Exit::Defect,
        Outcome::Infeasible { .. } | Outcome::Timeout => Exit::Inconclusive,
    }
}
