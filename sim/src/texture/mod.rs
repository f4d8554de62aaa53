//! The texture unit: image, texel-buffer and sampler reads, storage image
//! loads, stores and atomics, over the simulator's global memory and the
//! texture header and sampler pools the driver binds (docs/TEXTURES.md).
//!
//! - `fields.rs`: bit fields of the 32-byte headers;
//! - `format.rs`: the format table (one row per format);
//! - `texel.rs`: texel decode/encode and swizzle;
//! - `header.rs`, `sampler.rs`: texture and sampler header decode/encode;
//! - `layout.rs`: where texels are in memory;
//! - `samples.rs`: multisample layouts;
//! - `address.rs`: wrap modes; `cube.rs`: cube faces;
//! - `filter.rs`: level selection, footprints, LOD from gradients;
//! - `weights.rs`: a footprint's texel weights; `blend.rs`: their sum
//!   (`half_sum.rs`: of half floats; `srgb.rs`: of sRGB colour);
//! - `unit.rs`: [`TextureUnit`], the operations;
//! - `host.rs`: the driver side (images and samplers placed in memory).
//!
//! A descriptor's first word is a *handle*: bits 0..19 index the texture
//! header pool, bits 20..31 the sampler pool; index 0 of each pool is the
//! null entry, which no lookup may use.

mod address;
mod blend;
pub mod cube;
pub mod fields;
mod filter;
pub mod format;
mod half_sum;
pub mod header;
pub mod host;
pub mod layout;
pub mod sampler;
pub mod samples;
mod srgb;
#[cfg(test)]
mod tests;
pub mod texel;
mod unit;
mod weights;

pub use format::{Format, FormatInfo, Source};
pub use header::{Dim, HEADER_BYTES, TextureHeader};
pub use sampler::{CompareOp, Filter, MipFilter, SAMPLER_BYTES, SamplerHeader, Wrap};
pub use unit::{Gather, Lod, Lookup, Query, TextureUnit};

use crate::memory::MemFault;

/// Where the driver bound the two pools (the hardware's
/// SET_TEX_HEADER_POOL and SET_TEX_SAMPLER_POOL methods: an address and
/// the largest index).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TexturePools {
    pub headers: u64,
    pub header_max: u32,
    pub samplers: u64,
    pub sampler_max: u32,
}

/// Bits of a handle holding the texture header index.
pub const TEXTURE_INDEX_BITS: u32 = 20;

/// A descriptor's handle: texture header index and sampler index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Handle(pub u32);

impl Handle {
    pub fn new(texture: u32, sampler: u32) -> Handle {
        Handle((texture & ((1 << TEXTURE_INDEX_BITS) - 1)) | (sampler << TEXTURE_INDEX_BITS))
    }
    pub fn texture(self) -> u32 {
        self.0 & ((1 << TEXTURE_INDEX_BITS) - 1)
    }
    pub fn sampler(self) -> u32 {
        self.0 >> TEXTURE_INDEX_BITS
    }
}

/// Why a texture operation failed; the caller adds the instruction and
/// lane.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
pub enum TexError {
    #[error("handle {handle:#x} names texture header 0, the null descriptor")]
    NullTexture { handle: u32 },
    #[error("handle {handle:#x} names sampler 0, the null sampler, for an operation that samples")]
    NullSampler { handle: u32 },
    #[error("texture header index {index} is beyond the pool's largest index {max}")]
    TextureIndex { index: u32, max: u32 },
    #[error("sampler index {index} is beyond the pool's largest index {max}")]
    SamplerIndex { index: u32, max: u32 },
    #[error(
        "texture header {index}: header version {version} is not block-linear (3) or one-D raw typed (5)"
    )]
    HeaderVersion { index: u32, version: u64 },
    #[error(
        "texture header {index}: components {components:#x} with data type {data_type} is not a supported format"
    )]
    Format {
        index: u32,
        components: u64,
        data_type: u64,
    },
    #[error("texture header {index}: {field} {value:#x} is not supported")]
    Field {
        index: u32,
        field: &'static str,
        value: u64,
    },
    #[error("sampler {index}: {field} {value:#x} is not supported")]
    SamplerField {
        index: u32,
        field: &'static str,
        value: u64,
    },
    #[error("reading {what} at {address:#x}: {fault}")]
    Memory {
        what: &'static str,
        address: u64,
        fault: MemFault,
    },
    #[error("writing a texel at {address:#x}: {fault}")]
    Store { address: u64, fault: MemFault },
    #[error("texture header {index}: {op} does not apply to a {dim:?} image")]
    Dim {
        index: u32,
        op: &'static str,
        dim: Dim,
    },
    #[error("texture header {index}: linear filtering of the integer format {format:?}")]
    FilterInteger { index: u32, format: Format },
    #[error(
        "texture header {index}: an image atomic needs a 32-bit one-component format, not {format:?}"
    )]
    AtomicFormat { index: u32, format: Format },
    #[error("an image atomic of a 64-bit type ({ty})")]
    AtomicType { ty: &'static str },
}
