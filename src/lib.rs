//! spvsass: a compiler from SPIR-V task, mesh and compute shaders to
//! NVIDIA-SASS-like machine code, and an SM warp simulator that runs it.
//!
//! This crate is the thin facade over the three parts: [`frontend`]
//! (SPIR-V to IR), [`backend`] (IR to encoded code) and [`sim`] (execution).
//!
//! ```no_run
//! let bytes = std::fs::read("tests/shaders/point.mesh.spv").unwrap();
//! let words = spvsass::frontend::words_from_bytes(&bytes).unwrap();
//! let compiled = spvsass::compile(&words, &spvsass::Options::default()).unwrap();
//! print!("{}", spvsass::listing(&compiled.binary, false).unwrap());
//! let draw = spvsass::simulate(&compiled.binary, [1, 1, 1], &Default::default()).unwrap();
//! println!("{} primitives", draw.workgroups[0].primitive_count);
//! let image = spvsass::render(&draw, &Default::default()).unwrap();
//! std::fs::write("point.png", spvsass::sim::image::png(&image).unwrap()).unwrap();
//! ```

pub use spvsass_backend as backend;
pub use spvsass_frontend as frontend;
pub use spvsass_sim as sim;

use backend::binary::{Binary, BinaryError};
use backend::compile::BackendOptions;
pub use backend::compile::Compiled;
use backend::target::Arch;
pub mod compare;
mod compute_report;
pub mod output_files;
pub mod reference;
mod report;
pub mod simulate_run;
pub use compute_report::{compute_json, describe_compute};
pub use report::describe;

use std::fmt::Write;

