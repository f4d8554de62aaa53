//! The `spvsass` command: compile, disassemble and simulate shaders.

use clap::{Parser, Subcommand, ValueEnum};
use cli_checks::InputKind;
use spvsass::backend::target::Arch;
use spvsass::frontend::SpecValue;
use spvsass::output_files::Outputs;
use spvsass::sim::Slot;
use spvsass::sim::phases::{stamp, start as stamp_start};
use spvsass::sim::raster::{CullMode, FrontFace, RenderState};
use spvsass::{Input, Options};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

mod cli_checks;
mod cli_images;
#[cfg(test)]
mod cli_mutations;
mod compile_cache;
mod run_reference;

/// mimalloc instead of glibc's malloc: a draw's mesh workgroups allocate
/// their outputs on every rayon worker at once, and glibc's arenas stopped
/// the meshlet draw from scaling past 8 threads (BENCHMARKS.md, "Scaling
/// with cores").
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// `print!` to standard output, except that a reader that went away
/// (`spvsass compile x.spv | head`) ends the program quietly with the
/// status a SIGPIPE gives (141), where `print!` would panic.
macro_rules! out {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        if let Err(e) = write!(std::io::stdout().lock(), $($t)*) {
            stdout_failed(e)
        }
    }};
}

/// `println!` as `out!` prints.
macro_rules! outln {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        if let Err(e) = writeln!(std::io::stdout().lock(), $($t)*) {
            stdout_failed(e)
        }
    }};
}

fn stdout_failed(e: std::io::Error) -> ! {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(141);
    }
    eprintln!("error: writing to standard output: {e}");
    std::process::exit(1);
}

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

