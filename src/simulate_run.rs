//! The simulator side of a run description (docs/RUNS.md): the same file
//! the Vulkan reference runner reads, compiled and run by spvsass, with a
//! result of the same shape as the reference's ([`Capture`]), so the two
//! can be compared field by field (`crate::compare`).
//!
//! Buffers and push constants are bound alike for compute, task and mesh
//! shaders (set 0, `backend::abi`).

use crate::reference::{
    BufferKind, BufferResult, Capture, CullMode, DeviceInfo, FORMAT, FrontFace, IMAGE_FILE,
    ImageResult, Pipeline, ReferenceError, RunDescription, RunResult, ShaderRef, Statistics,
    resolve_data,
};
use crate::sim::raster::{self, RenderState};
use crate::{Error, Options};
use spvsass_backend::target::Arch;
use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum SimulateRunError {
    #[error(transparent)]
    Description(#[from] ReferenceError),
    #[error("cannot read {}: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: {source}", path.display())]
    Compile { path: PathBuf, source: Error },
    #[error("{}: {source}", path.display())]
    Binary {
        path: PathBuf,
        source: crate::backend::binary::BinaryError,
    },
    #[error("{}: a binary for {binary}, simulated as {asked}", path.display())]
    BinaryArch {
        path: PathBuf,
        binary: Arch,
        asked: Arch,
    },
    #[error("{run}: {source}")]
    Draw { run: String, source: Error },
    #[error("{run}: {source}")]
    Raster {
        run: String,
        source: raster::RasterError,
    },
}

/// How the simulator runs a description.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SimulateOptions {
    /// The architecture compiled for; `None` takes the default.
    pub arch: Option<Arch>,
    pub sim: crate::sim::SimOptions,
}

/// What the simulator produced: the result in the reference's shape, and
/// for a mesh run the draw itself (the comparison needs its primitives to
/// tell pixels near an edge from the others).
#[derive(Clone, Debug)]
pub struct SimulatedRun {
    pub capture: Capture,
    pub draw: Option<(crate::sim::MeshDraw, RenderState)>,
    /// The views the draw ran for: the set bits of a multiview run's view
    /// mask, else 1 (the comparison needs it: some statistics are counted
    /// once per view, `crate::compare::PER_VIEW`).
    pub views: u32,
}

/// Loads the run description at `path` and simulates it; the run is named
/// after the file, as [`crate::reference::run_file`] names it.
pub fn simulate_run_file(
    path: &Path,
    options: &SimulateOptions,
) -> Result<SimulatedRun, SimulateRunError> {
    let desc = RunDescription::load(path)?;
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    simulate_run(
        &desc,
        &name,
        path.parent().unwrap_or(Path::new(".")),
        options,
    )
}

