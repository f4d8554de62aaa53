//! The long run: generates programs from consecutive seeds, checks each
//! (sm75 and sm86 against the interpreter), reduces every failure with a
//! signature not seen before and writes it out; prints programs per
//! second, programs run and failures by signature.
//!
//! progfuzz [--seconds N] [--seed S] [--out DIR] [--threads T] [--reduce-budget B]
//!          [--no-reduce] [--no-constant-conditions] [--prefetch K]
//!          [--kind compute|mesh|task|mixed] [--lavapipe]
//!
//! `--kind` picks compute programs (the default), mesh programs drawn
//! without a task shader, task programs with the mesh shader they launch,
//! or all three in turn by seed. `--lavapipe` (or `PROGFUZZ_LAVAPIPE=1`)
//! also runs every compute program on the machine's Vulkan driver and
//! counts its differences from the interpreter by classification (known
//! lavapipe errors, or leads to look at).
//!
//! glslangValidator costs about 0.14 s of CPU per process (its built-in
//! symbol tables are rebuilt each time) and refuses several compute
//! shaders in one invocation (it links them into one stage). `--prefetch
//! K` overlaps it instead: a helper thread generates and compiles the
//! worker's next K programs while the worker checks the current one. That
//! only helps where cores are idle (on the saturated 2-core container it
//! made no difference, BENCHMARKS.md), so the default is 0 (in line); on
//! a big machine run one process per core (`scripts/progfuzz.sh -j N`).

use spvsass_progfuzz::generate::Kind;
use spvsass_progfuzz::lavapipe::{self, Verdict};
use spvsass_progfuzz::{generate, print, reduce, run};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

