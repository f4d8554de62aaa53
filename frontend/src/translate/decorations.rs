//! The decorations the translation needs, gathered once from the module's
//! annotation section. Decorations the IR has no use for (RelaxedPrecision,
//! NonWritable, Coherent, SpecId, ...) are skipped.

use super::operands::Operands;
use crate::FrontendError;
use crate::ir::Interpolation;
use rspirv::dr::{self, Operand};
use rustc_hash::FxHashMap;
use spirv::Decoration;

/// Decorations of one id (a variable or a type).
#[derive(Clone, Debug, Default)]
pub(super) struct IdDecorations {
    pub builtin: Option<spirv::BuiltIn>,
    pub location: Option<u32>,
    pub component: Option<u32>,
    pub descriptor_set: Option<u32>,
    pub binding: Option<u32>,
    pub per_primitive: bool,
    pub interpolation: Interpolation,
    /// Block or BufferBlock.
    pub block: bool,
    /// BufferBlock: a storage buffer in the SPIR-V 1.0-1.2 form (Uniform
    /// storage class).
    pub buffer_block: bool,
    pub array_stride: Option<u32>,
    pub spec_id: Option<u32>,
}

/// Decorations of one member of a struct type.
#[derive(Clone, Debug, Default)]
pub(super) struct MemberDecorations {
    pub builtin: Option<spirv::BuiltIn>,
    pub location: Option<u32>,
    pub per_primitive: bool,
    pub offset: Option<u32>,
    pub matrix_stride: Option<u32>,
    pub row_major: bool,
    pub interpolation: Interpolation,
}

#[derive(Debug, Default)]
pub(super) struct Decorations {
    ids: FxHashMap<u32, IdDecorations>,
    members: FxHashMap<(u32, u32), MemberDecorations>,
}

/// An id with no decorations.
static NONE: IdDecorations = IdDecorations {
    builtin: None,
    location: None,
    component: None,
    descriptor_set: None,
    binding: None,
    per_primitive: false,
    interpolation: Interpolation {
        flat: false,
        no_perspective: false,
        centroid: false,
        sample: false,
    },
    block: false,
    buffer_block: false,
    array_stride: None,
    spec_id: None,
};

impl Decorations {
    pub(super) fn collect(module: &dr::Module) -> Result<Self, FrontendError> {
        let mut decorations = Decorations::default();
        // Decoration groups (SPIR-V 1.0, deprecated in 1.5): the OpDecorate
        // instructions aimed at each group, applied again to each id or
        // member OpGroupDecorate / OpGroupMemberDecorate names. The group's
        // decorations all come before those (it is their target).
        let mut groups: FxHashMap<u32, Vec<&dr::Instruction>> = FxHashMap::default();
        for inst in &module.annotations {
            match inst.class.opcode {
                spirv::Op::Decorate => {
                    let mut ops = Operands::new(inst);
                    let target = ops.id("target")?;
                    decorations.decorate(target, &mut ops)?;
                    groups.entry(target).or_default().push(inst);
                }
                spirv::Op::MemberDecorate => decorations.member_decorate(inst)?,
                spirv::Op::GroupDecorate | spirv::Op::GroupMemberDecorate => {
                    let member = inst.class.opcode == spirv::Op::GroupMemberDecorate;
                    let mut ops = Operands::new(inst);
                    let group = ops.id("decoration group")?;
                    let group_decorations = groups.get(&group).cloned().unwrap_or_default();
                    while ops.remaining() > 0 {
                        let target = ops.id("target")?;
                        let index = if member {
                            Some(ops.literal("member")?)
                        } else {
                            None
                        };
                        for d in &group_decorations {
                            let mut group_ops = Operands::new(d);
                            group_ops.id("target")?;
                            match index {
                                Some(index) => {
                                    decorations.decorate_member(target, index, &mut group_ops)?
                                }
                                None => decorations.decorate(target, &mut group_ops)?,
                            }
                        }
                    }
                }
                // OpDecorationGroup is in the annotations but decorates
                // nothing itself. OpDecorateId / OpDecorateString carry
                // nothing the IR uses (AlignmentId, UserSemantic, ...).
                _ => {}
            }
        }
        Ok(decorations)
    }

    pub(super) fn id(&self, id: u32) -> &IdDecorations {
        self.ids.get(&id).unwrap_or(&NONE)
    }

