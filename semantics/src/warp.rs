//! Warp collectives (`warp shfl_down(...)`, votes) as the executors that run a group's
//! threads in lock step compute them: all of a statement's enabled threads at once.

use kpl_lang::ast::WarpOp;
use crate::report::DivergenceAt;
use kpl_lang::ops;

/// The results of a warp collective run by the enabled threads `act` (global thread
/// numbers, ascending; `tpg` threads per group, warps of `warp` lanes), with each thread's
/// operands (`argv[i][k]`: operand `i` of thread `act[k]`). Each thread's mask must name
/// only lanes that run it too, that do not exist (past the group's threads) or that have
/// left the kernel (`exited`, global thread numbers); otherwise
/// `Err((thread, the lane's thread it names, WarpLane))`: warp divergence; so is a lane it
/// names that runs it with another mask (`WarpMask`). A shuffle reads its source
/// lane's operand (0 when that lane does not run it: CUDA leaves the value undefined); the
/// votes see the predicates of the lanes of the mask; `active` gives the running lanes; a
/// reduction folds the values of the lanes of the mask, from its identity.
pub fn collective(act: &[u32], tpg: u32, warp: u32, op: WarpOp, argv: &[Vec<u32>], exited: &dyn Fn(u32) -> bool) -> Result<Vec<u32>, (u32, u32, DivergenceAt)> {
    let w = warp.max(1);
    let lanes = w.min(32);
    let mut out = Vec::with_capacity(act.len());
    for (k, &t) in act.iter().enumerate() {
        let lane = (t % tpg) % w;
        let base = t - lane;
        let exists = |j: u32| (t % tpg) - lane + j < tpg;
        // The position in `act` of the thread at lane `j` of this warp, if it runs this.
        let running = |j: u32| if exists(j) { act.binary_search(&(base + j)).ok() } else { None };
        if op.has_mask() {
            let mask = argv[0][k];
            for j in (0..lanes).filter(|&j| ops::in_mask(mask, j) && exists(j)) {
                match running(j) {
                    // A lane that has left the kernel does not take part (CUDA).
                    None if exited(base + j) => {}
                    None => return Err((t, base + j, DivergenceAt::WarpLane)),
                    Some(k2) if argv[0][k2] != mask => return Err((t, base + j, DivergenceAt::WarpMask)),
                    Some(_) => {}
                }
            }
        }
        let votes = |pick: &dyn Fn(u32, usize) -> bool| -> u32 {
            (0..lanes).filter(|&j| running(j).is_some_and(|k2| pick(j, k2))).fold(0, |m, j| m | 1 << j)
        };
        let v = match op {
            WarpOp::Shfl | WarpOp::ShflUp | WarpOp::ShflDown | WarpOp::ShflXor => {
                let src = ops::shuffle_source(op, lane, argv[2][k], argv[3][k], w);
                running(src).map_or(0, |k2| argv[1][k2])
            }
            WarpOp::Active => votes(&|_, _| true),
            WarpOp::Sync => 0,
            WarpOp::MatchAny => votes(&|j, k2| ops::in_mask(argv[0][k], j) && argv[1][k2] == argv[1][k]),
            WarpOp::MatchAll => {
                let mask = argv[0][k];
                let named = votes(&|j, _| ops::in_mask(mask, j));
                let same = votes(&|j, k2| ops::in_mask(mask, j) && argv[1][k2] == argv[1][k]);
                if same == named {
                    mask
                } else {
                    0
                }
            }
            WarpOp::Ballot | WarpOp::Any | WarpOp::All => {
                let mask = argv[0][k];
                let named = votes(&|j, _| ops::in_mask(mask, j));
                let yes = votes(&|j, k2| ops::in_mask(mask, j) && argv[1][k2] != 0);
                match op {
                    WarpOp::Ballot => yes,
                    WarpOp::Any => (yes != 0) as u32,
                    _ => (yes == named) as u32,
                }
            }
            _ => {
                let (id, step) = op.reduction().unwrap_or((0, |a, _| a));
                let mask = argv[0][k];
                (0..lanes).filter(|&j| ops::in_mask(mask, j)).filter_map(running).fold(id, |acc, k2| step(acc, argv[1][k2]))
            }
        };
        out.push(v);
    }
    Ok(out)
}
