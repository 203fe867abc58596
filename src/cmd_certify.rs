//! `kpl certify`: verify, and write the certificate (`DIR/certificate.json`) and (unless
//! `--no-isabelle`) an Isabelle/HOL session whose lemmas are its verification conditions.

use crate::cmd_verify::{analyse, present, VerifyArgs};
use crate::exit::Exit;
use kpl_certify::certificate;
use kpl_certify::Outcome;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// The kernel file.
    file: PathBuf,
    /// The directory to write the certificate to (created if missing).
    #[arg(short = 'o', long = "output", value_name = "DIR")]
    out: PathBuf,
    /// Write the Isabelle/HOL session to DIR too: the semantics, the kernel, and the
    /// certificate's verification conditions as lemmas (see `kpl export-isabelle`). This is
    /// the default (CLI.md); the flag is accepted for explicitness.
    #[arg(long)]
    isabelle: bool,
    /// Write only the certificate, without the Isabelle/HOL session.
    #[arg(long = "no-isabelle", conflicts_with = "isabelle")]
    no_isabelle: bool,
    #[command(flatten)]
    v: VerifyArgs,
}

fn language(path: &std::path::Path) -> &'static str {
    match crate::input::kind_of(path).as_str() {
        "cu" => "cuda",
        "cl" => "opencl",
        _ => "kpl",
    }
}

pub fn run(a: Args) -> Exit {
    if let Err(e) = a.v.validate() {
        eprintln!("error: {e}");
        return Exit::BadInput;
    }
    if let Err(e) = crate::input::check_output_dir(&a.out) {
        return e;
    }
    // The certificate names the kernel's file; a name `check-cert` would refuse is refused
    // here, before any work.
    let file = a.file.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
    if let Some(why) = certificate::file_name_problem(&file, language(&a.file)) {
        eprintln!("error: cannot certify `{}`: {why}; rename the file", a.file.display());
        return Exit::BadInput;
    }
    if let Some(f) = &a.v.launch.reference {
        eprintln!("note: this certifies `{f}` run alone as a one-thread kernel (no defect); the certificate that the kernel computes what `{f}` computes is `kpl crosscheck --reference={f} --certify DIR`");
    }
    let _watchdog = a.v.timeout.map(|t| {
        let path = a.file.display().to_string();
        crate::limits::Watchdog::start(std::time::Duration::from_secs_f64(t) + crate::limits::GRACE, move || {
            crate::progress::clear();
            println!("{path}: inconclusive: the time limit of {t} s ran out (--timeout)");
        })
    });
    let an = match analyse(&a.file, &a.v, true, false, String::new()) {
        Ok(x) => x,
        Err(e) => return e,
    };
    if an.report.outcome != Outcome::Verified || an.functions.iter().any(|(_, f)| f.report.outcome != Outcome::Verified) {
        let r = present(&an, crate::cmd_verify::Presentation::default());
        eprint!("{}", r.stderr);
        print!("{}", r.text);
        eprintln!("no certificate: the kernel is not verified");
        return r.code;
    }
    if crate::input::host_launch_facts() > 0 {
        // `check-cert` reads the kernel again with the front settings the certificate
        // records, and those do not hold what the host code's grid says of the arguments.
        eprintln!("error: no certificate: the kernel was verified under preconditions that `--gridDim` and the host code's grid set together, which a certificate does not record yet; give the whole launch with `--blockDim=` and `--gridDim=` (or add the preconditions as `__requires`)");
        return Exit::BadInput;
    }
    if !an.functions.is_empty() {
        eprintln!(
            "note: the certificate covers the kernel (calls inlined); the checks of its {} device function(s) on their own (--no-inline) passed but are not in it",
            an.functions.len()
        );
    }
    let cert = match certificate::build(
        &file,
        language(&a.file),
        &an.src.text,
        &kpl_certify::certificate::FrontSettings {
            path: a.file.display().to_string(),
            launch_args: crate::input::host_launch_args(),
            ..a.v.launch.front_settings(&an.src.text)
        },
        &an.opts,
        &an.report,
    ) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("kpl: internal error: cannot build the certificate: {e}");
            return Exit::Internal;
        }
    };
    if let Err(e) = std::fs::create_dir_all(&a.out) {
        eprintln!("error: cannot create `{}`: {e}", a.out.display());
        return Exit::BadInput;
    }
    let path = a.out.join("certificate.json");
    let text = match serde_json::to_string_pretty(&cert) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("kpl: internal error: {e}");
            return Exit::Internal;
        }
    };
    if let Err(e) = std::fs::write(&path, text + "\n") {
        eprintln!("error: cannot write `{}`: {e}", path.display());
        return Exit::BadInput;
    }
    let steps: usize = cert.definitions.iter().map(|d| d.term.explanation.len()).sum::<usize>()
        + cert.vcs.iter().map(|v| v.goal.explanation.len()).sum::<usize>();
    let st = &an.report.stats;
    println!(
        "{}: verified; certificate written to {} ({} verification conditions, {} invariants, {} rewrite steps; VC nodes {} -> {})",
        an.src.path,
        path.display(),
        cert.vcs.len(),
        cert.invariants.len(),
        steps,
        st.vc_nodes_before,
        st.vc_nodes_after
    );
    if !an.no_wrap.is_empty() {
        let arrays: Vec<String> = an.no_wrap.iter().map(|a| format!("`{a}`")).collect();
        eprintln!("note: the proof assumes, as GPUVerify does, that the atomic additions to {} never wrap around", arrays.join(", "));
    }
    if a.no_isabelle {
        return Exit::Ok;
    }
    isabelle(&a, &an, &cert)
}

