//! How the words of a lowered array map back to the C elements they hold: an array of
//! structs or vectors is one KPL array of words (ctypes.rs in the C front end), and reports
//! name an element and its field (`G[3].y`), or GPUVerify's byte range (`G[3] (bytes 4..7)`).

use std::collections::BTreeMap;

/// What reports need to name a lowered array's elements as C does.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Layouts {
    /// Arrays of structs or vectors, by KPL name.
    pub elems: BTreeMap<String, ElemLayout>,
    /// Arrays whose C name is not a KPL name (`q.p[4]`, a pointer field of a struct
    /// parameter), by KPL name.
    pub names: BTreeMap<String, String>,
    /// Assertions that are the C front end's null-pointer checks, by span: the pointer
    /// (`` `p` ``, `the pointer `f` returns`), so a report says "null pointer access".
    pub null_checks: BTreeMap<crate::span::Span, String>,
    /// Assertions that are a function's `__requires` checked where it is called, by span:
    /// the calls (GPUVerify reports such a failure at the call).
    pub preconditions: BTreeMap<crate::span::Span, Vec<crate::span::Span>>,
    /// Assertions that are writes to CUDA's `__constant__` memory, by span (GPUVerify
    /// reports such a write where it can happen, "possible attempt to modify constant
    /// memory"; in OpenCL C, where `__constant` qualifies the type, it is a C error).
    pub constant_writes: std::collections::BTreeSet<crate::span::Span>,
    /// The functions whose calls used only their contract (`--no-inline`), which reports
    /// of defects the interpreter does not reproduce name.
    pub contract_calls: std::collections::BTreeSet<String>,
}

impl Layouts {
    fn name<'a>(&'a self, array: &'a str) -> &'a str {
        self.names.get(array).map(|s| s.as_str()).unwrap_or(array)
    }

    /// `A[7]`, `G[3].y`, `q.p[4][0]`: word `index` of `array` as C names it.
    pub fn element_text(&self, array: &str, index: u64) -> String {
        let at = match self.elems.get(array) {
            Some(l) => l.kpl_text(index),
            None => format!("[{index}]"),
        };
        format!("{}{at}", self.name(array))
    }

    /// GPUVerify's spelling: `G[3] (bytes 4..7)` for arrays of structs and vectors.
    pub fn byte_text(&self, array: &str, index: u64) -> String {
        let at = match self.elems.get(array) {
            Some(l) => l.byte_text(index),
            None => format!("[{index}]"),
        };
        format!("{}{at}", self.name(array))
    }
}

/// The layout of one element: a part per word, in word order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ElemLayout {
    /// Per word: its path in the element (`.y`, `.p.x`, `.a[1]`), its byte offset and size.
    pub parts: Vec<(String, u32, u32)>,
}

impl ElemLayout {
    /// Word `word` of the array: the element index, then the part.
    pub fn locate(&self, word: u64) -> Option<(u64, &(String, u32, u32))> {
        let n = self.parts.len() as u64;
        if n == 0 {
            return None;
        }
        Some((word / n, &self.parts[(word % n) as usize]))
    }

    /// `[3].y`: the element and the field a word is.
    pub fn kpl_text(&self, word: u64) -> String {
        match self.locate(word) {
            Some((i, (path, ..))) => format!("[{i}]{path}"),
            None => format!("[{word}]"),
        }
    }

    /// `[3] (bytes 4..7)` or `[3] (byte 2)`: GPUVerify's way.
    pub fn byte_text(&self, word: u64) -> String {
        match self.locate(word) {
            Some((i, (_, off, size))) if *size > 1 => format!("[{i}] (bytes {off}..{})", off + size - 1),
            Some((i, (_, off, _))) => format!("[{i}] (byte {off})"),
            None => format!("[{word}]"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_word_names_its_element_field_and_bytes() {
        // struct { int x; short y; } : x at bytes 0..3, y at 4..5.
        let l = ElemLayout { parts: vec![(".x".into(), 0, 4), (".y".into(), 4, 2)] };
        assert_eq!(l.kpl_text(7), "[3].y");
        assert_eq!(l.byte_text(7), "[3] (bytes 4..5)");
        assert_eq!(l.byte_text(6), "[3] (bytes 0..3)");
        let c = ElemLayout { parts: vec![(".a".into(), 0, 1), (".b".into(), 1, 1)] };
        assert_eq!(c.byte_text(3), "[1] (byte 1)");
    }
}