/// Simulates `desc`, whose relative paths start at `base`.
pub fn simulate_run(
    desc: &RunDescription,
    name: &str,
    base: &Path,
    options: &SimulateOptions,
) -> Result<SimulatedRun, SimulateRunError> {
    let pipeline = desc
        .pipeline()
        .map_err(|problem| ReferenceError::InvalidDescription {
            path: base.join(format!("{name}.json")),
            problem,
        })?;
    let (task, mesh, image) = match pipeline {
        Pipeline::Compute(shader) => return simulate_compute(desc, name, base, shader, options),
        Pipeline::Mesh { task, mesh, image } => (task, mesh, image),
    };
    let cull_mode = match desc.cull_mode {
        CullMode::None => raster::CullMode::None,
        CullMode::Front => raster::CullMode::Front,
        CullMode::Back => raster::CullMode::Back,
        CullMode::FrontAndBack => raster::CullMode::FrontAndBack,
    };
    let front_face = match desc.front_face {
        FrontFace::CounterClockwise => raster::FrontFace::CounterClockwise,
        FrontFace::Clockwise => raster::FrontFace::Clockwise,
    };

    let task_binary = task
        .map(|t| compile(base, t, false, options.arch))
        .transpose()?;
    let mesh_binary = compile(base, mesh, task.is_some(), options.arch)?;
    let bound = crate::Draw::new(task_binary.as_ref(), &mesh_binary, desc.groups)
        .view_mask(desc.view_mask)
        .inputs(inputs(desc, base)?)
        .options(options.sim)
        .run()
        .map_err(|source| SimulateRunError::Draw {
            run: name.to_owned(),
            source,
        })?;
    let draw = bound.draw;

    // The pass-through fragment shader of the reference interpolates a
    // per-vertex colour smoothly and keeps a per-primitive one flat, which
    // is what the rasterizer does with the default interpolation.
    let render = RenderState {
        width: image.width,
        height: image.height,
        layers: desc.layers(),
        cull_mode,
        front_face,
        ..RenderState::default()
    };
    let raster_error = |source| SimulateRunError::Raster {
        run: name.to_owned(),
        source,
    };
    let frame = raster::render(&draw, &render).map_err(raster_error)?;
    let mut fragments = 0u64;
    raster::fragments(&draw, &render, |_| fragments += 1).map_err(raster_error)?;
    // Primitives that reach clipping: those the shader did not cull.
    let unculled = draw
        .workgroups
        .iter()
        .flat_map(|wg| (0..wg.primitive_count as usize).map(move |i| wg.primitives.get(i)))
        .filter(|p| p.and_then(|p| p.cull) != Some(true))
        .count() as u64;
    let statistics = Statistics {
        compute_shader_invocations: None,
        task_shader_invocations: task.map(|_| draw.statistics.task_invocations),
        mesh_shader_invocations: Some(draw.statistics.mesh_invocations),
        clipping_invocations: Some(unculled),
        // How many primitives the clipper emits is the implementation's
        // business (guard bands, splitting); not modelled.
        clipping_primitives: None,
        fragment_shader_invocations: Some(fragments),
        mesh_primitives_generated: Some(draw.statistics.mesh_primitives_generated),
    };
    let pixels = frame.pixels().iter().flatten().copied().collect();
    let result = RunResult {
        format: FORMAT,
        run: name.to_owned(),
        command: None,
        device: simulator_device(options.arch.unwrap_or(Arch::DEFAULT)),
        statistics,
        buffers: read_back(desc, &bound.buffers, &bound.bound)
            .into_iter()
            .chain(read_back_images(desc, &bound.images))
            .collect(),
        image: Some(ImageResult {
            file: IMAGE_FILE.into(),
            width: image.width,
            height: image.height,
            layers: desc.layers(),
            format: "rgba32f".into(),
        }),
    };
    Ok(SimulatedRun {
        capture: Capture { result, pixels },
        draw: Some((draw, render)),
        views: desc.view_mask.count_ones().max(1),
    })
}

/// A compute run: the description's buffers and push constants bound as
/// the reference binds them, the read-back buffers returned.
fn simulate_compute(
    desc: &RunDescription,
    name: &str,
    base: &Path,
    shader: &ShaderRef,
    options: &SimulateOptions,
) -> Result<SimulatedRun, SimulateRunError> {
    let binary = compile(base, shader, false, options.arch)?;
    let run = crate::Dispatch::new(&binary, desc.groups)
        .inputs(inputs(desc, base)?)
        .options(options.sim)
        .run()
        .map_err(|source| SimulateRunError::Draw {
            run: name.to_owned(),
            source,
        })?;
    let mut buffers = read_back(desc, &run.buffers, &run.bound);
    buffers.extend(read_back_images(desc, &run.images));
    let size = binary.workgroup_size.iter().map(|&n| u64::from(n));
    // A dispatch with a zero count runs nothing whatever the other counts
    // (a mutated description can pair 0 with counts whose product
    // overflows); the counts a dispatch accepts keep the product in range.
    let factors: Vec<u64> = desc
        .groups
        .iter()
        .map(|&n| u64::from(n))
        .chain(size)
        .collect();
    let invocations = if factors.contains(&0) {
        0
    } else {
        factors.iter().fold(1u64, |a, &n| a.saturating_mul(n))
    };
    let result = RunResult {
        format: FORMAT,
        run: name.to_owned(),
        command: None,
        device: simulator_device(options.arch.unwrap_or(Arch::DEFAULT)),
        statistics: Statistics {
            compute_shader_invocations: Some(invocations),
            ..Statistics::default()
        },
        buffers,
        image: None,
    };
    Ok(SimulatedRun {
        capture: Capture {
            result,
            pixels: Vec::new(),
        },
        draw: None,
        views: 1,
    })
}

/// The description's buffers and push constants, bound as the reference
/// binds them (the same sets for compute, task and mesh shaders). Whole
/// set-0 buffers go into the plain maps; the others (other sets, array
/// elements, offsets and ranges, dynamic kinds) are bound by slot.
fn inputs(
    desc: &RunDescription,
    base: &Path,
) -> Result<crate::sim::ComputeInputs, SimulateRunError> {
    use crate::sim::{BoundBuffer, Slot};
    let mut inputs = crate::sim::ComputeInputs::default();
    for b in &desc.buffers {
        let bytes = resolve_data(
            &b.contents,
            base,
            &format!("buffer at set {} binding {}", b.set, b.binding),
            b.kind.limit(),
        )?;
        let map = match b.kind {
            BufferKind::Storage if plain(b) => Some(&mut inputs.buffers),
            BufferKind::Uniform if plain(b) => Some(&mut inputs.uniforms),
            _ => None,
        };
        match map {
            Some(map) => {
                map.insert(b.binding, bytes);
            }
            None => inputs.bound.push(BoundBuffer {
                slot: Slot {
                    set: b.set,
                    binding: b.binding,
                    element: b.element,
                },
                kind: if b.kind.is_storage() {
                    crate::sim::BufferKind::Storage
                } else {
                    crate::sim::BufferKind::Uniform
                },
                bytes,
                offset: b.offset,
                range: b.range,
            }),
        }
    }
    (inputs.images, inputs.samplers) =
        crate::reference::bound_images(&desc.images, &desc.samplers, base)?;
    inputs.push_constants = resolve_data(
        &desc.push_constants,
        base,
        "push constants",
        crate::reference::PUSH_CONSTANT_LIMIT,
    )?;
    Ok(inputs)
}

