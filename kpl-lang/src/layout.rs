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
    /// Multi-dimensional arrays, by KPL name: their C dimensions (`L[2][3][4][5]`), so a
    /// report names an element `L[1][2][3][3]` as C does.
    pub dims: BTreeMap<String, Vec<u32>>,
    /// Per-thread arrays (a thread's own array, kept as its region of one global array:
    /// thread `t`'s words `t * n .. (t + 1) * n`, `t` its linear id in the launch), by KPL
    /// name, with their words per thread `n`: neither shared nor global memory to `kpl
    /// perf`; to `kpl verify`, each access is checked to stay in the thread's region, and
    /// so they need no race checks.
    pub private: BTreeMap<String, u32>,
}

impl Layouts {
    fn name<'a>(&'a self, array: &'a str) -> &'a str {
        self.names.get(array).map(|s| s.as_str()).unwrap_or(array)
    }

    /// `[7]`, or `[1][2][3]` for element 7 of a multi-dimensional array (row-major; the
    /// first dimension is not needed).
    fn subscripts(&self, array: &str, element: u64) -> String {
        let Some(dims) = self.dims.get(array).filter(|d| d.len() > 1 && d[1..].iter().all(|&n| n > 0)) else {
            return format!("[{element}]");
        };
        let mut rest = element;
        let mut out = Vec::new();
        for &n in dims[1..].iter().rev() {
            out.push(rest % n as u64);
            rest /= n as u64;
        }
        out.push(rest);
        out.iter().rev().map(|i| format!("[{i}]")).collect()
    }

    /// `A[7]`, `G[3].y`, `q.p[4][0]`, `L[1][2]`: word `index` of `array` as C names it.
    pub fn element_text(&self, array: &str, index: u64) -> String {
        let at = match self.elems.get(array).and_then(|l| l.locate(index)) {
            Some((i, (path, ..))) => format!("{}{path}", self.subscripts(array, i)),
            None => self.subscripts(array, index),
        };
        format!("{}{at}", self.name(array))
    }

    /// GPUVerify's spelling: `G[3] (bytes 4..7)` for arrays of structs and vectors.
    pub fn byte_text(&self, array: &str, index: u64) -> String {
        let at = match self.elems.get(array).and_then(|l| l.locate(index)) {
            Some((i, (_, off, size))) if *size > 1 => format!("{} (bytes {off}..{})", self.subscripts(array, i), off + size - 1),
            Some((i, (_, off, _))) => format!("{} (byte {off})", self.subscripts(array, i)),
            None => self.subscripts(array, index),
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_word_names_its_element_field_and_bytes() {
        // struct { int x; short y; } : x at bytes 0..3, y at 4..5.
        let mut l = Layouts::default();
        l.elems.insert("G".into(), ElemLayout { parts: vec![(".x".into(), 0, 4), (".y".into(), 4, 2)] });
        assert_eq!(l.element_text("G", 7), "G[3].y");
        assert_eq!(l.byte_text("G", 7), "G[3] (bytes 4..5)");
        assert_eq!(l.byte_text("G", 6), "G[3] (bytes 0..3)");
        l.elems.insert("C".into(), ElemLayout { parts: vec![(".a".into(), 0, 1), (".b".into(), 1, 1)] });
        assert_eq!(l.byte_text("C", 3), "C[1] (byte 1)");
        assert_eq!(l.element_text("A", 9), "A[9]");
    }

    #[test]
    fn a_multi_dimensional_element_has_one_subscript_per_dimension() {
        let mut l = Layouts::default();
        l.dims.insert("L".into(), vec![2, 3, 4, 5]);
        assert_eq!(l.element_text("L", 118), "L[1][2][3][3]");
        l.dims.insert("S".into(), vec![2, 3]);
        l.elems.insert("S".into(), ElemLayout { parts: vec![(".x".into(), 0, 4), (".y".into(), 4, 4)] });
        assert_eq!(l.element_text("S", 9), "S[1][1].y");
        assert_eq!(l.byte_text("S", 9), "S[1][1] (bytes 4..7)");
    }
}