#[derive(Clone, Copy, clap::ValueEnum)]
enum Emit {
    /// The listing (with -o: the spvsass binary).
    Listing,
    /// The draw's method stream.
    Methods,
    /// The raw instruction words (with -o), 16 bytes per instruction,
    /// for `nvdisasm -b SM86 FILE` (docs/CUBIN.md).
    Text,
    /// A CUDA cubin (ELF) of a compute shader (with -o), for
    /// `cuModuleLoadData`, `cuobjdump` and `nvdisasm` (docs/CUBIN.md).
    Cubin,
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
        /// Give specialization constant ID the value VALUE (true, false,
        /// an integer or a float); repeatable.
        #[arg(long = "spec", value_name = "ID=VALUE", value_parser = parse_spec)]
        spec: Vec<(u32, SpecValue)>,
        /// Write the compiled binary here instead of printing the listing.
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// Show the control bits ([B------:R-:W-:-:S01]) after each instruction.
        #[arg(long)]
        ctrl: bool,
        /// Print the machine IR after every backend pass.
        #[arg(long)]
        print_passes: bool,
        /// A task shader launches this mesh shader (SPH type TESSELLATION,
        /// workgroup index read without SKEW).
        #[arg(long)]
        task_present: bool,
        /// Compile in-shader primitive culling (mesh shaders, triangles):
        /// back-face, frustum and small-primitive culling after the
        /// positions, switched at run time by the draw's culling word.
        #[arg(long)]
        shader_cull: bool,
        /// Count pipeline statistics in task and mesh shaders (on), or
        /// compile the counting out (off): a statistics query then
        /// counts nothing of this shader (docs/ABI.md).
        #[arg(long, value_enum, default_value = "on")]
        statistics: Switch,
        /// What to print: the listing, or the draw's method stream.
        #[arg(long, value_enum, default_value = "listing")]
        emit: Emit,
        /// The task shader of the draw (--emit methods); implies
        /// --task-present.
        #[arg(long)]
        task: Option<PathBuf>,
        /// Workgroup counts of the draw (--emit methods): X or X,Y,Z.
        #[arg(long, default_value = "1", value_parser = parse_groups)]
        groups: [u32; 3],
        /// Multiview (--emit methods): one draw per set bit (0b101 or 5),
        /// each after its view index and SET_RT_LAYER. 0: no multiview.
        #[arg(long, default_value = "0", value_parser = parse_view_mask)]
        view_mask: u32,
    },
    /// Assemble a listing (the syntax `disasm --ctrl` prints, its
    /// directives included) into a binary; without directives, a compute
    /// binary.
    Asm {
        source: PathBuf,
        /// The binary to write.
        #[arg(short, long)]
        output: PathBuf,
    },
    /// Print the listing of a compiled binary.
    Disasm {
        binary: PathBuf,
        /// Print each instruction's control bits, and the container's
        /// fields as directives: the assembler's whole input.
        #[arg(long)]
        ctrl: bool,
    },
    /// Simulate a mesh draw and print the outputs of every workgroup, or a
    /// compute dispatch and print (or write) its buffers.
    Run {
        /// A SPIR-V mesh or compute shader (compiled first) or a compiled binary.
        shader: PathBuf,
        /// A task shader (SPIR-V or binary) that launches the mesh
        /// workgroups; --groups then counts task workgroups.
        #[arg(long)]
        task: Option<PathBuf>,
        /// Workgroup counts: X or X,Y,Z.
        #[arg(long, default_value = "1", value_parser = parse_groups)]
        groups: [u32; 3],
        #[arg(long, default_value = "sm86")]
        arch: Arch,
        #[arg(long)]
        entry: Option<String>,
        /// Give specialization constant ID the value VALUE (true, false,
        /// an integer or a float); repeatable.
        #[arg(long = "spec", value_name = "ID=VALUE", value_parser = parse_spec)]
        spec: Vec<(u32, SpecValue)>,
        /// Print the outputs as JSON.
        #[arg(long)]
        json: bool,
        /// Print the simulated warp- and thread-instructions, the wall time
        /// of the simulation and the rates per second (to stderr).
        #[arg(long)]
        stats: bool,
        /// Stop a warp after this many executed instructions.
        #[arg(long, default_value_t = spvsass::sim::SimOptions::default().max_steps)]
        max_steps: u64,
        /// Image size for --image, --raw and --reference: WxH pixels.
        #[arg(long, default_value = "64x64", value_parser = parse_size)]
        size: [u32; 2],
        /// Rasterize the draw and write it as an 8-bit RGBA PNG.
        #[arg(long)]
        image: Option<PathBuf>,
        /// Rasterize the draw and write it as raw RGBA32F (little-endian,
        /// row 0 at the top).
        #[arg(long)]
        raw: Option<PathBuf>,
        /// Multiview: render view i of each set bit i (0b101 or 5), one
        /// draw per view in ascending order, view i into image layer i;
        /// the image has highest view + 1 layers. 0: no multiview.
        #[arg(long, default_value = "0", value_parser = parse_view_mask)]
        view_mask: u32,
        /// Face culling: none, front, back or front_and_back.
        #[arg(long, default_value = "none", value_parser = str::parse::<CullMode>)]
        cull_mode: CullMode,
        /// The front-facing winding as seen on the image: ccw or cw.
        #[arg(long, default_value = "ccw", value_parser = str::parse::<FrontFace>)]
        front_face: FrontFace,
        /// Compile in-shader primitive culling (mesh shaders, triangles):
        /// back-face, frustum and small-primitive culling after the
        /// positions; the draw's culling word follows --cull-mode and
        /// --front-face. `--shader-cull=off` compiles it in but writes
        /// the culling word 0 (the disabled path).
        #[arg(long, value_enum, num_args = 0..=1, default_missing_value = "on")]
        shader_cull: Option<CullSwitch>,
        /// Which tier runs converged code: the interpreter, or native code
        /// translated with Cranelift where it applies (ARCHITECTURE.md,
        /// "Native tier"); the results are the same. Translated code is
        /// kept in $XDG_CACHE_HOME/spvsass/native (else
        /// ~/.cache/spvsass/native) for the next run of the same shader,
        /// as is the binary compiled from SPIR-V (either tier);
        /// SPVSASS_TRANSLATION_CACHE=DIR puts them elsewhere, =off keeps none.
        #[arg(long, value_enum, default_value = "interp")]
        tier: TierArg,
        /// Check the control bits as the program runs: a register read
        /// before its producer's latency has passed or its scoreboard was
        /// waited on is an error naming both instructions (docs/ISA.md,
        /// "Checking the control bits"). On by default; off by default
        /// with --tier native, which does not run while it is on.
        #[arg(long, value_enum, num_args = 0..=1, default_missing_value = "on")]
        check_ctrl: Option<Switch>,
        /// Draw with a pipeline-statistics query active (on), or with none
        /// (off: the root table's query address is 0, the shaders skip
        /// their counting and the draw counts zero invocations;
        /// docs/ABI.md, "Pipeline statistics").
        #[arg(long, value_enum, default_value = "on")]
        query: Switch,
        #[command(flatten)]
        compute: Box<ComputeArgs>,
        /// Also run the draw on this reference (vulkan: the system's Vulkan
        /// driver) and report the differences; exit 1 on a mismatch.
        #[arg(long, value_enum)]
        reference: Option<ReferenceKind>,
        /// With --reference: compare the storage buffer at BINDING as f32
        /// within N ULPs (default: as integers, exactly); repeatable.
        #[arg(long = "float-ulps", value_name = "BINDING=N", value_parser = parse_ulps)]
        float_ulps: Vec<(u32, u32)>,
    },
    /// Simulate a run description (docs/RUNS.md) and compare the result
    /// with a stored reference capture; exit 1 on a mismatch.
    Compare {
        run: PathBuf,
        /// The capture's folder (result.json, image.rgba32f).
        #[arg(long)]
        against: PathBuf,
        #[arg(long)]
        arch: Option<Arch>,
        /// Compare the buffer at BINDING as f32 within N ULPs (default:
        /// as integers, exactly); repeatable.
        #[arg(long = "float-ulps", value_name = "BINDING=N", value_parser = parse_ulps)]
        float_ulps: Vec<(u32, u32)>,
        /// Pixels whose centre lies within this many pixels of an edge
        /// may differ in coverage.
        #[arg(long, default_value_t = spvsass::compare::EDGE_DISTANCE)]
        edge_distance: f64,
        #[arg(long, default_value_t = spvsass::sim::SimOptions::default().max_steps)]
        max_steps: u64,
        /// Which tier runs converged code in the simulation (as `run
        /// --tier`); the results are the same.
        #[arg(long, value_enum, default_value = "interp")]
        tier: TierArg,
    },
    /// Run a run description (docs/RUNS.md) on the system's Vulkan driver and
    /// write result.json (and image.rgba32f for mesh runs) into --out.
    Reference {
        run: PathBuf,
        #[arg(long)]
        out: PathBuf,
        /// The driver: the system's Vulkan driver running the SPIR-V, or
        /// CUDA running spvsass's own cubin of a compute shader
        /// (docs/CUBIN.md).
        #[arg(long, value_enum, default_value = "vulkan")]
        driver: ReferenceKind,
    },
}

