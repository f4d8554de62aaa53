//! Image, sampler and texel-buffer instructions → `Op::Image`,
//! `Op::SampledImage`, `Op::ImageOf` and `Op::ImageTexelPointer` (for
//! image atomics; ir/image.rs). Task, mesh and compute shaders have no
//! derivatives, so only the explicit-LOD forms exist; the rest (implicit
//! LOD, projective, sparse, footprint) is refused naming the instruction.

use super::Translator;
use super::operands::{Operands, malformed, unsupported};
use crate::FrontendError;
use crate::ir::{Block, ImageDim, ImageInst, ImageOp, ImageType, Op, Scalar, Type, TypeId, Value};
use rspirv::dr::{Instruction, Operand};
use spirv::ImageOperands as IO;

/// The image operands this translation reads; any other bit is refused
/// by name (`ConstOffsets` and the texel memory-model bits among them,
/// the latter only with `NonPrivateTexel`/`VolatileTexel` accepted as
/// no-ops: every image access is a device access here).
const ACCEPTED: IO = IO::LOD
    .union(IO::GRAD)
    .union(IO::CONST_OFFSET)
    .union(IO::OFFSET)
    .union(IO::SAMPLE)
    .union(IO::MIN_LOD)
    .union(IO::NON_PRIVATE_TEXEL)
    .union(IO::VOLATILE_TEXEL)
    .union(IO::SIGN_EXTEND)
    .union(IO::ZERO_EXTEND)
    .union(IO::NONTEMPORAL);

/// Whether `opcode` is an image instruction this module translates.
pub(super) fn is_image_op(opcode: spirv::Op) -> bool {
    use spirv::Op as O;
    matches!(
        opcode,
        O::SampledImage
            | O::Image
            | O::ImageFetch
            | O::ImageRead
            | O::ImageWrite
            | O::ImageSampleExplicitLod
            | O::ImageSampleDrefExplicitLod
            | O::ImageGather
            | O::ImageDrefGather
            | O::ImageQuerySize
            | O::ImageQuerySizeLod
            | O::ImageQueryLevels
            | O::ImageQuerySamples
            | O::ImageTexelPointer
    )
}

/// The SPIR-V OpTypeImage `inst` as an IR image type.
pub(super) fn image_type(
    inst: &Instruction,
    sampled_type: &Type,
) -> Result<ImageType, FrontendError> {
    let mut ops = Operands::new(inst);
    ops.id("sampled type")?;
    let dim = match ops.any("dim")? {
        Operand::Dim(d) => *d,
        other => return Err(ops.wrong_kind("dim", other)),
    };
    let dim = match dim {
        spirv::Dim::Dim1D => ImageDim::D1,
        spirv::Dim::Dim2D => ImageDim::D2,
        spirv::Dim::Dim3D => ImageDim::D3,
        spirv::Dim::DimCube => ImageDim::Cube,
        spirv::Dim::DimBuffer => ImageDim::Buffer,
        other => {
            return Err(unsupported(
                inst,
                format!(
                    "images of dimension {other:?} (subpass inputs, rectangles and tile images belong to other stages or APIs)"
                ),
            ));
        }
    };
    let depth = ops.literal("depth")?;
    let arrayed = ops.literal("arrayed")? != 0;
    let multisampled = ops.literal("MS")? != 0;
    let sampled = ops.literal("sampled")?;
    let format = match ops.any("image format")? {
        Operand::ImageFormat(f) => *f as u32,
        other => return Err(ops.wrong_kind("image format", other)),
    };
    if ops.remaining() > 0 {
        return Err(unsupported(inst, "an access qualifier (OpenCL kernels)"));
    }
    let sampled_type = match sampled_type {
        Type::Scalar(s @ (Scalar::Float { bits: 32 } | Scalar::Int { bits: 32, .. })) => *s,
        Type::Scalar(Scalar::Int { bits: 64, .. }) => {
            return Err(unsupported(inst, "64-bit integer images"));
        }
        _ => {
            return Err(unsupported(
                inst,
                "a sampled type other than a 32-bit float or integer",
            ));
        }
    };
    if dim == ImageDim::Buffer && (arrayed || multisampled) {
        return Err(malformed(
            inst,
            "a texel buffer is neither arrayed nor multisampled",
        ));
    }
    Ok(ImageType {
        dim,
        sampled_type,
        depth: depth == 1,
        arrayed,
        multisampled,
        sampled: match sampled {
            1 => true,
            2 => false,
            _ => {
                return Err(unsupported(
                    inst,
                    "an image whose use (Sampled 0) is only known at run time",
                ));
            }
        },
        format,
    })
}

