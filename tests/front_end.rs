//! End-to-end tests of `kpl check` and `kpl fmt` over the project's kernels.

mod common;
use common::*;
use kpl_lang::core::strip_spans;

#[test]
fn check_accepts_every_project_kernel() {
    let ks = kernels("tests/kernels", "kpl");
    assert!(ks.len() >= 18);
    for k in ks {
        let o = kpl(&["check", s(&k)]);
        assert_eq!(o.code, 0, "{}: {}", k.display(), o.stderr);
    }
}

#[test]
fn fmt_is_a_fixed_point_and_keeps_the_ast() {
    let dir = scratch("fmt");
    std::fs::create_dir_all(&dir).unwrap();
    for k in kernels("tests/kernels", "kpl") {
        let once = kpl(&["fmt", s(&k)]);
        assert_eq!(once.code, 0, "{}: {}", k.display(), once.stderr);
        let tmp = dir.join(k.file_name().unwrap());
        std::fs::write(&tmp, &once.stdout).unwrap();
        let twice = kpl(&["fmt", s(&tmp)]);
        assert_eq!(once.stdout, twice.stdout, "{}: fmt(fmt(k)) != fmt(k)", k.display());
        let orig = kpl_lang::check_kpl(&std::fs::read_to_string(&k).unwrap()).unwrap();
        let formatted = kpl_lang::check_kpl(&once.stdout).unwrap();
        assert_eq!(strip_spans(&orig.kernel), strip_spans(&formatted.kernel), "{}: AST changed", k.display());
        // Comments survive formatting.
        assert_eq!(orig.comments.len(), formatted.comments.len(), "{}: comments lost", k.display());
        // The core form is itself a well-formed kernel.
        let core = kpl(&["fmt", "--core", s(&k)]);
        assert_eq!(core.code, 0);
        assert!(kpl_lang::check_kpl(&core.stdout).is_ok(), "{}: core form does not check", k.display());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_exits_3_naming_file_line_col() {
    let bad = root().join("kpl-lang/tests/diagnostics/undeclared.kpl");
    let o = kpl(&["check", s(&bad)]);
    assert_eq!(o.code, 3);
    assert!(o.stderr.contains("undeclared.kpl:4:16"), "{}", o.stderr);
    assert!(o.stderr.contains("`y` is not declared"), "{}", o.stderr);
    let o = kpl(&["fmt", s(&bad)]);
    assert_eq!(o.code, 3);
    let missing = kpl(&["check", "/nonexistent/k.kpl"]);
    assert_eq!(missing.code, 3);
    assert!(missing.stderr.contains("cannot read"));
}

#[test]
fn unknown_options_and_commands_exit_3() {
    assert_eq!(kpl(&["frobnicate"]).code, 3);
    let o = kpl(&["check", "--no-such-option", "x.kpl"]);
    assert_eq!(o.code, 3);
}

#[test]
fn help_says_what_each_command_does() {
    let o = kpl(&["--help"]);
    assert_eq!(o.code, 0);
    assert!(o.stdout.contains("check") && o.stdout.contains("fmt"));
    let o = kpl(&["fmt", "--help"]);
    assert!(o.stdout.contains("--core"));
}
