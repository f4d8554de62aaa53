//! A reference interpreter of the spvsass IR (`spvsass_frontend::ir`): it
//! runs a translated compute shader ([`run_compute`]), or a mesh draw with
//! or without a task shader ([`run_draw`]: payloads, EmitMeshTasksEXT,
//! SetMeshOutputsEXT and the outputs read back by meaning), with SPIR-V
//! semantics, independently of the backend, and so serves as the backend's
//! oracle: the same inputs through the compiled code in the simulator must
//! give the same buffers and outputs.
//!
//! # Model
//!
//! - Storage buffers, uniform buffers and push constants are bytes laid out
//!   as the SPIR-V decorations say (docs/ABI.md): set 0, binding b.
//!   Physical pointers address buffer k (in binding order, from 1) at
//!   k × 4 GiB, as the simulator maps them. Pointers are values, so
//!   variable pointers (selected, block parameters, kept in variables,
//!   stepped by OpPtrAccessChain) need nothing more; OpPtrEqual/OpPtrDiff
//!   compare their addresses in that numbering.
//! - Function, Private and Workgroup variables are value trees; a
//!   variable without an initializer starts as zero (SPIR-V leaves it
//!   undefined: the generator never reads one before writing it).
//! - A workgroup's invocations form subgroups of [`Options::subgroup_size`]
//!   consecutive local indices (32 matches the backend's warps). Each
//!   subgroup runs as a step machine: the invocations at the earliest
//!   position (a structured block order, `order.rs`) execute the next
//!   instruction together, so subgroup operations see the invocations
//!   that reached them together. Subgroups run in order until each
//!   invocation has finished or waits at a barrier; the barrier releases
//!   when every invocation waits at the same one (otherwise
//!   [`InterpError::BarrierDivergence`]). Atomics and other memory accesses
//!   happen in that order: invocation order within an instruction.
//! - Bounded: [`Options::max_steps`] subgroup-instructions per workgroup,
//!   [`Options::max_values`] SSA values held per workgroup, and
//!   [`Options::max_variable_scalars`] scalars per variable.
//! - Undefined behaviour is an error ([`InterpError::Undefined`]):
//!   integer division by zero or of the minimum by −1, shifts by the width
//!   or more, float-to-integer conversions out of range, FMin/FMax/FClamp
//!   of NaN, out-of-range composite indices, reads of inactive invocations
//!   by subgroup operations. A program that runs without error is one whose
//!   result SPIR-V defines.
//!
//! # Float results and the bounds a comparison allows
//!
//! | operations | interpreter | compiled code (docs/ISA.md) | bound |
//! |---|---|---|---|
//! | +, −, ×, ÷, √, fma, conversions, floor/ceil/trunc/round/fract, abs, neg, min/max, compares | IEEE 754, correctly rounded at the type's width (f16 via f32, exact) | correctly rounded (÷ by refinement, √ by MUFU + refinement) | 0 ULP for +, −, ×, conversions, rounding; 1 ULP for ÷ and √ |
//! | exp2, log2, sin, cos, rsqrt, other transcendental functions | f64 `libm`, rounded once | MUFU / polynomials | the bounds docs/ISA.md gives per function (2 to 4 ULP, absolute 2⁻²¹ for sin/cos) |
//! | dot, length, normalize, distance | each product and sum rounded at the width, in index order | FMUL/FFMA chains | 2 ULP per component |
//! | subgroup float reductions and scans | ascending invocation order | butterflies when all 32 lanes run | order-dependent: compare within 4 ULP × lanes |
//! | float atomics | invocation order | the hardware's order | as reductions |
//!
//! Integers (8 to 64 bits), bools and bit patterns must agree exactly.

mod arith;
mod draw;
mod error;
mod exec;
mod inst;
mod layout;
mod math;
mod opname;
mod order;
mod subgroup;
mod value;

pub use draw::{Attributes, MeshGroup, MeshRun, TaskGroup, run_draw};
pub use error::{At, InterpError};
pub use inst::BUFFER_STRIDE;
pub use layout::size_of;
pub use value::Val;

use spvsass_frontend::ir::{Shader, Stage};
use std::collections::BTreeMap;

/// The resources of a dispatch, bound as docs/ABI.md describes: storage
/// and uniform buffers of set 0 by binding, and the push constants.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Inputs {
    pub buffers: BTreeMap<u32, Vec<u8>>,
    pub uniforms: BTreeMap<u32, Vec<u8>>,
    pub push_constants: Vec<u8>,
}

/// Limits and the subgroup size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Invocations per subgroup: a power of two from 4 to 128.
    pub subgroup_size: u32,
    /// Subgroup-instructions one workgroup may execute.
    pub max_steps: u64,
    /// SSA values (invocations × values of the shader) one workgroup may
    /// hold.
    pub max_values: u64,
    /// Scalars one variable may hold.
    pub max_variable_scalars: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            subgroup_size: 32,
            max_steps: 20_000_000,
            max_values: 64 << 20,
            max_variable_scalars: 1 << 20,
        }
    }
}

/// The most invocations a compute workgroup may have (Vulkan's common
/// limit, as the backend).
pub const MAX_INVOCATIONS: u64 = 1024;

/// Runs a dispatch of `groups` workgroups of compute shader `shader` (in
/// x, then y, then z order); returns the storage buffers' final contents.
pub fn run_compute(
    shader: &Shader,
    groups: [u32; 3],
    inputs: &Inputs,
    options: &Options,
) -> Result<BTreeMap<u32, Vec<u8>>, InterpError> {
    if shader.stage != Stage::Compute {
        return Err(InterpError::WrongStage {
            stage: shader.stage.name(),
            wanted: "compute",
        });
    }
    let sg = options.subgroup_size;
    if !sg.is_power_of_two() || !(4..=128).contains(&sg) {
        return Err(InterpError::SubgroupSize(sg));
    }
    let invocations: u64 = shader
        .workgroup_size
        .iter()
        .map(|&n| u64::from(n))
        .product();
    if invocations == 0 || invocations > MAX_INVOCATIONS {
        return Err(InterpError::WorkgroupSize {
            size: shader.workgroup_size,
            invocations,
            max: MAX_INVOCATIONS,
        });
    }
    let values = shader.values.len() as u64;
    if invocations.saturating_mul(values) > options.max_values {
        return Err(InterpError::MemoryBound {
            invocations,
            values,
            limit: options.max_values,
        });
    }
    let ranks = order::block_ranks(shader);
    let mut state = inputs.clone();
    let mut world = exec::World {
        shader,
        options,
        buffers: &mut state,
        ranks: &ranks,
        groups,
        workgroup: [0; 3],
        shared: Vec::new(),
        io: draw::StageIo::default(),
    };
    for z in 0..groups[2] {
        for y in 0..groups[1] {
            for x in 0..groups[0] {
                world.workgroup = [x, y, z];
                exec::run_workgroup(&mut world)?;
            }
        }
    }
    Ok(state.buffers)
}
