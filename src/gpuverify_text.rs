//! GPUVerify's text report of a defect, printed for `.cu` and `.cl` files in GPUVerify's test
//! format (or with `--gpuverify-text`) beside kpl's own
//! diagnostic, so that scripts and test suites written against GPUVerify read kpl's output.
//!
//! The wording and layout are GPUVerify's (`GPUVerifyErrorReporter`): `possible write-read
//! race on A[3]:` then each access with its thread and source line, `this assertion might not
//! hold for work item ...`, `barrier may be reached by non-uniform control flow`, `possible
//! array out-of-bounds access on array A[9] by ...`. GPUVerify calls every defect
//! "possible"; whether kpl's interpreter confirmed it is in kpl's own diagnostic above it.

use kpl_certify::witness::{Ids, Witness};
use kpl_lang::span::locate;
use kpl_lang::Launch;
use kpl_reduction::seq::{AccessKind, BarrierCheck, LabelKind};

/// How GPUVerify names threads: OpenCL work items or CUDA threads.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    OpenCl,
    Cuda,
}

/// The highest dimension in use (GPUVerify's BlockHighestDim / GridHighestDim), 0-based.
fn highest(d: [u32; 3]) -> usize {
    if d[2] > 1 {
        2
    } else if d[1] > 1 {
        1
    } else {
        0
    }
}

fn tuple(v: [u32; 3], hi: usize, spaces: bool) -> String {
    if hi == 0 {
        return v[0].to_string();
    }
    let sep = if spaces { ", " } else { "," };
    format!("({})", v[..=hi].iter().map(|x| x.to_string()).collect::<Vec<_>>().join(sep))
}

/// `work item 5 with local id 5 in work group 0` (OpenCL) or `thread 5 in thread block 0
/// (global id 5)` (CUDA).
fn thread(t: &Ids, launch: Launch, dialect: Dialect, spaces: bool) -> String {
    let (bh, gh) = (highest(launch.threads), highest(launch.groups));
    let global: [u32; 3] = std::array::from_fn(|k| t.group[k].wrapping_mul(launch.threads[k]).wrapping_add(t.local[k]));
    let (local, group, global) = (tuple(t.local, bh, spaces), tuple(t.group, gh, spaces), tuple(global, bh, spaces));
    match dialect {
        Dialect::OpenCl => format!("work item {global} with local id {local} in work group {group}"),
        Dialect::Cuda => format!("thread {local} in thread block {group} (global id {global})"),
    }
}

/// `path:line:col:` and the source line, indented by two spaces as GPUVerify prints it.
fn place(path: &str, src: &str, start: usize) -> (String, String) {
    let (file, line, col, text) = locate(src, start);
    (format!("{}:{line}:{col}:", file.unwrap_or(path)), format!("  {}", text.trim_start()))
}

/// Where the annotation starts whose argument is the expression at `start` (`__ensures(e)`,
/// `__invariant(e)`), if it is one of `annotations`: GPUVerify reports annotations there.
fn annotation_start(src: &str, start: usize, annotations: &[&str]) -> Option<usize> {
    let before = src.get(..start).unwrap_or("").trim_end();
    let before = before.strip_suffix('(')?.trim_end();
    annotations.iter().find_map(|a| {
        let head = before.strip_suffix(a)?;
        (!head.ends_with(|c: char| c.is_alphanumeric() || c == '_')).then_some(head.len())
    })
}

fn written_in(src: &str, start: usize, annotations: &[&str]) -> bool {
    annotation_start(src, start, annotations).is_some()
}

