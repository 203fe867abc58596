//! The hardware model behind performance checks: warp size, shared-memory banks and the
//! global-memory transaction rule of each architecture `kpl perf` knows (GKLEE, PPoPP 2012,
//! sections 2.3 and 5.1), shared by the interpreter's measurements and the solver's checks.
//!
//! Every array element is a 32-bit word and every array starts at a bank-0, 256-byte
//! aligned address (what `cudaMalloc` and shared-memory allocation give), so a bank is
//! `word mod banks` and a memory segment is `word / segment_words`.

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arch {
    /// Hopper and Volta (the same rules here): 32 banks, 32-byte sectors per warp.
    Sm90,
    Sm70,
    /// Fermi (compute capability 2.x): 32 banks, 128-byte cache lines per warp.
    Cc2,
    /// Compute capability 1.2/1.3: 16 banks and 128-byte segments, per half-warp.
    Cc13,
    /// Compute capability 1.0/1.1: 16 banks; lane k must access word k of an aligned
    /// 64-byte segment, else every lane is a transaction of its own.
    Cc11,
}

impl Arch {
    pub const ALL: [(&'static str, Arch); 5] =
        [("sm_90", Arch::Sm90), ("sm_70", Arch::Sm70), ("cc2", Arch::Cc2), ("cc1.3", Arch::Cc13), ("cc1.1", Arch::Cc11)];

    pub fn parse(s: &str) -> Result<Arch, String> {
        let norm = s.trim().to_ascii_lowercase().replace("cc2.0", "cc2").replace("cc1.2", "cc1.3").replace("cc1.0", "cc1.1");
        Arch::ALL.iter().find(|(n, _)| *n == norm).map(|(_, a)| *a).ok_or_else(|| {
            let names: Vec<&str> = Arch::ALL.iter().map(|(n, _)| *n).collect();
            format!("unknown architecture `{s}` (known: {})", names.join(", "))
        })
    }

    pub fn name(self) -> &'static str {
        Arch::ALL.iter().find(|(_, a)| *a == self).map(|(n, _)| *n).unwrap_or("?")
    }
}

impl fmt::Display for Arch {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How a unit's global access is judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Coalescing {
    /// Count the segments of `words` words the access touches against the segments the
    /// same lanes touch when lane k accesses word k (the minimum for those lanes).
    Segments { words: u32 },
    /// Lane k must access word `base + k` with `base` a multiple of `words`; otherwise each
    /// active lane is a transaction of its own (the minimum is one).
    Strict { words: u32 },
}

impl Coalescing {
    pub fn words(self) -> u32 {
        match self {
            Coalescing::Segments { words } | Coalescing::Strict { words } => words,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PerfModel {
    pub arch: Arch,
    /// Threads of a warp (consecutive linear local ids of one group): the unit of
    /// divergence.
    pub warp: u32,
    /// Threads whose accesses form one memory request (a warp, or a half-warp on 1.x).
    pub unit: u32,
    pub banks: u32,
    pub coalescing: Coalescing,
}

impl PerfModel {
    /// The model of an architecture, with the warp size and bank count overridden where
    /// given. Sizes must be powers of two (a bank or segment of a word is then the same
    /// under 32-bit wrap-around, which the solver's checks rely on).
    pub fn new(arch: Arch, warp: Option<u32>, banks: Option<u32>) -> Result<PerfModel, String> {
        let (w, half, b, c) = match arch {
            Arch::Sm90 | Arch::Sm70 => (32, false, 32, Coalescing::Segments { words: 8 }),
            Arch::Cc2 => (32, false, 32, Coalescing::Segments { words: 32 }),
            Arch::Cc13 => (32, true, 16, Coalescing::Segments { words: 32 }),
            Arch::Cc11 => (32, true, 16, Coalescing::Strict { words: 16 }),
        };
        let warp = warp.unwrap_or(w);
        let banks = banks.unwrap_or(b);
        for (what, v) in [("--warp-size", warp), ("--banks", banks)] {
            if v == 0 || !v.is_power_of_two() || v > 1024 {
                return Err(format!("`{what}` must be a power of two from 1 to 1024 (got {v})"));
            }
        }
        let unit = if half { (warp / 2).max(1) } else { warp };
        Ok(PerfModel { arch, warp, unit, banks, coalescing: c })
    }

    pub fn bank(&self, word: u32) -> u32 {
        word % self.banks
    }

    pub fn segment(&self, word: u32) -> u32 {
        word / self.coalescing.words()
    }

    /// The lane of a linear local id within its memory unit.
    pub fn lane(&self, local: u32) -> u32 {
        local % self.unit
    }

    /// The segment a lane would touch if lane k accessed word k (its ideal segment).
    pub fn ideal_segment(&self, local: u32) -> u32 {
        self.lane(local) / self.coalescing.words()
    }

    /// What the unit is called in reports.
    pub fn unit_name(&self) -> &'static str {
        if self.unit == self.warp {
            "warp"
        } else {
            "half-warp"
        }
    }

    pub fn segment_name(&self) -> &'static str {
        match (self.arch, self.coalescing) {
            (Arch::Sm90 | Arch::Sm70, _) => "32-byte sector",
            (Arch::Cc2, _) => "128-byte line",
            (_, Coalescing::Strict { .. }) => "64-byte segment",
            _ => "128-byte segment",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn architectures_and_overrides() {
        let m = PerfModel::new(Arch::parse("sm_90").unwrap(), None, None).unwrap();
        assert_eq!((m.warp, m.unit, m.banks, m.coalescing.words()), (32, 32, 32, 8));
        let m = PerfModel::new(Arch::parse("cc1.3").unwrap(), None, None).unwrap();
        assert_eq!((m.warp, m.unit, m.banks), (32, 16, 16));
        assert_eq!(m.unit_name(), "half-warp");
        let m = PerfModel::new(Arch::Cc2, Some(16), Some(8)).unwrap();
        assert_eq!((m.warp, m.unit, m.banks), (16, 16, 8));
        assert!(PerfModel::new(Arch::Sm70, Some(24), None).is_err());
        assert!(PerfModel::new(Arch::Sm70, None, Some(0)).is_err());
        assert!(Arch::parse("sm_99").unwrap_err().contains("sm_90"));
        assert_eq!(Arch::parse("CC2.0").unwrap(), Arch::Cc2);
    }

    #[test]
    fn banks_and_segments() {
        let m = PerfModel::new(Arch::Sm90, None, None).unwrap();
        assert_eq!((m.bank(33), m.segment(15), m.ideal_segment(40)), (1, 1, 1));
    }
}
