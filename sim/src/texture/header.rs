//! Texture headers: NVIDIA's 32-byte "Texture Header V2" (open-gpu-doc,
//! classes/3d/clcd97tex.h), the block-linear form for images and the
//! one-dimensional raw typed form for texel buffers, decoded into the
//! fields the texture unit uses and encoded for the host side. What the
//! simulator reads differently from the hardware (the image's memory
//! layout, ignored fields) is in docs/TEXTURES.md.

use super::TexError;
use super::fields::{Field, Words, f32_to_ufixed, mw, ufixed_to_f32};
use super::format::{Format, Source};
use super::samples::SampleLayout;

/// Bytes of one texture header.
pub const HEADER_BYTES: u32 = 32;

// Fields both forms share.
const X_SOURCE: Field = mw(98, 96);
const Y_SOURCE: Field = mw(101, 99);
const Z_SOURCE: Field = mw(104, 102);
const W_SOURCE: Field = mw(107, 105);
const SOURCES: [Field; 4] = [X_SOURCE, Y_SOURCE, Z_SOURCE, W_SOURCE];
const DATA_TYPE: Field = mw(111, 108);
const HEADER_VERSION: Field = mw(127, 124);

// Block-linear V2.
const BL_ADDRESS_LO: Field = mw(31, 9);
const BL_ADDRESS_HI: Field = mw(56, 32);
const BL_DEPTH_TEXTURE: Field = mw(91, 91);
const BL_MAX_MIP_LEVEL: Field = mw(95, 92);
const BL_COMPONENTS: Field = mw(118, 112);
const BL_WIDTH_MINUS_ONE: Field = mw(144, 128);
const BL_NORMALIZED_COORDS: Field = mw(145, 145);
const BL_SRGB: Field = mw(149, 149);
const BL_TEXTURE_TYPE: Field = mw(153, 150);
const BL_BORDER_SOURCE: Field = mw(156, 156);
const BL_HEIGHT_MINUS_ONE: Field = mw(176, 160);
const BL_DEPTH_MINUS_ONE: Field = mw(191, 177);
const BL_VIEW_MIN_MIP: Field = mw(227, 224);
const BL_VIEW_MAX_MIP: Field = mw(231, 228);
const BL_SAMPLES: Field = mw(235, 232);
const BL_MIN_LOD_CLAMP: Field = mw(247, 236);

// One-dimensional raw typed (texel buffers).
const RT_ADDRESS: Field = mw(63, 0);
const RT_WIDTH_MINUS_ONE: Field = mw(95, 64);
const RT_COMPONENTS: Field = mw(117, 112);

/// `HEADER_VERSION` values.
const VERSION_BLOCKLINEAR: u64 = 3;
const VERSION_ONE_D_RAW_TYPED: u64 = 5;
/// `BORDER_SOURCE_BORDER_COLOR`: the sampler's border colour.
const BORDER_FROM_SAMPLER: u64 = 1;

/// The hardware's `TEXTURE_TYPE` values (one-D buffers use the raw typed
/// header instead of `ONE_D_BUFFER`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dim {
    D1 = 0,
    D2 = 1,
    D3 = 2,
    Cube = 3,
    D1Array = 4,
    D2Array = 5,
    /// A texel buffer (a raw typed header).
    Buffer = 6,
    D2NoMipmap = 7,
    CubeArray = 8,
}

impl Dim {
    const HEADER_TYPES: [Dim; 8] = [
        Dim::D1,
        Dim::D2,
        Dim::D3,
        Dim::Cube,
        Dim::D1Array,
        Dim::D2Array,
        Dim::D2NoMipmap,
        Dim::CubeArray,
    ];

    /// Coordinates that address a texel within one layer (1, 2 or 3).
    pub fn coords(self) -> u32 {
        match self {
            Dim::D1 | Dim::D1Array | Dim::Buffer => 1,
            Dim::D2 | Dim::D2Array | Dim::D2NoMipmap | Dim::Cube | Dim::CubeArray => 2,
            Dim::D3 => 3,
        }
    }

    pub fn is_array(self) -> bool {
        matches!(self, Dim::D1Array | Dim::D2Array | Dim::CubeArray)
    }

    pub fn is_cube(self) -> bool {
        matches!(self, Dim::Cube | Dim::CubeArray)
    }
}

