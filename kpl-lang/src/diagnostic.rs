//! The one `Diagnostic` type of kpl: a message, a primary span, labelled secondary spans
//! and help, rendered with source snippets by codespan-reporting.

use crate::span::Span;
use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label};
use codespan_reporting::files::SimpleFiles;
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
    /// GPUVerify's words for the same error, where it has them: printed for CUDA and
    /// OpenCL files as GPUVerify prints them (`file:line:col: words`), for scripts and test
    /// suites written against GPUVerify.
    pub gpuverify: Option<String>,
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
            gpuverify: None,
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
    pub fn with_gpuverify(mut self, words: impl Into<String>) -> Diagnostic {
        self.gpuverify = Some(words.into());
        self
    }
    /// GPUVerify's line for this error (`with_gpuverify`), if it has one.
    pub fn gpuverify_line(&self, file: &str, src: &str) -> Option<String> {
        let words = self.gpuverify.as_ref()?;
        let (name, l, c, _) = crate::span::locate(src, self.span.start);
        Some(format!("{}:{l}:{c}: {words}", name.unwrap_or(file)))
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// `file:line:col: severity: message`, one line, for logs and golden files.
    pub fn short(&self, file: &str, src: &str) -> String {
        let (name, l, c, _) = crate::span::locate(src, self.span.start);
        let file = name.unwrap_or(file);
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

/// Source lines longer than this are shown clipped around the spans (minified or
/// generated code can hold a whole kernel on one line).
pub const MAX_LINE: usize = 160;

/// Render diagnostics with snippets; `color` adds ANSI colours. A span in an included
/// file (`sources.rs`) is shown in that file.
pub fn render_all(diags: &[Diagnostic], file: &str, src: &str, color: bool) -> String {
    let segments = crate::sources::segments(src);
    let mut files = SimpleFiles::new();
    let ids: Vec<usize> = segments.iter().map(|g| files.add(g.shown(file), g.text)).collect();
    // The file id and the range within that file of a span.
    let place = |s: Span| {
        let k = crate::sources::index_at(&segments, s.start.min(src.len()));
        let g = &segments[k];
        let start = (s.start - g.start).min(g.text.len());
        (ids[k], start..(s.end.saturating_sub(g.start)).clamp(start, g.text.len()))
    };
    let config = term::Config::default();
    let mut buf = if color { Buffer::ansi() } else { Buffer::no_color() };
    let mut clipped = String::new();
    for d in diags {
        if touches_long_line(d, src) {
            clipped.push_str(&render_clipped(d, file, src));
            continue;
        }
        let mut cs = match d.severity {
            Severity::Error => CsDiagnostic::error(),
            Severity::Warning => CsDiagnostic::warning(),
            Severity::Note => CsDiagnostic::note(),
        };
        cs = cs.with_message(d.message.clone());
        let (f, r) = place(d.span);
        let mut labels = vec![Label::primary(f, r).with_message(d.label.clone())];
        for (s, m) in &d.secondary {
            let (f, r) = place(*s);
            labels.push(Label::secondary(f, r).with_message(m.clone()));
        }
        cs = cs.with_labels(labels).with_notes(d.help.iter().map(|h| format!("help: {h}")).collect());
        // Writing into an in-memory buffer cannot fail in a way we could report better.
        let _ = term::emit_to_write_style(&mut buf, &config, &files, &cs);
    }
    String::from_utf8_lossy(buf.as_slice()).into_owned() + &clipped
}

/// The byte range of the line holding `at`.
fn line_of(src: &str, at: usize) -> (usize, usize) {
    let at = at.min(src.len());
    let start = src[..at].rfind('\n').map_or(0, |i| i + 1);
    let end = src[at..].find('\n').map_or(src.len(), |i| at + i);
    (start, end)
}

fn touches_long_line(d: &Diagnostic, src: &str) -> bool {
    std::iter::once(d.span).chain(d.secondary.iter().map(|s| s.0)).any(|s| {
        let (a, b) = line_of(src, s.start);
        b - a > MAX_LINE
    })
}

/// The largest char boundary of `s` at or before `i`.
fn floor_boundary(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// A diagnostic on a long line: its header, the line clipped to `MAX_LINE` bytes around
/// the primary span with the span marked, secondary spans and help as notes.
fn render_clipped(d: &Diagnostic, file: &str, src: &str) -> String {
    let sev = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    };
    let (name, l, c, _) = crate::span::locate(src, d.span.start);
    let shown = name.unwrap_or(file);
    let (ls, le) = line_of(src, d.span.start);
    let start = d.span.start.clamp(ls, le);
    let from = floor_boundary(src, start.saturating_sub(MAX_LINE / 4).max(ls));
    let to = floor_boundary(src, (from + MAX_LINE).min(le));
    let lead = if from > ls { "…" } else { "" };
    let tail = if to < le { "…" } else { "" };
    let excerpt = &src[from..to];
    let caret_at = src[from..start.min(to)].chars().count() + lead.chars().count();
    let width = src[start.min(to)..d.span.end.clamp(start, to)].chars().count().max(1);
    let num = l.to_string();
    let pad = " ".repeat(num.len());
    let mut out = format!("{sev}: {}\n{pad} ┌─ {shown}:{l}:{c}\n{pad} │\n{num} │ {lead}{excerpt}{tail}\n", d.message);
    out.push_str(&format!("{pad} │ {}{} {}\n", " ".repeat(caret_at), "^".repeat(width), d.label));
    for (s, m) in &d.secondary {
        let (sname, sl, sc, _) = crate::span::locate(src, s.start);
        out.push_str(&format!("{pad} = note: {}:{sl}:{sc}: {m}\n", sname.unwrap_or(file)));
    }
    for h in &d.help {
        out.push_str(&format!("{pad} = help: {h}\n"));
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_line_is_clipped_around_the_span() {
        let src = format!("x;\n{}BAD{}\n", "a ".repeat(5000), " b".repeat(5000));
        let at = src.find("BAD").unwrap();
        let d = Diagnostic::error("bad thing", Span::new(at, at + 3)).with_label("here").with_help("fix it");
        let text = d.render("f.kpl", &src);
        assert!(text.len() < 3 * MAX_LINE, "{} bytes:\n{text}", text.len());
        assert!(text.contains("f.kpl:2:10001"), "{text}");
        let caret_line = text.lines().find(|l| l.contains('^')).unwrap();
        let code_line = text.lines().find(|l| l.contains("BAD")).unwrap();
        assert_eq!(caret_line.find('^').map(|i| caret_line[..i].chars().count()), code_line.find("BAD").map(|i| code_line[..i].chars().count()));
        assert!(text.contains("help: fix it"));
        // Short lines keep the full rendering.
        let short = Diagnostic::error("bad", Span::new(0, 1)).render("f.kpl", "x;\n");
        assert!(short.contains("1 │ x;"), "{short}");
    }
}