/// The operands of an ImageOperands mask, read in the mask's bit order.
#[derive(Default)]
struct Extra {
    lod: Option<Value>,
    grad: Option<(Value, Value)>,
    offset: Option<Value>,
    sample: Option<Value>,
    min_lod: Option<Value>,
}

impl Translator<'_> {
    pub(super) fn image_instruction(
        &mut self,
        block: Block,
        inst: &Instruction,
    ) -> Result<(), FrontendError> {
        use spirv::Op as O;
        let mut ops = Operands::new(inst);
        let opcode = inst.class.opcode;
        match opcode {
            O::SampledImage => {
                let image = self.operand(inst, &mut ops, "image")?;
                let sampler = self.operand(inst, &mut ops, "sampler")?;
                self.image_of(inst, image)?;
                if !matches!(self.shader.value_type(sampler), Type::Sampler) {
                    return Err(malformed(inst, "the sampler operand is not a sampler"));
                }
                return self.emit(block, inst, Op::SampledImage { image, sampler });
            }
            O::ImageTexelPointer => {
                let image = self.operand(inst, &mut ops, "image")?;
                let coord = self.operand(inst, &mut ops, "coordinate")?;
                let sample = self.operand(inst, &mut ops, "sample")?;
                let storage = match self.shader.value_type(image) {
                    Type::Pointer { pointee, .. } => {
                        matches!(self.shader.types[*pointee], Type::Image(t) if !t.sampled)
                    }
                    _ => false,
                };
                if !storage {
                    return Err(malformed(
                        inst,
                        "the image operand does not point to a storage image",
                    ));
                }
                return self.emit(
                    block,
                    inst,
                    Op::ImageTexelPointer {
                        image,
                        coord,
                        sample,
                    },
                );
            }
            O::Image => {
                let sampled = self.operand(inst, &mut ops, "sampled image")?;
                if !matches!(self.shader.value_type(sampled), Type::SampledImage { .. }) {
                    return Err(malformed(inst, "the operand is not a sampled image"));
                }
                return self.emit(block, inst, Op::ImageOf(sampled));
            }
            _ => {}
        }
        let image = self.operand(inst, &mut ops, "image")?;
        let (ty, combined) = self.image_of(inst, image)?;
        let info = match self.shader.types[ty] {
            Type::Image(i) => i,
            _ => unreachable!("image_of gives an image type"),
        };
        let mut coord = None;
        let mut dref = None;
        let mut texel = None;
        let mut lod = None;
        let op = match opcode {
            O::ImageFetch => {
                coord = Some(self.operand(inst, &mut ops, "coordinate")?);
                if !info.sampled || info.dim == ImageDim::Cube {
                    return Err(malformed(
                        inst,
                        "OpImageFetch needs a sampled image that is not a cube",
                    ));
                }
                ImageOp::Fetch
            }
            O::ImageRead | O::ImageWrite => {
                coord = Some(self.operand(inst, &mut ops, "coordinate")?);
                if info.sampled {
                    return Err(malformed(inst, "the image is not a storage image"));
                }
                if opcode == O::ImageWrite {
                    texel = Some(self.operand(inst, &mut ops, "texel")?);
                    ImageOp::Write
                } else {
                    ImageOp::Read
                }
            }
            O::ImageSampleExplicitLod | O::ImageSampleDrefExplicitLod => {
                coord = Some(self.operand(inst, &mut ops, "coordinate")?);
                if opcode == O::ImageSampleDrefExplicitLod {
                    dref = Some(self.operand(inst, &mut ops, "Dref")?);
                }
                ImageOp::SampleLod
            }
            O::ImageGather | O::ImageDrefGather => {
                coord = Some(self.operand(inst, &mut ops, "coordinate")?);
                let component = if opcode == O::ImageDrefGather {
                    dref = Some(self.operand(inst, &mut ops, "Dref")?);
                    0
                } else {
                    let id = ops.id("component")?;
                    match self.info.u32_constant(id) {
                        Some(c @ 0..=3) => c as u8,
                        _ => return Err(malformed(inst, "the component is not a constant 0..3")),
                    }
                };
                if !matches!(info.dim, ImageDim::D2 | ImageDim::Cube) {
                    return Err(malformed(inst, "gathers take 2D and cube images"));
                }
                ImageOp::Gather { component }
            }
            O::ImageQuerySize | O::ImageQuerySizeLod => {
                if opcode == O::ImageQuerySizeLod {
                    lod = Some(self.operand(inst, &mut ops, "level of detail")?);
                }
                ImageOp::QuerySize
            }
            O::ImageQueryLevels => ImageOp::QueryLevels,
            O::ImageQuerySamples => ImageOp::QuerySamples,
            _ => return Err(unsupported(inst, "this image instruction")),
        };
        let needs_sampler = matches!(op, ImageOp::SampleLod | ImageOp::Gather { .. });
        if needs_sampler && !combined {
            return Err(malformed(inst, "the operand is not a sampled image"));
        }
        if !needs_sampler && combined {
            return Err(malformed(
                inst,
                "the operand is a sampled image, not an image",
            ));
        }
        let extra = self.image_operands(inst, &mut ops)?;
        if op == ImageOp::SampleLod && extra.lod.is_none() && extra.grad.is_none() {
            return Err(malformed(inst, "an explicit-LOD sample needs Lod or Grad"));
        }
        if extra.sample.is_some()
            != (info.multisampled && matches!(op, ImageOp::Fetch | ImageOp::Read | ImageOp::Write))
        {
            return Err(malformed(
                inst,
                "Sample is given exactly for accesses to multisampled images",
            ));
        }
        let image_inst = ImageInst {
            op,
            image,
            ty,
            coord,
            texel,
            dref,
            lod: lod.or(extra.lod),
            grad: extra.grad,
            offset: extra.offset,
            sample: extra.sample,
            min_lod: extra.min_lod,
        };
        let op = Op::Image(Box::new(image_inst));
        if opcode == O::ImageWrite {
            // Result-less: reported under its image operand's id.
            let id = match inst.operands.first() {
                Some(Operand::IdRef(id)) => Some(*id),
                _ => None,
            };
            self.effect(block, op, id);
            Ok(())
        } else {
            self.emit(block, inst, op)
        }
    }

    /// The image type of an image or sampled-image value, and whether it is
    /// a sampled image.
    fn image_of(&self, inst: &Instruction, v: Value) -> Result<(TypeId, bool), FrontendError> {
        let ty = self.shader.values[v].ty;
        match self.shader.types[ty] {
            Type::Image(_) => Ok((ty, false)),
            Type::SampledImage { image } => Ok((image, true)),
            _ => Err(malformed(inst, "the image operand is not an image")),
        }
    }

    fn image_operands(
        &mut self,
        inst: &Instruction,
        ops: &mut Operands,
    ) -> Result<Extra, FrontendError> {
        let mut extra = Extra::default();
        if ops.remaining() == 0 {
            return Ok(extra);
        }
        let mask = match ops.any("image operands")? {
            Operand::ImageOperands(m) => *m,
            other => return Err(ops.wrong_kind("image operands", other)),
        };
        let refused = mask.difference(ACCEPTED);
        if !refused.is_empty() {
            return Err(unsupported(
                inst,
                format!(
                    "the image operands {refused:?} (explicit-LOD forms only: Lod, Grad, ConstOffset, Offset, Sample, MinLod)"
                ),
            ));
        }
        if mask.contains(IO::LOD) {
            extra.lod = Some(self.operand(inst, ops, "Lod")?);
        }
        if mask.contains(IO::GRAD) {
            let x = self.operand(inst, ops, "Grad dx")?;
            let y = self.operand(inst, ops, "Grad dy")?;
            extra.grad = Some((x, y));
        }
        if mask.contains(IO::CONST_OFFSET) {
            extra.offset = Some(self.operand(inst, ops, "ConstOffset")?);
        }
        if mask.contains(IO::OFFSET) {
            if extra.offset.is_some() {
                return Err(malformed(inst, "both ConstOffset and Offset"));
            }
            extra.offset = Some(self.operand(inst, ops, "Offset")?);
        }
        if mask.contains(IO::SAMPLE) {
            extra.sample = Some(self.operand(inst, ops, "Sample")?);
        }
        if mask.contains(IO::MIN_LOD) {
            extra.min_lod = Some(self.operand(inst, ops, "MinLod")?);
        }
        if ops.remaining() > 0 {
            return Err(malformed(inst, "operands beyond the image operands mask"));
        }
        Ok(extra)
    }
}
