//! `kpl fmt`: print a kernel in canonical KPL, or its core form.

use crate::exit::Exit;
use crate::input;
use crate::options::LaunchArgs;
use kpl_lang::printer;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// The kernel file.
    file: PathBuf,
    /// Print the core form: array reads hoisted into their own basic statements.
    #[arg(long)]
    core: bool,
    #[command(flatten)]
    launch: LaunchArgs,
}

pub fn run(a: Args) -> Exit {
    let (src, c, _) = match input::load(&a.file, &a.launch, false) {
        Ok(x) => x,
        Err(e) => return e,
    };
    let is_kpl = input::kind_of(&a.file) == "kpl";
    let text = if a.core {
        printer::print_kernel(&c.core)
    } else if is_kpl {
        printer::format_source(&c.kernel, &src.text, &c.comments)
    } else {
        // A CUDA or OpenCL file: the KPL it lowers to.
        printer::print_kernel(&c.kernel)
    };
    print!("{text}");
    Exit::Ok
}
