//! Options shared by `run`, `verify` and `certify`, with GPUVerify's spellings.

use kpl_lang::launch::parse_dims;
use kpl_lang::Launch;

/// How to read a kernel file: the launch, and for CUDA/OpenCL files the preprocessor
/// definitions and the kernel to pick.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct LaunchArgs {
    /// Threads per group: N, [X,Y] or [X,Y,Z] (overrides `threads:`; required for .cu).
    #[arg(long = "blockDim", value_name = "DIMS", value_parser = parse_dims)]
    pub block_dim: Option<[u32; 3]>,
    /// Groups: N, [X,Y] or [X,Y,Z] (overrides `groups:`; required for .cu).
    #[arg(long = "gridDim", value_name = "DIMS", value_parser = parse_dims)]
    pub grid_dim: Option<[u32; 3]>,
    /// OpenCL: work-items per work-group (same as --blockDim).
    #[arg(long = "local_size", value_name = "DIMS", value_parser = parse_dims)]
    pub local_size: Option<[u32; 3]>,
    /// OpenCL: work-groups (same as --gridDim).
    #[arg(long = "num_groups", value_name = "DIMS", value_parser = parse_dims)]
    pub num_groups: Option<[u32; 3]>,
    /// OpenCL: work-items in all (each dimension a multiple of --local_size).
    #[arg(long = "global_size", value_name = "DIMS", value_parser = parse_dims)]
    pub global_size: Option<[u32; 3]>,
    /// Define a preprocessor macro: -DNAME or -DNAME=VALUE (CUDA and OpenCL files).
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    pub defines: Vec<String>,
    /// The kernel to check when a CUDA or OpenCL file has several.
    #[arg(long, value_name = "NAME")]
    pub kernel: Option<String>,
}

impl LaunchArgs {
    /// Threads per group and groups as given on the command line, if both are.
    pub fn given(&self) -> Result<(Option<[u32; 3]>, Option<[u32; 3]>), String> {
        let threads = self.block_dim.or(self.local_size);
        let mut groups = self.grid_dim.or(self.num_groups);
        if let Some(global) = self.global_size {
            let Some(t) = threads else {
                return Err("`--global_size` needs `--local_size`".into());
            };
            let mut g = [1u32; 3];
            for d in 0..3 {
                if global[d] % t[d] != 0 {
                    return Err(format!(
                        "`--global_size` is not a multiple of `--local_size` in dimension {d} ({} and {})",
                        global[d], t[d]
                    ));
                }
                g[d] = global[d] / t[d];
            }
            if groups.is_some_and(|x| x != g) {
                return Err("`--global_size` disagrees with `--num_groups`".into());
            }
            groups = Some(g);
        }
        Ok((threads, groups))
    }

    /// A kernel's declared launch with the overrides applied.
    pub fn apply(&self, declared: Launch) -> Launch {
        let (t, g) = self.given().unwrap_or((None, None));
        Launch { groups: g.unwrap_or(declared.groups), threads: t.unwrap_or(declared.threads) }
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
    #[arg(long = "no-benign-tolerance", visible_alias = "no-benign")]
    pub no_benign_tolerance: bool,
}
