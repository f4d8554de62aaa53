//! Errors of the interpreter: each names the SPIR-V opcode and result id of
//! the instruction that failed, and the invocation running it.

use std::fmt;

/// Where an error happened: the SPIR-V opcode and result id of the
/// instruction, and the invocation (local index) and workgroup.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct At {
    pub opcode: &'static str,
    pub spirv_id: Option<u32>,
    pub invocation: u32,
    pub workgroup: [u32; 3],
}

impl fmt::Display for At {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.opcode)?;
        if let Some(id) = self.spirv_id {
            write!(f, " %{id}")?;
        }
        let [x, y, z] = self.workgroup;
        write!(
            f,
            " (invocation {} of workgroup {x},{y},{z})",
            self.invocation
        )
    }
}

/// What went wrong while interpreting.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum InterpError {
    #[error("{at}: not supported by the interpreter: {what}")]
    Unsupported { at: At, what: String },
    #[error("{at}: {space} access of {size} bytes at offset {offset} outside its {len} bytes")]
    OutOfBounds {
        at: At,
        space: String,
        offset: u64,
        size: u64,
        len: u64,
    },
    #[error("{at}: index {index} outside a composite of {len} elements")]
    IndexOutOfRange { at: At, index: u64, len: u64 },
    #[error("{at}: storage buffer binding {binding} is not bound")]
    Unbound { at: At, binding: u32 },
    #[error("{at}: uniform buffer binding {binding} is not bound")]
    UnboundUniform { at: At, binding: u32 },
    #[error("{at}: undefined behaviour: {what}")]
    Undefined { at: At, what: String },
    #[error("{at}: reached OpUnreachable")]
    Unreachable { at: At },
    #[error("workgroup {workgroup:?}: step limit of {limit} instructions reached")]
    StepLimit { workgroup: [u32; 3], limit: u64 },
    #[error(
        "workgroup {workgroup:?}: a barrier was not reached by every invocation \
         ({waiting} wait, {finished} have finished)"
    )]
    BarrierDivergence {
        workgroup: [u32; 3],
        waiting: u32,
        finished: u32,
    },
    #[error("{at}: invalid IR: {what}")]
    Malformed { at: At, what: String },
    #[error("workgroup size {size:?} has {invocations} invocations (1 to {max} allowed)")]
    WorkgroupSize {
        size: [u32; 3],
        invocations: u64,
        max: u64,
    },
    #[error(
        "{invocations} invocations × {values} values exceed the memory bound of {limit} values"
    )]
    MemoryBound {
        invocations: u64,
        values: u64,
        limit: u64,
    },
    #[error("the shader is a {stage} shader; this entry runs {wanted} shaders")]
    WrongStage {
        stage: &'static str,
        wanted: &'static str,
    },
    #[error("subgroup size {0} is not a power of two from 4 to 128")]
    SubgroupSize(u32),
    #[error(
        "{at}: {vertices} vertices and {primitives} primitives exceed the shader's \
         max_vertices {max_vertices} / max_primitives {max_primitives}"
    )]
    MeshCounts {
        at: At,
        vertices: u64,
        primitives: u64,
        max_vertices: u32,
        max_primitives: u32,
    },
    #[error(
        "{at}: the workgroup declared {first:?} already; SetMeshOutputsEXT and EmitMeshTasksEXT take one value per workgroup"
    )]
    NotUniform { at: At, first: Vec<u64> },
    #[error("{at}: {counts:?} mesh workgroups exceed the draw's limit of {limit}")]
    TaskCounts {
        at: At,
        counts: [u64; 3],
        limit: u64,
    },
    #[error("{at}: primitive {primitive} uses vertex {vertex} of the {count} declared")]
    IndexPastVertices {
        at: At,
        primitive: u32,
        vertex: u32,
        count: u32,
    },
    #[error(
        "output variable %{spirv_id}: {what} is not supported by the interpreter's output read-back"
    )]
    OutputShape { spirv_id: u32, what: String },
    #[error("the mesh shader's stage is {stage}, the task shader's {task}")]
    DrawStages {
        stage: &'static str,
        task: &'static str,
    },
}
