//! Types of the IR. They mirror SPIR-V's logical types, with the layout
//! decorations kept, because the backend lays out buffers and ISBE outputs.

use cranelift_entity::entity_impl;
use std::fmt;

/// A type in the module's type arena.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TypeId(u32);
entity_impl!(TypeId, "t");

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scalar {
    Bool,
    Int { bits: u8, signed: bool },
    Float { bits: u8 },
}

impl Scalar {
    pub const U32: Scalar = Scalar::Int {
        bits: 32,
        signed: false,
    };
    pub const I32: Scalar = Scalar::Int {
        bits: 32,
        signed: true,
    };
    pub const F32: Scalar = Scalar::Float { bits: 32 };

    /// Size in bytes when stored in memory (bool as a 32-bit word).
    pub fn size(self) -> u32 {
        match self {
            Scalar::Bool => 4,
            Scalar::Int { bits, .. } | Scalar::Float { bits } => u32::from(bits) / 8,
        }
    }
}

impl fmt::Display for Scalar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Scalar::Bool => write!(f, "bool"),
            Scalar::Int { bits, signed: true } => write!(f, "i{bits}"),
            Scalar::Int {
                bits,
                signed: false,
            } => write!(f, "u{bits}"),
            Scalar::Float { bits } => write!(f, "f{bits}"),
        }
    }
}

/// Where a pointer points. The subset of SPIR-V storage classes that task,
/// mesh and compute shaders use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StorageClass {
    Function,
    Private,
    Workgroup,
    Input,
    Output,
    TaskPayload,
    StorageBuffer,
    Uniform,
    PushConstant,
    PhysicalStorageBuffer,
    /// Images, samplers and texel buffers: variables whose loads give
    /// handles (`image.rs`).
    UniformConstant,
    /// A texel of a storage image (OpImageTexelPointer), for atomics.
    Image,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StructMember {
    pub ty: TypeId,
    /// Byte offset (the Offset decoration), when laid out explicitly.
    pub offset: Option<u32>,
    pub builtin: Option<BuiltIn>,
    pub location: Option<u32>,
    pub per_primitive: bool,
    /// The interpolation the rasterizer applies to this member of an
    /// output block.
    pub interpolation: Interpolation,
}

/// Interpolation decorations of a mesh output, kept for the rasterizer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Interpolation {
    pub flat: bool,
    pub no_perspective: bool,
    pub centroid: bool,
    pub sample: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    Void,
    Scalar(Scalar),
    Vector {
        scalar: Scalar,
        len: u8,
    },
    Matrix {
        column: TypeId,
        columns: u8,
        stride: Option<u32>,
        row_major: bool,
    },
    /// `len: None` is a runtime array.
    Array {
        elem: TypeId,
        len: Option<u32>,
        stride: Option<u32>,
    },
    Struct {
        members: Vec<StructMember>,
        block: bool,
    },
    Pointer {
        class: StorageClass,
        pointee: TypeId,
        /// The pointer type's ArrayStride decoration: the step of
        /// OpPtrAccessChain's element index (physical pointers).
        array_stride: Option<u32>,
    },
    /// An image or texel buffer handle (`image.rs`).
    Image(super::image::ImageType),
    /// A sampler handle.
    Sampler,
    /// A combined image-sampler handle of the image type `image`.
    SampledImage {
        image: TypeId,
    },
}

/// Built-in variables and struct members the IR knows by meaning.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BuiltIn {
    // Inputs.
    LocalInvocationId,
    LocalInvocationIndex,
    GlobalInvocationId,
    WorkgroupId,
    NumWorkgroups,
    WorkgroupSize,
    SubgroupLocalInvocationId,
    SubgroupSize,
    SubgroupId,
    NumSubgroups,
    /// The subgroup masks: bit `i` set for invocation `i` equal to,
    /// greater or equal, greater, less or equal, less than this one.
    SubgroupEqMask,
    SubgroupGeMask,
    SubgroupGtMask,
    SubgroupLeMask,
    SubgroupLtMask,
    ViewIndex,
    DrawIndex,
    // Mesh outputs.
    Position,
    PointSize,
    ClipDistance,
    CullDistance,
    PrimitiveId,
    Layer,
    ViewportIndex,
    CullPrimitive,
    PrimitiveShadingRate,
    PrimitivePointIndices,
    PrimitiveLineIndices,
    PrimitiveTriangleIndices,
}

/// Whether a value of type `src` in memory can be copied into memory of type
/// `dst` component by component (`Op::CopyMemory`): the same type, or arrays
/// of one length and one scalar or vector element type, which may differ
/// only in their stride (a buffer's std430 array copied into a local one).
pub fn copyable(sh: &super::Shader, dst: TypeId, src: TypeId) -> bool {
    if dst == src {
        return true;
    }
    match (&sh.types[dst], &sh.types[src]) {
        (
            Type::Array {
                elem: a, len: m, ..
            },
            Type::Array {
                elem: b, len: n, ..
            },
        ) => {
            a == b
                && m == n
                && m.is_some()
                && matches!(sh.types[*a], Type::Scalar(_) | Type::Vector { .. })
        }
        _ => false,
    }
}
