//! The resource ABI between compiled code and the driver that launches it
//! (here the simulator's dispatch): where a shader finds its workgroup
//! count, push constants, storage buffers and uniform buffers. The compiler
//! reads these offsets when it selects loads; the simulator writes the root
//! table with [`RootTable`]; both use this one file, so they cannot disagree.
//! docs/ABI.md describes it and how it differs from NVK.
//!
//! Constant bank 0 is the root table:
//!
//! ```text
//! 0x00  NumWorkgroups x, y, z          (3 × u32)
//! 0x0c  view index (multiview)          u32: the view a draw renders
//! 0x10  culling control                 u32: the in-shader culling modes
//! 0x14  draw index (gl_DrawID)          u32: 0 for a direct draw
//! 0x18  statistics query address        u64: where task/mesh shaders count
//!                                       their invocations (mesh draws)
//! 0x20  push constants                  bytes 0..128 of a block of at most
//!                                       128 bytes
//! 0xa0  storage buffer of binding b     16 bytes each, b = 0..15:
//!         +0 base address (u64), +8 size in bytes (u32), +12 reserved
//! 0x1a0 viewport half width, half height (2 × f32, pixels; culling)
//! 0x1a8 snapping error (f32, pixels; culling), 0x1ac reserved
//! 0x1b0 descriptor set s's base address  u64 each, s = 0..31
//! 0x2b0 push constants                  the whole block (up to 256 bytes)
//!                                       again, read by blocks over 128 bytes
//! 0x3b0 end
//! ```
//!
//! Uniform buffers of set 0 are constant banks: binding b is bank 1 + b.
//! Every binding of every set also has a descriptor in its set's memory
//! (docs/ABI.md); the compiler reads that where the fast paths above do not
//! reach (other sets, bindings from 16 on, descriptor arrays, uniform
//! buffers declared over 64 KiB).

/// The constant bank holding the root table.
pub const ROOT_BANK: u8 = 0;
/// `NumWorkgroups`: three u32.
pub const NUM_WORKGROUPS: u16 = 0x00;
/// The multiview view index: the view a draw launch renders (0 without
/// multiview; a dispatch writes 0).
pub const VIEW_INDEX: u16 = 0x0c;
/// The culling-control word of in-shader culling (`CullControl`): 0
/// switches the culling code off at run time.
pub const CULL_CONTROL: u16 = 0x10;
/// gl_DrawID: the index of the draw within a multi-draw (0 for one
/// direct draw).
pub const DRAW_INDEX: u16 = 0x14;
/// The 64-bit address of the draw's pipeline-statistics counters, which
/// task and mesh shaders add to themselves (docs/HARDWARE.md,
/// "Workgroups"; [`query`]).
pub const QUERY_ADDRESS: u16 = 0x18;

/// Bits of the culling-control word.
pub mod cull {
    /// Cull triangles that wind counter-clockwise on the image (y down).
    pub const CCW: u32 = 1 << 0;
    /// Cull triangles that wind clockwise on the image.
    pub const CW: u32 = 1 << 1;
    /// Cull triangles wholly outside one clip plane.
    pub const FRUSTUM: u32 = 1 << 2;
    /// Cull triangles whose bounding box holds no pixel centre.
    pub const SMALL: u32 = 1 << 3;
}

/// What a draw writes into the root table's culling words, derived from
/// the pipeline's rasterizer state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CullControl {
    /// `cull::*` bits; 0 leaves the culling code switched off.
    pub modes: u32,
    /// Viewport width and height in pixels.
    pub viewport: [u32; 2],
    /// Bits of sub-pixel precision of the rasterizer's snapping.
    pub subpixel_bits: u32,
}

impl CullControl {
    /// The root-table words at `CULL_CONTROL`, `CULL_VIEWPORT` (two)
    /// and `CULL_SNAP_ERROR`.
    pub fn words(&self) -> [u32; 4] {
        let [w, h] = self.viewport.map(|s| s as f32);
        [
            self.modes,
            (w / 2.0).to_bits(),
            (h / 2.0).to_bits(),
            self.snap_error().to_bits(),
        ]
    }

