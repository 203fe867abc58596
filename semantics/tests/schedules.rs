//! SDV against GKLEE's canonical schedule: on race- and divergence-free kernels the two
//! executors must compute the same final memory (the project's kernels and generated ones).

use kpl_lang::generate::generate;
use kpl_lang::printer::print_kernel;
use kpl_semantics::report::Outcome;
use kpl_semantics::{canonical, compile, run, Inputs, Options};

/// Run both executors; returns the SDV outcome name, and checks agreement when it is ok.
fn agree(src: &str, inputs: Inputs, what: &str) -> &'static str {
    let c = kpl_lang::check_kpl(src).unwrap_or_else(|d| panic!("{what}: {d:?}\n{src}"));
    let prog = compile(&c.core, kpl_lang::Launch::of(&c.kernel));
    let sdv = run(&prog, inputs.clone(), &Options::default());
    if sdv.outcome != Outcome::Ok {
        return sdv.outcome.name();
    }
    // The canonical schedule runs one thread at a time: it cannot run a warp collective
    // (`kpl run --delays` refuses such kernels).
    if prog.has_warp_collectives() {
        return "warp";
    }
    // Nor does it keep ghost arrays' per-thread copies (`kpl run --delays` refuses them too).
    if prog.first_snapshot().is_some() {
        return "snapshot";
    }
    // Nor a grid barrier: it runs the groups one after another (refused by `--delays` too).
    if prog.first_grid_barrier().is_some() {
        return "grid barrier";
    }
    let can = canonical::run(&prog, &inputs, 100_000_000);
    assert_eq!(can.outcome, Outcome::Ok, "{what}: canonical schedule failed where SDV did not\n{src}");
    for ((n1, a), (n2, b)) in sdv.memory.iter().zip(can.memory.iter()) {
        assert_eq!(n1, n2);
        assert_eq!(a, b, "{what}: array `{n1}` differs between SDV and the canonical schedule\n{src}");
    }
    "ok"
}

#[test]
fn project_kernels_agree() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/kernels");
    let mut compared = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_none_or(|x| x != "kpl") {
            continue;
        }
        let src = std::fs::read_to_string(&p).unwrap();
        // Kernels whose `// run:` line says ok, with its arguments (e.g. `--param n=100`).
        let mut inputs = Inputs::from_seed(1);
        let mut runs_ok = false;
        for line in src.lines().take(8) {
            if let Some(rest) = line.trim().strip_prefix("// run:") {
                runs_ok = rest.split_whitespace().next() == Some("ok");
                let mut it = rest.split_whitespace().skip(1);
                while let Some(a) = it.next() {
                    if a == "--param" {
                        if let Some((k, v)) = it.next().and_then(|kv| kv.split_once('=')) {
                            inputs.params.insert(k.into(), v.parse().unwrap());
                        }
                    } else {
                        // Other options (benign tolerance) change the semantics compared.
                        runs_ok = false;
                    }
                }
            }
        }
        if runs_ok {
            match agree(&src, inputs, &p.display().to_string()) {
                "warp" | "snapshot" | "grid barrier" => continue,
                got => assert_eq!(got, "ok", "{}", p.display()),
            }
            compared += 1;
        }
    }
    assert!(compared >= 8, "only {compared} project kernels ran without error");
}

#[test]
fn a_thousand_generated_kernels_agree() {
    let mut ok = 0;
    let mut seed = 0;
    while ok < 1000 {
        let text = print_kernel(&generate(seed));
        for input_seed in [seed, seed ^ 0xFFFF] {
            let outcome = agree(&text, Inputs::from_seed(input_seed), &format!("generated kernel {seed}"));
            // The generator promises race- and divergence-free kernels: SDV must agree.
            assert_eq!(outcome, "ok", "generated kernel {seed} (inputs {input_seed}) ran into {outcome}:\n{text}");
        }
        ok += 1;
        seed += 1;
    }
}
