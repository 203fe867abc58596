//! The one `Diagnostic` type of kpl: a message, a primary span, labelled secondary spans
//! and help, rendered with source snippets by codespan-reporting.

use crate::span::{line_col, Span};
use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, termcolor::Buffer};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
    Note,
}

/// A message about the source, pointing at it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub message: String,
    pub span: Span,
    /// What the primary span is (shown under it); empty for none.
    pub label: String,
    pub secondary: Vec<(Span, String)>,
    pub help: Vec<String>,
}

impl Diagnostic {
    pub fn error(message: impl Into<String>, span: Span) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            span,
            label: String::new(),
            secondary: Vec::new(),
            help: Vec::new(),
        }
    }
    pub fn warning(message: impl Into<String>, span: Span) -> Diagnostic {
        Diagnostic { severity: Severity::Warning, ..Diagnostic::error(message, span) }
    }
    pub fn note(message: impl Into<String>, span: Span) -> Diagnostic {
        Diagnostic { severity: Severity::Note, ..Diagnostic::error(message, span) }
    }
    pub fn with_label(mut self, label: impl Into<String>) -> Diagnostic {
        self.label = label.into();
        self
    }
    pub fn with_secondary(mut self, span: Span, label: impl Into<String>) -> Diagnostic {
        self.secondary.push((span, label.into()));
        self
    }
    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help.push(help.into());
        self
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// `file:line:col: severity: message`, one line, for logs and golden files.
    pub fn short(&self, file: &str, src: &str) -> String {
        let (l, c) = line_col(src, self.span.start);
        let sev = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        };
        format!("{file}:{l}:{c}: {sev}: {}", self.message)
    }

    /// The full rendering with source snippets (no colour).
    pub fn render(&self, file: &str, src: &str) -> String {
        render_all(std::slice::from_ref(self), file, src, false)
    }
}

/// Render diagnostics with snippets; `color` adds ANSI colours.
pub fn render_all(diags: &[Diagnostic], file: &str, src: &str, color: bool) -> String {
    let files = SimpleFile::new(file, src);
    let config = term::Config::default();
    let mut buf = if color { Buffer::ansi() } else { Buffer::no_color() };
    for d in diags {
        let clamp = |s: Span| {
            let start = s.start.min(src.len());
            Span::new(start, s.end.clamp(start, src.len()))
        };
        let mut cs = match d.severity {
            Severity::Error => CsDiagnostic::error(),
            Severity::Warning => CsDiagnostic::warning(),
            Severity::Note => CsDiagnostic::note(),
        };
        cs = cs.with_message(d.message.clone());
        let p = clamp(d.span);
        let mut labels = vec![Label::primary((), p.start..p.end).with_message(d.label.clone())];
        for (s, m) in &d.secondary {
            let s = clamp(*s);
            labels.push(Label::secondary((), s.start..s.end).with_message(m.clone()));
        }
        cs = cs.with_labels(labels).with_notes(d.help.iter().map(|h| format!("help: {h}")).collect());
        // Writing into an in-memory buffer cannot fail in a way we could report better.
        let _ = term::emit_to_write_style(&mut buf, &config, &files, &cs);
    }
    String::from_utf8_lossy(buf.as_slice()).into_owned()
}