fn isabelle(a: &Args, an: &crate::cmd_verify::Analysed, cert: &certificate::Certificate) -> Exit {
    // A kernel the Isabelle syntax cannot hold, or whose VCs are not those of its plain SDV
    // semantics, gets the certificate alone: its VCs do not depend on the kernel's term.
    let left_out: Option<String> = if an.opts.warp_sync.is_some() {
        Some("the Isabelle semantics has no warp-synchronous mode (`--warp-sync`)".into())
    } else if an.opts.k_induction > 0 {
        Some("the Isabelle semantics' loop rule is plain induction, and these VCs are k-induction's (`--k-induction-depth`)".into())
    } else {
        crate::cmd_export_isabelle::unsupported(&an.checked).map(|d| {
            let why = d.message.clone();
            crate::input::report(&an.src, &[kpl_lang::Diagnostic { severity: kpl_lang::diagnostic::Severity::Warning, ..d }]);
            why
        })
    };
    if let Some(why) = &left_out {
        eprintln!("note: the Isabelle session holds the certificate but not the kernel as a term: {why}");
    }
    let name = an.checked.kernel.name.name.clone();
    let data = match crate::isabelle::certificate(&name, cert) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("kpl: internal error: the certificate does not replay: {e}");
            return Exit::Internal;
        }
    };
    let run = if left_out.is_some() {
        None
    } else {
        match crate::cmd_export_isabelle::run_for(&an.checked, an.launch, &an.src.path, &Default::default()) {
            Ok(r) => r,
            Err(e) => return e,
        }
    };
    let input = kpl_isabelle::CertInput { cert: &data, lemmas: Some(&crate::isabelle::theory_lemmas) };
    match crate::cmd_export_isabelle::write_session(&a.out, &an.checked, an.launch, run.as_ref(), Some(input), left_out.as_deref()) {
        Ok(e) => {
            let n = e.kernel_checked + e.oracle;
            println!(
                "Isabelle session written to {} (build with `isabelle build -D {}`): {} of {n} verification conditions are checked by Isabelle's kernel alone ({}%: {} simplify to False, {} follow from theory lemmas); {} {} closed by the SMT oracle",
                a.out.display(),
                a.out.display(),
                e.kernel_checked,
                (e.kernel_checked * 100).checked_div(n).unwrap_or(100),
                e.kernel_checked - e.from_lemmas,
                e.from_lemmas,
                e.oracle,
                if e.oracle == 1 { "is" } else { "are" }
            );
            Exit::Ok
        }
        Err(e) => e,
    }
}
