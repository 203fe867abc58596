//! `kpl check`: parse, resolve and check kernels.

use crate::exit::Exit;
use crate::input;
use crate::options::LaunchArgs;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// Kernel files (`.kpl`, `.cu`, `.cl`; every kernel of a file of several).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    #[command(flatten)]
    launch: LaunchArgs,
}

pub fn run(a: Args) -> Exit {
    let mut worst = Exit::Ok;
    for f in &a.files {
        // A file of several kernels, none chosen: each is checked, as `verify` does.
        let kernels = input::file_kernels(f, &a.launch);
        if kernels.is_empty() {
            worst = worst.max(check_one(f, &a.launch));
        }
        for k in kernels {
            input::set_kernel(Some(k));
            worst = worst.max(check_one(f, &a.launch));
            input::set_kernel(None);
        }
    }
    worst
}

/// Check the file's kernel (the one chosen, or its only one).
fn check_one(f: &std::path::Path, launch: &LaunchArgs) -> Exit {
    match input::load(f, launch, false) {
        Ok((src, c, l)) => {
            let count = |n: u64, what: &str| match n {
                u64::MAX => format!("more than 2^64 {what}s"),
                1 => format!("1 {what}"),
                n => format!("{n} {what}s"),
            };
            println!(
                "{}: kernel `{}` is well formed ({} of {})",
                src.path,
                c.kernel.name.name,
                count(l.num_groups(), "group"),
                count(l.threads_per_group(), "thread"),
            );
            Exit::Ok
        }
        Err(e) => e,
    }
}