/// The report of one defect: `label` is what failed, `span` its source span.
#[allow(clippy::too_many_arguments)]
pub fn defect(
    path: &str,
    src: &str,
    kind: &LabelKind,
    span: (usize, usize),
    w: &Witness,
    launch: Launch,
    dialect: Dialect,
    layouts: &crate::render::Layouts,
) -> String {
    // GPUVerify names an element of an array of structs or vectors and its bytes.
    let element = |array: &str| match w.index {
        Some(i) => layouts.byte_text(array, i as u64),
        None => layouts.names.get(array).cloned().unwrap_or_else(|| array.to_string()),
    };
    let at = |start: usize| place(path, src, start);
    let who = |t: usize, spaces: bool| thread(&w.threads[t], launch, dialect, spaces);
    match kind {
        LabelKind::Race { array, second, logged, .. } => {
            let name = |k: AccessKind| match k {
                AccessKind::Read => "Read",
                AccessKind::Write => "Write",
                AccessKind::Atomic => "Atomic",
            };
            let (first, second) = (name(*logged), name(*second));
            let element = element(array);
            let (loc2, line2) = at(span.0);
            let mut out = format!(
                "\n{path}: error: possible {}-{} race on {element}:\n\n{second} by {}, {loc2}\n{line2}\n\n",
                first.to_lowercase(),
                second.to_lowercase(),
                who(1, true)
            );
            // A specification function's accesses (`__writes_to(p)`) are in code nobody
            // sees: GPUVerify says so.
            let seen = |s: &(usize, usize)| !["__writes_to", "__reads_from"].iter().any(|f| src.get(s.0..).is_some_and(|t| t.starts_with(f)));
            match w.logged.filter(seen) {
                Some(s) => {
                    let (loc1, line1) = at(s.0);
                    out.push_str(&format!("{first} by {}, {loc1}\n{line1}\n\n", who(0, true)));
                }
                None => out.push_str(&format!("{first} by {}, from external source location\n\n", who(0, true))),
            }
            out
        }
        LabelKind::Divergence => {
            let (loc, line) = at(span.0);
            format!("\n{loc} error: barrier may be reached by non-uniform control flow\n{line}\n")
        }
        LabelKind::Assertion if layouts.constant_writes.contains(&kpl_lang::Span::new(span.0, span.1)) => {
            let (loc, line) = at(span.0);
            format!("\n{loc} error: possible attempt to modify constant memory\n{line}\n\n")
        }
        LabelKind::Assertion if layouts.null_checks.contains_key(&kpl_lang::Span::new(span.0, span.1)) => {
            let (loc, line) = at(span.0);
            format!("\n{loc} error: possible null pointer access for {}\n{line}\n\n", who(0, true))
        }
        // A barrier invariant's check (its span is the `__barrier_invariant_N(...)` call);
        // the access and uniformity checks are at a read or a variable inside it.
        LabelKind::BarrierInvariant(check) => {
            let start = match check {
                BarrierCheck::Holds => span.0,
                _ => src.get(..span.0).and_then(|b| b.rfind("__barrier_invariant")).unwrap_or(span.0),
            };
            let (loc, line) = at(start);
            let what = match check {
                BarrierCheck::Holds => "this barrier invariant might not hold",
                BarrierCheck::Access => "insufficient permission may be held for evaluation of this barrier invariant",
                BarrierCheck::Uniform => "this barrier invariant uses a value that may differ between the threads of a group",
            };
            format!("\n{loc} error: {what} for {}\n{line}\n\n", who(0, true))
        }
        // A precondition checked at the function's only call: reported there, as GPUVerify.
        LabelKind::Assertion if layouts.preconditions.get(&kpl_lang::Span::new(span.0, span.1)).is_some_and(|c| c.len() == 1) => {
            let call = layouts.preconditions[&kpl_lang::Span::new(span.0, span.1)][0];
            let (cloc, cline) = at(call.start);
            let start = annotation_start(src, span.0, &["__requires", "__global_requires"]).unwrap_or(span.0);
            let (loc, line) = at(start);
            format!("\n{cloc} error: a precondition for this call might not hold\n{cline}\n{loc} note: this is the precondition that might not hold\n{line}\n\n")
        }
        LabelKind::Assertion if written_in(src, span.0, &["__ensures", "__global_ensures"]) => {
            let start = annotation_start(src, span.0, &["__ensures", "__global_ensures"]).unwrap_or(span.0);
            let (loc, line) = at(start);
            format!("\n{loc} error: postcondition might not hold on all return paths\n{line}\n\n")
        }
        LabelKind::Assertion => {
            let (loc, line) = at(span.0);
            format!("\n{loc} error: this assertion might not hold for {}\n{line}\n\n", who(0, true))
        }
        LabelKind::Invariant { entry } => {
            let start = annotation_start(src, span.0, &["__invariant", "__global_invariant", "__function_wide_invariant"]).unwrap_or(span.0);
            let (loc, line) = at(start);
            let what = if *entry { "loop invariant might not hold on entry" } else { "loop invariant might not be maintained by the loop" };
            format!("\n{loc} error: {what} for {}\n{line}\n\n", who(0, true))
        }
        LabelKind::OutOfBounds { array, .. } => {
            let (loc, line) = at(span.0);
            let idx = w.index.map(|i| format!("[{i}]")).unwrap_or_default();
            format!("{loc} error: possible array out-of-bounds access on array {array}{idx} by {}:\n{line}\n\n", who(0, false))
        }
        LabelKind::Candidate { .. } | LabelKind::Perf { .. } => String::new(),
    }
}