/// Everything that can go wrong, by stage.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Frontend(#[from] frontend::FrontendError),
    #[error(transparent)]
    Backend(#[from] backend::error::BackendError),
    #[error(transparent)]
    Binary(#[from] BinaryError),
    #[error("corrupt code in binary: {0}")]
    Decode(#[from] backend::program::ProgramDecodeError),
    #[error(transparent)]
    Sim(#[from] sim::SimError),
    #[error(transparent)]
    Draw(#[from] sim::DrawError),
    #[error("a draw of {}x{}x{} workgroups: the count does not fit in 32 bits", .0[0], .0[1], .0[2])]
    TooManyGroups([u32; 3]),
    #[error(transparent)]
    Raster(#[from] sim::raster::RasterError),
    #[error(transparent)]
    Image(#[from] sim::image::ImageError),
}

/// Compilation options.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Options {
    pub arch: Option<Arch>,
    /// The entry point to compile; `None` takes the only one.
    pub entry: Option<String>,
    /// Specialization-constant values by SpecId (`--spec ID=VALUE`).
    pub spec_constants: Vec<(u32, frontend::SpecValue)>,
    /// A task shader feeds this mesh shader.
    pub task_present: bool,
    /// Capture the machine IR after every backend pass.
    pub print_passes: bool,
    /// Compile in-shader primitive culling into a mesh shader.
    pub shader_cull: bool,
    /// Compile for a CUDA cubin (`--emit cubin`, `--reference cuda`):
    /// uniform buffers are read through the root table, not constant
    /// banks, which CUDA keeps (docs/CUBIN.md).
    pub for_cuda: bool,
}

/// Compiles one entry point of a SPIR-V module.
pub fn compile(words: &[u32], options: &Options) -> Result<Compiled, Error> {
    let shader = frontend::translate(
        words,
        &frontend::FrontendOptions {
            entry: options.entry.clone(),
            spec_constants: options.spec_constants.clone(),
        },
    )?;
    let backend_options = BackendOptions {
        arch: options.arch.unwrap_or(Arch::DEFAULT),
        task_present: options.task_present,
        print_passes: options.print_passes,
        shader_cull: options.shader_cull,
        bank_uniforms: !options.for_cuda,
        ..BackendOptions::default()
    };
    Ok(backend::compile::compile(&shader, &backend_options)?)
}

/// A file given on the command line: SPIR-V or a spvsass binary.
pub enum Input {
    Spirv(Vec<u32>),
    Binary(Box<Binary>),
}

impl Input {
    /// Tells the two apart by their magic numbers.
    pub fn from_bytes(bytes: &[u8]) -> Result<Input, Error> {
        if bytes.starts_with(&backend::binary::MAGIC) {
            Ok(Input::Binary(Box::new(Binary::from_bytes(bytes)?)))
        } else {
            Ok(Input::Spirv(frontend::words_from_bytes(bytes)?))
        }
    }
}

/// The listing of a binary: a header (stage, registers, SPH summary, mesh
/// state, the buffers the code uses and how it reaches them), then one
/// line per instruction, decoded from the encoded code.
pub fn listing(binary: &Binary, ctrl: bool) -> Result<String, Error> {
    let instrs = backend::program::decode(&binary.code, binary.arch)?;
    let mut s = String::new();
    let [x, y, z] = binary.workgroup_size;
    // Writing into a String cannot fail.
    let _ = writeln!(
        s,
        "// spvsass {} {} shader, local_size ({x}, {y}, {z})",
        binary.arch,
        binary.stage.name()
    );
    let _ = writeln!(
        s,
        "// registers: {} GPRs, {} instructions",
        binary.num_gprs,
        instrs.len()
    );
    if let Some(sph) = &binary.sph {
        let _ = writeln!(s, "// {}", backend::sph::Sph(*sph).summary());
    }
    if let Some(gs) = &binary.gs_sph {
        let _ = writeln!(s, "// after the code: {}", backend::sph::Sph(*gs).summary());
    }
    if let Some(m) = &binary.mesh {
        let _ = writeln!(
            s,
            "// mesh output: {}, max vertices {}, max primitives {}",
            m.topology.name(),
            m.max_vertices,
            m.max_primitives
        );
    }
    for r in &binary.resources {
        let _ = writeln!(s, "// resource {r}");
    }
    s.push_str(&backend::program::listing(&instrs, ctrl));
    Ok(s)
}

/// Runs a mesh draw of `groups` workgroups in the simulator.
pub fn simulate(
    binary: &Binary,
    groups: [u32; 3],
    options: &sim::SimOptions,
) -> Result<sim::MeshDraw, Error> {
    Ok(sim::run_mesh(binary, groups, options)?)
}

/// The method stream of a draw of `group_count` workgroups (task
/// workgroups when there is a task shader), as pushbuffer words; a
/// non-zero `view_mask` draws once per set bit (`backend::methods`).
pub fn draw_methods(
    task: Option<&Binary>,
    mesh: &Binary,
    group_count: u32,
    view_mask: u32,
) -> Vec<u32> {
    backend::methods::encode_draw(task, mesh, group_count, view_mask)
}

/// Rasterizes a simulated mesh draw into an image (Vulkan's rules, the
/// colour at Location 0); [`sim::image`] writes it as PNG or raw RGBA32F.
pub fn render(
    draw: &sim::MeshDraw,
    state: &sim::raster::RenderState,
) -> Result<sim::raster::Framebuffer, Error> {
    Ok(sim::raster::render(draw, state)?)
}

/// Runs a draw in the simulator, started like the hardware from its method
/// stream: `groups` (X*Y*Z of them) task workgroups, each launching the
/// mesh workgroups it emits, or without a task shader mesh workgroups.
pub fn simulate_draw(
    task: Option<&Binary>,
    mesh: &Binary,
    groups: [u32; 3],
    options: &sim::SimOptions,
) -> Result<sim::MeshDraw, Error> {
    simulate_multiview_draw(task, mesh, groups, 0, options)
}

/// [`simulate_draw`] under a multiview render pass: the draw runs once per
/// set bit of `view_mask`, each view into its own image layer (0: a plain
/// draw; see `sim::run_draw_multiview`).
pub fn simulate_multiview_draw(
    task: Option<&Binary>,
    mesh: &Binary,
    groups: [u32; 3],
    view_mask: u32,
    options: &sim::SimOptions,
) -> Result<sim::MeshDraw, Error> {
    let bound = simulate_bound_draw(
        task,
        mesh,
        groups,
        view_mask,
        sim::ComputeInputs::default(),
        options,
    )?;
    Ok(bound.draw)
}

/// [`simulate_multiview_draw`] with buffers and push constants bound to
/// the task and mesh shaders as a compute dispatch binds them (see
/// `backend::abi`); the result holds the storage buffers' final contents.
pub fn simulate_bound_draw(
    task: Option<&Binary>,
    mesh: &Binary,
    groups: [u32; 3],
    view_mask: u32,
    inputs: sim::ComputeInputs,
    options: &sim::SimOptions,
) -> Result<sim::BoundDraw, Error> {
    let count = groups
        .iter()
        .try_fold(1u32, |acc, &g| acc.checked_mul(g))
        .ok_or(Error::TooManyGroups(groups))?;
    let words = draw_methods(task, mesh, count, view_mask);
    Ok(sim::run_methods_bound(
        &words,
        task,
        mesh,
        Some(groups),
        inputs,
        options,
    )?)
}

/// Runs a compute dispatch of `groups` workgroups in the simulator with the
/// given buffers and push constants bound (see `backend::abi`).
pub fn dispatch(
    binary: &Binary,
    groups: [u32; 3],
    inputs: sim::ComputeInputs,
    options: &sim::SimOptions,
) -> Result<sim::ComputeRun, Error> {
    Ok(sim::run_compute(binary, groups, inputs, options)?)
}
