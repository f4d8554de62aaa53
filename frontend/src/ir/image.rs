//! Images, samplers and texel buffers in the IR. An image, sampler or
//! sampled-image value is a *handle*: one 32-bit word that names a texture
//! header and a sampler header (docs/ABI.md, "Descriptor sets"). Loads
//! from `UniformConstant` variables produce handles; `SampledImage`
//! combines two; `Image` ops read, write, sample and query through one.

use super::Value;
use super::types::{Scalar, TypeId};

/// SPIR-V's `Dim` of an image type, the ones compute-like stages can use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImageDim {
    D1,
    D2,
    D3,
    Cube,
    /// A texel buffer (`samplerBuffer`, `imageBuffer`).
    Buffer,
}

impl ImageDim {
    /// Coordinate components, without the array layer.
    pub fn coords(self) -> u8 {
        match self {
            ImageDim::D1 | ImageDim::Buffer => 1,
            ImageDim::D2 => 2,
            ImageDim::D3 | ImageDim::Cube => 3,
        }
    }
    /// Components of a size query, without the layer count.
    pub fn size_comps(self) -> u8 {
        match self {
            ImageDim::D1 | ImageDim::Buffer => 1,
            ImageDim::D2 | ImageDim::Cube => 2,
            ImageDim::D3 => 3,
        }
    }
}

/// An OpTypeImage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ImageType {
    pub dim: ImageDim,
    /// The sampled type's scalar (f32, i32 or u32).
    pub sampled_type: Scalar,
    /// Declared a depth image (`Depth` 1).
    pub depth: bool,
    pub arrayed: bool,
    pub multisampled: bool,
    /// Used with a sampler (`Sampled` 1) rather than as a storage image
    /// (`Sampled` 2).
    pub sampled: bool,
    /// SPIR-V's `Image Format` enumerant (0 is `Unknown`): the compiled
    /// code never needs it, the formatted surface ops convert by the
    /// image's header.
    pub format: u32,
}

/// What an image instruction does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImageOp {
    /// OpImageFetch: integer coordinates, a LOD or a sample.
    Fetch,
    /// OpImageRead on a storage image or texel buffer.
    Read,
    /// OpImageWrite (no result).
    Write,
    /// OpImageSampleExplicitLod / OpImageSampleDrefExplicitLod.
    SampleLod,
    /// OpImageGather / OpImageDrefGather (`component` is the gathered
    /// component, 0 for a depth compare).
    Gather {
        component: u8,
    },
    /// OpImageQuerySize / OpImageQuerySizeLod.
    QuerySize,
    QueryLevels,
    QuerySamples,
}

/// An image instruction: the image (a handle value) and its operands.
/// Operands the op does not take are `None`.
#[derive(Clone, Debug, PartialEq)]
pub struct ImageInst {
    pub op: ImageOp,
    /// The image, sampled image or texel buffer handle.
    pub image: Value,
    /// The image type (of the image, or of a sampled image's image).
    pub ty: TypeId,
    pub coord: Option<Value>,
    /// The texel an OpImageWrite stores.
    pub texel: Option<Value>,
    /// The depth-compare reference (Dref).
    pub dref: Option<Value>,
    pub lod: Option<Value>,
    pub grad: Option<(Value, Value)>,
    /// ConstOffset or Offset (integer vector).
    pub offset: Option<Value>,
    pub sample: Option<Value>,
    pub min_lod: Option<Value>,
}

impl ImageInst {
    /// Every value operand, in a fixed order.
    pub fn args(&self) -> impl Iterator<Item = Value> + '_ {
        let grad = self.grad.map(|(x, y)| [x, y]);
        std::iter::once(self.image)
            .chain(self.coord)
            .chain(self.texel)
            .chain(self.dref)
            .chain(self.lod)
            .chain(grad.into_iter().flatten())
            .chain(self.offset)
            .chain(self.sample)
            .chain(self.min_lod)
    }

    /// Every value operand, mutable, in the order of `args`.
    pub fn args_mut(&mut self) -> impl Iterator<Item = &mut Value> + '_ {
        let grad = self.grad.as_mut().map(|(x, y)| [x, y]);
        std::iter::once(&mut self.image)
            .chain(self.coord.as_mut())
            .chain(self.texel.as_mut())
            .chain(self.dref.as_mut())
            .chain(self.lod.as_mut())
            .chain(grad.into_iter().flatten())
            .chain(self.offset.as_mut())
            .chain(self.sample.as_mut())
            .chain(self.min_lod.as_mut())
    }

    /// The SPIR-V instruction this came from, for messages.
    pub fn opcode_name(&self) -> &'static str {
        match self.op {
            ImageOp::Fetch => "OpImageFetch",
            ImageOp::Read => "OpImageRead",
            ImageOp::Write => "OpImageWrite",
            ImageOp::SampleLod if self.dref.is_some() => "OpImageSampleDrefExplicitLod",
            ImageOp::SampleLod => "OpImageSampleExplicitLod",
            ImageOp::Gather { .. } if self.dref.is_some() => "OpImageDrefGather",
            ImageOp::Gather { .. } => "OpImageGather",
            ImageOp::QuerySize if self.lod.is_some() => "OpImageQuerySizeLod",
            ImageOp::QuerySize => "OpImageQuerySize",
            ImageOp::QueryLevels => "OpImageQueryLevels",
            ImageOp::QuerySamples => "OpImageQuerySamples",
        }
    }
}