/// `run --shader-cull[=on|off]`: the culling compiled in, switched on by
/// the draw's culling word or left off (word 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum CullSwitch {
    On,
    Off,
}

/// `run --check-ctrl[=on|off]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Switch {
    On,
    Off,
}

/// `run --tier`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum TierArg {
    Interp,
    Native,
}

impl From<TierArg> for spvsass::sim::Tier {
    fn from(t: TierArg) -> spvsass::sim::Tier {
        match t {
            TierArg::Interp => spvsass::sim::Tier::Interp,
            TierArg::Native => spvsass::sim::Tier::Native,
        }
    }
}

/// What `run --reference` compares with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum ReferenceKind {
    /// The system's Vulkan driver (docs/RUNS.md).
    Vulkan,
    /// spvsass's own cubin on the machine's NVIDIA GPU, through the CUDA
    /// driver API (compute runs; docs/CUBIN.md).
    Cuda,
}

fn parse_ulps(s: &str) -> Result<(u32, u32), String> {
    let (binding, n) = s
        .split_once('=')
        .ok_or_else(|| format!("\"{s}\" is not BINDING=N"))?;
    let number = |t: &str| {
        t.trim()
            .parse::<u32>()
            .map_err(|_| format!("\"{t}\" is not a number"))
    };
    Ok((number(binding)?, number(n)?))
}

/// Prints the comparison; a mismatch is an error (exit 1).
fn report(comparison: &spvsass::compare::Comparison) -> Result<(), String> {
    out!("{comparison}");
    if comparison.matches() {
        Ok(())
    } else {
        Err(format!(
            "{}: the simulator does not match the reference",
            comparison.run
        ))
    }
}

/// The resources of a compute dispatch or a task/mesh draw (set 0; a
/// draw binds them to both its stages).
#[derive(clap::Args)]
struct ComputeArgs {
    /// Storage buffer at SET.BINDING (or BINDING of set 0; `[E]` after it
    /// for array element E), initialised from FILE or zero-filled with
    /// SIZE bytes (a number). Repeatable.
    #[arg(long = "buffer", value_name = "S.B=FILE|SIZE", value_parser = parse_buffer)]
    buffers: Vec<(Slot, BufferInit)>,
    /// Write the storage buffer at S.B (or B) to FILE after the dispatch
    /// or draw.
    #[arg(long = "out", value_name = "S.B=FILE", value_parser = parse_binding_path)]
    outs: Vec<(Slot, PathBuf)>,
    /// Push constants from FILE (at most 256 bytes).
    #[arg(long, value_name = "FILE")]
    push: Option<PathBuf>,
    /// Uniform buffer at S.B (or B) from FILE. Repeatable.
    #[arg(long = "uniform", value_name = "S.B=FILE", value_parser = parse_binding_path)]
    uniforms: Vec<(Slot, PathBuf)>,
    /// Image or texel buffer at S.B: KIND:FORMAT:DIM:W[xH[xD]]:FILE
    /// (src/cli_images.rs). Repeatable.
    #[arg(long = "texture", value_name = "S.B=KIND:FORMAT:DIM:SIZE:FILE", value_parser = cli_images::parse_texture)]
    textures: Vec<(Slot, cli_images::TextureArg)>,
    /// Sampler at S.B (or the sampler of the combined image there):
    /// nearest|linear, repeat|mirror|clamp|border, unnormalized.
    #[arg(long = "sampler", value_name = "S.B=OPTIONS", value_parser = cli_images::parse_sampler)]
    samplers: Vec<(Slot, spvsass::sim::texture::host::SamplerState)>,
}

impl ComputeArgs {
    /// The buffers and push constants, read from their files.
    fn inputs(&self) -> Result<spvsass::sim::ComputeInputs, String> {
        use spvsass::sim::{BoundBuffer, BufferKind};
        let mut inputs = spvsass::sim::ComputeInputs::default();
        let mut bind = |slot: Slot, kind, bytes| {
            let map = match kind {
                BufferKind::Storage => &mut inputs.buffers,
                BufferKind::Uniform => &mut inputs.uniforms,
            };
            match set0_binding(slot) {
                Some(b) => {
                    map.insert(b, bytes);
                }
                None => inputs.bound.push(BoundBuffer {
                    slot,
                    kind,
                    bytes,
                    offset: 0,
                    range: None,
                }),
            }
        };
        for (slot, init) in &self.buffers {
            let bytes = match init {
                BufferInit::File(path) => cli_checks::read_input(path, InputKind::Storage)?,
                BufferInit::Zeroed(size) => vec![0; *size],
            };
            bind(*slot, BufferKind::Storage, bytes);
        }
        for (slot, path) in &self.uniforms {
            bind(
                *slot,
                BufferKind::Uniform,
                cli_checks::read_input(path, InputKind::Uniform)?,
            );
        }
        if let Some(path) = &self.push {
            inputs.push_constants = cli_checks::read_input(path, InputKind::Push)?;
        }
        (inputs.images, inputs.samplers) = cli_images::bound(&self.textures, &self.samplers)?;
        Ok(inputs)
    }

