//! The `spvsass` command: compile, disassemble and simulate shaders.

use clap::{Parser, Subcommand};
use spvsass::backend::target::Arch;
use spvsass::{Input, Options};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "spvsass",
    version,
    about = "SPIR-V to NVIDIA-SASS-like compiler and SM warp simulator"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Compile a SPIR-V shader: print its listing, or write a binary with -o.
    Compile {
        shader: PathBuf,
        /// Target architecture: sm75, sm86, sm89 or sm90.
        #[arg(long, default_value = "sm86")]
        arch: Arch,
        /// The entry point to compile (default: the only one).
        #[arg(long)]
        entry: Option<String>,
        /// Write the compiled binary here instead of printing the listing.
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// Show the control bits ([B------:R-:W-:-:S01]) after each instruction.
        #[arg(long)]
        ctrl: bool,
        /// Print the machine IR after every backend pass.
        #[arg(long)]
        print_passes: bool,
    },
    /// Print the listing of a compiled binary.
    Disasm {
        binary: PathBuf,
        #[arg(long)]
        ctrl: bool,
    },
    /// Simulate a mesh draw and print the outputs of every workgroup, or a
    /// compute dispatch and print (or write) its buffers.
    Run {
        /// A SPIR-V mesh or compute shader (compiled first) or a compiled binary.
        shader: PathBuf,
        /// Workgroup counts: X or X,Y,Z.
        #[arg(long, default_value = "1", value_parser = parse_groups)]
        groups: [u32; 3],
        #[arg(long, default_value = "sm86")]
        arch: Arch,
        #[arg(long)]
        entry: Option<String>,
        /// Print the outputs as JSON.
        #[arg(long)]
        json: bool,
        /// Stop a warp after this many executed instructions.
        #[arg(long, default_value_t = spvsass::sim::SimOptions::default().max_steps)]
        max_steps: u64,
        #[command(flatten)]
        compute: ComputeArgs,
    },
}

/// The resources of a compute dispatch (set 0).
#[derive(clap::Args)]
struct ComputeArgs {
    /// Compute: storage buffer BINDING, initialised from FILE or zero-filled
    /// with SIZE bytes (a number). Repeatable.
    #[arg(long = "buffer", value_name = "BINDING=FILE|SIZE", value_parser = parse_buffer)]
    buffers: Vec<(u32, BufferInit)>,
    /// Compute: write storage buffer BINDING to FILE after the dispatch.
    #[arg(long = "out", value_name = "BINDING=FILE", value_parser = parse_binding_path)]
    outs: Vec<(u32, PathBuf)>,
    /// Compute: push constants from FILE (at most 128 bytes).
    #[arg(long, value_name = "FILE")]
    push: Option<PathBuf>,
    /// Compute: uniform buffer BINDING from FILE. Repeatable.
    #[arg(long = "uniform", value_name = "BINDING=FILE", value_parser = parse_binding_path)]
    uniforms: Vec<(u32, PathBuf)>,
}

impl ComputeArgs {
    fn given(&self) -> bool {
        !self.buffers.is_empty()
            || !self.outs.is_empty()
            || self.push.is_some()
            || !self.uniforms.is_empty()
    }
}

#[derive(Clone, Debug)]
enum BufferInit {
    File(PathBuf),
    Zeroed(usize),
}

fn split_binding(s: &str) -> Result<(u32, &str), String> {
    let (b, rest) = s
        .split_once('=')
        .ok_or_else(|| format!("expected BINDING=..., got '{s}'"))?;
    let binding = b
        .trim()
        .parse()
        .map_err(|_| format!("'{b}' is not a binding number"))?;
    if rest.is_empty() {
        return Err(format!("nothing after '=' in '{s}'"));
    }
    Ok((binding, rest))
}

fn parse_buffer(s: &str) -> Result<(u32, BufferInit), String> {
    let (binding, rest) = split_binding(s)?;
    Ok(match rest.parse::<usize>() {
        Ok(size) => (binding, BufferInit::Zeroed(size)),
        Err(_) => (binding, BufferInit::File(PathBuf::from(rest))),
    })
}

fn parse_binding_path(s: &str) -> Result<(u32, PathBuf), String> {
    let (binding, rest) = split_binding(s)?;
    Ok((binding, PathBuf::from(rest)))
}

/// Exits with clap's usage error (status 2).
fn usage_error(msg: String) -> ! {
    use clap::CommandFactory;
    Cli::command()
        .error(clap::error::ErrorKind::ArgumentConflict, msg)
        .exit()
}

/// Checks the compute arguments against each other (usage errors).
fn check_compute_args(args: &ComputeArgs) {
    let mut bound = std::collections::BTreeSet::new();
    for (b, _) in &args.buffers {
        if !bound.insert(*b) {
            usage_error(format!("binding {b} is given twice with --buffer"));
        }
    }
    for (b, _) in &args.uniforms {
        if !bound.insert(*b) {
            usage_error(format!("binding {b} is bound twice (--buffer/--uniform)"));
        }
    }
    for (b, _) in &args.outs {
        if !args.buffers.iter().any(|(x, _)| x == b) {
            usage_error(format!("--out {b}=...: binding {b} has no --buffer"));
        }
    }
}

