//! The manual (`docs/`, an mdBook) and the README: every page the book's summary names
//! exists, every link between them and to the repository's files resolves, and every
//! example in a `console` block is what the binary prints today: each `$ kpl ...` line is
//! run (in a scratch directory that sees the repository's `tests/`), and its standard error
//! then standard output must be the lines that follow, times aside (`0.12 s`); a line `...`
//! stands for any lines, and a line ending in `...` for any line that starts as it does.
//! With `mdbook` on the `PATH` (`scripts/setup.sh` installs it), the book is also built.

mod common;
use common::*;
use std::path::{Path, PathBuf};

/// The book's pages and the README.
fn pages() -> Vec<PathBuf> {
    let mut out = vec![root().join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs/src")).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|e| e == "md")).collect();
    docs.sort();
    out.extend(docs);
    out
}

/// The targets of a page's Markdown links, less web addresses and anchors.
fn links(text: &str) -> Vec<String> {
    let re = regex::Regex::new(r"\]\(([^)\s]+)\)").unwrap();
    re.captures_iter(text)
        .map(|c| c[1].split('#').next().unwrap_or("").to_string())
        .filter(|l| !l.is_empty() && !l.starts_with("http://") && !l.starts_with("https://"))
        .collect()
}

#[test]
fn the_book_summary_and_every_link_resolve() {
    let summary = std::fs::read_to_string(root().join("docs/src/SUMMARY.md")).unwrap();
    let named = links(&summary);
    assert!(named.len() >= 10, "{named:?}");
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        for l in links(&text) {
            let target = page.parent().unwrap().join(&l);
            assert!(target.exists(), "{}: a link to `{l}`, which does not exist", page.display());
        }
        // Every page of the book is in its summary.
        if page.starts_with(root().join("docs/src")) && !page.ends_with("SUMMARY.md") {
            let name = page.file_name().unwrap().to_string_lossy().to_string();
            assert!(named.contains(&name), "{name} is not in SUMMARY.md");
        }
        // Nothing outside the repository.
        assert!(!text.contains("../shared/"), "{}: a path outside the repository", page.display());
    }
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    assert!(readme.lines().count() < 250, "the README is the front page; the manual is the book");
}

/// Times vary from run to run.
fn normalise(s: &str) -> String {
    let re = regex::Regex::new(r"\d+\.\d+ s\b").unwrap();
    s.lines().map(|l| re.replace_all(l.trim_end(), "T s").to_string()).collect::<Vec<_>>().join("\n")
}

/// Lines without the blank ones at the end (the block's layout).
fn trim<'a, 'b>(v: &'b [&'a str]) -> &'b [&'a str] {
    let n = v.iter().rposition(|l| !l.is_empty()).map_or(0, |k| k + 1);
    &v[..n]
}

/// Does `actual` (lines) match `expected` (lines, with `...` wildcards)?
fn matches(expected: &[&str], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((&"...", rest)) => (0..=actual.len()).any(|k| matches(rest, &actual[k..])),
        Some((e, rest)) => match actual.split_first() {
            Some((a, arest)) => {
                let ok = match e.strip_suffix("...") {
                    Some(prefix) => a.starts_with(prefix),
                    None => a == e,
                };
                ok && matches(rest, arest)
            }
            None => false,
        },
    }
}

/// The `console` blocks' commands of a page, each with the output that follows it.
fn examples(text: &str) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    let mut in_console = false;
    for line in text.lines() {
        if line.starts_with("```") {
            in_console = !in_console && line.trim() == "```console";
            continue;
        }
        if !in_console {
            continue;
        }
        match line.strip_prefix("$ ") {
            Some(cmd) => out.push((cmd.to_string(), Vec::new())),
            None => {
                if let Some(last) = out.last_mut() {
                    last.1.push(line.to_string());
                }
            }
        }
    }
    out
}

#[test]
fn every_example_output_is_what_the_binary_prints() {
    let scratch = common::scratch("docs");
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).unwrap();
    std::os::unix::fs::symlink(root().join("tests"), scratch.join("tests")).unwrap();
    let mut checked = 0;
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        for (cmd, expected) in examples(&text) {
            let words: Vec<&str> = cmd.split_whitespace().collect();
            assert_eq!(words.first(), Some(&"kpl"), "{}: an example that is not a kpl command: {cmd}", page.display());
            let o = run_example(&scratch, &words[1..]);
            let actual = normalise(&format!("{}{}", o.stderr, o.stdout));
            let expected = normalise(&expected.join("\n"));
            let (a, e): (Vec<&str>, Vec<&str>) = (actual.lines().collect(), expected.lines().collect());
            assert!(matches(trim(&e), trim(&a)), "{}: `{cmd}` prints\n{actual}\n\nwhere the page shows\n{expected}", page.display());
            checked += 1;
        }
    }
    assert!(checked >= 8, "only {checked} examples");
    std::fs::remove_dir_all(&scratch).ok();
}

fn run_example(dir: &Path, args: &[&str]) -> Out {
    // A cache of its own: an example shows what a run prints.
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_kpl")).args(args).current_dir(dir).env("KPL_CACHE_DIR", dir.join(".cache")).output().unwrap();
    Out { code: o.status.code().unwrap_or(-1), stdout: String::from_utf8_lossy(&o.stdout).into_owned(), stderr: String::from_utf8_lossy(&o.stderr).into_owned() }
}

#[test]
fn the_book_builds_where_mdbook_is_installed() {
    let Ok(o) = std::process::Command::new("mdbook").arg("--version").output() else {
        eprintln!("mdbook is not installed (scripts/setup.sh installs it): the book's build is not checked here");
        return;
    };
    assert!(o.status.success());
    let out = scratch("book");
    let b = std::process::Command::new("mdbook").args(["build", "--dest-dir"]).arg(&out).arg(root().join("docs")).output().unwrap();
    assert!(b.status.success(), "{}{}", String::from_utf8_lossy(&b.stdout), String::from_utf8_lossy(&b.stderr));
    assert!(out.join("verify.html").exists());
    std::fs::remove_dir_all(&out).ok();
}