/// A decoded texture header.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TextureHeader {
    /// The image's first byte (level 0, layer 0); block-linear headers
    /// hold it in 512-byte units.
    pub address: u64,
    /// How texels are stored: the first format of the table stored as the
    /// header's `COMPONENTS` and `DATA_TYPE` say (swizzle and sRGB come
    /// from the header, so B8G8R8A8 decodes as R8G8B8A8 with its swizzle).
    pub format: Format,
    pub swizzle: [Source; 4],
    pub srgb: bool,
    pub dim: Dim,
    /// Level 0's size in texels; `height` 1 for 1D images and buffers.
    pub width: u32,
    pub height: u32,
    /// Level 0's depth (3D), the layer count (1D/2D arrays) or the cube
    /// count (cube arrays); 1 otherwise.
    pub depth: u32,
    /// Levels the image has in memory (`MAX_MIP_LEVEL` + 1).
    pub levels: u32,
    /// The levels the view shows: `RES_VIEW_MIN_MIP_LEVEL` ..=
    /// `RES_VIEW_MAX_MIP_LEVEL`.
    pub view_levels: (u32, u32),
    /// The multisample layout (`MULTI_SAMPLE_COUNT`).
    pub samples: SampleLayout,
    pub normalized_coords: bool,
    /// The header's LOD clamp (4.8 fixed point).
    pub min_lod_clamp: f32,
    pub depth_texture: bool,
}

impl TextureHeader {
    /// A header for an image or texel buffer of `format`, with every level
    /// in view and the format's own swizzle.
    pub fn new(address: u64, format: Format, dim: Dim, size: [u32; 3], levels: u32) -> Self {
        let info = format.info();
        TextureHeader {
            address,
            format,
            swizzle: info.swizzle,
            srgb: info.srgb,
            dim,
            width: size[0],
            height: size[1],
            depth: size[2],
            levels,
            view_levels: (0, levels.saturating_sub(1)),
            samples: SampleLayout::S1x1,
            normalized_coords: true,
            min_lod_clamp: 0.0,
            depth_texture: info.is_depth(),
        }
    }

    /// Layers the image has (cube faces count as layers).
    pub fn layers(&self) -> u32 {
        match self.dim {
            Dim::D1 | Dim::D2 | Dim::D3 | Dim::D2NoMipmap | Dim::Buffer => 1,
            Dim::D1Array | Dim::D2Array => self.depth,
            Dim::Cube => 6,
            Dim::CubeArray => 6 * self.depth,
        }
    }

    /// Decodes the header at pool index `index` (for errors).
    pub fn decode(w: &Words, index: u32) -> Result<TextureHeader, TexError> {
        let version = HEADER_VERSION.get(w);
        let raw = version == VERSION_ONE_D_RAW_TYPED;
        if !raw && version != VERSION_BLOCKLINEAR {
            return Err(TexError::HeaderVersion { index, version });
        }
        let components = if raw { RT_COMPONENTS } else { BL_COMPONENTS }.get(w);
        let data_type = DATA_TYPE.get(w);
        let info = Format::stored_as(components, data_type).ok_or(TexError::Format {
            index,
            components,
            data_type,
        })?;
        let mut swizzle = [Source::Zero; 4];
        for (s, f) in swizzle.iter_mut().zip(SOURCES) {
            let v = f.get(w);
            *s = Source::from_bits(v).ok_or(TexError::Field {
                index,
                field: "component source",
                value: v,
            })?;
        }
        if raw {
            let width = RT_WIDTH_MINUS_ONE.get(w) as u32;
            let Some(width) = width.checked_add(1) else {
                return Err(TexError::Field {
                    index,
                    field: "WIDTH_MINUS_ONE",
                    value: u64::from(width),
                });
            };
            let mut h = TextureHeader::new(
                RT_ADDRESS.get(w),
                info.format,
                Dim::Buffer,
                [width, 1, 1],
                1,
            );
            h.swizzle = swizzle;
            h.srgb = false;
            h.depth_texture = false;
            return Ok(h);
        }
        let ty = BL_TEXTURE_TYPE.get(w);
        let dim = Dim::HEADER_TYPES
            .into_iter()
            .find(|d| *d as u64 == ty)
            .ok_or(TexError::Field {
                index,
                field: "TEXTURE_TYPE",
                value: ty,
            })?;
        let mode = BL_SAMPLES.get(w);
        let samples = SampleLayout::from_mode(mode).ok_or(TexError::Field {
            index,
            field: "MULTI_SAMPLE_COUNT",
            value: mode,
        })?;
        let levels = BL_MAX_MIP_LEVEL.get(w) as u32 + 1;
        let view_levels = (BL_VIEW_MIN_MIP.get(w) as u32, BL_VIEW_MAX_MIP.get(w) as u32);
        if view_levels.0 > view_levels.1 || view_levels.1 >= levels {
            return Err(TexError::Field {
                index,
                field: "RES_VIEW_MIN/MAX_MIP_LEVEL",
                value: u64::from(view_levels.0) | (u64::from(view_levels.1) << 4),
            });
        }
        Ok(TextureHeader {
            address: (BL_ADDRESS_LO.get(w) << 9) | (BL_ADDRESS_HI.get(w) << 32),
            format: info.format,
            swizzle,
            srgb: BL_SRGB.get(w) == 1,
            dim,
            width: BL_WIDTH_MINUS_ONE.get(w) as u32 + 1,
            height: BL_HEIGHT_MINUS_ONE.get(w) as u32 + 1,
            depth: BL_DEPTH_MINUS_ONE.get(w) as u32 + 1,
            levels,
            view_levels,
            samples,
            normalized_coords: BL_NORMALIZED_COORDS.get(w) == 1,
            min_lod_clamp: ufixed_to_f32(BL_MIN_LOD_CLAMP.get(w), 8),
            depth_texture: BL_DEPTH_TEXTURE.get(w) == 1,
        })
    }

