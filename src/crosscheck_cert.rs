//! A crosscheck's certificate on disk: `kpl crosscheck --certify DIR` writes it for an
//! *equivalent* verdict (`kpl_crosscheck::certificate`), and `kpl check-cert` checks it: the
//! sources written again under a scratch directory, both sides loaded from them with the
//! recorded options exactly as `kpl crosscheck` loads them (`cmd_crosscheck::prepare`),
//! then every path re-run and every proof re-checked, the remaining questions asked of a
//! second solver.

use crate::cmd_crosscheck::{prepare, search_options, Args, Prepared};
use crate::exit::Exit;
use crate::options::ArrayLengths;
use crate::{input, progress};
use clap::Parser;
use kpl_certify::certificate::sha256_hex;
use kpl_crosscheck::certificate::{self, Certificate, SourceFile, FORMAT};
use std::path::{Path, PathBuf};

/// The options of a `kpl crosscheck` command line that decide what is compared: its
/// arguments after the command's name, without the file, `--reference-file` (recorded as
/// its source), and the options that only say where and how to report.
fn recorded_options(a: &Args) -> Vec<String> {
    let argv: Vec<String> = std::env::args().collect();
    let Some(start) = argv.iter().position(|x| x == "crosscheck") else { return Vec::new() };
    let file = a.file.to_string_lossy().into_owned();
    let with_value = ["--reference-file", "--certify", "--witness", "--timeout"];
    let mut out = Vec::new();
    let mut it = argv[start + 1..].iter();
    let mut file_seen = false;
    while let Some(x) = it.next() {
        if with_value.contains(&x.as_str()) {
            it.next();
            continue;
        }
        if with_value.iter().any(|o| x.starts_with(&format!("{o}="))) || x == "--json" {
            continue;
        }
        if !file_seen && *x == file {
            file_seen = true;
            continue;
        }
        out.push(x.clone());
    }
    out
}

fn source_file(path: &Path, text: &str) -> SourceFile {
    SourceFile {
        file: path.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default(),
        source: text.to_string(),
        sha256: sha256_hex(text),
    }
}

fn sides<'a>(p: &'a Prepared, o: &'a kpl_crosscheck::Options) -> certificate::Sides<'a> {
    certificate::Sides {
        kernel: &p.kprog,
        reference: &p.rprog,
        outputs: &p.outputs,
        max_steps: o.max_steps,
        kernel_run: &o.kernel_run,
        reference_run: &o.reference_run,
    }
}

/// Write the certificate of an *equivalent* crosscheck; gives its path and how many
/// paths and proof steps it holds.
pub fn write(a: &Args, p: &Prepared, o: &kpl_crosscheck::Options, report: &kpl_crosscheck::Report, dir: &Path) -> Result<(PathBuf, usize, usize), String> {
    let sides = sides(p, o);
    let paths = certificate::paths(&sides, p.assume, &report.paths)?;
    let steps = paths.iter().flat_map(|p| &p.proofs).map(|e| e.kernel.len() + e.reference.len()).sum();
    let reference_file = match &a.reference_file {
        Some(f) => Some(source_file(f, &std::fs::read_to_string(f).map_err(|e| format!("cannot read `{}`: {e}", f.display()))?)),
        None => None,
    };
    let cert = Certificate {
        format: FORMAT.into(),
        tool: format!("kpl {}", env!("CARGO_PKG_VERSION")),
        kernel: source_file(&a.file, &p.src.text),
        reference_file,
        reference: a.launch.reference.clone().unwrap_or_default(),
        options: recorded_options(a),
        assumptions: p.assume.names().iter().map(|s| s.to_string()).collect(),
        outputs: p.outputs.clone(),
        seed: a.seed,
        paths,
    };
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create `{}`: {e}", dir.display()))?;
    let path = dir.join("certificate.json");
    let text = serde_json::to_string_pretty(&cert).map_err(|e| e.to_string())?;
    std::fs::write(&path, text + "\n").map_err(|e| format!("cannot write `{}`: {e}", path.display()))?;
    Ok((path, cert.paths.len(), steps))
}

/// `kpl crosscheck`'s command line, to read the recorded options with.
#[derive(Parser)]
#[command(name = "crosscheck")]
struct Replay {
    #[command(flatten)]
    a: Args,
}

/// A plain file name (no directory, nothing that climbs out of one).
fn plain_name(f: &str) -> bool {
    !f.is_empty() && f != "." && f != ".." && !f.contains(['/', '\\', '\0'])
}

