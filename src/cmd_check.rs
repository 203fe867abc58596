//! `kpl check`: parse, resolve and check kernels.

use crate::exit::Exit;
use crate::input;
use crate::options::LaunchArgs;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// Kernel files (`.kpl`).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    #[command(flatten)]
    launch: LaunchArgs,
}

pub fn run(a: Args) -> Exit {
    let mut worst = Exit::Ok;
    for f in &a.files {
        match input::load(f, &a.launch, false) {
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
            }
            Err(e) => worst = worst.max(e),
        }
    }
    worst
}
