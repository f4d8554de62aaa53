//! Performance advice as compiler warnings: the recommendations for mesh
//! shaders written for AMD's NGG hardware (docs/HARDWARE.md, "Performance
//! advice"), adapted to how this hardware runs them (docs/HARDWARE.md,
//! "ISBE", "Workgroups"): one warp per workgroup,
//! outputs in the ISBE in SKEW blocks of 32 elements.

use crate::binary::MeshState;
use crate::isbe_layout::{AttrLayout, BLOCK_ELEMS, map};
use crate::limits::MAX_OUTPUT_MEMORY;
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Warning {
    /// Advice: size the workgroup to the larger of the maximum vertex and
    /// primitive counts. Here a lane with no vertex and no
    /// primitive of its own only helps through loops.
    IdleInvocations {
        invocations: u32,
        max_vertices: u32,
        max_primitives: u32,
    },
    /// The workgroup runs on one 32-lane warp (docs/HARDWARE.md): lanes past the
    /// workgroup size are masked off for the whole shader.
    PartialWarp { invocations: u32 },
    /// Advice: write each output element from the invocation of the same
    /// index. Here a write of the invocation's own element
    /// is one SKEW store; any other element needs its offset computed.
    ComputedOffsets {
        stores: u32,
        first_spirv_id: Option<u32>,
    },
    /// Outputs are stored in blocks of 32 elements (output granularity 32,
    /// docs/HARDWARE.md): a maximum over 32 that is not a multiple of 32 pads the
    /// last block.
    PaddedBlock {
        what: &'static str,
        max: u32,
        wasted_bytes: u32,
    },
    /// Advice: keep shared memory small, applied to outputs: a
    /// workgroup's output ISBE is staging memory of the primitive engine,
    /// and the larger it is, the fewer workgroups are in flight.
    LargeOutput { bytes: u32 },
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Warning::IdleInvocations {
                invocations,
                max_vertices,
                max_primitives,
            } => write!(
                f,
                "the workgroup has {invocations} invocations but at most {max_vertices} vertices \
                 and {max_primitives} primitives: {} invocations own no output; a workgroup \
                 matching the outputs keeps every lane busy",
                invocations - max_vertices.max(max_primitives)
            ),
            Warning::PartialWarp { invocations } => write!(
                f,
                "the workgroup has {invocations} invocations: its warp runs with {} of 32 lanes \
                 idle",
                32 - invocations
            ),
            Warning::ComputedOffsets {
                stores,
                first_spirv_id,
            } => {
                write!(
                    f,
                    "{stores} output store(s) write a vertex or primitive other than the writing \
                     invocation's own (gl_LocalInvocationIndex), so each computes its ISBE \
                     offset instead of one SKEW write"
                )?;
                if let Some(id) = first_spirv_id {
                    write!(f, " (first: OpStore %{id})")?;
                }
                Ok(())
            }
            Warning::PaddedBlock {
                what,
                max,
                wasted_bytes,
            } => write!(
                f,
                "max {what} {max} is not a multiple of 32: the last SKEW block of the output \
                 ISBE leaves {wasted_bytes} bytes unused"
            ),
            Warning::LargeOutput { bytes } => write!(
                f,
                "each workgroup stages {bytes} bytes of outputs in the ISBE (over half of the \
                 {MAX_OUTPUT_MEMORY}-byte limit): fewer workgroups fit in flight"
            ),
        }
    }
}

/// The advice for a compiled task or mesh shader; `computed_offsets` are
/// the SPIR-V ids of output stores that needed a computed offset.
pub fn advise(
    invocations: u32,
    mesh: Option<&MeshState>,
    computed_offsets: &[Option<u32>],
) -> Vec<Warning> {
    let mut w = Vec::new();
    if invocations < BLOCK_ELEMS {
        w.push(Warning::PartialWarp { invocations });
    }
    let Some(m) = mesh else {
        return w;
    };
    if invocations > m.max_vertices.max(m.max_primitives) {
        w.push(Warning::IdleInvocations {
            invocations,
            max_vertices: m.max_vertices,
            max_primitives: m.max_primitives,
        });
    }
    if !computed_offsets.is_empty() {
        w.push(Warning::ComputedOffsets {
            stores: computed_offsets.len() as u32,
            first_spirv_id: computed_offsets.iter().flatten().next().copied(),
        });
    }
    let vertices = AttrLayout::new(0, m.vertex_attrs.clone(), m.max_vertices);
    let primitives = AttrLayout::new(0, m.primitive_attrs.clone(), m.max_primitives);
    for (what, layout) in [("vertices", &vertices), ("primitives", &primitives)] {
        // Under 32 elements one block is the minimum anyway.
        let padding = layout.max_elems.next_multiple_of(BLOCK_ELEMS) - layout.max_elems;
        if layout.max_elems > BLOCK_ELEMS && padding > 0 && !layout.components.is_empty() {
            w.push(Warning::PaddedBlock {
                what,
                max: layout.max_elems,
                wasted_bytes: padding * 4 * layout.components.len() as u32,
            });
        }
    }
    let vpp = m.topology.vertices_per_primitive();
    let bytes = vertices.size() + primitives.size() + map::size(m.max_primitives, vpp);
    if bytes > MAX_OUTPUT_MEMORY / 2 {
        w.push(Warning::LargeOutput { bytes });
    }
    w
}