    /// The distance the shader's f32 vertex may lie from the rasterizer's
    /// snapped one: half a sub-pixel step (the rounding) plus the f32
    /// error of computing a coordinate of up to 4 viewports (the clip
    /// guard band's ±4 NDC holds what the culling looks at), a few ulps
    /// each, taken as 2^-18 of that magnitude.
    pub fn snap_error(&self) -> f32 {
        let rounding = 0.5 / (1u64 << self.subpixel_bits.min(32)) as f32;
        let side = self.viewport[0].max(self.viewport[1]) as f32;
        rounding + 4.0 * side / (1u32 << 18) as f32
    }
}
/// Push constants of a block of at most [`PUSH_CONSTANT_WINDOW`] bytes
/// start here.
pub const PUSH_CONSTANTS: u16 = 0x20;
/// The push-constant bytes at [`PUSH_CONSTANTS`] (Vulkan's guaranteed
/// minimum of `maxPushConstantsSize`).
pub const PUSH_CONSTANT_WINDOW: u16 = 128;
/// The largest push-constant block: NVIDIA's `maxPushConstantsSize`, and
/// NVK's (`NVK_MAX_PUSH_SIZE` in Mesa's nvk_private.h).
pub const PUSH_CONSTANT_BYTES: u16 = 256;
/// The first storage-buffer entry.
pub const BUFFERS: u16 = PUSH_CONSTANTS + PUSH_CONSTANT_WINDOW;
/// Bytes per storage-buffer entry.
pub const BUFFER_ENTRY: u16 = 16;
/// Set-0 bindings a shader may use (storage and uniform buffers).
pub const MAX_BINDINGS: u32 = 16;
/// The viewport's half width and half height in pixels (f32 each), for
/// in-shader culling: after the buffer table, as the words below 0x20
/// are taken.
pub const CULL_VIEWPORT: u16 = BUFFERS + BUFFER_ENTRY * MAX_BINDINGS as u16;
/// How far, in pixels, the rasterizer's snapped vertex may lie from the
/// one the shader computes in f32 (f32): the culling's safety margin.
pub const CULL_SNAP_ERROR: u16 = CULL_VIEWPORT + 8;
/// Descriptor sets a pipeline may bind (NVK's limit too).
pub const MAX_SETS: u32 = 32;
/// The base addresses of descriptor sets 0..[`MAX_SETS`] (u64 each, 0 for
/// a set that is not bound).
pub const SET_ADDRESSES: u16 = CULL_SNAP_ERROR + 8;
/// The whole push-constant block again, where a shader whose block is
/// larger than [`PUSH_CONSTANT_WINDOW`] reads it (after everything else,
/// so the offsets above stay those of the 128-byte form).
pub const PUSH_CONSTANTS_FULL: u16 = SET_ADDRESSES + 8 * MAX_SETS as u16;
/// The root table's size in bytes (a multiple of 16).
pub const ROOT_BYTES: u16 = PUSH_CONSTANTS_FULL + PUSH_CONSTANT_BYTES;

/// Where a shader whose push-constant block is `size` bytes reads it.
pub fn push_constants(size: u32) -> u16 {
    if size <= u32::from(PUSH_CONSTANT_WINDOW) {
        PUSH_CONSTANTS
    } else {
        PUSH_CONSTANTS_FULL
    }
}

/// Where the 64-bit base address of descriptor set `set` is.
pub fn set_address(set: u32) -> Option<u16> {
    (set < MAX_SETS).then(|| SET_ADDRESSES + 8 * set as u16)
}

/// Where the 64-bit base address of storage buffer `binding` is.
pub fn buffer_address(binding: u32) -> Option<u16> {
    (binding < MAX_BINDINGS).then(|| BUFFERS + BUFFER_ENTRY * binding as u16)
}

/// Where the byte size of storage buffer `binding` is.
pub fn buffer_size(binding: u32) -> Option<u16> {
    buffer_address(binding).map(|a| a + 8)
}

/// The constant bank of uniform buffer `binding`.
pub fn uniform_bank(binding: u32) -> Option<u8> {
    (binding < MAX_BINDINGS).then(|| 1 + binding as u8)
}