/// Check a crosscheck certificate (`text`, read from `path`); `prove` asks the second
/// solver.
pub fn check(path: &Path, text: &str, solver: &str, prove: &dyn Fn(&str) -> Result<Vec<String>, String>) -> Exit {
    let cert: Certificate = match serde_json::from_str(text) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: `{}` is not a kpl crosscheck certificate: {e}", path.display());
            return Exit::BadInput;
        }
    };
    let fail = |problems: &[String]| {
        for p in problems {
            eprintln!("error: {p}");
        }
        println!("{}: the certificate does not check ({} problem{})", path.display(), problems.len(), if problems.len() == 1 { "" } else { "s" });
        Exit::Defect
    };
    if cert.format != FORMAT {
        return fail(&[format!("unknown certificate format `{}`", cert.format)]);
    }
    let mut files = vec![&cert.kernel];
    files.extend(&cert.reference_file);
    for f in &files {
        if sha256_hex(&f.source) != f.sha256 {
            return fail(&[format!("the source of `{}` does not match its hash: it was edited", f.file)]);
        }
        if !plain_name(&f.file) {
            return fail(&[format!("`{}` is not a plain file name", f.file)]);
        }
    }
    if cert.reference_file.as_ref().is_some_and(|r| r.file == cert.kernel.file) {
        return fail(&["the kernel's file and the reference's have one name".into()]);
    }
    // The sources under a scratch directory of their own, read as `kpl crosscheck` read them.
    let dir = std::env::temp_dir().join(format!("kpl-check-cert-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("error: cannot create `{}`: {e}", dir.display());
        return Exit::BadInput;
    }
    let result = check_in(&dir, &cert, prove);
    let _ = std::fs::remove_dir_all(&dir);
    match result {
        Ok((r, kernel)) if r.problems.is_empty() => {
            let assumed = if cert.assumptions.is_empty() { String::new() } else { format!(" under {}", cert.assumptions.join(", ")) };
            println!(
                "{}: the certificate checks: kernel `{kernel}` is equivalent to reference `{}`{assumed}: {} path{} re-run ({} compared) cover every input ({solver}); output elements: {} equal as terms, {} by rewrite proofs ({} steps replayed), {} re-proved by {solver}",
                path.display(),
                cert.reference,
                r.paths,
                if r.paths == 1 { "" } else { "s" },
                r.compared,
                r.by_terms,
                r.by_forms,
                r.steps,
                r.by_solver
            );
            Exit::Ok
        }
        Ok((r, _)) => fail(&r.problems),
        Err(problems) => fail(&problems),
    }
}

fn check_in(dir: &Path, cert: &Certificate, prove: &dyn Fn(&str) -> Result<Vec<String>, String>) -> Result<(certificate::CheckReport, String), Vec<String>> {
    let write = |f: &SourceFile| -> Result<PathBuf, Vec<String>> {
        let p = dir.join(&f.file);
        std::fs::write(&p, &f.source).map_err(|e| vec![format!("cannot write `{}`: {e}", p.display())])?;
        Ok(p)
    };
    let kfile = write(&cert.kernel)?;
    let mut argv: Vec<String> = vec!["crosscheck".into(), kfile.to_string_lossy().into_owned()];
    if let Some(r) = &cert.reference_file {
        argv.push("--reference-file".into());
        argv.push(write(r)?.to_string_lossy().into_owned());
    }
    argv.extend(cert.options.iter().cloned());
    let a = match Replay::try_parse_from(&argv) {
        Ok(r) => r.a,
        Err(e) => return Err(vec![format!("the recorded options do not read: {}", e.to_string().lines().next().unwrap_or(""))]),
    };
    if a.certify.is_some() || a.witness.is_some() || a.json || a.timeout.is_some() || a.reference_file.as_ref().is_some_and(|f| !f.starts_with(dir)) {
        return Err(vec!["the recorded options name output or other files".into()]);
    }
    if a.seed != cert.seed {
        return Err(vec![format!("the certificate's seed {} is not its options' {}", cert.seed, a.seed)]);
    }
    let Some(reference) = a.launch.reference.clone() else { return Err(vec!["the recorded options name no reference function".into()]) };
    if reference != cert.reference {
        return Err(vec![format!("the recorded options name the reference `{reference}`, the certificate `{}`", cert.reference)]);
    }
    let lens = ArrayLengths::parse(&a.array_len).map_err(|e| vec![format!("`--array-len`: {e}")])?;
    input::set_warp_sync(a.check.warp_sync);
    input::QUIET_HOST_SKIPS.store(true, std::sync::atomic::Ordering::Relaxed);
    input::QUIET_NOTES.store(true, std::sync::atomic::Ordering::Relaxed);
    let mut kargs = a.launch.clone();
    kargs.reference = None;
    if input::host_contexts(&a.file, &kargs) > 1 {
        return Err(vec!["the program launches the kernel several ways and the options give no launch".into()]);
    }
    input::set_host_context(None);
    let p = prepare(&a, &reference, &lens, &kargs).map_err(|_| vec!["the sources do not load as `kpl crosscheck` loaded them (see above)".to_string()])?;
    if p.double {
        return Err(vec!["a side computes in double precision, which kpl computes as single: no equivalence holds of it".into()]);
    }
    let mut names: Vec<&str> = p.assume.names();
    names.sort_unstable();
    let mut want: Vec<&str> = cert.assumptions.iter().map(String::as_str).collect();
    want.sort_unstable();
    if names != want {
        return Err(vec![format!("the certificate names the assumptions [{}], its options [{}]", want.join(", "), names.join(", "))]);
    }
    if p.outputs != cert.outputs {
        return Err(vec![format!("the arrays compared are [{}], the certificate's [{}]", p.outputs.join(", "), cert.outputs.join(", "))]);
    }
    let o = search_options(&a, p.assume, std::time::Instant::now());
    let sides = sides(&p, &o);
    let show = |m: &str| progress::show(&format!("check-cert: {m}"));
    let r = certificate::check(cert, &sides, prove, &show);
    progress::clear();
    Ok((r, p.kprog.name.clone()))
}
