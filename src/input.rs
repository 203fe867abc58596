//! Reading kernel files: picks the front end by extension, renders diagnostics to stderr.

use crate::exit::Exit;
use crate::options::LaunchArgs;
use kpl_lang::c::{Dialect, FrontOptions};
use kpl_lang::diagnostic::render_all;
use kpl_lang::{Checked, Diagnostic, Launch};
use std::io::IsTerminal;
use std::path::Path;

/// A source file in memory.
pub struct Source {
    pub path: String,
    pub text: String,
}

/// Read a file; on failure print why and give exit code 3.
pub fn read(path: &Path) -> Result<Source, Exit> {
    match std::fs::read(path) {
        Ok(bytes) => Ok(Source {
            path: path.display().to_string(),
            text: String::from_utf8_lossy(&bytes).into_owned(),
        }),
        Err(e) => {
            eprintln!("error: cannot read `{}`: {e}", path.display());
            Err(Exit::BadInput)
        }
    }
}

/// Print diagnostics for a file to stderr, with colour on a terminal.
pub fn report(src: &Source, diags: &[Diagnostic]) {
    if diags.is_empty() {
        return;
    }
    let color = std::io::stderr().is_terminal();
    eprint!("{}", render_all(diags, &src.path, &src.text, color));
}

/// Load and check a kernel (`.kpl`, `.cu` or `.cl` by extension); diagnostics are
/// printed, errors give exit code 3. Gives the launch to use, too.
pub fn load(path: &Path, args: &LaunchArgs) -> Result<(Source, Checked, Launch), Exit> {
    let src = read(path)?;
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    let (threads, groups) = match args.given() {
        Ok(x) => x,
        Err(e) => {
            eprintln!("error: {e}");
            return Err(Exit::BadInput);
        }
    };
    let result = match ext {
        "kpl" => kpl_lang::check_kpl(&src.text),
        "cu" | "cl" => {
            let dialect = if ext == "cu" { Dialect::Cuda } else { Dialect::OpenCl };
            let launch = match (threads, groups) {
                (Some(t), g) => Some(Launch { threads: t, groups: g.unwrap_or([1, 1, 1]) }),
                (None, Some(_)) => {
                    eprintln!("error: the launch needs the threads per group too (`--blockDim=` or `--local_size=`)");
                    return Err(Exit::BadInput);
                }
                (None, None) => None,
            };
            let o = FrontOptions { dialect, defines: args.defines.clone(), kernel: args.kernel.clone(), launch };
            kpl_lang::c::check_c(&src.text, &o)
        }
        _ => {
            let d = Diagnostic::error(
                format!("unknown kind of kernel file `.{ext}`: expected `.kpl`, `.cu` or `.cl`"),
                kpl_lang::Span::new(0, 0),
            );
            report(&src, &[d]);
            return Err(Exit::BadInput);
        }
    };
    match result {
        Ok(c) => {
            report(&src, &c.warnings);
            let launch = args.apply(Launch::of(&c.kernel));
            Ok((src, c, launch))
        }
        Err(errs) => {
            report(&src, &errs);
            let n = errs.len();
            eprintln!("{}: {n} error{}", src.path, if n == 1 { "" } else { "s" });
            Err(Exit::BadInput)
        }
    }
}
