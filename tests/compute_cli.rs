//! `spvsass run` on compute shaders: buffers from files and sizes, push
//! constants, --out files, and exit statuses (1 for a failed run, 2 for bad
//! arguments).

use crate::common;

use std::path::PathBuf;
use std::process::{Command, Output};

fn spvsass(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_spvsass"))
        .args(args)
        .output()
        .expect("spvsass runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("spvsass-compute-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

/// Writes an input file; each call gets its own (tests run in parallel).
fn write_words(name: &str, words: &[u32]) -> String {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path = tmp(&format!("{n}-{name}"));
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&path, bytes).expect("write input");
    path.to_string_lossy().into_owned()
}

/// c_add_push over 2 workgroups: a[i] = i, b[i] = 1000 + i, n = 100,
/// k = 3; `c` binds buffer 2.
fn add_push_args(c: &str, extra: &[&str]) -> Output {
    let a = write_words("a.bin", &(0..100).collect::<Vec<u32>>());
    let b = write_words("b.bin", &(0..100).map(|i| 1000 + i).collect::<Vec<u32>>());
    let push = write_words("push.bin", &[100, 3]);
    let shader = common::shader_path("c_add_push.comp");
    let mut args: Vec<String> = [
        "run",
        shader.to_str().unwrap(),
        "--groups",
        "2",
        "--buffer",
        &format!("0={a}"),
        "--buffer",
        &format!("1={b}"),
        "--buffer",
        c,
        "--push",
        &push,
    ]
    .map(String::from)
    .to_vec();
    args.extend(extra.iter().map(|s| s.to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    spvsass(&args)
}

#[test]
fn run_writes_out_buffers_and_prints_a_summary() {
    let out = tmp("c.bin");
    let out_arg = format!("2={}", out.display());
    let o = add_push_args("2=512", &["--out", &out_arg]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(
        text.starts_with("dispatch: 2 workgroups of 2 warps"),
        "{text}"
    );
    assert!(text.contains("buffer 2: 512 bytes"), "{text}");
    let bytes = std::fs::read(&out).expect("--out was written");
    assert_eq!(bytes.len(), 512);
    for i in 0..128usize {
        let w = u32::from_le_bytes(bytes[4 * i..4 * i + 4].try_into().unwrap());
        let expected = if i < 100 {
            i as u32 + 3 * (1000 + i as u32)
        } else {
            0
        };
        assert_eq!(w, expected, "c[{i}]");
    }
}

#[test]
fn run_prints_json() {
    let o = add_push_args("2=400", &["--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(v["workgroups"], 2);
    assert_eq!(v["buffers"]["2"]["words"][5], 5 + 3 * 1005);
}

#[test]
fn out_of_bounds_access_exits_1_with_pc_lane_and_address() {
    let o = add_push_args("2=40", &[]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("lane 10") && err.contains("global access at 0x300000028"),
        "{err}"
    );
}

#[test]
fn bad_compute_arguments_exit_2() {
    let shader = common::shader_path("c_add_push.comp");
    let shader = shader.to_str().unwrap();
    for args in [
        vec!["run", shader, "--buffer", "x=1"],
        vec!["run", shader, "--buffer", "0="],
        vec!["run", shader, "--buffer", "0=4", "--buffer", "0=8"],
        vec!["run", shader, "--out", "3=/dev/null"],
    ] {
        let o = spvsass(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
    }
}

#[test]
fn a_compiled_compute_binary_runs_like_its_spirv() {
    let bin = tmp("reduce.bin");
    let shader = common::shader_path("c_reduce128.comp");
    let o = spvsass(&[
        "compile",
        shader.to_str().unwrap(),
        "-o",
        bin.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let data = write_words("data.bin", &(0..256).collect::<Vec<u32>>());
    let run = |input: &str| {
        let o = spvsass(&[
            "run",
            input,
            "--groups",
            "2",
            "--buffer",
            &format!("0={data}"),
            "--buffer",
            "1=8",
            "--json",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        serde_json::from_slice::<serde_json::Value>(&o.stdout).expect("JSON")
    };
    let from_binary = run(bin.to_str().unwrap());
    assert_eq!(from_binary, run(shader.to_str().unwrap()));
    // Shared memory size travelled in the binary: the sums are right.
    let sum = |r: std::ops::Range<u32>| r.sum::<u32>();
    assert_eq!(from_binary["buffers"]["1"]["words"][0], sum(0..128));
    assert_eq!(from_binary["buffers"]["1"]["words"][1], sum(128..256));
}

/// `--stats` prints the simulated instruction counts and their rates on
/// stderr, the same counts the JSON reports, and leaves stdout alone.
#[test]
fn stats_print_the_dispatch_rates_on_stderr() {
    let plain = add_push_args("2=400", &["--json"]);
    let o = add_push_args("2=400", &["--json", "--stats"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(o.stdout, plain.stdout, "--stats changed stdout");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let counters = &v["counters"];
    let err = stderr(&o);
    let counts = format!(
        "simulated {} warp-instructions, {} thread-instructions in ",
        counters["warp_instructions"], counters["thread_instructions"]
    );
    // Compiler warnings may come first; the statistics are one line.
    let line = err
        .lines()
        .find(|l| l.starts_with("simulated "))
        .unwrap_or_else(|| panic!("no statistics line: {err}"));
    assert!(line.starts_with(&counts), "{line}");
    assert!(line.contains("warp-instructions/s, "), "{line}");
    assert!(line.ends_with("thread-instructions/s"), "{line}");
}

/// res_sets.comp bound from the command line by set, binding and array
/// element (`S.B[E]=`), the same inputs as tests/runs/res_sets.json, with
/// `--out` of set 0 and of an array element of set 3: both checked
/// against the CPU's result.
#[test]
fn buffers_bound_by_set_binding_and_element() {
    use common::res_sets::{bound, expected_res_sets, runs, words};
    let desc =
        spvsass::reference::RunDescription::load(&runs().join("res_sets.json")).expect("loads");
    let file = |set, binding, element| {
        write_words(
            &format!("s{set}b{binding}e{element}.bin"),
            &bound(&desc, set, binding, element),
        )
    };
    let shader = common::shader_path("res_sets.comp");
    let (out0, out_rt1) = (tmp("res_o.bin"), tmp("res_rt1.bin"));
    let mut args: Vec<String> = vec![
        "run".into(),
        shader.to_string_lossy().into_owned(),
        "--groups".into(),
        "2".into(),
        "--buffer".into(),
        "0=512".into(),
        "--out".into(),
        format!("0={}", out0.display()),
        "--out".into(),
        format!("3.2[1]={}", out_rt1.display()),
    ];
    for (flag, set, binding, element) in [
        ("--uniform", 0, 5, 0),
        ("--uniform", 0, 5, 1),
        ("--buffer", 1, 20, 0),
        ("--uniform", 2, 3, 0),
        ("--buffer", 3, 1, 0),
        ("--buffer", 3, 1, 1),
        ("--buffer", 3, 1, 2),
        ("--buffer", 3, 2, 0),
        ("--buffer", 3, 2, 1),
    ] {
        args.push(flag.into());
        args.push(format!(
            "{set}.{binding}[{element}]={}",
            file(set, binding, element)
        ));
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = spvsass(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let (o_want, rt_want) = expected_res_sets(&desc);
    assert_eq!(words(&std::fs::read(&out0).unwrap()), o_want);
    assert_eq!(words(&std::fs::read(&out_rt1).unwrap()), rt_want[1]);
}

#[test]
fn a_malformed_set_binding_is_a_usage_error() {
    let shader = common::shader_path("res_sets.comp");
    for bad in ["1.x=16", "1.2[=16", "1.2]=16", "a.2=16"] {
        let o = spvsass(&["run", shader.to_str().unwrap(), "--buffer", bad]);
        assert_eq!(o.status.code(), Some(2), "{bad}: {}", stderr(&o));
    }
}