    /// Stages the storage buffers `--out` names after the run (`buffers`
    /// by set-0 binding, `bound` by slot, as `inputs` bound them).
    fn write_outs(
        &self,
        (buffers, bound, images): &ReadBack,
        outputs: &mut Outputs,
    ) -> Result<(), String> {
        for (slot, path) in &self.outs {
            let bytes = match (images.get(slot), set0_binding(*slot)) {
                (Some(texels), _) => Some(texels),
                (None, Some(b)) => buffers.get(&b),
                (None, None) => bound.get(slot),
            };
            let bytes = bytes.map_or(&[][..], Vec::as_slice);
            outputs.stage(path, bytes).map_err(|e| e.to_string())?;
        }
        Ok(())
    }
}

#[derive(Clone, Debug)]
enum BufferInit {
    File(PathBuf),
    Zeroed(usize),
}

/// A set-0 binding's slot as the plain `buffers`/`uniforms` maps of
/// `ComputeInputs` hold it (array element 0), or `None`.
fn set0_binding(slot: Slot) -> Option<u32> {
    (slot.set == 0 && slot.element == 0).then_some(slot.binding)
}

/// `[SET.]BINDING[[ELEMENT]]=REST`: the slot (set 0 and element 0 when
/// not given) and REST.
fn split_binding(s: &str) -> Result<(Slot, &str), String> {
    let (b, rest) = s
        .split_once('=')
        .ok_or_else(|| format!("expected [SET.]BINDING=..., got '{s}'"))?;
    let number = |n: &str, what: &str| {
        n.trim()
            .parse::<u32>()
            .map_err(|_| format!("'{n}' is not a {what} number (in '{b}')"))
    };
    let (b, element) = match b.trim().strip_suffix(']') {
        Some(head) => {
            let (head, e) = head
                .split_once('[')
                .ok_or_else(|| format!("'{b}': ']' without '['"))?;
            (head, number(e, "array element")?)
        }
        None => (b, 0),
    };
    let (set, binding) = match b.split_once('.') {
        Some((set, binding)) => (number(set, "descriptor set")?, number(binding, "binding")?),
        None => (0, number(b, "binding")?),
    };
    if rest.is_empty() {
        return Err(format!("nothing after '=' in '{s}'"));
    }
    Ok((
        Slot {
            set,
            binding,
            element,
        },
        rest,
    ))
}

fn parse_buffer(s: &str) -> Result<(Slot, BufferInit), String> {
    let (binding, rest) = split_binding(s)?;
    Ok(match rest.parse::<u64>() {
        Ok(size) => (binding, BufferInit::Zeroed(cli_checks::buffer_size(size)?)),
        Err(_) => (binding, BufferInit::File(PathBuf::from(rest))),
    })
}

fn parse_binding_path(s: &str) -> Result<(Slot, PathBuf), String> {
    let (binding, rest) = split_binding(s)?;
    Ok((binding, PathBuf::from(rest)))
}

/// The worker threads of a run: `RAYON_NUM_THREADS` as rayon reads it (a
/// positive count), else the machine's CPUs. Given to the simulator so
/// that a compute dispatch does not start rayon's pool just to learn its
/// size (`SimOptions::threads`); a draw's workgroups run on that pool,
/// which reads the same variable.
fn worker_threads() -> Option<std::num::NonZeroUsize> {
    std::env::var("RAYON_NUM_THREADS")
        .ok()
        .and_then(|v| v.parse().ok())
        .or_else(|| std::thread::available_parallelism().ok())
}

/// The native tier's translation cache (`SimOptions::translation_cache`):
/// the directory `SPVSASS_TRANSLATION_CACHE` names, none if it is `off`
/// or empty; unset, `$XDG_CACHE_HOME/spvsass/native`, else
/// `$HOME/.cache/spvsass/native` (none without either; as the XDG base
/// directory rules say, a relative path in either is ignored).
fn translation_cache() -> Option<&'static std::path::Path> {
    static DIR: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let set = |name: &str| {
            std::env::var_os(name).filter(|v| !v.is_empty() && Path::new(v).is_absolute())
        };
        match std::env::var_os("SPVSASS_TRANSLATION_CACHE") {
            Some(v) if v.is_empty() || v == "off" => None,
            Some(v) => Some(PathBuf::from(v)),
            None => set("XDG_CACHE_HOME")
                .map(PathBuf::from)
                .or_else(|| set("HOME").map(|h| PathBuf::from(h).join(".cache")))
                .map(|base| base.join("spvsass").join("native")),
        }
    })
    .as_deref()
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
            usage_error(format!("{b} is given twice with --buffer"));
        }
    }
    for (b, _) in &args.uniforms {
        if !bound.insert(*b) {
            usage_error(format!("{b} is bound twice (--buffer/--uniform)"));
        }
    }
    for (b, _) in &args.textures {
        if !bound.insert(*b) {
            usage_error(format!("{b} is bound twice (--buffer/--uniform/--texture)"));
        }
    }
    for (b, _) in &args.outs {
        let storage = args.textures.iter().any(|(x, t)| x == b && t.is_storage());
        if !storage && !args.buffers.iter().any(|(x, _)| x == b) {
            usage_error(format!("--out: {b} has no --buffer or storage --texture"));
        }
    }
}

