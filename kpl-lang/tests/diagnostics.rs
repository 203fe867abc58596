//! Golden tests: each `diagnostics/*.kpl` is malformed in one way; its diagnostics must
//! match `*.expected` beside it (refresh with `UPDATE_EXPECT=1 cargo test`).

use kpl_lang::span::line_col;
use kpl_lang::{check_kpl, Diagnostic};
use std::path::Path;

fn render(name: &str, src: &str, diags: &[Diagnostic]) -> String {
    let mut out = String::new();
    for d in diags {
        out.push_str(&d.short(name, src));
        out.push('\n');
        if !d.label.is_empty() {
            out.push_str(&format!("  label: {}\n", d.label));
        }
        for (sp, l) in &d.secondary {
            let (line, col) = line_col(src, sp.start);
            out.push_str(&format!("  at {line}:{col}: {l}\n"));
        }
        for h in &d.help {
            out.push_str(&format!("  help: {h}\n"));
        }
    }
    out
}

#[test]
fn every_malformed_kernel_gets_its_diagnostics() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/diagnostics");
    let update = std::env::var("UPDATE_EXPECT").is_ok();
    let mut entries: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    let mut failures = Vec::new();
    let mut count = 0;
    for path in entries.iter().filter(|p| p.extension().is_some_and(|e| e == "kpl")) {
        count += 1;
        let src = std::fs::read_to_string(path).unwrap();
        let name = path.file_name().unwrap().to_str().unwrap();
        let diags = match check_kpl(&src) {
            Ok(_) => Vec::new(),
            Err(d) => d,
        };
        assert!(!diags.is_empty(), "{name}: expected at least one error, the kernel was accepted");
        let got = render(name, &src, &diags);
        let exp_path = path.with_extension("expected");
        if update {
            std::fs::write(&exp_path, &got).unwrap();
            continue;
        }
        let want = std::fs::read_to_string(&exp_path).unwrap_or_default();
        if got != want {
            failures.push(format!("--- {name}\nexpected:\n{want}got:\n{got}"));
        }
    }
    assert!(count >= 40, "only {count} golden inputs found");
    assert!(failures.is_empty(), "{} golden mismatches (UPDATE_EXPECT=1 to refresh):\n{}", failures.len(), failures.join("\n"));
}
