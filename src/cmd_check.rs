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
        match input::load(f, &a.launch) {
            Ok((src, c, l)) => {
                println!(
                    "{}: kernel `{}` is well formed ({} group{} of {} thread{})",
                    src.path,
                    c.kernel.name.name,
                    l.num_groups(),
                    if l.num_groups() == 1 { "" } else { "s" },
                    l.threads_per_group(),
                    if l.threads_per_group() == 1 { "" } else { "s" },
                );
            }
            Err(e) => worst = worst.max(e),
        }
    }
    worst
}