/// A dispatch's storage buffers (by set-0 binding and by slot) and
/// storage images (by slot).
type ReadBack = (
    BTreeMap<u32, Vec<u8>>,
    BTreeMap<Slot, Vec<u8>>,
    BTreeMap<Slot, Vec<u8>>,
);

fn run_dispatch(
    shader: &Path,
    binary: &spvsass::backend::binary::Binary,
    groups: [u32; 3],
    args: &ComputeArgs,
    options: &spvsass::sim::SimOptions,
    json: bool,
    stats: bool,
) -> Result<ReadBack, String> {
    let inputs = args.inputs()?;
    stamp("inputs");
    let start = std::time::Instant::now();
    let run = spvsass::Dispatch::new(binary, groups)
        .inputs(inputs)
        .options(*options)
        .run()
        .map_err(|e| format!("{}: {e}", shader.display()))?;
    stamp("dispatched");
    if stats {
        print_stats(&run.counters, start.elapsed());
        if let Some(native) = &run.native {
            print_native_stats(Some(native), &run.counters);
        }
    }
    if json {
        outln!(
            "{}",
            serde_json::to_string_pretty(&spvsass::compute_json(&run)).map_err(|e| e.to_string())?
        );
    } else {
        out!("{}", spvsass::describe_compute(&run));
    }
    Ok((run.buffers, run.bound, run.images))
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

fn parse_spec(s: &str) -> Result<(u32, SpecValue), String> {
    let (id, value) = s
        .split_once('=')
        .ok_or_else(|| format!("\"{s}\" is not ID=VALUE"))?;
    let id = id
        .trim()
        .parse::<u32>()
        .map_err(|_| format!("\"{id}\" is not a SpecId"))?;
    Ok((id, value.parse::<SpecValue>()?))
}

/// A view mask: binary with a 0b prefix, else decimal.
fn parse_view_mask(s: &str) -> Result<u32, String> {
    let bad = || format!("expected a view mask such as 0b101 or 5, got '{s}'");
    match s.strip_prefix("0b") {
        Some(bits) => u32::from_str_radix(bits, 2).map_err(|_| bad()),
        None => s.parse::<u32>().map_err(|_| bad()),
    }
}

fn parse_size(s: &str) -> Result<[u32; 2], String> {
    let bad = || format!("expected WxH (e.g. 64x64), got '{s}'");
    let (w, h) = s.split_once('x').ok_or_else(bad)?;
    let side = |p: &str| p.trim().parse::<u32>().map_err(|_| bad());
    let size = [side(w)?, side(h)?];
    let max = spvsass::sim::raster::MAX_SIDE;
    if size.iter().any(|&n| n == 0 || n > max) {
        return Err(format!("image sides must be 1 to {max} pixels, got '{s}'"));
    }
    Ok(size)
}

/// Stages an output file; it is written when the command succeeds.
fn write(outputs: &mut Outputs, path: &Path, bytes: &[u8]) -> Result<(), String> {
    outputs.stage(path, bytes).map_err(|e| e.to_string())
}

fn read(path: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

/// Compiles the SPIR-V file at `path` with `options`; warnings go to stderr.
fn compile_input(path: &Path, options: &Options) -> Result<spvsass::Compiled, String> {
    let bytes = read(path)?;
    let words = spvsass::frontend::words_from_bytes(&bytes)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let compiled =
        spvsass::compile(&words, options).map_err(|e| format!("{}: {e}", path.display()))?;
    for w in &compiled.warnings {
        eprintln!("warning: {}: {w}", path.display());
    }
    Ok(compiled)
}

/// A binary as given, or compiled from SPIR-V (through the compile cache
/// kept with the translation cache).
fn load_binary(
    path: &Path,
    arch: Arch,
    entry: Option<String>,
    spec: &[(u32, SpecValue)],
    task_present: bool,
    shader_cull: bool,
) -> Result<spvsass::backend::binary::Binary, String> {
    let options = Options {
        arch: Some(arch),
        entry,
        spec_constants: spec.to_vec(),
        task_present,
        shader_cull,
        ..Options::default()
    };
    load_binary_cached(path, &options, translation_cache())
}

/// `load_binary` with its compile options and compile cache directory.
fn load_binary_cached(
    path: &Path,
    options: &Options,
    cache: Option<&Path>,
) -> Result<spvsass::backend::binary::Binary, String> {
    let bytes = read(path)?;
    let words = match Input::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))? {
        Input::Binary(b) => return Ok(*b),
        Input::Spirv(words) => words,
    };
    // The compile cache (`compile_cache.rs`): a hit says the warnings the
    // compile gave. Not while the passes' IR is asked for on standard
    // error (`SPVSASS_PRINT`): only a compile prints it.
    let cache = cache
        .filter(|_| !spvsass::backend::compile::print_env())
        .map(|dir| (dir, compile_cache::key(&bytes, options)));
    let hit = cache.and_then(|(dir, key)| compile_cache::load(dir, &key));
    let (binary, warnings) = match hit {
        Some(hit) => hit,
        None => {
            let compiled = spvsass::compile(&words, options)
                .map_err(|e| format!("{}: {e}", path.display()))?;
            let warnings: Vec<String> = compiled.warnings.iter().map(|w| w.to_string()).collect();
            if let Some((dir, key)) = cache {
                compile_cache::store(dir, &key, &compiled.binary, &warnings);
            }
            (compiled.binary, warnings)
        }
    };
    for w in &warnings {
        eprintln!("warning: {}: {w}", path.display());
    }
    Ok(binary)
}