/// A whole non-dynamic buffer of set 0, element 0: bound through the
/// plain `ComputeInputs` maps.
fn plain(b: &crate::reference::BufferDescription) -> bool {
    (b.set, b.element, b.offset, b.range) == (0, 0, 0, None) && !b.kind.is_dynamic()
}

/// The buffers the description reads back, as words, from a run's final
/// storage buffers (`buffers` by set-0 binding, `bound` by slot, as
/// [`inputs`] bound them).
fn read_back(
    desc: &RunDescription,
    buffers: &std::collections::BTreeMap<u32, Vec<u8>>,
    bound: &std::collections::BTreeMap<crate::sim::Slot, Vec<u8>>,
) -> Vec<BufferResult> {
    desc.buffers
        .iter()
        .filter(|b| b.read_back)
        .map(|b| {
            let slot = crate::sim::Slot {
                set: b.set,
                binding: b.binding,
                element: b.element,
            };
            let bytes = match bound.get(&slot) {
                Some(bytes) => Some(bytes),
                None if plain(b) => buffers.get(&b.binding),
                None => None,
            };
            BufferResult {
                set: b.set,
                binding: b.binding,
                element: b.element,
                words: bytes
                    .map(|bytes| {
                        bytes
                            .chunks_exact(4)
                            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                            .collect()
                    })
                    .unwrap_or_default(),
            }
        })
        .collect()
}

/// The images the description reads back, as words (the reference
/// runner's form), from a run's final storage images by slot.
fn read_back_images(
    desc: &RunDescription,
    images: &std::collections::BTreeMap<crate::sim::Slot, Vec<u8>>,
) -> Vec<BufferResult> {
    desc.images
        .iter()
        .filter(|i| i.read_back)
        .map(|i| BufferResult {
            set: i.set,
            binding: i.binding,
            element: i.element,
            words: images
                .get(&i.slot())
                .map(|b| crate::reference::image_words(b))
                .unwrap_or_default(),
        })
        .collect()
}

fn compile(
    base: &Path,
    shader: &ShaderRef,
    task_present: bool,
    arch: Option<Arch>,
) -> Result<crate::backend::binary::Binary, SimulateRunError> {
    let path = base.join(&shader.spirv);
    let bytes = std::fs::read(&path).map_err(|source| SimulateRunError::Read {
        path: path.clone(),
        source,
    })?;
    // A spvsass binary (an ISA-level program, e.g. from `spvsass asm`)
    // runs as it is (docs/RUNS.md).
    if bytes.starts_with(&crate::backend::binary::MAGIC) {
        let binary = crate::backend::binary::Binary::from_bytes(&bytes).map_err(|source| {
            SimulateRunError::Binary {
                path: path.clone(),
                source,
            }
        })?;
        return match arch {
            Some(asked) if asked != binary.arch => Err(SimulateRunError::BinaryArch {
                path,
                binary: binary.arch,
                asked,
            }),
            _ => Ok(binary),
        };
    }
    let compile = || {
        let words = crate::frontend::words_from_bytes(&bytes)?;
        let options = Options {
            arch,
            entry: Some(shader.entry.clone()),
            task_present,
            ..Options::default()
        };
        crate::compile(&words, &options)
    };
    compile()
        .map(|c| c.binary)
        .map_err(|source| SimulateRunError::Compile { path, source })
}

/// The simulator in the place of the device of a reference result.
fn simulator_device(arch: Arch) -> DeviceInfo {
    let version = env!("CARGO_PKG_VERSION");
    DeviceInfo {
        device_name: format!("spvsass simulator ({arch})"),
        device_type: "simulator".into(),
        vendor_id: 0,
        device_id: 0,
        api_version: String::new(),
        driver_name: "spvsass".into(),
        driver_info: version.into(),
        driver_version: version.into(),
        driver_version_raw: 0,
        conformance_version: String::new(),
    }
}
