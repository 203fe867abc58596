//! Reading kernel files: picks the front end by extension, renders diagnostics to stderr.

use crate::exit::Exit;
use kpl_lang::diagnostic::render_all;
use kpl_lang::{Checked, Diagnostic};
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

/// Load and check a kernel; diagnostics are printed, errors give exit code 3.
pub fn load(path: &Path) -> Result<(Source, Checked), Exit> {
    let src = read(path)?;
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    if ext != "kpl" {
        let d = Diagnostic::error(
            format!("unknown kind of kernel file `.{ext}`: expected `.kpl`"),
            kpl_lang::Span::new(0, 0),
        );
        report(&src, &[d]);
        return Err(Exit::BadInput);
    }
    match kpl_lang::check_kpl(&src.text) {
        Ok(c) => {
            report(&src, &c.warnings);
            Ok((src, c))
        }
        Err(errs) => {
            report(&src, &errs);
            let n = errs.len();
            eprintln!("{}: {n} error{}", src.path, if n == 1 { "" } else { "s" });
            Err(Exit::BadInput)
        }
    }
}