/// Runs the command; its output files are staged in `outputs`, which the
/// caller writes only if the whole command succeeded.
fn run(cli: Cli, outputs: &mut Outputs) -> Result<(), String> {
    match cli.command {
        Command::Compile {
            shader,
            arch,
            entry,
            spec,
            output,
            ctrl,
            print_passes,
            task_present,
            shader_cull,
            statistics,
            emit,
            task,
            groups,
            view_mask,
        } => {
            let task_present = task_present || task.is_some();
            let compiled = compile_input(
                &shader,
                &Options {
                    arch: Some(arch),
                    entry,
                    spec_constants: spec.clone(),
                    task_present,
                    print_passes,
                    shader_cull,
                    for_cuda: matches!(emit, Emit::Cubin),
                    no_statistics: statistics == Switch::Off,
                },
            )?;
            for (pass, text) in &compiled.pass_dumps {
                outln!("// ---- after {pass} ----\n{text}");
            }
            match (output, emit) {
                (Some(out), Emit::Text) => {
                    let bytes: Vec<u8> = compiled
                        .binary
                        .code
                        .iter()
                        .flat_map(|w| w.to_le_bytes())
                        .collect();
                    write(outputs, &out, &bytes)?
                }
                (Some(out), Emit::Cubin) => {
                    let cubin = spvsass::backend::cubin::write(&compiled.binary)
                        .map_err(|e| format!("{}: {e}", shader.display()))?;
                    write(outputs, &out, &cubin)?
                }
                (None, Emit::Text | Emit::Cubin) => {
                    return Err("--emit text and --emit cubin write a file: pass -o FILE".into());
                }
                (Some(out), _) => write(outputs, &out, &compiled.binary.to_bytes())?,
                (None, Emit::Listing) => out!(
                    "{}",
                    spvsass::listing(&compiled.binary, ctrl).map_err(|e| e.to_string())?
                ),
                (None, Emit::Methods) => {
                    if compiled.binary.mesh.is_none() {
                        return Err(format!(
                            "{}: --emit methods takes the mesh shader of the draw \
                             (and its task shader with --task)",
                            shader.display()
                        ));
                    }
                    let task_binary = match &task {
                        Some(t) => Some(load_binary(t, arch, None, &spec, false, false)?),
                        None => None,
                    };
                    let count = cli_checks::draw_count(groups).unwrap_or_else(|e| usage_error(e));
                    let words = spvsass::draw_methods(
                        task_binary.as_ref(),
                        &compiled.binary,
                        count,
                        view_mask,
                    );
                    out!(
                        "{}",
                        spvsass::backend::methods::print(&words, arch).map_err(|e| e.to_string())?
                    );
                }
            }
        }
        Command::Asm { source, output } => {
            let bytes = read(&source)?;
            let text = String::from_utf8(bytes)
                .map_err(|_| format!("{}: not UTF-8 text", source.display()))?;
            let binary = spvsass::backend::asm::assemble(&text)
                .map_err(|e| format!("{}: {e}", source.display()))?
                .to_binary()
                .map_err(|e| format!("{}: {e}", source.display()))?;
            write(outputs, &output, &binary.to_bytes())?;
        }
        Command::Disasm { binary, ctrl } => {
            let bytes = read(&binary)?;
            let bin = spvsass::backend::binary::Binary::from_bytes(&bytes)
                .map_err(|e| format!("{}: {e}", binary.display()))?;
            out!(
                "{}",
                spvsass::listing(&bin, ctrl).map_err(|e| format!("{}: {e}", binary.display()))?
            );
        }
        Command::Run {
            shader,
            task,
            groups,
            arch,
            entry,
            spec,
            json,
            stats,
            max_steps,
            size,
            image,
            raw,
            view_mask,
            cull_mode,
            front_face,
            shader_cull,
            tier,
            check_ctrl,
            query,
            compute,
            reference,
            float_ulps,
        } => {
            // A compute dispatch's worker threads start beside the compile
            // (sim/src/workers.rs). Whether the shader is a compute shader
            // is known only once it is compiled: a mesh draw given none of
            // the draw-only options starts them too, idle (no wall time).
            if task.is_none() && image.is_none() && raw.is_none() && view_mask == 0 {
                spvsass::sim::prestart_workers(worker_threads().map_or(1, |n| n.get()));
            }
            check_compute_args(&compute);
            let render_state = RenderState {
                width: size[0],
                height: size[1],
                // One layer per view up to the highest (at least one).
                layers: 32 - view_mask.leading_zeros().min(31),
                cull_mode,
                front_face,
                ..RenderState::default()
            };
            // The draw writes the culling words the rasterizer state gives
            // (they only matter to a shader compiled with --shader-cull).
            let options = spvsass::sim::SimOptions {
                max_steps,
                cull: match shader_cull {
                    Some(CullSwitch::Off) => Default::default(),
                    _ => render_state.shader_cull(),
                },
                tier: tier.into(),
                check_ctrl: match check_ctrl {
                    Some(switch) => switch == Switch::On,
                    None => tier == TierArg::Interp,
                },
                statistics_query: query == Switch::On,
                threads: worker_threads(),
                translation_cache: translation_cache(),
                ..Default::default()
            };
            // A task+mesh pair: the mesh shader is compiled for a task
            // shader in front of it.
            let task_present = task.is_some();
            let binary = load_binary(
                &shader,
                arch,
                entry.clone(),
                &spec,
                task_present,
                shader_cull.is_some(),
            )?;
            use spvsass::backend::binary::Stage;
            // A task shader runs only in front of the mesh shader it
            // launches: the draw is described by the mesh shader's state.
            if binary.stage == Stage::Task {
                usage_error(format!(
                    "{} is a task shader: give the mesh shader it launches as the shader \
                     and this one with --task",
                    shader.display()
                ));
            }
            let is_compute = binary.stage == Stage::Compute;
            if is_compute {
                if task.is_some() {
                    usage_error(format!(
                        "--task applies to mesh shaders; {} is a compute shader",
                        shader.display()
                    ));
                }
                if view_mask != 0 {
                    usage_error(format!(
                        "--view-mask applies to mesh shaders; {} is a compute shader",
                        shader.display()
                    ));
                }
                if image.is_some() || raw.is_some() {
                    usage_error(format!(
                        "--image and --raw apply to mesh shaders; {} is a compute shader",
                        shader.display()
                    ));
                }
            }
            let mut written: Vec<(String, &Path)> = compute
                .outs
                .iter()
                .map(|(b, p)| (format!("--out {b}="), p.as_path()))
                .collect();
            written.extend(image.as_deref().map(|p| ("--image".to_owned(), p)));
            written.extend(raw.as_deref().map(|p| ("--raw".to_owned(), p)));
            cli_checks::distinct_outputs(&written).unwrap_or_else(|e| usage_error(e));
            if !float_ulps.is_empty() && reference.is_none() {
                usage_error("--float-ulps applies to runs with --reference".into());
            }
            if let Some(kind) = reference {
                if !spec.is_empty() {
                    return Err("--spec cannot be used with --reference: run descriptions \
                                have no specialization constants"
                        .into());
                }
                let name = shader
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let desc = run_reference::describe(&run_reference::RunArgs {
                    shader: &shader,
                    task: task.as_deref(),
                    entry,
                    groups,
                    render: (!is_compute).then_some(&render_state),
                    view_mask,
                    resources: &compute,
                    float_ulps: &float_ulps,
                })?;
                // Run descriptions compile without in-shader culling.
                let options = spvsass::simulate_run::SimulateOptions {
                    arch: Some(arch),
                    sim: spvsass::sim::SimOptions {
                        max_steps,
                        threads: worker_threads(),
                        translation_cache: translation_cache(),
                        ..Default::default()
                    },
                };
                return run_reference::run(
                    &desc,
                    &name,
                    &options,
                    &compute.outs,
                    outputs,
                    kind == ReferenceKind::Cuda,
                );
            }
            if is_compute {
                stamp("compiled");
                let read_back =
                    run_dispatch(&shader, &binary, groups, &compute, &options, json, stats)?;
                return compute.write_outs(&read_back, outputs);
            }
            let task_binary = match &task {
                Some(t) => {
                    let b = load_binary(t, arch, entry, &spec, false, false)?;
                    if b.stage != Stage::Task {
                        usage_error(format!(
                            "--task takes a task shader; {} is a {} shader",
                            t.display(),
                            b.stage.name()
                        ));
                    }
                    Some(b)
                }
                None => None,
            };
            let inputs = compute.inputs()?;
            let start = std::time::Instant::now();
            let bound = spvsass::Draw::new(task_binary.as_ref(), &binary, groups)
                .view_mask(view_mask)
                .inputs(inputs)
                .options(options)
                .run()
                .map_err(|e| format!("{}: {e}", shader.display()))?;
            let read_back = (bound.buffers, bound.bound, bound.images);
            compute.write_outs(&read_back, outputs)?;
            let draw = bound.draw;
            if stats {
                print_stats(&draw.counters, start.elapsed());
                if options.tier == spvsass::sim::Tier::Native {
                    print_native_stats(None, &draw.counters);
                }
            }
            if json {
                outln!(
                    "{}",
                    serde_json::to_string_pretty(&draw).map_err(|e| e.to_string())?
                );
            } else {
                out!("{}", spvsass::describe(&draw));
            }
            if image.is_some() || raw.is_some() {
                let frame = spvsass::render(&draw, &render_state)
                    .map_err(|e| format!("{}: {e}", shader.display()))?;
                if let Some(path) = image {
                    let png = spvsass::sim::image::png(&frame).map_err(|e| e.to_string())?;
                    write(outputs, &path, &png)?;
                }
                if let Some(path) = raw {
                    write(outputs, &path, &spvsass::sim::image::raw_rgba32f(&frame))?;
                }
            }
        }
        Command::Compare {
            run,
            against,
            arch,
            float_ulps,
            edge_distance,
            max_steps,
            tier,
        } => {
            let options = spvsass::simulate_run::SimulateOptions {
                arch,
                sim: spvsass::sim::SimOptions {
                    max_steps,
                    tier: tier.into(),
                    threads: worker_threads(),
                    translation_cache: translation_cache(),
                    ..Default::default()
                },
            };
            let sim = spvsass::simulate_run::simulate_run_file(&run, &options)
                .map_err(|e| e.to_string())?;
            let reference =
                spvsass::reference::Capture::read(&against).map_err(|e| e.to_string())?;
            // The description's own ULP bounds, overridden by the command
            // line's.
            let desc = spvsass::reference::RunDescription::load(&run).map_err(|e| e.to_string())?;
            let mut tolerances = spvsass::compare::Tolerances {
                edge_distance,
                ..spvsass::compare::Tolerances::for_run(&desc)
            };
            tolerances
                .float_ulps
                .extend(float_ulps.into_iter().map(|(binding, n)| {
                    let slot = Slot {
                        set: 0,
                        binding,
                        element: 0,
                    };
                    (slot, n)
                }));
            report(&spvsass::compare::compare(&sim, &reference, &tolerances))?;
        }
        Command::Reference { run, out, driver } => {
            let mut capture = match driver {
                ReferenceKind::Vulkan => spvsass::reference::run_file(&run),
                ReferenceKind::Cuda => spvsass::reference::cuda::run_file(&run),
            }
            .map_err(|e| e.to_string())?;
            let args: Vec<String> = std::env::args().collect();
            capture.result.command = Some(args.join(" "));
            capture.write(&out).map_err(|e| e.to_string())?;
            let d = &capture.result.device;
            outln!(
                "{}: ran on {} ({} {}), wrote {}",
                capture.result.run,
                d.device_name,
                d.driver_name,
                d.driver_info,
                out.display()
            );
        }
    }
    Ok(())
}

