//! Where mesh outputs live in the output ISBE (docs/HARDWARE.md, "ISBE"). The
//! compiler's lowering and the simulator's read-back both use this one
//! definition.

/// The output MAP region: the primitive count, then 8-bit vertex indices.
pub mod map {
    /// SetMeshOutputsEXT writes the primitive count as a 32-bit word at
    /// offset 0x3: the output MAP region takes writes in reverse, so this is
    /// the word at 0x0 ("effectively a write to offset 0x0", NVK docs).
    pub const PRIMITIVE_COUNT_WRITE_OFFSET: u32 = 0x3;
    /// Where the primitive count is read back.
    pub const PRIMITIVE_COUNT: u32 = 0x0;
    pub const INDICES: u32 = 0x4;

    /// The byte of index `k` of primitive `prim`.
    pub fn index_offset(prim: u32, vertices_per_primitive: u32, k: u32) -> u32 {
        INDICES + prim * vertices_per_primitive + k
    }

    /// Bytes the MAP region needs.
    pub fn size(max_primitives: u32, vertices_per_primitive: u32) -> u32 {
        INDICES + max_primitives * vertices_per_primitive
    }
}

/// Offsets in the task output ATTR region, which is also the input ATTR
/// region of the mesh workgroups it launches (docs/HARDWARE.md, "ISBE").
pub mod task {
    /// The workgroup index of a mesh shader launched by a task shader
    /// (input side only; filled by the hardware).
    pub const MESH_GROUP_INDEX: u32 = 0x00;
    pub const GROUP_COUNT: u32 = 0x04;
    pub const GROUP_X: u32 = 0x08;
    pub const GROUP_Y: u32 = 0x0c;
    pub const GROUP_Z: u32 = 0x10;
    pub const PAYLOAD: u32 = 0x20;
    /// The most workgroups of one draw, and the most mesh workgroups one
    /// task workgroup may launch: 2^22, the minimum VK_EXT_mesh_shader
    /// requires of maxTask/MeshWorkGroupTotalCount, taken as the project's
    /// bound (the H100's value is not among the limits docs/HARDWARE.md
    /// lists). Workgroup indices
    /// stay below 2^22, which the workgroup-id split relies on.
    pub const MAX_MESH_GROUPS: u32 = 1 << 22;
}

/// One ISBE memory line: 128 bytes, 32 lanes of one 32-bit component.
pub const LINE: u32 = 128;
/// Vertices (or primitives) per block of lines.
pub const BLOCK_ELEMS: u32 = 32;

/// Lines of a task shader's payload region, counted from 0 (the reserved
/// words and the payload): what the mesh stage reads.
pub fn task_output_lines(payload_bytes: u32) -> u32 {
    (task::PAYLOAD + payload_bytes).div_ceil(LINE)
}

/// SPH attribute addresses (docs/HARDWARE.md, "Shader program header").
pub mod addr {
    pub const PRIMITIVE_ID: u16 = 0x060;
    pub const LAYER: u16 = 0x064;
    pub const VIEWPORT_INDEX: u16 = 0x068;
    pub const POINT_SIZE: u16 = 0x06c;
    pub const POSITION: u16 = 0x070;
    pub const GENERIC: u16 = 0x080;
    pub const GENERIC_END: u16 = 0x280;
    pub const CLIP_DISTANCE: u16 = 0x2c0;
    pub const VIEWPORT_MASK: u16 = 0x3a0;
    /// PrimitiveShadingRate: project-defined (no source gave its address);
    /// the word after VIEWPORT_MASK.
    pub const SHADING_RATE: u16 = 0x3a4;

    /// The address of component `c` of generic attribute (location) `loc`.
    pub fn generic(loc: u32, c: u32) -> u16 {
        GENERIC + (16 * loc + 4 * c) as u16
    }
}

/// The SKEW layout of a set of 32-bit components in the ATTRIBUTE region:
/// for every 32 elements (vertices or primitives) one line per component,
/// components in SPH address order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttrLayout {
    /// Byte offset of the first block.
    pub base: u32,
    /// Used SPH addresses, ascending.
    pub components: Vec<u16>,
    /// Elements the layout must hold (max vertices or max primitives).
    pub max_elems: u32,
}

impl AttrLayout {
    pub fn new(base: u32, mut components: Vec<u16>, max_elems: u32) -> AttrLayout {
        components.sort_unstable();
        components.dedup();
        AttrLayout {
            base,
            components,
            max_elems,
        }
    }

    /// The rank of a component among the used ones.
    pub fn rank(&self, addr: u16) -> Option<u32> {
        self.components.binary_search(&addr).ok().map(|r| r as u32)
    }

    /// Bytes of one block of 32 elements.
    pub fn block_size(&self) -> u32 {
        self.components.len() as u32 * LINE
    }

    /// The offset of component `addr` of element `elem`, without SKEW.
    pub fn offset(&self, elem: u32, addr: u16) -> Option<u32> {
        let rank = self.rank(addr)?;
        Some(
            self.base
                + (elem / BLOCK_ELEMS) * self.block_size()
                + rank * LINE
                + (elem % BLOCK_ELEMS) * 4,
        )
    }

    /// The lane-independent base a SKEW access uses for element `lane` of
    /// the first block (the hardware adds `lane * 4`).
    pub fn skew_base(&self, addr: u16) -> Option<u32> {
        Some(self.base + self.rank(addr)? * LINE)
    }

    /// Bytes the whole layout takes.
    pub fn size(&self) -> u32 {
        self.max_elems.div_ceil(BLOCK_ELEMS) * self.block_size()
    }
}
