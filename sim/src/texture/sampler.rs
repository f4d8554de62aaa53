//! Sampler headers: NVIDIA's 32-byte "Texture Sampler State" (open-gpu-doc,
//! classes/3d/clcd97tex.h, TEXSAMP0..7), decoded into the fields the
//! texture unit uses and encoded for the host side. Fields the simulator
//! does not model (anisotropy, trilinear optimisation, cube seam
//! filtering) are ignored; see docs/TEXTURES.md.

use super::TexError;
use super::fields::{Field, Words, f32_to_sfixed, f32_to_ufixed, mw, sfixed_to_f32, ufixed_to_f32};
use serde::{Deserialize, Serialize};

/// Bytes of one sampler header.
pub const SAMPLER_BYTES: u32 = 32;

const ADDRESS: [Field; 3] = [mw(2, 0), mw(5, 3), mw(8, 6)];
const DEPTH_COMPARE: Field = mw(9, 9);
const COMPARE_FUNC: Field = mw(12, 10);
const MAG_FILTER: Field = mw(32 + 2, 32);
const MIN_FILTER: Field = mw(32 + 5, 32 + 4);
const MIP_FILTER: Field = mw(32 + 7, 32 + 6);
const REDUCTION: Field = mw(32 + 11, 32 + 10);
const LOD_BIAS: Field = mw(32 + 24, 32 + 12);
const FORCE_UNNORMALIZED: Field = mw(32 + 25, 32 + 25);
const MIN_LOD: Field = mw(64 + 11, 64);
const MAX_LOD: Field = mw(64 + 23, 64 + 12);
const BORDER: [Field; 4] = [mw(159, 128), mw(191, 160), mw(223, 192), mw(255, 224)];

/// How a coordinate outside the image wraps (`ADDRESS_U/V/P`; the
/// hardware's GL clamp and mirror-once-border modes are not decoded).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Wrap {
    Repeat = 0,
    MirroredRepeat = 1,
    ClampToEdge = 2,
    ClampToBorder = 3,
    MirrorClampToEdge = 5,
}

impl Wrap {
    pub const ALL: [Wrap; 5] = [
        Wrap::Repeat,
        Wrap::MirroredRepeat,
        Wrap::ClampToEdge,
        Wrap::ClampToBorder,
        Wrap::MirrorClampToEdge,
    ];
}

/// A depth compare (`DEPTH_COMPARE_FUNC`): the test passes when
/// `reference OP texel`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CompareOp {
    Never = 0,
    Less = 1,
    Equal = 2,
    LessOrEqual = 3,
    Greater = 4,
    NotEqual = 5,
    GreaterOrEqual = 6,
    Always = 7,
}

impl CompareOp {
    pub const ALL: [CompareOp; 8] = [
        CompareOp::Never,
        CompareOp::Less,
        CompareOp::Equal,
        CompareOp::LessOrEqual,
        CompareOp::Greater,
        CompareOp::NotEqual,
        CompareOp::GreaterOrEqual,
        CompareOp::Always,
    ];

    pub fn test(self, reference: f32, texel: f32) -> bool {
        match self {
            CompareOp::Never => false,
            CompareOp::Less => reference < texel,
            CompareOp::Equal => reference == texel,
            CompareOp::LessOrEqual => reference <= texel,
            CompareOp::Greater => reference > texel,
            CompareOp::NotEqual => reference != texel,
            CompareOp::GreaterOrEqual => reference >= texel,
            CompareOp::Always => true,
        }
    }
}

/// Magnification and minification filters (`MAG_FILTER`, `MIN_FILTER`;
/// the hardware's anisotropic and VCAA filters are not decoded).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Filter {
    Nearest = 1,
    Linear = 2,
}

/// `MIP_FILTER`: `None` reads the view's first level only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MipFilter {
    None = 1,
    Nearest = 2,
    Linear = 3,
}

/// A decoded sampler header.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SamplerHeader {
    /// U, V and P (the third coordinate).
    pub wrap: [Wrap; 3],
    pub compare: Option<CompareOp>,
    pub mag: Filter,
    pub min: Filter,
    pub mip: MipFilter,
    /// Added to every LOD (5.8 fixed point in the header).
    pub lod_bias: f32,
    pub min_lod: f32,
    /// 4.8 fixed point: at most 4095/256.
    pub max_lod: f32,
    /// Coordinates in texels rather than normalised.
    pub unnormalized: bool,
    /// Four 32-bit words as the result takes them: f32 bits for float
    /// formats, integers for integer formats.
    pub border: [u32; 4],
}

impl Default for SamplerHeader {
    fn default() -> Self {
        SamplerHeader {
            wrap: [Wrap::Repeat; 3],
            compare: None,
            mag: Filter::Nearest,
            min: Filter::Nearest,
            mip: MipFilter::Nearest,
            lod_bias: 0.0,
            min_lod: 0.0,
            max_lod: 4095.0 / 256.0,
            unnormalized: false,
            border: [0; 4],
        }
    }
}

fn find<T: Copy>(
    all: &[T],
    code: impl Fn(T) -> u64,
    v: u64,
    index: u32,
    field: &'static str,
) -> Result<T, TexError> {
    all.iter()
        .copied()
        .find(|x| code(*x) == v)
        .ok_or(TexError::SamplerField {
            index,
            field,
            value: v,
        })
}

