//! Byte spans into a source file, and their conversion to line and column.

use serde::{Deserialize, Serialize};

/// A half-open byte range `[start, end)` into one source file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }
    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
    /// A span that points nowhere in particular (generated code with no source).
    pub const DUMMY: Span = Span { start: 0, end: 0 };
}

/// Line and column (both 1-based; the column counts characters) of a byte offset, within
/// the file that holds it (a source may hold included files, `sources.rs`).
pub fn line_col(src: &str, offset: usize) -> (usize, usize) {
    let seg = crate::sources::segment_at(src, offset);
    line_col_in(seg.text, offset.saturating_sub(seg.start))
}

/// Where a byte offset is: the file (`None`: the main one), line and column, and the text
/// of that line.
pub fn locate(src: &str, offset: usize) -> (Option<&str>, usize, usize, &str) {
    let seg = crate::sources::segment_at(src, offset);
    let (line, col) = line_col_in(seg.text, offset.saturating_sub(seg.start));
    (seg.name, line, col, seg.text.lines().nth(line - 1).unwrap_or(""))
}

fn line_col_in(src: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(src.len());
    let mut line = 1;
    let mut line_start = 0;
    for (i, b) in src.bytes().enumerate().take(offset) {
        if b == b'\n' {
            line += 1;
            line_start = i + 1;
        }
    }
    let col = src
        .get(line_start..offset)
        .map(|s| s.chars().count())
        .unwrap_or(offset - line_start)
        + 1;
    (line, col)
}
