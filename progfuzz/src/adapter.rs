//! Every call the oracle makes into the spvsass library, in one place: compile,
//! dispatch a compute shader, run a task/mesh draw with its outputs read back,
//! and run a compute shader on the machine's Vulkan driver (lavapipe). The
//! draw's outputs come back in the interpreter's terms
//! ([`spvsass_interp::Attributes`]: raw bits), so the comparison needs no
//! simulator type.

use spvsass::backend::target::Arch;
use spvsass_interp::{Attributes, Inputs};
use std::collections::BTreeMap;

/// A shader compiled for one target.
pub struct Compiled(spvsass::Compiled);

/// Compiles SPIR-V `words` for `arch`; `task_present`: a mesh shader that
/// a task shader launches.
pub fn compile(words: &[u32], arch: Arch, task_present: bool) -> Result<Compiled, String> {
    let options = spvsass::Options {
        arch: Some(arch),
        task_present,
        ..Default::default()
    };
    spvsass::compile(words, &options)
        .map(Compiled)
        .map_err(|e| e.to_string())
}

fn sim_inputs(inputs: &Inputs) -> spvsass::sim::ComputeInputs {
    spvsass::sim::ComputeInputs {
        buffers: inputs.buffers.clone(),
        uniforms: inputs.uniforms.clone(),
        push_constants: inputs.push_constants.clone(),
        ..Default::default()
    }
}

fn sim_options(steps: u64) -> spvsass::sim::SimOptions {
    spvsass::sim::SimOptions {
        max_steps: steps,
        ..Default::default()
    }
}

/// Dispatches `groups` workgroups in the simulator; the storage buffers
/// after.
pub fn dispatch(
    shader: &Compiled,
    groups: [u32; 3],
    inputs: &Inputs,
    steps: u64,
) -> Result<BTreeMap<u32, Vec<u8>>, String> {
    spvsass::Dispatch::new(&shader.0.binary, groups)
        .inputs(sim_inputs(inputs))
        .options(sim_options(steps))
        .run()
        .map(|run| run.buffers)
        .map_err(|e| e.to_string())
}

/// What one simulated mesh workgroup emitted.
#[derive(Clone, Debug, PartialEq)]
pub struct DrawGroup {
    pub id: [u32; 3],
    pub task_workgroup: Option<u32>,
    pub primitive_count: u32,
    pub indices: Vec<Vec<u32>>,
    /// Vertices 0 up to the largest index a primitive uses.
    pub vertices: Vec<Attributes>,
    /// Empty when the shader has no per-primitive output.
    pub primitives: Vec<Attributes>,
}

/// A simulated draw.
#[derive(Clone, Debug, PartialEq)]
pub struct Draw {
    /// Each task workgroup's launched mesh workgroup counts.
    pub tasks: Vec<[u32; 3]>,
    pub workgroups: Vec<DrawGroup>,
    pub buffers: BTreeMap<u32, Vec<u8>>,
}

fn attributes(a: &spvsass::sim::Attributes) -> Attributes {
    Attributes {
        position: a.position.map(|p| p.map(f32::to_bits)),
        generic: a
            .generic
            .iter()
            .map(|(&loc, c)| (loc, c.map(|x| x.map(f32::to_bits))))
            .collect(),
    }
}

/// Draws `groups` workgroups (task workgroups when `task` is given) with
/// `inputs` bound to both stages.
pub fn draw(
    task: Option<&Compiled>,
    mesh: &Compiled,
    groups: [u32; 3],
    inputs: &Inputs,
    steps: u64,
) -> Result<Draw, String> {
    let bound = spvsass::Draw::new(task.map(|t| &t.0.binary), &mesh.0.binary, groups)
        .inputs(sim_inputs(inputs))
        .options(sim_options(steps))
        .run()
        .map_err(|e| e.to_string())?;
    let d = bound.draw;
    Ok(Draw {
        tasks: d.tasks.iter().map(|t| t.mesh_groups).collect(),
        workgroups: d
            .workgroups
            .iter()
            .map(|w| DrawGroup {
                id: w.id,
                task_workgroup: w.task_workgroup,
                primitive_count: w.primitive_count,
                indices: w.indices.clone(),
                vertices: w.vertices.iter().map(attributes).collect(),
                primitives: w.primitives.iter().map(attributes).collect(),
            })
            .collect(),
        buffers: bound.buffers,
    })
}

/// Why lavapipe gave no result.
#[derive(Debug, thiserror::Error)]
pub enum LavapipeError {
    /// No Vulkan loader or device on this machine: the comparison is
    /// skipped.
    #[error("no Vulkan driver: {0}")]
    Unavailable(String),
    #[error("writing the temporary SPIR-V file: {0}")]
    Io(#[from] std::io::Error),
    #[error("{0}")]
    Run(String),
}

/// Runs compute shader `words` on the machine's Vulkan driver with
/// `inputs`' storage buffers (set 0); the buffers after, by binding.
pub fn lavapipe_compute(
    words: &[u32],
    groups: [u32; 3],
    inputs: &Inputs,
) -> Result<BTreeMap<u32, Vec<u8>>, LavapipeError> {
    use spvsass::reference::{
        BufferDescription, BufferKind, Data, ReferenceError, RunDescription, ShaderRef, Stages,
    };
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir();
    let name = format!("progfuzz-vk-{}-{n}", std::process::id());
    let spv = dir.join(format!("{name}.spv"));
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&spv, bytes)?;
    let word_data = |b: &[u8]| -> Vec<u32> {
        b.chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    };
    let desc = RunDescription {
        comment: None,
        stages: Stages {
            compute: Some(ShaderRef {
                spirv: spv.clone(),
                entry: "main".into(),
            }),
            task: None,
            mesh: None,
        },
        groups,
        image: None,
        view_mask: 0,
        cull_mode: Default::default(),
        front_face: Default::default(),
        buffers: inputs
            .buffers
            .iter()
            .map(|(&binding, b)| BufferDescription {
                set: 0,
                binding,
                element: 0,
                kind: BufferKind::Storage,
                offset: 0,
                range: None,
                contents: vec![Data::U32(word_data(b))],
                read_back: true,
                float_ulps: None,
            })
            .collect(),
        push_constants: Vec::new(),
        images: Vec::new(),
        samplers: Vec::new(),
    };
    let result = spvsass::reference::run(&desc, &name, &dir);
    let _ = std::fs::remove_file(&spv);
    let capture = result.map_err(|e| match e {
        ReferenceError::NoLoader(_) | ReferenceError::NoDevice(_) => {
            LavapipeError::Unavailable(e.to_string())
        }
        other => LavapipeError::Run(other.to_string()),
    })?;
    Ok(inputs
        .buffers
        .keys()
        .filter_map(|&b| {
            capture
                .buffer(b)
                .map(|w| (b, w.iter().flat_map(|x| x.to_le_bytes()).collect()))
        })
        .collect())
}
