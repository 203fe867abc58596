//! The front end's entry points: source text of a `.kpl` file to a checked kernel and its
//! core form, with every diagnostic.

use crate::ast::Kernel;
use crate::diagnostic::Diagnostic;
use crate::lexer::Comment;
use crate::{check, core, parser};

/// A kernel that parsed and passed every check.
#[derive(Clone, Debug)]
pub struct Checked {
    /// The kernel as written.
    pub kernel: Kernel,
    /// Its core form: every array access a basic statement.
    pub core: Kernel,
    /// The source's comments (for the formatter).
    pub comments: Vec<Comment>,
    /// Warnings (the kernel is still accepted).
    pub warnings: Vec<Diagnostic>,
    /// Arrays whose elements are C structs or vectors (several words each), by KPL name.
    pub layouts: crate::layout::Layouts,
    /// A C kernel verified under a launch read from host code: its named parameters, each
    /// with the value that launch fixes (`None`: free). Empty otherwise.
    pub launch_params: Vec<(String, Option<i64>)>,
}

/// Parse and check KPL source. `Err` holds every error found (at least one).
pub fn check_kpl(src: &str) -> Result<Checked, Vec<Diagnostic>> {
    let parsed = parser::parse(src);
    let mut errors = parsed.errors;
    let Some(kernel) = parsed.kernel else {
        return Err(errors);
    };
    if let Some(d) = crate::depth::check_kernel(&kernel) {
        errors.push(d);
        return Err(errors);
    }
    errors.extend(check::check(&kernel));
    errors.sort_by_key(|d| d.span.start);
    let (errs, warnings): (Vec<_>, Vec<_>) = errors.into_iter().partition(|d| d.is_error());
    if !errs.is_empty() {
        return Err(errs);
    }
    let core = core::to_core(&kernel);
    Ok(Checked { kernel, core, comments: parsed.comments, warnings, layouts: Default::default(), launch_params: Vec::new() })
}
