//! End-to-end tests of `kpl run`: the `// run:` line of every project kernel, inputs and
//! outputs, and bad options.

mod common;
use common::*;

#[test]
fn every_run_line_gives_its_outcome() {
    let mut n = 0;
    for k in kernels("tests/kernels", "kpl") {
        for line in header(&k, "run") {
            let mut parts = line.split_whitespace();
            let want = parts.next().unwrap().to_string();
            let mut args = vec!["run", "--json", "--seed", "1"];
            let extra: Vec<&str> = parts.collect();
            args.extend(extra.iter().copied());
            args.push(s(&k));
            let o = kpl_in(k.parent().unwrap(), &args);
            let code = match want.as_str() {
                "ok" => 0,
                "infeasible" | "timeout" => 2,
                _ => 1,
            };
            assert_eq!(o.code, code, "{}: {}", k.display(), o.stderr);
            let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
            assert_eq!(v["outcome"], want.as_str(), "{}", k.display());
            n += 1;
        }
    }
    assert!(n >= 14);
}

#[test]
fn a_race_report_names_both_threads_and_accesses() {
    let o = kpl(&["run", "--json", "--seed", "1", s(&root().join("tests/kernels/reduce_nobarrier.kpl"))]);
    let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    let d = &v["defect"];
    assert_eq!(d["kind"], "race");
    assert_eq!(d["scope"], "intra-group");
    assert_eq!(d["array"], "A");
    let acc = d["accesses"].as_array().unwrap();
    assert_eq!(acc.len(), 2);
    assert_ne!(acc[0]["thread"], acc[1]["thread"]);
    assert!(acc.iter().all(|a| a["line"].as_u64() == Some(13)));
    // The text report shows both accesses in the source.
    let t = kpl(&["run", "--seed", "1", s(&root().join("tests/kernels/reduce_nobarrier.kpl"))]);
    assert!(t.stderr.contains("reduce_nobarrier.kpl:13:"), "{}", t.stderr);
    assert!(t.stderr.contains("write of A[") && t.stderr.contains("read of A["), "{}", t.stderr);
}

