//! `spvsass run ... --reference vulkan`: the command line's run written as
//! a run description (docs/RUNS.md), simulated, run on the system's Vulkan
//! driver, and compared.

use crate::{BufferInit, ComputeArgs};
use spvsass::reference::{
    BufferDescription, BufferKind, CullMode, Data, FrontFace, ImageSize, RunDescription, ShaderRef,
    Stages,
};
use spvsass::sim::raster::{self, RenderState};
use std::path::{Path, PathBuf};

/// What the command line says about the run.
pub struct RunArgs<'a> {
    pub shader: &'a Path,
    pub task: Option<&'a Path>,
    pub entry: Option<String>,
    pub groups: [u32; 3],
    /// `None` for a compute dispatch; the image and rasterizer state of a
    /// mesh draw otherwise.
    pub render: Option<&'a RenderState>,
    pub view_mask: u32,
    pub resources: &'a ComputeArgs,
    /// Buffers compared as f32 within N ULPs, by binding.
    pub float_ulps: &'a [(u32, u32)],
}

/// The run description of the command line's run. Every storage buffer and
/// storage image is read back, so that the comparison covers all of them,
/// not only the ones named by `--out`.
pub fn describe(args: &RunArgs) -> Result<RunDescription, String> {
    let entry = args.entry.clone().unwrap_or_else(|| "main".into());
    let (images, samplers) =
        crate::cli_images::describe(&args.resources.textures, &args.resources.samplers)?;
    let shader_ref = |p: &Path| ShaderRef {
        spirv: p.to_owned(),
        entry: entry.clone(),
    };
    let stages = match args.render {
        None => Stages {
            compute: Some(shader_ref(args.shader)),
            task: None,
            mesh: None,
        },
        Some(_) => Stages {
            compute: None,
            task: args.task.map(shader_ref),
            mesh: Some(shader_ref(args.shader)),
        },
    };
    let ulps = |binding: u32| {
        args.float_ulps
            .iter()
            .find(|(b, _)| *b == binding)
            .map(|(_, n)| *n)
    };
    let storage = args
        .resources
        .buffers
        .iter()
        .map(|(slot, init)| BufferDescription {
            set: slot.set,
            binding: slot.binding,
            element: slot.element,
            kind: BufferKind::Storage,
            offset: 0,
            range: None,
            contents: vec![match init {
                BufferInit::File(path) => Data::File(path.clone()),
                BufferInit::Zeroed(size) => Data::Zero(*size as u64),
            }],
            read_back: true,
            float_ulps: if slot.set == 0 && slot.element == 0 {
                ulps(slot.binding)
            } else {
                None
            },
        });
    let uniform = args
        .resources
        .uniforms
        .iter()
        .map(|(slot, path)| BufferDescription {
            set: slot.set,
            binding: slot.binding,
            element: slot.element,
            kind: BufferKind::Uniform,
            offset: 0,
            range: None,
            contents: vec![Data::File(path.clone())],
            read_back: false,
            float_ulps: None,
        });
    Ok(RunDescription {
        comment: None,
        stages,
        groups: args.groups,
        image: args.render.map(|r| ImageSize {
            width: r.width,
            height: r.height,
        }),
        view_mask: args.view_mask,
        cull_mode: match args.render.map_or(raster::CullMode::None, |r| r.cull_mode) {
            raster::CullMode::None => CullMode::None,
            raster::CullMode::Front => CullMode::Front,
            raster::CullMode::Back => CullMode::Back,
            raster::CullMode::FrontAndBack => CullMode::FrontAndBack,
        },
        front_face: match args
            .render
            .map_or(raster::FrontFace::CounterClockwise, |r| r.front_face)
        {
            raster::FrontFace::CounterClockwise => FrontFace::CounterClockwise,
            raster::FrontFace::Clockwise => FrontFace::Clockwise,
        },
        buffers: storage.chain(uniform).collect(),
        push_constants: args
            .resources
            .push
            .iter()
            .cloned()
            .map(Data::File)
            .collect(),
        images,
        samplers,
    })
}

/// Simulates the run and runs it on the Vulkan driver, stages the
/// simulator's buffers named by `--out` (written if the run matches), and
/// prints the comparison; a
/// mismatch is an error.
pub fn run(
    desc: &RunDescription,
    name: &str,
    options: &spvsass::simulate_run::SimulateOptions,
    outs: &[(spvsass::sim::Slot, PathBuf)],
    outputs: &mut spvsass::output_files::Outputs,
    cuda: bool,
) -> Result<(), String> {
    // Paths in the description are the command line's: relative to the
    // working directory.
    let base = Path::new(".");
    let sim = spvsass::simulate_run::simulate_run(desc, name, base, options)
        .map_err(|e| e.to_string())?;
    for (slot, path) in outs {
        let words = sim
            .capture
            .buffer_at(slot.set, slot.binding, slot.element)
            .unwrap_or(&[]);
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        outputs.stage(path, &bytes).map_err(|e| e.to_string())?;
    }
    let reference = if cuda {
        spvsass::reference::cuda::run(desc, name, base)
    } else {
        spvsass::reference::run(desc, name, base)
    }
    .map_err(|e| e.to_string())?;
    let tolerances = spvsass::compare::Tolerances::for_run(desc);
    crate::report(&spvsass::compare::compare(&sim, &reference, &tolerances))
}
