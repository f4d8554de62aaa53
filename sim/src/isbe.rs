//! The ISBE memory of one workgroup (docs/HARDWARE.md, "ISBE"): the input ATTR
//! region and the output MAP and ATTR regions, zero-filled at launch.
//!
//! Input model: the input ATTR region is one memory line holding the
//! workgroup index (linear over the group grid, x fastest) as VERTEX_ID in
//! every lane's slot (offset `lane * 4`). So `ISBERD.ATTR.SKEW.32 [0]` (the
//! form without a task shader) and `ISBERD.ATTR.32 [0]` (the form a mesh
//! shader launched by a task shader uses) both give the workgroup index. No
//! task payload is modelled there: other input offsets are out of bounds.
//! A mesh workgroup launched by a task workgroup instead gets the task's
//! output ATTR region as its input (`Isbe::for_mesh_from_task`).
//!
//! Output MAP model: the region takes writes in reverse (NVK: the write of
//! the primitive count to 0x3 is "effectively a write to offset 0x0"): an
//! access of `n` bytes at address `a` covers bytes `a+1-n ..= a`, stored
//! little-endian from `a+1-n`. A 32-bit access at 0x3 is the primitive-count
//! word at 0x0; an 8-bit access at `a` is byte `a`; a 16-bit one at `a`
//! covers `a-1 ..= a`. Aligned means `a+1-n` is a multiple of `n`.
//!
//! ATTR regions are plain little-endian memory: `n` bytes from `a`, which
//! must be a multiple of `n`.

use serde::Serialize;
use spvsass_isa::binary::{MeshState, TaskState};
use spvsass_isa::isa::IsbeSize;
use spvsass_isa::isbe_layout::{AttrLayout, BLOCK_ELEMS, LINE, map, task as task_attr};
use std::fmt;

/// The byte a task's output ATTR region starts filled with.
pub const TASK_POISON: u8 = 0xcd;

/// The regions the simulator models.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum IsbeRegion {
    InputAttr,
    OutputMap,
    OutputAttr,
}

impl fmt::Display for IsbeRegion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            IsbeRegion::InputAttr => "input ATTR",
            IsbeRegion::OutputMap => "output MAP",
            IsbeRegion::OutputAttr => "output ATTR",
        })
    }
}

/// Why an access failed; the caller adds the instruction and lane.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IsbeFault {
    OutOfBounds { region_size: u32 },
    Unaligned,
}

/// The ISBE memory of one workgroup.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Isbe {
    input_attr: Vec<u8>,
    output_map: Vec<u8>,
    output_attr: Vec<u8>,
}

impl Isbe {
    /// Zeroed output regions of the given sizes, and the input region
    /// holding `workgroup_index` for every lane (see the module comment).
    pub fn new(workgroup_index: u32, map_bytes: u32, attr_bytes: u32) -> Isbe {
        let input_attr = (0..BLOCK_ELEMS)
            .flat_map(|_| workgroup_index.to_le_bytes())
            .collect();
        Isbe {
            input_attr,
            output_map: vec![0; map_bytes as usize],
            output_attr: vec![0; attr_bytes as usize],
        }
    }

    /// Zeroed output regions and the given input ATTR region (a mesh
    /// workgroup launched by a task shader reads the task's output).
    pub fn with_input(input_attr: Vec<u8>, map_bytes: u32, attr_bytes: u32) -> Isbe {
        Isbe {
            input_attr,
            output_map: vec![0; map_bytes as usize],
            output_attr: vec![0; attr_bytes as usize],
        }
    }

    /// The regions a task shader needs: the counts and the payload in the
    /// output ATTR region (whole lines), then its shared memory lines; no
    /// MAP region.
    /// The output starts filled with `TASK_POISON` bytes, not zeros: the
    /// hardware does not clear it, so a count or payload word the shader
    /// never wrote shows up as 0xcdcdcdcd instead of a plausible 0.
    pub fn for_task(task: &TaskState, workgroup_index: u32) -> Isbe {
        let bytes = (task_attr::PAYLOAD + task.payload_bytes).next_multiple_of(LINE)
            + task.shared_lines * LINE;
        let mut isbe = Isbe::new(workgroup_index, 0, bytes);
        isbe.output_attr.fill(TASK_POISON);
        isbe
    }

