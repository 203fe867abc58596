//! Options shared by `run`, `verify` and `certify`, with GPUVerify's spellings.

use kpl_lang::launch::parse_dims;
use kpl_lang::Launch;

#[derive(clap::Args, Clone, Debug, Default)]
pub struct LaunchArgs {
    /// Threads per group: N, [X,Y] or [X,Y,Z] (overrides `threads:`).
    #[arg(long = "blockDim", value_name = "DIMS", value_parser = parse_dims)]
    pub block_dim: Option<[u32; 3]>,
    /// Groups: N, [X,Y] or [X,Y,Z] (overrides `groups:`).
    #[arg(long = "gridDim", value_name = "DIMS", value_parser = parse_dims)]
    pub grid_dim: Option<[u32; 3]>,
}

impl LaunchArgs {
    /// The kernel's declared launch with the overrides applied.
    pub fn apply(&self, declared: Launch) -> Launch {
        Launch { groups: self.grid_dim.unwrap_or(declared.groups), threads: self.block_dim.unwrap_or(declared.threads) }
    }
}

#[derive(clap::Args, Clone, Debug, Default)]
pub struct CheckArgs {
    /// Check races within groups only (no inter-group races).
    #[arg(long = "only-intra-group")]
    pub only_intra_group: bool,
    /// Tolerate write-write races that write equal values (GPUVerify's default).
    #[arg(long = "benign-tolerance", overrides_with = "no_benign_tolerance")]
    pub benign_tolerance: bool,
    /// Report every write-write race, equal values or not (the default, KPL.md).
    #[arg(long = "no-benign-tolerance")]
    pub no_benign_tolerance: bool,
}
