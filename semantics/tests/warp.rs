//! Warp collectives in the interpreter: each shuffle and vote against its CUDA meaning,
//! computed here independently of `kpl_semantics::warp`; warp divergence.

use kpl_semantics::report::{ArrayContents, Defect, DivergenceAt, Outcome};
use kpl_semantics::{compile, run, Inputs, Options, RunResult};

fn exec(src: &str, warp_sync: Option<u32>) -> RunResult {
    let c = kpl_lang::check_kpl(src).unwrap_or_else(|d| panic!("{d:?}"));
    let prog = compile(&c.core, kpl_lang::Launch::of(&c.kernel));
    run(&prog, Inputs::from_seed(1), &Options { warp_sync, ..Options::default() })
}

/// `out[lid]` after every thread of a group of `threads` runs `stmt` (defining `r`).
fn out(threads: u32, stmt: &str, warp_sync: Option<u32>) -> Vec<u32> {
    let src = format!("kernel k {{ threads: {threads}; global out[{threads}]; main {{ {stmt} out[lid] := r; }} }}");
    let r = exec(&src, warp_sync);
    assert_eq!(r.outcome, Outcome::Ok, "{stmt}");
    match &r.memory.iter().find(|(n, _)| n == "out").unwrap().1 {
        ArrayContents::Dense(v) => v.clone(),
        c => panic!("{c:?}"),
    }
}

#[test]
fn shuffles_read_the_lanes_cuda_names() {
    // Values are 100 + lid, so a result names the thread it came from.
    let all = |stmt: &str| out(64, &format!("local v := 100 + lid; local r := warp {stmt};"), None);
    let own = |i: u32| 100 + i;
    let lane_of = |i: u32| i % 32;
    let base = |i: u32| i - i % 32;
    assert_eq!(all("shfl(0xffffffff, v, 3, 32)"), (0..64).map(|i| own(base(i) + 3)).collect::<Vec<_>>());
    // Width 8: lane 3 of each segment of 8; an index past the width wraps within it.
    assert_eq!(all("shfl(0xffffffff, v, 11, 8)"), (0..64).map(|i| own(i - i % 8 + 3)).collect::<Vec<_>>());
    let down: Vec<u32> = (0..64).map(|i| if lane_of(i) + 5 < 32 { own(i + 5) } else { own(i) }).collect();
    assert_eq!(all("shfl_down(0xffffffff, v, 5, 32)"), down);
    let up: Vec<u32> = (0..64).map(|i| if i % 16 >= 2 { own(i - 2) } else { own(i) }).collect();
    assert_eq!(all("shfl_up(0xffffffff, v, 2, 16)"), up);
    assert_eq!(all("shfl_xor(0xffffffff, v, 1, 32)"), (0..64).map(|i| own(i ^ 1)).collect::<Vec<_>>());
    // Width 4: lane ^ 4 is in another segment: an earlier one may be read (lanes 4..7 get
    // 0..3's values), a later one may not (lanes 0..3 keep their own); lane ^ 2 stays in it.
    let xor4: Vec<u32> = (0..64).map(|i| if i & 4 != 0 { own(i ^ 4) } else { own(i) }).collect();
    assert_eq!(all("shfl_xor(0xffffffff, v, 4, 4)"), xor4);
    assert_eq!(all("shfl_xor(0xffffffff, v, 2, 4)"), (0..64).map(|i| own(i ^ 2)).collect::<Vec<_>>());
}

#[test]
fn a_warp_reduction_sums_each_warp() {
    let stmt = "local v := lid; local d := 16; while d > 0 { local o := warp shfl_down(0xffffffff, v, d, 32); v := v + o; d := d / 2; } local r := v;";
    let got = out(64, stmt, None);
    assert_eq!(got[0], (0..32).sum::<u32>());
    assert_eq!(got[32], (32..64).sum::<u32>());
}

#[test]
fn votes_see_the_lanes_of_the_mask() {
    let all = |stmt: &str| out(64, &format!("local r := warp {stmt};"), None);
    let ballot: Vec<u32> = (0..64).map(|_| 0xaaaa_aaaa).collect();
    assert_eq!(all("ballot(0xffffffff, lid % 2)"), ballot);
    // Only the mask's lanes count.
    assert_eq!(all("ballot(0x0000ffff, lid % 2)"), vec![0x0000_aaaa; 64]);
    assert_eq!(all("any(0xffffffff, lid == 40)"), (0..64).map(|i| (i >= 32) as u32).collect::<Vec<_>>());
    assert_eq!(all("all(0xffffffff, lid < 40)"), (0..64).map(|i| (i < 32) as u32).collect::<Vec<_>>());
    // Lanes 0..7 all have lid < 8.
    assert_eq!(all("all(0x000000ff, lid < 8)"), (0..64).map(|i| (i < 32) as u32).collect::<Vec<_>>());
}

