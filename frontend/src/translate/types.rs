//! SPIR-V types → interned [`crate::ir::Type`]s, with the layout decorations
//! (Offset, ArrayStride, MatrixStride, RowMajor, Block) and the member
//! decorations (BuiltIn, Location, PerPrimitiveEXT) kept.

use super::Translator;
use super::builtins::{builtin, storage_class};
use super::operands::{Operands, malformed, undefined_id, unsupported};
use crate::FrontendError;
use crate::ir::{Scalar, StorageClass, StructMember, Type, TypeId};
use rspirv::dr::{Instruction, Operand};

/// How deep types (and constants, which share the guard) may nest: real
/// shaders nest a handful of levels; the bound keeps the recursive
/// translation of adversarial modules off the end of the stack.
pub(super) const MAX_NESTING: usize = 64;

/// How a matrix is laid out in memory. SPIR-V puts this on the struct
/// member holding the matrix (or an array of matrices), not on the matrix
/// type, so the same matrix type may be translated with different layouts.
#[derive(Clone, Copy)]
struct MatrixLayout {
    stride: Option<u32>,
    row_major: bool,
}

impl Translator<'_> {
    /// The IR type of the SPIR-V type `id`, an operand of `user`.
    pub(super) fn ty(&mut self, user: &Instruction, id: u32) -> Result<TypeId, FrontendError> {
        if let Some(&ty) = self.types.get(&id) {
            return Ok(ty);
        }
        let ty = self.build_type(user, id, None)?;
        self.types.insert(id, ty);
        Ok(ty)
    }

    fn ty_with_layout(
        &mut self,
        user: &Instruction,
        id: u32,
        layout: Option<MatrixLayout>,
    ) -> Result<TypeId, FrontendError> {
        match layout {
            None => self.ty(user, id),
            Some(_) => self.build_type(user, id, layout),
        }
    }

    fn build_type(
        &mut self,
        user: &Instruction,
        id: u32,
        layout: Option<MatrixLayout>,
    ) -> Result<TypeId, FrontendError> {
        let Some(inst) = self.info.def(id) else {
            return Err(undefined_id(user, id));
        };
        if !inst.class.opcode.is_type() {
            return Err(malformed(user, format!("%{id} is not a type")));
        }
        if self.in_progress.len() >= MAX_NESTING {
            return Err(unsupported(
                inst,
                format!("types and constants nested deeper than {MAX_NESTING}"),
            ));
        }
        // Valid SPIR-V can only be recursive through a physical storage
        // buffer pointer (a buffer_reference struct that points to its own
        // type, as in a linked list), which the IR's interned types cannot
        // express.
        if !self.in_progress.insert(id) {
            return Err(unsupported(
                inst,
                "recursive types (a buffer reference to its own struct) are not supported",
            ));
        }
        let ty = self.type_of_def(inst, id, layout);
        self.in_progress.remove(&id);
        let ty = ty?;
        Ok(self.intern(ty))
    }

    fn type_of_def(
        &mut self,
        inst: &Instruction,
        id: u32,
        layout: Option<MatrixLayout>,
    ) -> Result<Type, FrontendError> {
        use spirv::Op as O;
        let mut ops = Operands::new(inst);
        Ok(match inst.class.opcode {
            O::TypeVoid => Type::Void,
            O::TypeBool => Type::Scalar(Scalar::Bool),
            O::TypeInt => {
                let bits = ops.literal("width")?;
                let signed = ops.literal("signedness")? != 0;
                match bits {
                    8 | 16 | 32 | 64 => Type::Scalar(Scalar::Int {
                        bits: bits as u8,
                        signed,
                    }),
                    _ => return Err(unsupported(inst, format!("{bits}-bit integers"))),
                }
            }
            O::TypeFloat => {
                let bits = ops.literal("width")?;
                if inst.operands.len() > 1 {
                    return Err(unsupported(inst, "floats with an explicit encoding"));
                }
                match bits {
                    16 | 32 | 64 => Type::Scalar(Scalar::Float { bits: bits as u8 }),
                    _ => return Err(unsupported(inst, format!("{bits}-bit floats"))),
                }
            }
            O::TypeVector => {
                let component = ops.id("component type")?;
                let count = ops.literal("component count")?;
                let component = self.ty(inst, component)?;
                let Type::Scalar(scalar) = self.shader.types[component] else {
                    return Err(malformed(inst, "the component type is not a scalar"));
                };
                let len = u8::try_from(count)
                    .ok()
                    .filter(|n| (2..=16).contains(n))
                    .ok_or_else(|| malformed(inst, format!("{count} components")))?;
                Type::Vector { scalar, len }
            }
            O::TypeMatrix => {
                let column = self.ty(inst, ops.id("column type")?)?;
                let count = ops.literal("column count")?;
                if !matches!(self.shader.types[column], Type::Vector { .. }) {
                    return Err(malformed(inst, "the column type is not a vector"));
                }
                let columns = u8::try_from(count)
                    .ok()
                    .filter(|n| (2..=4).contains(n))
                    .ok_or_else(|| malformed(inst, format!("{count} columns")))?;
                Type::Matrix {
                    column,
                    columns,
                    stride: layout.and_then(|l| l.stride),
                    row_major: layout.is_some_and(|l| l.row_major),
                }
            }
            O::TypeArray => {
                let elem = self.ty_with_layout(inst, ops.id("element type")?, layout)?;
                let length = ops.id("length")?;
                let len = self.info.u32_constant(length).ok_or_else(|| {
                    unsupported(
                        inst,
                        format!("the length %{length} is not an integer constant"),
                    )
                })?;
                let stride = self.info.decorations.id(id).array_stride;
                Type::Array {
                    elem,
                    len: Some(len),
                    stride,
                }
            }
            O::TypeRuntimeArray => {
                let elem = self.ty_with_layout(inst, ops.id("element type")?, layout)?;
                let stride = self.info.decorations.id(id).array_stride;
                Type::Array {
                    elem,
                    len: None,
                    stride,
                }
            }
            O::TypeStruct => {
                let member_ids = ops.rest_ids("member type")?;
                let mut members = Vec::with_capacity(member_ids.len());
                for (index, &member) in (0u32..).zip(&member_ids) {
                    members.push(self.struct_member(inst, id, index, member)?);
                }
                Type::Struct {
                    members,
                    block: self.info.decorations.id(id).block,
                }
            }
            O::TypePointer => {
                let class = match ops.any("storage class")? {
                    Operand::StorageClass(c) => *c,
                    other => return Err(ops.wrong_kind("storage class", other)),
                };
                let class = storage_class(class).ok_or_else(|| {
                    unsupported(inst, format!("{class:?} storage is not supported"))
                })?;
                let pointee_id = ops.id("pointee type")?;
                let pointee = self.ty(inst, pointee_id)?;
                // SPIR-V 1.0-1.2 storage buffers: Uniform storage of a
                // BufferBlock struct (or an array of them).
                let class = if class == StorageClass::Uniform && self.buffer_block(pointee_id) {
                    StorageClass::StorageBuffer
                } else {
                    class
                };
                Type::Pointer {
                    class,
                    pointee,
                    array_stride: self.info.decorations.id(id).array_stride,
                }
            }
            O::TypeImage => {
                let sampled = self.ty(inst, ops.id("sampled type")?)?;
                let sampled = self.shader.types[sampled].clone();
                Type::Image(super::images::image_type(inst, &sampled)?)
            }
            O::TypeSampler => Type::Sampler,
            O::TypeSampledImage => {
                let image = self.ty(inst, ops.id("image type")?)?;
                if !matches!(self.shader.types[image], Type::Image(_)) {
                    return Err(malformed(inst, "the operand is not an image type"));
                }
                Type::SampledImage { image }
            }
            O::TypeForwardPointer => {
                return Err(unsupported(
                    inst,
                    "forward-declared pointers are not supported",
                ));
            }
            _ => return Err(unsupported(inst, "this type is not supported")),
        })
    }

    /// Whether the SPIR-V type `id` is a struct decorated BufferBlock or an
    /// array of them.
    pub(super) fn buffer_block(&self, mut id: u32) -> bool {
        for _ in 0..MAX_NESTING {
            if self.info.decorations.id(id).buffer_block {
                return true;
            }
            match self.info.def(id) {
                Some(def)
                    if matches!(
                        def.class.opcode,
                        spirv::Op::TypeArray | spirv::Op::TypeRuntimeArray
                    ) =>
                {
                    match def.operands.first() {
                        Some(Operand::IdRef(elem)) => id = *elem,
                        _ => return false,
                    }
                }
                _ => return false,
            }
        }
        false
    }

    fn struct_member(
        &mut self,
        inst: &Instruction,
        struct_id: u32,
        index: u32,
        member_ty: u32,
    ) -> Result<StructMember, FrontendError> {
        let Some(d) = self.info.decorations.member(struct_id, index).cloned() else {
            return Ok(StructMember {
                ty: self.ty(inst, member_ty)?,
                offset: None,
                builtin: None,
                location: None,
                per_primitive: false,
                interpolation: Default::default(),
            });
        };
        let layout = (d.matrix_stride.is_some() || d.row_major).then_some(MatrixLayout {
            stride: d.matrix_stride,
            row_major: d.row_major,
        });
        let builtin = match d.builtin {
            None => None,
            Some(b) => Some(builtin(b).ok_or_else(|| {
                unsupported(inst, format!("member {index} is the built-in {b:?}"))
            })?),
        };
        Ok(StructMember {
            ty: self.ty_with_layout(inst, member_ty, layout)?,
            offset: d.offset,
            builtin,
            location: d.location,
            per_primitive: d.per_primitive,
            interpolation: d.interpolation,
        })
    }
}
