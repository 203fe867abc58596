//! `kpl verify`'s result cache: a kernel verified once with the same options, by the same
//! kpl binary, is answered from the cache in milliseconds, with the very report (standard
//! output, JSON, and the diagnostics on standard error) the first run gave.
//!
//! The key hashes what the answer depends on: the kernel as loaded (the source text, headers
//! included, and the checked KPL kernel with the launch the host code or the command line
//! gave), the command line, whether standard error is a terminal (colours), and the binary
//! (its version, size and modification time: a rebuilt or another kpl never reads what
//! this one wrote). Only decisive answers are kept (verified, defects); an inconclusive one
//! may be a limit another run would not hit. Entries are written to a temporary file and
//! renamed, so parallel runs never read half an entry; one that does not read back is a
//! miss.

use crate::cmd_verify::FileResult;
use crate::exit::Exit;
use serde_json::{json, Value};
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

/// The cache directory: `--cache-dir`, else `$KPL_CACHE_DIR`, `$XDG_CACHE_HOME/kpl`,
/// `$HOME/.cache/kpl`; none where no such place is known.
pub fn dir(given: Option<&Path>) -> Option<PathBuf> {
    if let Some(d) = given {
        return Some(d.to_path_buf());
    }
    let env = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty()).map(PathBuf::from);
    env("KPL_CACHE_DIR").or_else(|| env("XDG_CACHE_HOME").map(|d| d.join("kpl"))).or_else(|| env("HOME").map(|h| h.join(".cache").join("kpl")))
}

/// This binary: its version, and its executable's size and modification time.
fn binary() -> String {
    let exe = std::env::current_exe().ok().and_then(|p| std::fs::metadata(p).ok());
    let (len, modified) = exe.map_or((0, None), |m| (m.len(), m.modified().ok()));
    format!("{} {len} {modified:?}", env!("CARGO_PKG_VERSION"))
}

/// The key of an answer: 128 bits of hash over `parts` and the binary, in hex.
pub fn key(parts: &[&str]) -> String {
    let bin = binary();
    let hash = |seed: u8| {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        seed.hash(&mut h);
        bin.hash(&mut h);
        parts.hash(&mut h);
        h.finish()
    };
    format!("{:016x}{:016x}", hash(1), hash(2))
}

fn code_of(n: i64) -> Option<Exit> {
    [Exit::Ok, Exit::Defect, Exit::Possible].into_iter().find(|e| *e as i64 == n)
}

/// The cached answer for `key`, if there is one.
pub fn get(dir: &Path, key: &str) -> Option<FileResult> {
    let text = std::fs::read_to_string(dir.join(format!("{key}.json"))).ok()?;
    let v: Value = serde_json::from_str(&text).ok()?;
    if v["key"] != key {
        return None;
    }
    let mut json = v.get("json").cloned().filter(|j| !j.is_null());
    // Said in the JSON report: this answer is the one a run before gave.
    match &mut json {
        Some(Value::Object(m)) => {
            m.insert("cached".into(), json!(true));
        }
        Some(Value::Array(vs)) => {
            for j in vs.iter_mut().filter_map(|j| j.as_object_mut()) {
                j.insert("cached".into(), json!(true));
            }
        }
        _ => {}
    }
    Some(FileResult { code: code_of(v["code"].as_i64()?)?, text: v["text"].as_str()?.to_string(), json, stderr: v["stderr"].as_str()?.to_string() })
}

/// Keep answer `r` for `key` (a decisive one; nothing if the cache cannot be written).
pub fn put(dir: &Path, key: &str, r: &FileResult) {
    if code_of(r.code as i64).is_none() || std::fs::create_dir_all(dir).is_err() {
        return;
    }
    let entry = json!({ "key": key, "code": r.code as i64, "text": r.text, "json": r.json, "stderr": r.stderr });
    // One temporary file per process and thread: parallel writers of one key never mix.
    let thread = format!("{:?}", std::thread::current().id()).replace(|c: char| !c.is_ascii_alphanumeric(), "");
    let tmp = dir.join(format!("{key}.{}.{thread}.tmp", std::process::id()));
    if std::fs::write(&tmp, entry.to_string()).is_ok() && std::fs::rename(&tmp, dir.join(format!("{key}.json"))).is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
}