#[test]
fn inputs_params_and_outputs() {
    let dir = scratch("run");
    std::fs::create_dir_all(&dir).unwrap();
    let k = dir.join("copy.kpl");
    std::fs::write(&k, "kernel copy { threads: 4; global inp[4]; global out[4]; param add; main { out[lid] := inp[lid] + add; } }").unwrap();
    let input = dir.join("in.json");
    std::fs::write(&input, r#"{"params": {"add": 10}, "arrays": {"inp": [1, 2, 3, "0x4"]}}"#).unwrap();
    let out = dir.join("out.json");
    let o = kpl(&["run", s(&k), "--input", s(&input), "--output", s(&out)]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let mem: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(mem["out"], serde_json::json!([11, 12, 13, 14]));
    // --param overrides the file.
    let o = kpl(&["run", "--json", s(&k), "--input", s(&input), "--param", "add=-1"]);
    let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(v["memory"]["out"], serde_json::json!([0, 1, 2, 3]));
    // Unknown names and bad values are bad input.
    assert_eq!(kpl(&["run", s(&k), "--param", "nope=1"]).code, 3);
    assert_eq!(kpl(&["run", s(&k), "--param", "add=x"]).code, 3);
    std::fs::write(&input, r#"{"arrays": {"ghost": [1]}}"#).unwrap();
    assert_eq!(kpl(&["run", s(&k), "--input", s(&input)]).code, 3);
    std::fs::write(&input, "not json").unwrap();
    assert_eq!(kpl(&["run", s(&k), "--input", s(&input)]).code, 3);
    // Launch overrides.
    let o = kpl(&["run", "--json", s(&k), "--blockDim=2", "--param", "add=0"]);
    let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(v["steps"], 4); // two threads, a read and a write each
    assert_eq!(kpl(&["run", s(&k), "--blockDim=[0]"]).code, 3);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn trace_and_max_steps() {
    let k = root().join("tests/kernels/assert_fail.kpl");
    let o = kpl(&["run", "--trace", s(&k)]);
    assert_eq!(o.code, 1);
    assert!(o.stdout.contains("assert x < 48;"), "{}", o.stdout);
    let k = root().join("tests/kernels/strided_overflow.kpl");
    let o = kpl(&["run", "--json", "--seed", "1", "--max-steps", "1000", s(&k)]);
    assert_eq!(o.code, 2);
    assert!(o.stdout.contains("\"timeout\""));
}

#[test]
fn warp_collectives_run_in_lock_step_and_are_refused_where_threads_run_alone() {
    // The shuffle sums reach lane 0 of each warp: out = the four 32-element sums.
    let k = root().join("tests/kernels/warp_shuffle_sum.kpl");
    let o = kpl(&["run", "--json", "--seed", "3", s(&k)]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    let inp: Vec<u64> = v["memory"]["inp"].as_array().unwrap().iter().map(|x| x.as_u64().unwrap()).collect();
    let sums: Vec<u64> = inp.chunks(32).map(|c| c.iter().sum::<u64>() % (1 << 32)).collect();
    assert_eq!(v["memory"]["out"], serde_json::json!(sums));
    // A lane of the mask that does not run the vote: warp divergence, in the JSON too.
    let d = root().join("tests/kernels/warp_vote_divergence.kpl");
    let o = kpl(&["run", "--json", s(&d)]);
    assert_eq!(o.code, 1);
    let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(v["defect"]["kind"], "divergence", "{}", o.stdout);
    assert_eq!(v["defect"]["at"], "warp collective", "{}", o.stdout);
    let o = kpl(&["run", s(&d)]);
    assert!(o.stderr.contains("warp divergence"), "{}", o.stderr);
    // The executors that run one thread at a time refuse them, pointing at the collective.
    let o = kpl(&["run", "--delays", "1", s(&k)]);
    assert_eq!(o.code, 3);
    assert!(o.stderr.contains("warp_shuffle_sum.kpl:15:"), "{}", o.stderr);
    let o = kpl(&["testgen", s(&k)]);
    assert_eq!(o.code, 3);
    assert!(o.stderr.contains("does not model warp collectives"), "{}", o.stderr);
}

#[test]
fn a_long_run_says_how_it_goes_on_a_pipe_unless_quiet() {
    let dir = scratch("progress");
    std::fs::create_dir_all(&dir).unwrap();
    // About 800 M thread-statements: several seconds.
    let k = "kernel slow {\n  groups: 1;\n  threads: 2;\n  global a[4];\n  main {\n    local i := 0;\n    while i < 200000000 {\n      i := i + 1;\n    }\n    a[lid.x] := i;\n  }\n}\n";
    std::fs::write(dir.join("slow.kpl"), k).unwrap();
    let o = kpl_in(&dir, &["run", "--max-steps=2000000000", "slow.kpl"]);
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    // Standard error is a pipe here: plain lines, the first after 5 s.
    let lines: Vec<&str> = o.stderr.lines().filter(|l| l.starts_with("kpl: running:")).collect();
    assert!(!lines.is_empty() && lines.iter().all(|l| l.ends_with(" s]")), "{}", o.stderr);
    assert!(!o.stderr.contains('\r'), "no terminal control on a pipe");
    let q = kpl_in(&dir, &["run", "--quiet", "--max-steps=2000000000", "slow.kpl"]);
    assert_eq!(q.code, 0);
    assert!(!q.stderr.contains("kpl: running"), "{}", q.stderr);
    std::fs::remove_dir_all(&dir).ok();
}

/// Every thread reads `s[0]`, then each warp's first lane writes its own element with no
/// barrier between: thread 0's write races with every other thread's read. The report shows
/// a reader of another warp (a race whatever the warps do in lockstep) where the group has
/// one, and thread 1 where it has one warp.
#[test]
fn a_race_report_shows_threads_of_two_warps_where_there_are_two() {
    let dir = scratch("two_warps");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("broadcast.cu"),
        "__global__ void k(float *out) {\n  __shared__ float s[32];\n  if (threadIdx.x == 0) s[0] = 1.0f;\n  __syncthreads();\n  float v = s[0];\n  if (threadIdx.x % 32 == 0) s[threadIdx.x / 32] = v + 1.0f;\n  out[threadIdx.x] = v;\n}\n",
    )
    .unwrap();
    for (block, reader) in [("64", 32), ("256", 32), ("32", 1)] {
        let o = kpl_in(&dir, &["run", "--json", "--blockDim", block, "broadcast.cu"]);
        let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}{}", o.stdout, o.stderr));
        let acc = v["defect"]["accesses"].as_array().unwrap_or_else(|| panic!("{}", o.stdout));
        let who: Vec<(u64, &str)> = acc.iter().map(|a| (a["thread"]["local"][0].as_u64().unwrap(), a["op"].as_str().unwrap())).collect();
        assert_eq!(who, [(reader, "read"), (0, "write")], "block {block}: {}", o.stdout);
    }
}