fn run_dispatch(
    shader: &Path,
    binary: &spvsass::backend::binary::Binary,
    groups: [u32; 3],
    args: &ComputeArgs,
    options: &spvsass::sim::SimOptions,
    json: bool,
) -> Result<(), String> {
    let mut inputs = spvsass::sim::ComputeInputs::default();
    for (b, init) in &args.buffers {
        let bytes = match init {
            BufferInit::File(path) => read(path)?,
            BufferInit::Zeroed(size) => vec![0; *size],
        };
        inputs.buffers.insert(*b, bytes);
    }
    for (b, path) in &args.uniforms {
        inputs.uniforms.insert(*b, read(path)?);
    }
    if let Some(path) = &args.push {
        inputs.push_constants = read(path)?;
    }
    let run = spvsass::dispatch(binary, groups, inputs, options)
        .map_err(|e| format!("{}: {e}", shader.display()))?;
    for (b, path) in &args.outs {
        let bytes = run.buffers.get(b).map_or(&[][..], Vec::as_slice);
        std::fs::write(path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&spvsass::compute_json(&run)).map_err(|e| e.to_string())?
        );
    } else {
        print!("{}", spvsass::describe_compute(&run));
    }
    Ok(())
}

fn parse_groups(s: &str) -> Result<[u32; 3], String> {
    let parts: Vec<&str> = s.split(',').collect();
    if parts.is_empty() || parts.len() > 3 {
        return Err(format!("expected X or X,Y,Z, got '{s}'"));
    }
    let mut g = [1u32; 3];
    for (i, p) in parts.iter().enumerate() {
        g[i] = p
            .trim()
            .parse()
            .map_err(|_| format!("'{p}' is not a workgroup count"))?;
        if g[i] == 0 {
            return Err("workgroup counts must be at least 1".into());
        }
    }
    Ok(g)
}

fn read(path: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

fn compile_input(
    path: &Path,
    arch: Arch,
    entry: Option<String>,
    print_passes: bool,
) -> Result<spvsass::Compiled, String> {
    let bytes = read(path)?;
    let words = spvsass::frontend::words_from_bytes(&bytes)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let options = Options {
        arch: Some(arch),
        entry,
        task_present: false,
        print_passes,
    };
    spvsass::compile(&words, &options).map_err(|e| format!("{}: {e}", path.display()))
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Compile {
            shader,
            arch,
            entry,
            output,
            ctrl,
            print_passes,
        } => {
            let compiled = compile_input(&shader, arch, entry, print_passes)?;
            for (pass, text) in &compiled.pass_dumps {
                println!("// ---- after {pass} ----\n{text}");
            }
            match output {
                Some(out) => std::fs::write(&out, compiled.binary.to_bytes())
                    .map_err(|e| format!("cannot write {}: {e}", out.display()))?,
                None => print!(
                    "{}",
                    spvsass::listing(&compiled.binary, ctrl).map_err(|e| e.to_string())?
                ),
            }
        }
        Command::Disasm { binary, ctrl } => {
            let bytes = read(&binary)?;
            let bin = spvsass::backend::binary::Binary::from_bytes(&bytes)
                .map_err(|e| format!("{}: {e}", binary.display()))?;
            print!(
                "{}",
                spvsass::listing(&bin, ctrl).map_err(|e| format!("{}: {e}", binary.display()))?
            );
        }
        Command::Run {
            shader,
            groups,
            arch,
            entry,
            json,
            max_steps,
            compute,
        } => {
            check_compute_args(&compute);
            let bytes = read(&shader)?;
            let binary = match Input::from_bytes(&bytes)
                .map_err(|e| format!("{}: {e}", shader.display()))?
            {
                Input::Binary(b) => *b,
                Input::Spirv(_) => compile_input(&shader, arch, entry, false)?.binary,
            };
            let options = spvsass::sim::SimOptions { max_steps };
            if binary.stage == spvsass::backend::binary::Stage::Compute {
                return run_dispatch(&shader, &binary, groups, &compute, &options, json);
            }
            if compute.given() {
                usage_error(format!(
                    "--buffer, --out, --push and --uniform apply to compute shaders; {} is a {} shader",
                    shader.display(),
                    binary.stage.name()
                ));
            }
            let draw = spvsass::simulate(&binary, groups, &options)
                .map_err(|e| format!("{}: {e}", shader.display()))?;
            if json {
                println!(
                    "{}",
                    serde_json::to_string_pretty(&draw).map_err(|e| e.to_string())?
                );
            } else {
                print!("{}", spvsass::describe(&draw));
            }
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("error: {msg}");
            ExitCode::FAILURE
        }
    }
}