/// The pipeline-statistics counters a mesh draw's shaders add to, at the
/// root table's query address: 64-bit counters, as Vulkan's query results
/// are, each workgroup adding with one `RED.E.ADD.64` from one lane
/// (docs/HARDWARE.md, "Workgroups": the hardware does not count task and mesh invocations; the shader
/// must).
pub mod query {
    /// Task shader invocations.
    pub const TASK_INVOCATIONS: u32 = 0x0;
    /// Mesh shader invocations.
    pub const MESH_INVOCATIONS: u32 = 0x8;
    /// Primitives the mesh shaders emitted, culled ones included.
    pub const MESH_PRIMITIVES: u32 = 0x10;
    /// The size of the counter block.
    pub const BYTES: u32 = 0x18;
}

/// What a driver cannot put in the root table.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AbiError {
    #[error("push constants of {0} bytes exceed the {PUSH_CONSTANT_BYTES}-byte limit")]
    PushConstantsTooLarge(usize),
    #[error("binding {0} is outside the supported set-0 bindings 0..{MAX_BINDINGS}")]
    Binding(u32),
    #[error("buffer of binding {binding} is {size} bytes: over the 4 GiB the size word holds")]
    BufferTooLarge { binding: u32, size: u64 },
    #[error("descriptor set {0} is outside the supported sets 0..{MAX_SETS}")]
    Set(u32),
    #[error(
        "binding {0} is outside the supported bindings 0..{max} of a descriptor set",
        max = crate::descriptor_set::MAX_SET_BINDINGS
    )]
    SetBinding(u32),
    #[error(
        "array element {0} is outside the supported elements 0..{max} of a binding",
        max = crate::descriptor_set::MAX_ARRAY_ELEMENTS
    )]
    ArrayElement(u32),
}

/// The root table a driver fills before a dispatch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootTable {
    bytes: Vec<u8>,
}

impl Default for RootTable {
    fn default() -> Self {
        RootTable {
            bytes: vec![0; usize::from(ROOT_BYTES)],
        }
    }
}

impl RootTable {
    fn put(&mut self, at: u16, data: &[u8]) {
        let at = usize::from(at);
        self.bytes[at..at + data.len()].copy_from_slice(data);
    }

    pub fn set_num_workgroups(&mut self, groups: [u32; 3]) {
        for (i, g) in groups.iter().enumerate() {
            self.put(NUM_WORKGROUPS + 4 * i as u16, &g.to_le_bytes());
        }
    }

    /// The index of the draw within a multi-draw.
    pub fn set_draw_index(&mut self, index: u32) {
        self.put(DRAW_INDEX, &index.to_le_bytes());
    }

    /// Where task and mesh shaders add their statistics ([`query`]).
    pub fn set_query_address(&mut self, address: u64) {
        self.put(QUERY_ADDRESS, &address.to_le_bytes());
    }

    /// The view a multiview draw's launch renders.
    pub fn set_view_index(&mut self, view: u32) {
        self.put(VIEW_INDEX, &view.to_le_bytes());
    }

    /// The in-shader culling words (`CullControl`).
    pub fn set_cull_control(&mut self, cull: &CullControl) {
        let at = [
            CULL_CONTROL,
            CULL_VIEWPORT,
            CULL_VIEWPORT + 4,
            CULL_SNAP_ERROR,
        ];
        for (at, w) in at.into_iter().zip(cull.words()) {
            self.put(at, &w.to_le_bytes());
        }
    }

    pub fn set_push_constants(&mut self, data: &[u8]) -> Result<(), AbiError> {
        if data.len() > usize::from(PUSH_CONSTANT_BYTES) {
            return Err(AbiError::PushConstantsTooLarge(data.len()));
        }
        let window = data.len().min(usize::from(PUSH_CONSTANT_WINDOW));
        self.put(PUSH_CONSTANTS, &data[..window]);
        self.put(PUSH_CONSTANTS_FULL, data);
        Ok(())
    }

    pub fn set_buffer(&mut self, binding: u32, address: u64, size: u64) -> Result<(), AbiError> {
        let at = buffer_address(binding).ok_or(AbiError::Binding(binding))?;
        let size32 = u32::try_from(size).map_err(|_| AbiError::BufferTooLarge { binding, size })?;
        self.put(at, &address.to_le_bytes());
        self.put(at + 8, &size32.to_le_bytes());
        Ok(())
    }

    /// The base address of descriptor set `set`'s memory (docs/ABI.md).
    pub fn set_set_address(&mut self, set: u32, address: u64) -> Result<(), AbiError> {
        let at = set_address(set).ok_or(AbiError::Set(set))?;
        self.put(at, &address.to_le_bytes());
        Ok(())
    }

    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }
}

