//! What the process may use, read from the system: its address-space limit (`RLIMIT_AS`,
//! as `ulimit -v` sets it) and its cgroup's memory limit; and the stack and heap sizes kpl
//! derives from them, so that a limit of the process's own ends a run as *inconclusive*
//! (exit 2) instead of an allocation failure or a thread that cannot start.

/// The stack of the threads that run kpl's work when nothing limits the address space:
/// only the pages a run touches are used (deep kernels recurse deeply).
pub const FULL_STACK: u64 = 2 << 30;
/// The least stack kpl runs on; with it, the nesting limit is about 3,000 levels.
const MIN_STACK: u64 = 64 << 20;
/// What each level of nesting may take of the stack (2 GiB hold `MAX_DEPTH` levels).
const BYTES_PER_LEVEL: u64 = FULL_STACK / kpl_lang::depth::MAX_DEPTH as u64;
/// Room for what is not kpl's heap or stacks: the binary, Z3's and the C library's
/// mappings, the main thread's stack.
const OVERHEAD: u64 = 512 << 20;

/// The process's limits, in bytes (`None`: unlimited or unknown).
#[derive(Clone, Copy, Debug, Default)]
pub struct Ceilings {
    pub address_space: Option<u64>,
    pub cgroup_memory: Option<u64>,
}

impl Ceilings {
    pub fn of_process() -> Ceilings {
        Ceilings { address_space: address_space_limit(), cgroup_memory: cgroup_memory_limit() }
    }

    /// The stack of each working thread: the full 2 GiB, or an eighth of the address
    /// space where that is limited (at least 64 MiB).
    pub fn stack(&self) -> u64 {
        match self.address_space {
            Some(a) => (a / 8).clamp(MIN_STACK, FULL_STACK),
            None => FULL_STACK,
        }
    }

    /// The nesting limit a stack of `stack` bytes holds.
    pub fn depth_for(stack: u64) -> usize {
        ((stack / BYTES_PER_LEVEL) as usize).min(kpl_lang::depth::MAX_DEPTH)
    }

    /// The heap limit in MiB: the one asked for (`--memory-limit`), lowered so that the
    /// heap, Z3's third as much again and `threads` stacks fit the address space, and the
    /// heap and Z3's fit three quarters of the cgroup's memory. Gives the limit and whether
    /// the process's limits lowered it.
    pub fn heap_mib(&self, asked: u64, threads: u64) -> (u64, bool) {
        let mut cap = u64::MAX;
        if let Some(a) = self.address_space {
            let room = a.saturating_sub(OVERHEAD).saturating_sub(self.stack().saturating_mul(threads));
            cap = cap.min(room / 4 * 3);
        }
        if let Some(c) = self.cgroup_memory {
            cap = cap.min(c / 4 * 3 / 4 * 3);
        }
        let cap_mib = (cap >> 20).max(16);
        if cap_mib < asked {
            (cap_mib, true)
        } else {
            (asked, false)
        }
    }
}

/// `Max address space` of `/proc/self/limits` (the soft limit), if finite.
fn address_space_limit() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = text.lines().find(|l| l.starts_with("Max address space"))?;
    line.trim_start_matches("Max address space").split_whitespace().next()?.parse().ok()
}

/// The memory limit of the process's cgroup (v2's `memory.max`, v1's
/// `memory.limit_in_bytes`), the least along its path, if finite.
fn cgroup_memory_limit() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let mut best: Option<u64> = None;
    let mut consider = |file: String| {
        let v = std::fs::read_to_string(file).ok().and_then(|s| s.trim().parse::<u64>().ok());
        // "max" (v2) does not parse; v1's unlimited is a value near 2^63.
        if let Some(v) = v.filter(|&v| v < 1 << 60) {
            best = Some(best.map_or(v, |b| b.min(v)));
        }
    };
    for line in text.lines() {
        let mut parts = line.splitn(3, ':');
        let (_, controllers, path) = (parts.next(), parts.next().unwrap_or(""), parts.next().unwrap_or("/"));
        let base = if controllers.is_empty() {
            "/sys/fs/cgroup".to_string()
        } else if controllers.split(',').any(|c| c == "memory") {
            "/sys/fs/cgroup/memory".to_string()
        } else {
            continue;
        };
        let file = if controllers.is_empty() { "memory.max" } else { "memory.limit_in_bytes" };
        // The path and each directory above it (a container may see only some of them).
        let mut p = std::path::PathBuf::from(&base).join(path.trim_start_matches('/'));
        loop {
            consider(p.join(file).display().to_string());
            if p.as_os_str().len() <= base.len() || !p.pop() {
                break;
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_lower_the_stack_the_depth_and_the_heap() {
        let none = Ceilings::default();
        assert_eq!(none.stack(), FULL_STACK);
        assert_eq!(Ceilings::depth_for(none.stack()), kpl_lang::depth::MAX_DEPTH);
        assert_eq!(none.heap_mib(3072, 2), (3072, false));
        // `ulimit -v 4000000` (KiB): stacks of about 488 MiB, a heap that fits beside them.
        let v = Ceilings { address_space: Some(4_000_000 << 10), cgroup_memory: None };
        assert_eq!(v.stack(), (4_000_000u64 << 10) / 8);
        let (heap, lowered) = v.heap_mib(3072, 2);
        assert!(lowered && heap < 3072 && heap > 1000, "{heap}");
        assert!((heap << 20) * 4 / 3 + 2 * v.stack() + OVERHEAD <= 4_000_000 << 10);
        // A tiny limit still gives a stack and a heap to start with.
        let tiny = Ceilings { address_space: Some(100 << 20), cgroup_memory: None };
        assert_eq!(tiny.stack(), MIN_STACK);
        assert_eq!(tiny.heap_mib(3072, 2), (16, true));
        // A cgroup of 1 GiB: heap and Z3 within three quarters of it.
        let cg = Ceilings { address_space: None, cgroup_memory: Some(1 << 30) };
        let (heap, lowered) = cg.heap_mib(3072, 2);
        assert!(lowered && (heap << 20) * 4 / 3 <= (1u64 << 30) / 4 * 3, "{heap}");
    }
}