/// The simulator's throughput, for `run --stats`; on stderr so it never
/// mixes with the (deterministic) draw output.
fn print_stats(counters: &spvsass::sim::Counters, wall: std::time::Duration) {
    let secs = wall.as_secs_f64();
    let rate = |n: u64| if secs > 0.0 { n as f64 / secs } else { 0.0 };
    eprintln!(
        "simulated {} warp-instructions, {} thread-instructions in {:.3} ms: \
         {:.3e} warp-instructions/s, {:.3e} thread-instructions/s",
        counters.warp_instructions,
        counters.thread_instructions,
        secs * 1e3,
        rate(counters.warp_instructions),
        rate(counters.thread_instructions),
    );
}

/// The native tier's share of a run, for `run --stats --tier native`.
/// (A draw's programs report no translation statistics yet.)
fn print_native_stats(
    native: Option<&spvsass::sim::NativeStats>,
    counters: &spvsass::sim::Counters,
) {
    let share = if counters.warp_instructions > 0 {
        100.0 * counters.native_warp_instructions as f64 / counters.warp_instructions as f64
    } else {
        0.0
    };
    if let Some(native) = native {
        eprintln!(
            "native tier: translated {} segments ({} instructions) in {:.3} ms, {} function(s){}, {}",
            native.segments,
            native.instructions,
            native.translate_time.as_secs_f64() * 1e3,
            native.functions,
            match native.cached {
                0 => String::new(),
                n => format!(" ({n} from the translation cache)"),
            },
            // The fewer-lanes copy is made only when a group first needs it.
            match native.copies {
                0 => "no copy",
                1 => "the full-warp copy",
                _ => "both copies (full warp, fewer lanes)",
            },
        );
        if let Some(e) = &native.error {
            eprintln!("native tier: {e}; the interpreter ran the program");
        }
    }
    eprintln!(
        "native tier: {} of {} warp-instructions ({share:.1}%) ran natively",
        counters.native_warp_instructions, counters.warp_instructions,
    );
}

fn main() -> ExitCode {
    // SPVSASS_PHASES=1: where the run's time goes (sim/src/phases.rs).
    stamp_start();
    let mut outputs = Outputs::default();
    let cli = Cli::parse();
    stamp("parsed");
    let result = run(cli, &mut outputs).and_then(|()| {
        stamp("ran");
        outputs.commit().map_err(|e| e.to_string())
    });
    stamp("committed");
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("error: {msg}");
            ExitCode::FAILURE
        }
    }
}