/// The load of the root table's 32-bit word at byte `offset` into `dst`:
/// an `LDC` from [`ROOT_BANK`]. Selection and the culling pass both read
/// root-table words this way.
pub fn root_word_load(dst: crate::isa::Dst, offset: u16) -> crate::isa::Instr {
    use crate::isa::{Instr, MemSize, Op, OpLdc, Src};
    Instr::new(Op::Ldc(OpLdc {
        dst,
        bank: ROOT_BANK,
        addr: Src::ZERO,
        offset,
        size: MemSize::B32,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    // The fixed entries do not overlap (checked at compile time).
    const _: () = assert!(NUM_WORKGROUPS + 12 <= VIEW_INDEX);
    const _: () = assert!(VIEW_INDEX + 4 <= CULL_CONTROL);
    const _: () = assert!(CULL_CONTROL + 4 <= DRAW_INDEX);
    const _: () = assert!(DRAW_INDEX + 4 <= QUERY_ADDRESS);
    const _: () = assert!(QUERY_ADDRESS.is_multiple_of(8) && QUERY_ADDRESS + 8 <= PUSH_CONSTANTS);
    const _: () = assert!(BUFFERS + BUFFER_ENTRY * MAX_BINDINGS as u16 <= CULL_VIEWPORT);
    const _: () = assert!(CULL_VIEWPORT + 8 <= CULL_SNAP_ERROR);
    const _: () = assert!(CULL_SNAP_ERROR + 4 <= SET_ADDRESSES);
    const _: () = assert!(SET_ADDRESSES.is_multiple_of(8));
    const _: () = assert!(SET_ADDRESSES + 8 * MAX_SETS as u16 <= PUSH_CONSTANTS_FULL);
    const _: () = assert!(PUSH_CONSTANTS_FULL + PUSH_CONSTANT_BYTES <= ROOT_BYTES);
    const _: () = assert!(ROOT_BYTES.is_multiple_of(16));

    #[test]
    fn buffer_entries_fit_the_table() {
        assert_eq!(buffer_address(0), Some(BUFFERS));
        assert_eq!(buffer_size(15), Some(CULL_VIEWPORT - 8));
        assert_eq!(buffer_address(16), None);
        assert_eq!(uniform_bank(15), Some(16));
    }

    #[test]
    fn root_table_places_values() {
        let mut t = RootTable::default();
        t.set_num_workgroups([2, 3, 4]);
        t.set_push_constants(&[9; 8]).unwrap();
        t.set_buffer(1, 0x1_0000_0000, 64).unwrap();
        let b = t.bytes();
        assert_eq!(&b[4..8], &3u32.to_le_bytes());
        assert_eq!(b[usize::from(PUSH_CONSTANTS) + 7], 9);
        let a = usize::from(buffer_address(1).unwrap());
        assert_eq!(&b[a..a + 8], &0x1_0000_0000u64.to_le_bytes());
        assert_eq!(&b[a + 8..a + 12], &64u32.to_le_bytes());
        assert_eq!(b[usize::from(PUSH_CONSTANTS_FULL) + 7], 9);
        assert_eq!(
            t.set_push_constants(&[0; 257]),
            Err(AbiError::PushConstantsTooLarge(257))
        );
        assert_eq!(t.set_buffer(16, 0, 0), Err(AbiError::Binding(16)));
    }

    /// A 200-byte block: its first 128 bytes in the window, all of it at
    /// the full copy, which shaders with blocks over 128 bytes read.
    #[test]
    fn large_push_constant_blocks_are_copied_whole() {
        let mut t = RootTable::default();
        let data: Vec<u8> = (0..200u8).collect();
        t.set_push_constants(&data).unwrap();
        let b = t.bytes();
        let w = usize::from(PUSH_CONSTANTS);
        assert_eq!(&b[w..w + 128], &data[..128]);
        assert_eq!(
            &b[w + 128..w + 132],
            &[0; 4],
            "the buffer table is untouched"
        );
        let f = usize::from(PUSH_CONSTANTS_FULL);
        assert_eq!(&b[f..f + 200], &data[..]);
        assert_eq!(push_constants(128), PUSH_CONSTANTS);
        assert_eq!(push_constants(132), PUSH_CONSTANTS_FULL);
    }
}