fn arg(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seconds: u64 = arg(&args, "--seconds").map_or(60, |s| s.parse().expect("--seconds N"));
    let first: u64 = arg(&args, "--seed").map_or(1, |s| s.parse().expect("--seed S"));
    let threads: u64 = arg(&args, "--threads").map_or(1, |s| s.parse().expect("--threads T"));
    let budget: usize =
        arg(&args, "--reduce-budget").map_or(400, |s| s.parse().expect("--reduce-budget B"));
    let out = arg(&args, "--out").map(std::path::PathBuf::from);
    let kind = arg(&args, "--kind").unwrap_or_else(|| "compute".into());
    let kinds: &'static [Kind] = match kind.as_str() {
        "compute" => &[Kind::Compute],
        "mesh" => &[Kind::Mesh],
        "task" => &[Kind::Task],
        "mixed" => &[Kind::Compute, Kind::Mesh, Kind::Task],
        other => panic!("--kind compute|mesh|task|mixed, not {other}"),
    };
    let base = generate::Config {
        constant_conditions: !args.iter().any(|a| a == "--no-constant-conditions"),
        kind: Kind::Compute,
    };
    let config_for = move |seed: u64| generate::Config {
        kind: kinds[(seed % kinds.len() as u64) as usize],
        ..base
    };
    let use_lavapipe = args.iter().any(|a| a == "--lavapipe")
        || std::env::var_os("PROGFUZZ_LAVAPIPE").is_some_and(|v| v == "1");
    let verdicts: Arc<Mutex<BTreeMap<String, u64>>> = Arc::default();
    let no_reduce = args.iter().any(|a| a == "--no-reduce");
    let prefetch: usize = arg(&args, "--prefetch").map_or(0, |s| s.parse().expect("--prefetch K"));
    // --only SEED: run one program, print its source and result.
    if let Some(seed) = arg(&args, "--only") {
        let seed: u64 = seed.parse().expect("--only SEED");
        let p = generate::program_with(seed, config_for(seed));
        println!("{}", print::glsl(&p));
        if let Some(m) = print::mesh_glsl(&p) {
            println!("// the mesh shader:\n{m}");
        }
        match run::run_program(&p, seed) {
            Ok(()) => println!("// agrees"),
            Err(f) => println!("// {}\n// {}", f.signature, f.detail),
        }
        return;
    }
    if let Some(dir) = &out {
        std::fs::create_dir_all(dir).expect("output folder");
    }
    // Panics are expected failures here; their messages go to the report.
    std::panic::set_hook(Box::new(|_| {}));
    let next = Arc::new(AtomicU64::new(first));
    let done = Arc::new(AtomicU64::new(0));
    let found: Arc<Mutex<BTreeMap<String, (u64, u64)>>> = Arc::default();
    let start = Instant::now();
    let deadline = start + Duration::from_secs(seconds);
    let workers: Vec<_> = (0..threads)
        .map(|_| {
            let (next, done, found, out) = (next.clone(), done.clone(), found.clone(), out.clone());
            let verdicts = verdicts.clone();
            std::thread::spawn(move || {
                // Programs of this worker's next seeds, compiled by
                // glslangValidator on a helper thread (or in line).
                let compiled = {
                    let next = next.clone();
                    move || {
                        let seed = next.fetch_add(1, Ordering::Relaxed);
                        let p = generate::program_with(seed, config_for(seed));
                        let words = run::compile_program(&p);
                        (seed, p, words)
                    }
                };
                let (tx, rx) = std::sync::mpsc::sync_channel(prefetch.max(1) - 1);
                if prefetch > 0 {
                    let compiled = compiled.clone();
                    std::thread::spawn(move || {
                        while Instant::now() < deadline && tx.send(compiled()).is_ok() {}
                    });
                }
                while Instant::now() < deadline {
                    let (seed, p, words) = if prefetch > 0 {
                        let Ok(item) = rx.recv() else { break };
                        item
                    } else {
                        compiled()
                    };
                    if use_lavapipe
                        && p.stage == spvsass_progfuzz::ast::Stage::Compute
                        && let Ok(w) = &words
                    {
                        let case = run::case_for(&p, w.clone(), seed);
                        let key = match lavapipe::check(&case, &Default::default()) {
                            Ok(Verdict::Agrees) => "agrees".to_string(),
                            Ok(Verdict::Unavailable(m)) => format!("unavailable: {m}"),
                            Ok(Verdict::UndefinedAtSubgroupSize(n, _)) => {
                                format!("not compared: undefined at subgroup size {n}")
                            }
                            Ok(Verdict::Known(k, _)) => format!("known lavapipe error: {k:?}"),
                            Ok(Verdict::Lead(f)) => {
                                println!("seed {seed}: lavapipe lead: {}", f.detail);
                                "lead (unexplained difference)".to_string()
                            }
                            Err(f) => format!("error: {}", f.signature),
                        };
                        *verdicts.lock().expect("lock").entry(key).or_default() += 1;
                    }
                    let result = words.and_then(|w| run::check_program(&p, w, seed));
                    done.fetch_add(1, Ordering::Relaxed);
                    let Err(f) = result else { continue };
                    let new = {
                        let mut map = found.lock().expect("lock");
                        let e = map.entry(f.signature.clone()).or_insert((0, seed));
                        e.0 += 1;
                        e.0 == 1
                    };
                    println!("seed {seed}: {}", f.signature);
                    if !new || no_reduce {
                        continue;
                    }
                    let small = reduce::reduce(&p, budget, &mut |q| {
                        run::run_program(q, seed)
                            .err()
                            .is_some_and(|g| g.signature == f.signature)
                    });
                    if let Some(dir) = &out {
                        let name: String = f
                            .signature
                            .chars()
                            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                            .take(80)
                            .collect();
                        let text = format!(
                            "// progfuzz seed {seed}, workgroup {:?} x {} groups\n// {}\n// {}\n{}{}",
                            small.size,
                            small.groups,
                            f.signature,
                            f.detail.lines().next().unwrap_or(""),
                            print::glsl(&small),
                            print::mesh_glsl(&small)
                                .map(|m| format!("// the mesh shader:\n{m}"))
                                .unwrap_or_default()
                        );
                        let _ = std::fs::write(dir.join(format!("{name}.comp")), text);
                    }
                }
            })
        })
        .collect();
    for w in workers {
        let _ = w.join();
    }
    let secs = start.elapsed().as_secs_f64();
    let n = done.load(Ordering::Relaxed);
    println!("programs run: {n}");
    println!("programs/s: {:.2}", n as f64 / secs);
    let map = found.lock().expect("lock");
    let failed: u64 = map.values().map(|v| v.0).sum();
    println!(
        "failing programs: {failed}; distinct signatures: {}",
        map.len()
    );
    for (sig, (count, seed)) in map.iter() {
        println!("{count:6}  first seed {seed:8}  {sig}");
    }
    for (verdict, count) in verdicts.lock().expect("lock").iter() {
        println!("lavapipe: {count:6}  {verdict}");
    }
}