#[test]
fn reductions_fold_the_lanes_of_the_mask() {
    let all = |stmt: &str| out(64, &format!("local r := warp {stmt};"), None);
    let per_warp = |f: &dyn Fn(u32) -> u32| (0..64).map(|i| f(i / 32)).collect::<Vec<_>>();
    assert_eq!(all("reduce_add(0xffffffff, lid)"), per_warp(&|w| (w * 32..w * 32 + 32).sum()));
    assert_eq!(all("reduce_add(0x0000000f, 1)"), vec![4; 64]);
    assert_eq!(all("reduce_max(0xffffffff, lid)"), per_warp(&|w| w * 32 + 31));
    assert_eq!(all("reduce_min(0xfffffffe, lid)"), per_warp(&|w| w * 32 + 1));
    // Signed: lid - 40 is negative below 40.
    assert_eq!(all("reduce_smin(0xffffffff, lid - 40)"), per_warp(&|w| (w * 32).wrapping_sub(40)));
    assert_eq!(all("reduce_smax(0xffffffff, lid - 40)"), per_warp(&|w| (w * 32 + 31).wrapping_sub(40)));
    assert_eq!(all("reduce_or(0xffffffff, 1 << (lid % 32))"), vec![u32::MAX; 64]);
    assert_eq!(all("reduce_and(0xffffffff, lid | 0xffffffe0)"), per_warp(&|w| (w * 32) | 0xffff_ffe0));
    assert_eq!(all("reduce_xor(0x00000003, lid)"), per_warp(&|w| (w * 32) ^ (w * 32 + 1)));
}

#[test]
fn active_names_the_running_lanes() {
    let got = out(64, "local r := 0; if lid % 4 == 1 { r := warp active(); }", None);
    assert_eq!(got[1], 0x2222_2222);
    assert_eq!(got[33], 0x2222_2222);
    assert_eq!(got[0], 0);
}

#[test]
fn a_partial_last_warp_has_no_missing_lanes() {
    // 40 threads: the second warp has lanes 0..7; a full mask names lanes that do not exist.
    let got = out(40, "local r := warp shfl_down(0xffffffff, lid, 1, 32);", None);
    assert_eq!(got[0], 1);
    assert_eq!(got[38], 39);
    // Lane 7 of the second warp reads lane 8, which does not exist: 0.
    assert_eq!(got[39], 0);
}

#[test]
fn the_warp_size_follows_warp_sync() {
    let got = out(32, "local r := warp shfl(0xffffffff, lid, 0, 32);", Some(8));
    assert_eq!(got, (0..32).map(|i| i - i % 8).collect::<Vec<_>>());
}

#[test]
fn a_lane_of_the_mask_that_does_not_run_it_is_warp_divergence() {
    let r = exec("kernel k { threads: 64; global out[64]; main { if lid < 36 { out[lid] := lid; local r := warp shfl_xor(0xffffffff, lid, 1, 32); } } }", None);
    match r.outcome {
        Outcome::Defect(Defect::Divergence { enabled, disabled, at: DivergenceAt::WarpLane, .. }) => {
            assert_eq!((enabled.local[0], disabled.local[0]), (32, 36));
        }
        o => panic!("expected warp divergence, got {o:?}"),
    }
    // Two running lanes that name each other with different masks.
    let r = exec("kernel k { threads: 32; main { local m := 0xffffffff; if lid == 3 { m := 0xf; } local r := warp any(m, 1); } }", None);
    match r.outcome {
        Outcome::Defect(Defect::Divergence { enabled, disabled, at: DivergenceAt::WarpMask, .. }) => {
            assert_eq!((enabled.local[0], disabled.local[0]), (0, 3));
        }
        o => panic!("expected a warp mask mismatch, got {o:?}"),
    }
    // A mask that names only the running lanes is fine.
    let r = exec("kernel k { threads: 64; main { if lid < 36 { local r := warp shfl_xor(0x0000000f, lid, 1, 4); } } }", None);
    assert_eq!(r.outcome, Outcome::Ok);
}
