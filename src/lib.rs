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
//! let draw = spvsass::Draw::new(None, &compiled.binary, [1, 1, 1]).run().unwrap().draw;
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
    /// banks, which CUDA keeps, and warp reductions are SHFL ladders, not
    /// REDUX, whose hardware form writes a uniform register (docs/CUBIN.md).
    pub for_cuda: bool,
    /// Compile out the in-shader pipeline-statistics counting
    /// (`--statistics off`; `BackendOptions::statistics`).
    pub no_statistics: bool,
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
        statistics: !options.no_statistics,
        bank_uniforms: !options.for_cuda,
        redux: !options.for_cuda,
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
    if ctrl {
        // With the control bits the listing is the assembler's whole
        // input: the container's fields as directives (docs/ISA.md).
        s.push_str(&backend::asm::directives(binary));
    }
    s.push_str(&backend::program::listing(&instrs, ctrl));
    Ok(s)
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

/// A draw to run in the simulator, started like the hardware from its
/// method stream: `groups` (X*Y*Z of them) task workgroups, each launching
/// the mesh workgroups it emits, or without a task shader mesh workgroups.
///
/// Built with [`Draw::new`] and the setters below (each has a default);
/// [`Draw::run`] runs it.
///
/// ```no_run
/// # fn f(task: &spvsass::backend::binary::Binary, mesh: &spvsass::backend::binary::Binary)
/// # -> Result<(), spvsass::Error> {
/// let bound = spvsass::Draw::new(Some(task), mesh, [4, 1, 1])
///     .view_mask(0b11)
///     .run()?;
/// println!("{} mesh workgroups", bound.draw.workgroups.len());
/// # Ok(())
/// # }
/// ```
#[derive(Clone, Debug)]
pub struct Draw<'a> {
    /// The task shader in front of the mesh shader, if any.
    pub task: Option<&'a Binary>,
    /// The mesh shader.
    pub mesh: &'a Binary,
    /// Workgroups of the first stage (task, or mesh without a task shader).
    pub groups: [u32; 3],
    /// A multiview render pass's view mask: the draw runs once per set
    /// bit, each view into its own image layer (0, the default: a plain
    /// draw; see `sim::run_draw_multiview`).
    pub view_mask: u32,
    /// Buffers and push constants bound to the task and mesh shaders as a
    /// compute dispatch binds them (`backend::abi`); none by default.
    pub inputs: sim::ComputeInputs,
    /// Limits of the run and its culling state; `SimOptions::default()`
    /// by default.
    pub options: sim::SimOptions,
}

impl<'a> Draw<'a> {
    /// A plain draw of `groups` workgroups: one view, nothing bound,
    /// default options.
    pub fn new(task: Option<&'a Binary>, mesh: &'a Binary, groups: [u32; 3]) -> Self {
        Draw {
            task,
            mesh,
            groups,
            view_mask: 0,
            inputs: sim::ComputeInputs::default(),
            options: sim::SimOptions::default(),
        }
    }

    /// Sets [`Draw::view_mask`].
    pub fn view_mask(mut self, view_mask: u32) -> Self {
        self.view_mask = view_mask;
        self
    }

    /// Sets [`Draw::inputs`].
    pub fn inputs(mut self, inputs: sim::ComputeInputs) -> Self {
        self.inputs = inputs;
        self
    }

    /// Sets [`Draw::options`].
    pub fn options(mut self, options: sim::SimOptions) -> Self {
        self.options = options;
        self
    }

    /// Runs the draw: the workgroups' outputs (`BoundDraw::draw`) and the
    /// storage buffers' final contents.
    pub fn run(self) -> Result<sim::BoundDraw, Error> {
        let groups = self.groups;
        let count = groups
            .iter()
            .try_fold(1u32, |acc, &g| acc.checked_mul(g))
            .ok_or(Error::TooManyGroups(groups))?;
        let words = draw_methods(self.task, self.mesh, count, self.view_mask);
        Ok(sim::run_methods_bound(
            &words,
            self.task,
            self.mesh,
            Some(groups),
            self.inputs,
            &self.options,
        )?)
    }
}

/// A compute dispatch to run in the simulator: `groups` workgroups of a
/// compute shader with buffers and push constants bound (`backend::abi`).
///
/// Built with [`Dispatch::new`] and the setters below (each has a
/// default); [`Dispatch::run`] runs it.
///
/// ```no_run
/// # fn f(binary: &spvsass::backend::binary::Binary) -> Result<(), spvsass::Error> {
/// let mut inputs = spvsass::sim::ComputeInputs::default();
/// inputs.buffers.insert(0, vec![0; 256]);
/// let run = spvsass::Dispatch::new(binary, [2, 1, 1]).inputs(inputs).run()?;
/// println!("{} bytes in binding 0", run.buffers[&0].len());
/// # Ok(())
/// # }
/// ```
#[derive(Clone, Debug)]
pub struct Dispatch<'a> {
    /// The compute shader.
    pub binary: &'a Binary,
    /// Workgroups in X, Y and Z.
    pub groups: [u32; 3],
    /// Buffers, uniforms, push constants, images and samplers bound;
    /// none by default.
    pub inputs: sim::ComputeInputs,
    /// Limits of the run; `SimOptions::default()` by default.
    pub options: sim::SimOptions,
}

impl<'a> Dispatch<'a> {
    /// A dispatch of `groups` workgroups with nothing bound and default
    /// options.
    pub fn new(binary: &'a Binary, groups: [u32; 3]) -> Self {
        Dispatch {
            binary,
            groups,
            inputs: sim::ComputeInputs::default(),
            options: sim::SimOptions::default(),
        }
    }

    /// Sets [`Dispatch::inputs`].
    pub fn inputs(mut self, inputs: sim::ComputeInputs) -> Self {
        self.inputs = inputs;
        self
    }

    /// Sets [`Dispatch::options`].
    pub fn options(mut self, options: sim::SimOptions) -> Self {
        self.options = options;
        self
    }

    /// Runs the dispatch: the buffers' final contents and the statistics.
    pub fn run(self) -> Result<sim::ComputeRun, Error> {
        Ok(sim::run_compute(
            self.binary,
            self.groups,
            self.inputs,
            &self.options,
        )?)
    }
}
