//! `kpl check-cert`: re-check a certificate independently of the run that made it.

use crate::exit::Exit;
use crate::progress;
use kpl_certify::certificate::Certificate;
use kpl_certify::check_cert;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

#[derive(clap::Args)]
pub struct Args {
    /// The certificate's directory (or the `certificate.json` file itself).
    dir: PathBuf,
    /// The second solver: cvc5, z3, or auto (cvc5 if installed, else a fresh z3 process).
    #[arg(long, value_name = "SOLVER", default_value = "auto")]
    solver: String,
    /// Seconds each verification condition may take in the second solver.
    #[arg(long = "solver-timeout", value_name = "SECONDS", default_value_t = 120)]
    solver_timeout: u64,
}

fn on_path(cmd: &str) -> bool {
    Command::new(cmd).arg("--version").stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok_and(|s| s.success())
}

/// Run a solver on an SMT-LIB script; gives its first answer line.
fn run_solver(solver: &str, timeout: u64, script: &str) -> Result<String, String> {
    run_solver_all(solver, timeout, script).map(|a| a[0].clone())
}

/// Run a solver on an SMT-LIB script of several `(check-sat)`s, each with its own time
/// limit; gives every answer, in order.
fn run_solver_all(solver: &str, timeout: u64, script: &str) -> Result<Vec<String>, String> {
    let mut cmd = match solver {
        "cvc5" => {
            let mut c = Command::new("cvc5");
            c.args(["--lang", "smt2", "--incremental", &format!("--tlimit-per={}", timeout * 1000), "-"]);
            c
        }
        _ => {
            let mut c = Command::new("z3");
            c.args(["-in", "-smt2", &format!("-t:{}", timeout * 1000)]);
            c
        }
    };
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run `{solver}`: {e}"))?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin.write_all(script.as_bytes()).map_err(|e| format!("cannot write to `{solver}`: {e}"))?;
    }
    let out = child.wait_with_output().map_err(|e| format!("`{solver}` failed: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let answers: Vec<String> = text.lines().map(str::trim).filter(|l| ["sat", "unsat", "unknown", "timeout"].contains(l)).map(String::from).collect();
    if answers.is_empty() {
        return Err(format!("no answer from `{solver}`: {} {}", text.trim(), String::from_utf8_lossy(&out.stderr).trim()));
    }
    Ok(answers)
}

pub fn run(a: Args) -> Exit {
    let path = if a.dir.is_dir() { a.dir.join("certificate.json") } else { a.dir.clone() };
    let text = match crate::input::read_bytes(&path) {
        Ok(t) => String::from_utf8_lossy(&t).into_owned(),
        Err(e) => {
            eprintln!("error: {e}");
            return Exit::BadInput;
        }
    };
    let solver = match a.solver.as_str() {
        "auto" => {
            if on_path("cvc5") {
                "cvc5"
            } else {
                "z3"
            }
        }
        "cvc5" | "z3" => a.solver.as_str(),
        other => {
            eprintln!("error: `--solver={other}`: the second solvers are cvc5 and z3");
            return Exit::BadInput;
        }
    };
    if !on_path(solver) {
        eprintln!("error: the second solver `{solver}` is not installed (scripts/setup.sh installs cvc5 and z3)");
        return Exit::BadInput;
    }
    let timeout = a.solver_timeout;
    let prove = |script: &str| run_solver(solver, timeout, script);
    // A crosscheck's certificate (`kpl crosscheck --certify`) is checked its own way.
    let crosscheck = serde_json::from_str::<serde_json::Value>(&text)
        .ok()
        .and_then(|v| v.get("format").and_then(|f| f.as_str()).map(|f| f.starts_with("kpl-crosscheck-certificate/")))
        .unwrap_or(false);
    if crosscheck {
        return crate::crosscheck_cert::check(&path, &text, solver, &|script: &str| run_solver_all(solver, timeout, script));
    }
    let cert: Certificate = match serde_json::from_str(&text) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: `{}` is not a kpl certificate: {e}", path.display());
            return Exit::BadInput;
        }
    };
    let show = |msg: &str| {
        progress::show(&format!("{}: {msg}", path.display()));
    };
    let report = check_cert::check(&cert, &prove, &show);
    progress::clear();
    if report.problems.is_empty() {
        println!(
            "{}: the certificate checks: {} verification conditions re-derived from the kernel and re-proved by {solver}, {} rewrite steps replayed",
            path.display(),
            report.vcs,
            report.steps
        );
        println!("{}: {}", path.display(), cert.coverage(&report.no_wrap));
        Exit::Ok
    } else {
        for p in &report.problems {
            eprintln!("error: {p}");
        }
        println!("{}: the certificate does not check ({} problems)", path.display(), report.problems.len());
        Exit::Defect
    }
}
