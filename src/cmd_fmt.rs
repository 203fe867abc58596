//! `kpl fmt`: print a kernel in canonical KPL, or its core form.

use crate::exit::Exit;
use crate::input;
use kpl_lang::printer;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// The kernel file.
    file: PathBuf,
    /// Print the core form: array reads hoisted into their own basic statements.
    #[arg(long)]
    core: bool,
}

pub fn run(a: Args) -> Exit {
    let (src, c) = match input::load(&a.file) {
        Ok(x) => x,
        Err(e) => return e,
    };
    let text = if a.core {
        printer::print_kernel(&c.core)
    } else {
        printer::format_source(&c.kernel, &src.text, &c.comments)
    };
    print!("{text}");
    Exit::Ok
}