/// GPUVerify's list, after each defect, of the kernel's scalar parameters in the witness:
/// `Bitwise values of parameters of 'k':`, then ` name = value` (unsigned) in declaration
/// order and an empty line; nothing for a kernel without any.
pub fn parameters(kernel: &kpl_lang::ast::Kernel, w: &Witness) -> String {
    let lines: String = kernel
        .decls
        .iter()
        .filter_map(|d| match &d.kind {
            kpl_lang::ast::DeclKind::Param(p) => w.params.get(&p.name).map(|v| format!(" {} = {v}\n", p.name)),
            _ => None,
        })
        .collect();
    if lines.is_empty() {
        return String::new();
    }
    format!("Bitwise values of parameters of '{}':\n{lines}\n", kernel.name.name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(group: u32, local: u32) -> Ids {
        Ids { group: [group, 0, 0], local: [local, 0, 0] }
    }

    #[test]
    fn a_race_reads_as_gpuverify_prints_it() {
        let src = "__kernel void foo(__global int *p) {\n  p[0] = get_local_id(0);\n  int y = p[0];\n}\n";
        let w = Witness { threads: [ids(1, 3), ids(1, 4)], index: Some(0), logged: Some((39, 61)), ..Witness::default() };
        let kind = LabelKind::Race { array: "p".into(), array_index: 0, second: AccessKind::Read, logged: AccessKind::Write };
        let launch = Launch::new([2, 1, 1], [8, 1, 1]);
        let text = defect("kernel.cl", src, &kind, (73, 77), &w, launch, Dialect::OpenCl, &Default::default());
        let want = "\nkernel.cl: error: possible write-read race on p[0]:\n\n\
                    Read by work item 12 with local id 4 in work group 1, kernel.cl:3:11:\n  int y = p[0];\n\n\
                    Write by work item 11 with local id 3 in work group 1, kernel.cl:2:3:\n  p[0] = get_local_id(0);\n\n";
        assert_eq!(text, want);
        let cuda = defect("k.cu", src, &kind, (73, 77), &w, launch, Dialect::Cuda, &Default::default());
        assert!(cuda.contains("Read by thread 4 in thread block 1 (global id 12), k.cu:3:11:"), "{cuda}");
    }

    #[test]
    fn multi_dimensional_ids_are_tuples() {
        let t = Ids { group: [0, 0, 0], local: [0, 1, 2] };
        let launch = Launch::new([1, 1, 1], [4, 4, 4]);
        assert_eq!(thread(&t, launch, Dialect::OpenCl, true), "work item (0, 1, 2) with local id (0, 1, 2) in work group 0");
        assert_eq!(thread(&t, launch, Dialect::OpenCl, false), "work item (0,1,2) with local id (0,1,2) in work group 0");
    }

    #[test]
    fn assertions_and_divergence() {
        let src = "x;\n  __assert(x == 0);\n";
        let w = Witness { threads: [ids(0, 2), ids(0, 5)], ..Witness::default() };
        let launch = Launch::new([1, 1, 1], [8, 1, 1]);
        let a = defect("kernel.cl", src, &LabelKind::Assertion, (5, 21), &w, launch, Dialect::OpenCl, &Default::default());
        assert_eq!(a, "\nkernel.cl:2:3: error: this assertion might not hold for work item 2 with local id 2 in work group 0\n  __assert(x == 0);\n\n");
        let src2 = "int f() {\n  __ensures(__return_val_int() > 0);\n";
        let e = defect("kernel.cl", src2, &LabelKind::Assertion, (22, 45), &w, launch, Dialect::OpenCl, &Default::default());
        assert_eq!(e, "\nkernel.cl:2:3: error: postcondition might not hold on all return paths\n  __ensures(__return_val_int() > 0);\n\n");
        assert!(!written_in("x = my__ensures(y)", 16, &["__ensures"]));
        let mut nulls = crate::render::Layouts::default();
        nulls.null_checks.insert(kpl_lang::Span::new(5, 21), "`p`".into());
        let n = defect("kernel.cl", src, &LabelKind::Assertion, (5, 21), &w, launch, Dialect::OpenCl, &nulls);
        assert!(n.contains("kernel.cl:2:3: error: possible null pointer access for work item 2"), "{n}");
        // A precondition checked at its function's only call is reported at the call.
        let src3 = "int f(int a) {\n  __requires(a > 0);\n}\n  x = f(0);\n";
        let mut pre = crate::render::Layouts::default();
        pre.preconditions.insert(kpl_lang::Span::new(17, 35), vec![kpl_lang::Span::new(44, 48)]);
        let p = defect("kernel.cl", src3, &LabelKind::Assertion, (17, 35), &w, launch, Dialect::OpenCl, &pre);
        assert_eq!(
            p,
            "\nkernel.cl:4:7: error: a precondition for this call might not hold\n  x = f(0);\n\
             kernel.cl:2:3: note: this is the precondition that might not hold\n  __requires(a > 0);\n\n"
        );
        let d = defect("kernel.cl", src, &LabelKind::Divergence, (5, 21), &w, launch, Dialect::OpenCl, &Default::default());
        assert!(d.contains("kernel.cl:2:3: error: barrier may be reached by non-uniform control flow\n  __assert(x == 0);"), "{d}");
    }

    #[test]
    fn parameter_values_follow_in_declaration_order() {
        let k = kpl_lang::check_kpl("kernel example { threads: 4; param b; param a; global A[*]; main { A[lid] := a + b; } }").unwrap().kernel;
        let mut w = Witness::default();
        w.params.insert("a".into(), 12);
        w.params.insert("b".into(), 4294967295);
        assert_eq!(parameters(&k, &w), "Bitwise values of parameters of 'example':\n b = 4294967295\n a = 12\n\n");
        let none = kpl_lang::check_kpl("kernel k { threads: 4; global A[*]; main { A[lid] := 1; } }").unwrap().kernel;
        assert_eq!(parameters(&none, &Witness::default()), "");
    }
}