    /// The ids decorated SpecId, with their SpecId.
    pub(super) fn spec_ids(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.ids
            .iter()
            .filter_map(|(&id, d)| Some((id, d.spec_id?)))
    }

    pub(super) fn member(&self, struct_id: u32, member: u32) -> Option<&MemberDecorations> {
        self.members.get(&(struct_id, member))
    }

    /// The id decorated `BuiltIn builtin`, if any (e.g. a WorkgroupSize
    /// constant).
    pub(super) fn id_with_builtin(&self, builtin: spirv::BuiltIn) -> Option<u32> {
        self.ids
            .iter()
            .find(|(_, d)| d.builtin == Some(builtin))
            .map(|(&id, _)| id)
    }

    /// One decoration of `target`: `ops` is at the decoration operand.
    fn decorate(&mut self, target: u32, ops: &mut Operands) -> Result<(), FrontendError> {
        let decoration = decoration(ops)?;
        let d = self.ids.entry(target).or_default();
        match decoration {
            Decoration::BuiltIn => d.builtin = Some(builtin(ops)?),
            Decoration::Location => d.location = Some(ops.literal("Location")?),
            Decoration::Component => d.component = Some(ops.literal("Component")?),
            Decoration::DescriptorSet => d.descriptor_set = Some(ops.literal("DescriptorSet")?),
            Decoration::Binding => d.binding = Some(ops.literal("Binding")?),
            Decoration::PerPrimitiveEXT => d.per_primitive = true,
            Decoration::Flat
            | Decoration::NoPerspective
            | Decoration::Centroid
            | Decoration::Sample => interpolate(&mut d.interpolation, decoration),
            Decoration::Block => d.block = true,
            Decoration::BufferBlock => {
                d.block = true;
                d.buffer_block = true;
            }
            Decoration::ArrayStride => d.array_stride = Some(ops.literal("ArrayStride")?),
            Decoration::SpecId => d.spec_id = Some(ops.literal("SpecId")?),
            _ => {}
        }
        Ok(())
    }

    fn member_decorate(&mut self, inst: &dr::Instruction) -> Result<(), FrontendError> {
        let mut ops = Operands::new(inst);
        let target = ops.id("structure type")?;
        let member = ops.literal("member")?;
        self.decorate_member(target, member, &mut ops)
    }

    /// One decoration of member `member` of struct type `target`: `ops`
    /// is at the decoration operand.
    fn decorate_member(
        &mut self,
        target: u32,
        member: u32,
        ops: &mut Operands,
    ) -> Result<(), FrontendError> {
        let decoration = decoration(ops)?;
        let d = self.members.entry((target, member)).or_default();
        match decoration {
            Decoration::BuiltIn => d.builtin = Some(builtin(ops)?),
            Decoration::Location => d.location = Some(ops.literal("Location")?),
            Decoration::PerPrimitiveEXT => d.per_primitive = true,
            Decoration::Offset => d.offset = Some(ops.literal("Offset")?),
            Decoration::MatrixStride => d.matrix_stride = Some(ops.literal("MatrixStride")?),
            Decoration::RowMajor => d.row_major = true,
            Decoration::ColMajor => d.row_major = false,
            Decoration::Flat
            | Decoration::NoPerspective
            | Decoration::Centroid
            | Decoration::Sample => interpolate(&mut d.interpolation, decoration),
            _ => {}
        }
        Ok(())
    }
}

fn interpolate(i: &mut Interpolation, decoration: Decoration) {
    match decoration {
        Decoration::Flat => i.flat = true,
        Decoration::NoPerspective => i.no_perspective = true,
        Decoration::Centroid => i.centroid = true,
        Decoration::Sample => i.sample = true,
        _ => {}
    }
}

fn decoration(ops: &mut Operands) -> Result<Decoration, FrontendError> {
    match ops.any("decoration")? {
        Operand::Decoration(d) => Ok(*d),
        other => Err(ops.wrong_kind("decoration", other)),
    }
}

fn builtin(ops: &mut Operands) -> Result<spirv::BuiltIn, FrontendError> {
    match ops.any("built-in")? {
        Operand::BuiltIn(b) => Ok(*b),
        other => Err(ops.wrong_kind("built-in", other)),
    }
}
