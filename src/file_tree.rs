//! The kernel files `kpl verify` takes from a directory: every `.cu`, `.cl` and `.kpl` file
//! under it, in path order, leaving out hidden entries (`.git`), `target/`, what the
//! `.gitignore` files on the way exclude, and what `--exclude` patterns match.
//!
//! Patterns are `.gitignore`'s: `*` any run of characters but `/`, `**` any run of them,
//! `?` one character; a pattern with a `/` (other than a trailing one) is anchored at its
//! `.gitignore`'s directory (at the directory given, for `--exclude`), one without matches a
//! name at any depth; a trailing `/` matches directories only; `!` takes a path back in; `#`
//! starts a comment.

use std::path::{Path, PathBuf};

/// The extensions of kernel files.
const KERNELS: &[&str] = &["cu", "cl", "kpl"];

/// One pattern of a `.gitignore` or `--exclude`, with the directory it is relative to.
#[derive(Clone)]
struct Pattern {
    base: PathBuf,
    glob: String,
    anchored: bool,
    dir_only: bool,
    negated: bool,
}

impl Pattern {
    fn parse(line: &str, base: &Path) -> Option<Pattern> {
        let line = line.trim_end();
        if line.is_empty() || line.starts_with('#') {
            return None;
        }
        let (negated, line) = match line.strip_prefix('!') {
            Some(rest) => (true, rest),
            None => (false, line),
        };
        let (dir_only, line) = match line.strip_suffix('/') {
            Some(rest) => (true, rest),
            None => (false, line),
        };
        let anchored = line.contains('/');
        let glob = line.trim_start_matches('/').to_string();
        (!glob.is_empty()).then(|| Pattern { base: base.to_path_buf(), glob, anchored, dir_only, negated })
    }

    /// Does it match `path` (a directory when `dir`)?
    fn matches(&self, path: &Path, dir: bool) -> bool {
        if self.dir_only && !dir {
            return false;
        }
        let Ok(rel) = path.strip_prefix(&self.base) else { return false };
        let rel = rel.to_string_lossy().replace('\\', "/");
        if self.anchored {
            glob_match(&self.glob, &rel)
        } else {
            rel.rsplit('/').next().is_some_and(|name| glob_match(&self.glob, name))
        }
    }
}

/// `.gitignore`'s glob match of a whole string.
fn glob_match(glob: &str, s: &str) -> bool {
    fn go(g: &[u8], s: &[u8]) -> bool {
        match g.split_first() {
            None => s.is_empty(),
            Some((b'*', rest)) if rest.first() == Some(&b'*') => {
                let rest = rest[1..].strip_prefix(b"/").unwrap_or(&rest[1..]);
                (0..=s.len()).any(|k| go(rest, &s[k..]))
            }
            Some((b'*', rest)) => (0..=s.len()).take_while(|&k| k == 0 || s[k - 1] != b'/').any(|k| go(rest, &s[k..])),
            Some((b'?', rest)) => s.first().is_some_and(|c| *c != b'/') && go(rest, &s[1..]),
            Some((c, rest)) => s.first() == Some(c) && go(rest, &s[1..]),
        }
    }
    go(glob.as_bytes(), s.as_bytes())
}

/// Is `path` excluded by `patterns` (the last that matches decides)?
fn excluded(patterns: &[Pattern], path: &Path, dir: bool) -> bool {
    patterns.iter().rev().find(|p| p.matches(path, dir)).is_some_and(|p| !p.negated)
}

/// The files `paths` name: each file as given, each directory's kernel files (see the
/// module doc). `Err` names a path that cannot be read.
pub fn expand(paths: &[PathBuf], exclude: &[String]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for p in paths {
        if !p.is_dir() {
            out.push(p.clone());
            continue;
        }
        let patterns: Vec<Pattern> = exclude.iter().filter_map(|e| Pattern::parse(e, p)).collect();
        walk(p, &patterns, &mut out)?;
    }
    Ok(out)
}

fn walk(dir: &Path, inherited: &[Pattern], out: &mut Vec<PathBuf>) -> Result<(), String> {
    let mut patterns = inherited.to_vec();
    if let Ok(text) = std::fs::read_to_string(dir.join(".gitignore")) {
        // A directory's own `.gitignore` comes before `--exclude`, which has the last word.
        let own: Vec<Pattern> = text.lines().filter_map(|l| Pattern::parse(l, dir)).collect();
        patterns = own.into_iter().chain(inherited.iter().cloned()).collect();
    }
    let entries = std::fs::read_dir(dir).map_err(|e| format!("cannot read the directory `{}`: {e}", dir.display()))?;
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        let name = path.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
        // Not followed: symbolic links to directories (a loop), hidden entries, build output.
        let is_dir = path.is_dir() && !path.is_symlink();
        if name.starts_with('.') || (is_dir && name == "target") || excluded(&patterns, &path, is_dir) {
            continue;
        }
        if is_dir {
            walk(&path, &patterns, out)?;
        } else if path.extension().is_some_and(|e| KERNELS.contains(&e.to_string_lossy().as_ref())) {
            out.push(path);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_match_as_gitignore_says() {
        assert!(glob_match("*.cu", "a.cu"));
        assert!(!glob_match("*.cu", "d/a.cu"));
        assert!(glob_match("gen/**", "gen/x/y.cu"));
        assert!(glob_match("**/old_*.cl", "a/b/old_k.cl"));
        assert!(glob_match("k?.kpl", "k1.kpl"));
        assert!(!glob_match("k?.kpl", "k12.kpl"));
    }

    #[test]
    fn a_tree_gives_its_kernels_less_what_is_excluded() {
        let root = std::env::temp_dir().join(format!("kpl-tree-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        for f in ["a.cu", "b.txt", "sub/c.cl", "sub/gen/d.cu", "sub/keep.kpl", ".hidden/e.cu", "target/f.cu", "old/g.cu"] {
            let p = root.join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, "").unwrap();
        }
        std::fs::write(root.join(".gitignore"), "gen/\n# a comment\n").unwrap();
        std::fs::write(root.join("sub/.gitignore"), "*.kpl\n!keep.kpl\n").unwrap();
        let got = expand(&[root.clone()], &["old/".into()]).unwrap();
        let rel: Vec<String> = got.iter().map(|p| p.strip_prefix(&root).unwrap().to_string_lossy().replace('\\', "/")).collect();
        assert_eq!(rel, ["a.cu", "sub/c.cl", "sub/keep.kpl"]);
        std::fs::remove_dir_all(&root).ok();
    }
}