    /// The regions of a mesh workgroup launched by a task workgroup: its
    /// input ATTR region is the task's output ATTR region with word 0
    /// holding the workgroup's index within the task's launch (the
    /// hardware fills it; docs/HARDWARE.md).
    pub fn for_mesh_from_task(mesh: &MeshState, task_output: &[u8], mesh_index: u32) -> Isbe {
        let mut input = task_output.to_vec();
        let at = task_attr::MESH_GROUP_INDEX as usize;
        input[at..at + 4].copy_from_slice(&mesh_index.to_le_bytes());
        let vpp = mesh.topology.vertices_per_primitive();
        Isbe::with_input(
            input,
            map::size(mesh.max_primitives, vpp),
            output_attr_size(mesh),
        )
    }

    /// The regions a mesh shader's outputs need: the MAP region for its
    /// primitives; per-vertex attributes, then per-primitive attributes,
    /// then shared memory in the ATTR region.
    pub fn for_mesh(mesh: &MeshState, workgroup_index: u32) -> Isbe {
        let vpp = mesh.topology.vertices_per_primitive();
        Isbe::new(
            workgroup_index,
            map::size(mesh.max_primitives, vpp),
            output_attr_size(mesh),
        )
    }

    /// The bytes of a region, for reading outputs back.
    pub fn bytes(&self, region: IsbeRegion) -> &[u8] {
        match region {
            IsbeRegion::InputAttr => &self.input_attr,
            IsbeRegion::OutputMap => &self.output_map,
            IsbeRegion::OutputAttr => &self.output_attr,
        }
    }

    /// Reads `size` at `addr`, zero-extended.
    pub fn read(&self, region: IsbeRegion, addr: u64, size: IsbeSize) -> Result<u32, IsbeFault> {
        let bytes = self.bytes(region);
        let start = start_of(region, addr, size, bytes.len())?;
        let mut word = [0u8; 4];
        word[..size.bytes() as usize].copy_from_slice(&bytes[start..start + size.bytes() as usize]);
        Ok(u32::from_le_bytes(word))
    }

    /// Writes the low `size` bytes of `value` at `addr`. ISBEWR only
    /// writes output regions; a caller may prepare the input one.
    pub fn write(
        &mut self,
        region: IsbeRegion,
        addr: u64,
        size: IsbeSize,
        value: u32,
    ) -> Result<(), IsbeFault> {
        let bytes = match region {
            IsbeRegion::InputAttr => &mut self.input_attr,
            IsbeRegion::OutputMap => &mut self.output_map,
            IsbeRegion::OutputAttr => &mut self.output_attr,
        };
        let start = start_of(region, addr, size, bytes.len())?;
        let n = size.bytes() as usize;
        bytes[start..start + n].copy_from_slice(&value.to_le_bytes()[..n]);
        Ok(())
    }
}

/// The output ATTR region of a mesh shader: per-vertex layout, per-primitive
/// layout, shared memory lines.
fn output_attr_size(mesh: &MeshState) -> u32 {
    let (vertices, primitives) = attr_layouts(mesh);
    vertices.size() + primitives.size() + mesh.shared_mem_lines * LINE
}

/// The SKEW layouts of a mesh shader's per-vertex and per-primitive
/// attributes; the primitives' blocks follow all the vertices' blocks.
pub(crate) fn attr_layouts(mesh: &MeshState) -> (AttrLayout, AttrLayout) {
    let vertices = AttrLayout::new(0, mesh.vertex_attrs.clone(), mesh.max_vertices);
    let primitives = AttrLayout::new(
        vertices.size(),
        mesh.primitive_attrs.clone(),
        mesh.max_primitives,
    );
    (vertices, primitives)
}

/// The first byte an access covers, after the alignment and bounds checks
/// (the MAP region's reverse order is explained in the module comment).
fn start_of(
    region: IsbeRegion,
    addr: u64,
    size: IsbeSize,
    region_size: usize,
) -> Result<usize, IsbeFault> {
    let n = u64::from(size.bytes());
    let start = match region {
        IsbeRegion::OutputMap => (addr + 1).checked_sub(n).ok_or(IsbeFault::Unaligned)?,
        IsbeRegion::InputAttr | IsbeRegion::OutputAttr => addr,
    };
    if start % n != 0 {
        return Err(IsbeFault::Unaligned);
    }
    if start + n > region_size as u64 {
        return Err(IsbeFault::OutOfBounds {
            region_size: region_size as u32,
        });
    }
    Ok(start as usize)
}