    /// The header's words; `None` where a field does not fit (a size or
    /// level count too large, an address not 512-byte aligned or beyond
    /// 57 bits).
    pub fn encode(&self) -> Option<Words> {
        let mut w = [0; 8];
        let info = self.format.info();
        DATA_TYPE.set(&mut w, info.data_type as u64);
        for (s, f) in self.swizzle.iter().zip(SOURCES) {
            f.set(&mut w, *s as u64);
        }
        let fits = |f: Field, v: u64| v <= f.mask();
        if self.dim == Dim::Buffer {
            HEADER_VERSION.set(&mut w, VERSION_ONE_D_RAW_TYPED);
            RT_COMPONENTS.set(&mut w, info.components as u64);
            RT_ADDRESS.set(&mut w, self.address);
            let width = u64::from(self.width.checked_sub(1)?);
            RT_WIDTH_MINUS_ONE.set(&mut w, width);
            return Some(w);
        }
        let (width, height, depth) = (
            u64::from(self.width.checked_sub(1)?),
            u64::from(self.height.checked_sub(1)?),
            u64::from(self.depth.checked_sub(1)?),
        );
        let max_level = u64::from(self.levels.checked_sub(1)?);
        let ok = self.address.is_multiple_of(512)
            && self.address >> 57 == 0
            && fits(BL_WIDTH_MINUS_ONE, width)
            && fits(BL_HEIGHT_MINUS_ONE, height)
            && fits(BL_DEPTH_MINUS_ONE, depth)
            && fits(BL_MAX_MIP_LEVEL, max_level)
            && self.view_levels.0 <= self.view_levels.1
            && u64::from(self.view_levels.1) <= max_level;
        if !ok {
            return None;
        }
        HEADER_VERSION.set(&mut w, VERSION_BLOCKLINEAR);
        BL_COMPONENTS.set(&mut w, info.components as u64);
        BL_ADDRESS_LO.set(&mut w, (self.address & 0xffff_ffff) >> 9);
        BL_ADDRESS_HI.set(&mut w, self.address >> 32);
        BL_DEPTH_TEXTURE.set(&mut w, u64::from(self.depth_texture));
        BL_MAX_MIP_LEVEL.set(&mut w, max_level);
        BL_WIDTH_MINUS_ONE.set(&mut w, width);
        BL_HEIGHT_MINUS_ONE.set(&mut w, height);
        BL_DEPTH_MINUS_ONE.set(&mut w, depth);
        BL_NORMALIZED_COORDS.set(&mut w, u64::from(self.normalized_coords));
        BL_SRGB.set(&mut w, u64::from(self.srgb));
        BL_TEXTURE_TYPE.set(&mut w, self.dim as u64);
        BL_BORDER_SOURCE.set(&mut w, BORDER_FROM_SAMPLER);
        BL_VIEW_MIN_MIP.set(&mut w, u64::from(self.view_levels.0));
        BL_VIEW_MAX_MIP.set(&mut w, u64::from(self.view_levels.1));
        BL_SAMPLES.set(&mut w, self.samples.mode());
        BL_MIN_LOD_CLAMP.set(&mut w, f32_to_ufixed(self.min_lod_clamp, 12, 8));
        Some(w)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_linear_fields_sit_where_the_header_file_puts_them() {
        let mut h = TextureHeader::new(
            0x3_0000_0200,
            Format::R8G8B8A8Unorm,
            Dim::D2Array,
            [5, 3, 4],
            3,
        );
        h.view_levels = (1, 2);
        let w = h.encode().unwrap();
        // ADDRESS_BITS31TO9 = 1, ADDRESS_BITS56TO32 = 3.
        assert_eq!(w[0], 1 << 9);
        assert_eq!(w[1], 3);
        // COMPONENTS A8B8G8R8 (8) at bit 112, DATA_TYPE UNORM (0),
        // HEADER_VERSION 3 at bits 124..127; sources R=2, G=3, B=4, A=5.
        assert_eq!(w[3] >> 28, 3);
        assert_eq!((w[3] >> 16) & 0x7f, 8);
        assert_eq!(w[3] & 0xfff, 2 | (3 << 3) | (4 << 6) | (5 << 9));
        // MAX_MIP_LEVEL 2 at bits 92..95.
        assert_eq!(w[2] >> 28, 2);
        // WIDTH_MINUS_ONE 4, NORMALIZED_COORDS, TEXTURE_TYPE TWO_D_ARRAY (5).
        assert_eq!(w[4] & 0x1ffff, 4);
        assert_eq!((w[4] >> 17) & 1, 1);
        assert_eq!((w[4] >> 22) & 0xf, 5);
        // HEIGHT_MINUS_ONE 2 at 160, DEPTH_MINUS_ONE 3 at 177.
        assert_eq!(w[5] & 0x1ffff, 2);
        assert_eq!(w[5] >> 17, 3);
        // RES_VIEW_MIN/MAX_MIP_LEVEL at 224 and 228.
        assert_eq!(w[7] & 0xff, 1 | (2 << 4));
        assert_eq!(TextureHeader::decode(&w, 7).unwrap(), h);
    }

    #[test]
    fn raw_typed_headers_hold_a_byte_address_and_a_32_bit_width() {
        let h = TextureHeader::new(
            0x5_0000_0010,
            Format::R32G32B32A32Sfloat,
            Dim::Buffer,
            [70_000, 1, 1],
            1,
        );
        let w = h.encode().unwrap();
        assert_eq!((w[0], w[1], w[2]), (0x10, 5, 69_999));
        assert_eq!(w[3] >> 28, 5);
        assert_eq!(TextureHeader::decode(&w, 1).unwrap(), h);
    }

    #[test]
    fn bad_headers_name_their_field() {
        let h = TextureHeader::new(0x1_0000_0000, Format::R8Unorm, Dim::D2, [1, 1, 1], 1);
        let mut w = h.encode().unwrap();
        BL_TEXTURE_TYPE.set(&mut w, 9);
        assert_eq!(
            TextureHeader::decode(&w, 4),
            Err(TexError::Field {
                index: 4,
                field: "TEXTURE_TYPE",
                value: 9
            })
        );
        HEADER_VERSION.set(&mut w, 2);
        assert_eq!(
            TextureHeader::decode(&w, 4),
            Err(TexError::HeaderVersion {
                index: 4,
                version: 2
            })
        );
        let mut w = h.encode().unwrap();
        BL_COMPONENTS.set(&mut w, 0x24);
        assert_eq!(
            TextureHeader::decode(&w, 4),
            Err(TexError::Format {
                index: 4,
                components: 0x24,
                data_type: 0
            })
        );
        // Not 512-byte aligned: no block-linear header can say it.
        let h = TextureHeader::new(0x1_0000_0010, Format::R8Unorm, Dim::D2, [1, 1, 1], 1);
        assert_eq!(h.encode(), None);
    }
}
