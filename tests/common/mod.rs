//! Helpers shared by the end-to-end tests: running the built `kpl` and finding kernels.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

pub struct Out {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Run the `kpl` binary with arguments.
pub fn kpl(args: &[&str]) -> Out {
    kpl_in(&root(), args)
}

/// Run the `kpl` binary in a directory.
pub fn kpl_in(dir: &Path, args: &[&str]) -> Out {
    let o = Command::new(env!("CARGO_BIN_EXE_kpl")).current_dir(dir).args(args).output().expect("run kpl");
    Out {
        code: o.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The project's kernels with a given extension, sorted.
pub fn kernels(dir: &str, ext: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    v.sort();
    v
}

pub fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The expectations written in a kernel's first lines (`// verify: X`, `// run: Y ARGS`).
pub fn header(p: &Path, key: &str) -> Vec<String> {
    let text = std::fs::read_to_string(p).unwrap();
    text.lines()
        .take(8)
        .filter_map(|l| l.trim().strip_prefix("//").map(str::trim))
        .filter_map(|l| l.strip_prefix(key).and_then(|r| r.strip_prefix(':')).map(|r| r.trim().to_string()))
        .collect()
}

/// A scratch path for this test process, `NAME` under one directory per process
/// (`kpl-test-PID` in the system's temporary directory). The first call removes the
/// directories that processes no longer running left, so runs do not pile up.
pub fn scratch(name: &str) -> PathBuf {
    static ROOT: OnceLock<PathBuf> = OnceLock::new();
    ROOT.get_or_init(|| {
        let tmp = std::env::temp_dir();
        if let Ok(entries) = std::fs::read_dir(&tmp) {
            for e in entries.flatten() {
                let name = e.file_name().to_string_lossy().into_owned();
                let Some(pid) = name.strip_prefix("kpl-test-").and_then(|p| p.parse::<u32>().ok()) else { continue };
                let alive = Path::new("/proc").join(pid.to_string()).exists() || !Path::new("/proc/self").exists();
                if pid != std::process::id() && !alive {
                    let _ = std::fs::remove_dir_all(e.path());
                }
            }
        }
        let root = tmp.join(format!("kpl-test-{}", std::process::id()));
        std::fs::create_dir_all(&root).unwrap();
        root
    })
    .join(name)
}