impl SamplerHeader {
    /// Decodes the sampler at pool index `index` (for errors).
    pub fn decode(w: &Words, index: u32) -> Result<SamplerHeader, TexError> {
        let mut wrap = [Wrap::Repeat; 3];
        for (x, f) in wrap.iter_mut().zip(ADDRESS) {
            *x = find(&Wrap::ALL, |w| w as u64, f.get(w), index, "ADDRESS_U/V/P")?;
        }
        let reduction = REDUCTION.get(w);
        if reduction != 0 {
            return Err(TexError::SamplerField {
                index,
                field: "REDUCTION_FILTER",
                value: reduction,
            });
        }
        let filters = [Filter::Nearest, Filter::Linear];
        let compare = find(
            &CompareOp::ALL,
            |c| c as u64,
            COMPARE_FUNC.get(w),
            index,
            "DEPTH_COMPARE_FUNC",
        )?;
        Ok(SamplerHeader {
            wrap,
            compare: (DEPTH_COMPARE.get(w) == 1).then_some(compare),
            mag: find(
                &filters,
                |f| f as u64,
                MAG_FILTER.get(w),
                index,
                "MAG_FILTER",
            )?,
            min: find(
                &filters,
                |f| f as u64,
                MIN_FILTER.get(w),
                index,
                "MIN_FILTER",
            )?,
            mip: find(
                &[MipFilter::None, MipFilter::Nearest, MipFilter::Linear],
                |f| f as u64,
                MIP_FILTER.get(w),
                index,
                "MIP_FILTER",
            )?,
            lod_bias: sfixed_to_f32(LOD_BIAS.get(w), LOD_BIAS.width(), 8),
            min_lod: ufixed_to_f32(MIN_LOD.get(w), 8),
            max_lod: ufixed_to_f32(MAX_LOD.get(w), 8),
            unnormalized: FORCE_UNNORMALIZED.get(w) == 1,
            border: BORDER.map(|f| f.get(w) as u32),
        })
    }

    pub fn encode(&self) -> Words {
        let mut w = [0; 8];
        for (x, f) in self.wrap.iter().zip(ADDRESS) {
            f.set(&mut w, *x as u64);
        }
        if let Some(c) = self.compare {
            DEPTH_COMPARE.set(&mut w, 1);
            COMPARE_FUNC.set(&mut w, c as u64);
        }
        MAG_FILTER.set(&mut w, self.mag as u64);
        MIN_FILTER.set(&mut w, self.min as u64);
        MIP_FILTER.set(&mut w, self.mip as u64);
        LOD_BIAS.set(&mut w, f32_to_sfixed(self.lod_bias, LOD_BIAS.width(), 8));
        MIN_LOD.set(&mut w, f32_to_ufixed(self.min_lod, 12, 8));
        MAX_LOD.set(&mut w, f32_to_ufixed(self.max_lod, 12, 8));
        FORCE_UNNORMALIZED.set(&mut w, u64::from(self.unnormalized));
        for (b, f) in self.border.iter().zip(BORDER) {
            f.set(&mut w, u64::from(*b));
        }
        w
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_sit_where_the_header_file_puts_them() {
        let s = SamplerHeader {
            wrap: [Wrap::ClampToBorder, Wrap::MirroredRepeat, Wrap::ClampToEdge],
            compare: Some(CompareOp::GreaterOrEqual),
            mag: Filter::Linear,
            min: Filter::Nearest,
            mip: MipFilter::Linear,
            lod_bias: -0.5,
            min_lod: 1.0,
            max_lod: 2.5,
            unnormalized: true,
            border: [1, 2, 3, 0x3f80_0000],
        };
        let w = s.encode();
        // TEXSAMP0: ADDRESS_U 3, V 1, P 2, DEPTH_COMPARE, FUNC GEQUAL (6).
        assert_eq!(w[0], 3 | (1 << 3) | (2 << 6) | (1 << 9) | (6 << 10));
        // TEXSAMP1: MAG 2, MIN 1 at 4, MIP 3 at 6, bias -0.5 = -128 in 13
        // bits at 12, FORCE_UNNORMALIZED_COORDS at 25.
        assert_eq!(
            w[1],
            2 | (1 << 4) | (3 << 6) | (((1 << 13) - 128) << 12) | (1 << 25)
        );
        // TEXSAMP2: MIN_LOD_CLAMP 256, MAX_LOD_CLAMP 640.
        assert_eq!(w[2], 256 | (640 << 12));
        assert_eq!(&w[4..], &[1, 2, 3, 0x3f80_0000]);
        assert_eq!(SamplerHeader::decode(&w, 1).unwrap(), s);
    }

    #[test]
    fn undecoded_modes_are_errors() {
        let mut w = SamplerHeader::default().encode();
        ADDRESS[1].set(&mut w, 4);
        assert_eq!(
            SamplerHeader::decode(&w, 2),
            Err(TexError::SamplerField {
                index: 2,
                field: "ADDRESS_U/V/P",
                value: 4
            })
        );
        let mut w = SamplerHeader::default().encode();
        MIN_FILTER.set(&mut w, 3);
        assert_eq!(
            SamplerHeader::decode(&w, 2),
            Err(TexError::SamplerField {
                index: 2,
                field: "MIN_FILTER",
                value: 3
            })
        );
    }
}
