//! A source made of several files, as one text: a C kernel followed by the headers it
//! includes, each after a marker line that names it. Spans stay byte offsets into that one
//! text; `segment_at` says which file an offset is in, and `span::line_col` counts lines
//! and columns within that file.

/// Starts each included file's segment: the marker, the file's name, a newline, its text.
/// A NUL byte does not occur in C or KPL sources, so the marker cannot be mistaken.
pub const MARK: &str = "\n\u{0}#kpl-file ";

/// One file of a source: its name (`None` for the main file, whose name the caller
/// knows), where its text starts in the source, and its text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment<'a> {
    pub name: Option<&'a str>,
    pub start: usize,
    pub text: &'a str,
}

impl<'a> Segment<'a> {
    /// The name to show: the segment's own, or the main file's.
    pub fn shown(&self, main: &'a str) -> &'a str {
        self.name.unwrap_or(main)
    }
}

/// Every file of a source, the main file first.
pub fn segments(src: &str) -> Vec<Segment<'_>> {
    let mut out = Vec::new();
    let mut marks: Vec<usize> = src.match_indices(MARK).map(|(i, _)| i).collect();
    marks.push(src.len());
    out.push(Segment { name: None, start: 0, text: &src[..marks[0]] });
    for w in marks.windows(2) {
        let head = w[0] + MARK.len();
        let nl = src[head..w[1]].find('\n').map_or(w[1], |i| head + i);
        let start = (nl + 1).min(w[1]);
        out.push(Segment { name: Some(&src[head..nl]), start, text: &src[start..w[1]] });
    }
    out
}

/// The file that holds byte `offset` of the source.
pub fn segment_at(src: &str, offset: usize) -> Segment<'_> {
    let offset = floor_char(src, offset.min(src.len()));
    let Some(m) = src[..offset].rfind(MARK) else {
        let end = src.find(MARK).unwrap_or(src.len());
        return Segment { name: None, start: 0, text: &src[..end] };
    };
    let head = m + MARK.len();
    let end = src[head..].find(MARK).map_or(src.len(), |i| head + i);
    let nl = src[head..end].find('\n').map_or(end, |i| head + i);
    let start = (nl + 1).min(end);
    Segment { name: Some(&src[head..nl]), start, text: &src[start..end] }
}

/// Which of `segments` (as `segments` gives them) holds byte `offset`.
pub fn index_at(segments: &[Segment], offset: usize) -> usize {
    segments.iter().rposition(|g| g.start <= offset).unwrap_or(0)
}

/// Append an included file's text to a source; gives where its text starts.
pub fn append(src: &mut String, name: &str, text: &str) -> usize {
    src.push_str(MARK);
    src.push_str(&name.replace(['\n', '\0'], "?"));
    src.push('\n');
    let start = src.len();
    src.push_str(&text.replace('\0', " "));
    start
}

fn floor_char(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_map_to_their_file() {
        let mut src = String::from("int a;\nint b;\n");
        let h = append(&mut src, "dir/h.h", "#define X 1\nint c;\n");
        let g = append(&mut src, "g.h", "int d;");
        let segs = segments(&src);
        assert_eq!(segs.len(), 3);
        assert_eq!(segs[0].text, "int a;\nint b;\n");
        assert_eq!(segs[1], Segment { name: Some("dir/h.h"), start: h, text: "#define X 1\nint c;\n" });
        assert_eq!(segs[2].text, "int d;");
        assert_eq!(segment_at(&src, 3).name, None);
        assert_eq!(segment_at(&src, h + 13).name, Some("dir/h.h"));
        assert_eq!(segment_at(&src, g).start, g);
        assert_eq!(crate::span::line_col(&src, h + 12), (2, 1));
        assert_eq!(crate::span::line_col(&src, 8), (2, 2));
        assert_eq!(crate::span::line_col(&src, g + 4), (1, 5));
    }
}
