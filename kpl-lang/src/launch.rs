//! The launch configuration: groups and threads per group in three dimensions, from a
//! kernel's declarations and the command line's overrides (GPUVerify's `--blockDim=` forms).

use crate::ast::Kernel;
use serde::{Deserialize, Serialize};

/// Groups (`gridDim`) and threads per group (`blockDim`), x then y then z.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Launch {
    pub groups: [u32; 3],
    pub threads: [u32; 3],
    /// The axes whose number of groups is not fixed: any from 1 to `groups` on that axis
    /// (a grid the host code computes from values it reads at run time). The verifier
    /// takes each as a symbolic size; the interpreter runs only fixed launches (a
    /// witness's `Launch::fixed_by`).
    #[serde(default, skip_serializing_if = "none_free")]
    pub free_groups: [bool; 3],
}

fn none_free(f: &[bool; 3]) -> bool {
    *f == [false; 3]
}

/// CUDA's largest grid: 2^31 - 1 blocks on x, 65535 on y and z.
pub const MAX_GRID: [u32; 3] = [i32::MAX as u32, 65535, 65535];

impl Launch {
    /// A fixed launch of `groups` groups of `threads` threads.
    pub fn new(groups: [u32; 3], threads: [u32; 3]) -> Launch {
        Launch { groups, threads, free_groups: [false; 3] }
    }
    /// Whether some axis's number of groups is free.
    pub fn has_free_groups(&self) -> bool {
        self.free_groups.iter().any(|&f| f)
    }
    /// The launch with the free axes' sizes fixed to `grid`'s.
    pub fn fixed_by(&self, grid: [u32; 3]) -> Launch {
        let groups = [0, 1, 2].map(|a| if self.free_groups[a] { grid[a].max(1) } else { self.groups[a] });
        Launch::new(groups, self.threads)
    }
    /// The smallest launch this one allows: each free axis at one group.
    pub fn least(&self) -> Launch {
        self.fixed_by([1, 1, 1])
    }
    /// The launch a kernel declares (a missing `groups:` is 1; a missing `threads:` is
    /// rejected by the checker, so 1 here is never used for a checked kernel).
    pub fn of(k: &Kernel) -> Launch {
        let clamp = |d: [u64; 3]| d.map(|x| x.clamp(1, u32::MAX as u64) as u32);
        Launch::new(
            clamp(k.declared_dims(false).unwrap_or([1, 1, 1])),
            clamp(k.declared_dims(true).unwrap_or([1, 1, 1])),
        )
    }
    /// The sizes multiply without overflow: a product past `u64::MAX` saturates (any
    /// launch that large is refused as too large wherever its size matters).
    pub fn threads_per_group(&self) -> u64 {
        self.threads.iter().fold(1u64, |p, &x| p.saturating_mul(x as u64))
    }
    pub fn num_groups(&self) -> u64 {
        self.groups.iter().fold(1u64, |p, &x| p.saturating_mul(x as u64))
    }
    pub fn total_threads(&self) -> u64 {
        self.threads_per_group().saturating_mul(self.num_groups())
    }
    /// The dimensionality in use: 1 unless a y or z size is over 1.
    pub fn dims_used(&self) -> usize {
        let d = |a: [u32; 3]| if a[2] > 1 { 3 } else if a[1] > 1 { 2 } else { 1 };
        d(self.groups).max(d(self.threads))
    }
}

/// Parse a dimension option value: `N`, `[X,Y]`, `[X,Y,Z]` (also `X,Y` without brackets).
pub fn parse_dims(s: &str) -> Result<[u32; 3], String> {
    let t = s.trim();
    let inner = t.strip_prefix('[').and_then(|x| x.strip_suffix(']')).unwrap_or(t);
    let parts: Vec<&str> = inner.split(',').map(|p| p.trim()).collect();
    if parts.is_empty() || parts.len() > 3 {
        return Err(format!("`{s}` is not a size: expected N, [X,Y] or [X,Y,Z]"));
    }
    let mut out = [1u32; 3];
    for (i, p) in parts.iter().enumerate() {
        let v = if let Some(h) = p.strip_prefix("0x").or_else(|| p.strip_prefix("0X")) {
            u32::from_str_radix(h, 16)
        } else {
            p.parse::<u32>()
        };
        match v {
            Ok(0) => return Err(format!("`{s}`: every dimension must be at least 1")),
            Ok(v) => out[i] = v,
            Err(_) => return Err(format!("`{s}` is not a size: expected N, [X,Y] or [X,Y,Z] of 32-bit numbers")),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dims_forms() {
        assert_eq!(parse_dims("64"), Ok([64, 1, 1]));
        assert_eq!(parse_dims("[16,16]"), Ok([16, 16, 1]));
        assert_eq!(parse_dims("[2, 3, 4]"), Ok([2, 3, 4]));
        assert_eq!(parse_dims("8,8"), Ok([8, 8, 1]));
        assert!(parse_dims("[0]").is_err());
        assert!(parse_dims("[1,2,3,4]").is_err());
        assert!(parse_dims("x").is_err());
        assert!(parse_dims("4294967296").is_err());
    }
}
