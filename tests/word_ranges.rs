//! Folding by word ranges (`kpl-lang/src/word_ranges.rs`) is exact: on generated kernels,
//! the interpreter gives the folded kernel the outcome and final memory of the original,
//! on the same inputs.

use kpl_lang::generate::generate;
use kpl_lang::printer::print_kernel;
use kpl_lang::{check_kpl, Launch};
use kpl_semantics::{compile, run, Inputs};

#[test]
fn folding_keeps_what_every_generated_kernel_computes() {
    let mut changed = 0;
    for seed in 0..150 {
        let original = generate(seed);
        let mut folded = original.clone();
        let launch = Launch::of(&folded);
        kpl_lang::word_ranges::fold(&mut folded, launch);
        let (a, b) = (print_kernel(&original), print_kernel(&folded));
        if a != b {
            changed += 1;
        }
        let run_text = |text: &str| {
            let c = check_kpl(text).unwrap_or_else(|e| panic!("kernel {seed} does not check after folding: {e:?}\n{text}"));
            let prog = compile(&c.core, Launch::of(&c.kernel));
            let opts = kpl_semantics::Options { max_steps: 2_000_000, ..Default::default() };
            let r = run(&prog, Inputs::from_seed(seed), &opts);
            (r.outcome.name(), format!("{:?}", r.memory))
        };
        assert_eq!(run_text(&a), run_text(&b), "folding changed generated kernel {seed}:\n{a}\n---\n{b}");
    }
    // The check means something only if folding changed kernels.
    assert!(changed > 30, "folding changed only {changed} of 150 generated kernels");
}
