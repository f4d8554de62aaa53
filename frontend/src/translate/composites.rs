//! The shape rules of SPIR-V's composite instructions, checked before they
//! become IR (issue 18: malformed composites panicked further on):
//! OpCompositeConstruct (and OpConstantComposite) has one constituent per
//! member, column or element, or for a vector scalars and vectors whose
//! components add up to its size; OpCompositeExtract and
//! OpCompositeInsert indices stay inside each level's bounds and never go
//! past a scalar, and a scalar they reach is the result's (or object's)
//! type; OpVectorShuffle components pick from the two vectors or are
//! 0xFFFFFFFF (undefined). A break is `FrontendError::Malformed`, naming
//! the opcode and result id.

use super::Translator;
use super::operands::malformed;
use crate::FrontendError;
use crate::ir::{Op, Scalar, Type, TypeId, Value};
use rspirv::dr::Instruction;

/// One level of a composite type: a type, or a vector's component.
#[derive(Clone, Copy)]
enum Part {
    Ty(TypeId),
    Component(Scalar),
}

impl Translator<'_> {
    /// Checks `op` (a composite op whose result has type `result`).
    pub(super) fn check_composite(
        &self,
        inst: &Instruction,
        op: &Op,
        result: TypeId,
    ) -> Result<(), FrontendError> {
        let bad = |what: String| Err(malformed(inst, what));
        match op {
            Op::CompositeConstruct(values) => {
                let expected = match &self.shader.types[result] {
                    Type::Vector { scalar, len } => {
                        let mut total = 0u32;
                        for &v in values {
                            match self.shader.types[self.value_ty(v)] {
                                Type::Scalar(s) if s == *scalar => total += 1,
                                Type::Vector { scalar: s, len } if s == *scalar => {
                                    total += u32::from(len)
                                }
                                _ => {
                                    return bad(format!(
                                        "a constituent of type {} does not build a {}",
                                        self.shader.type_name(self.value_ty(v)),
                                        self.shader.type_name(result)
                                    ));
                                }
                            }
                        }
                        if total != u32::from(*len) {
                            return bad(format!(
                                "the constituents have {total} components, {} has {len}",
                                self.shader.type_name(result)
                            ));
                        }
                        return Ok(());
                    }
                    Type::Matrix { columns, .. } => u64::from(*columns),
                    Type::Array { len: Some(n), .. } => u64::from(*n),
                    Type::Struct { members, .. } => members.len() as u64,
                    Type::Void
                    | Type::Scalar(_)
                    | Type::Array { len: None, .. }
                    | Type::Pointer { .. }
                    | Type::Image(_)
                    | Type::Sampler
                    | Type::SampledImage { .. } => {
                        return bad(format!(
                            "{} is not a type a composite can be built of",
                            self.shader.type_name(result)
                        ));
                    }
                };
                if values.len() as u64 != expected {
                    return bad(format!(
                        "{} constituents for {}, which has {expected}",
                        values.len(),
                        self.shader.type_name(result)
                    ));
                }
            }
            Op::CompositeExtract { composite, indices } => {
                let part = self.walk(inst, self.value_ty(*composite), indices)?;
                self.check_part(inst, part, result, "the result")?;
            }
            Op::CompositeInsert {
                object,
                composite,
                indices,
            } => {
                let part = self.walk(inst, self.value_ty(*composite), indices)?;
                self.check_part(inst, part, self.value_ty(*object), "the object")?;
            }
            Op::VectorShuffle { a, b, components } => {
                let len = |v: Value| match self.shader.types[self.value_ty(v)] {
                    Type::Vector { len, .. } => Some(u32::from(len)),
                    _ => None,
                };
                let (Some(la), Some(lb)) = (len(*a), len(*b)) else {
                    return bad("the operands are not both vectors".into());
                };
                if let Some(c) = components.iter().find(|&&c| c != u32::MAX && c >= la + lb) {
                    return bad(format!(
                        "component {c} is past the {} components of the two vectors",
                        la + lb
                    ));
                }
                if len_of(&self.shader.types[result]) != Some(components.len()) {
                    return bad(format!(
                        "{} components for a result of type {}",
                        components.len(),
                        self.shader.type_name(result)
                    ));
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn value_ty(&self, v: Value) -> TypeId {
        self.shader.values[v].ty
    }

    /// The part of `ty` that `indices` name.
    fn walk(&self, inst: &Instruction, ty: TypeId, indices: &[u32]) -> Result<Part, FrontendError> {
        let mut part = Part::Ty(ty);
        for (level, &i) in indices.iter().enumerate() {
            let Part::Ty(t) = part else {
                return Err(malformed(
                    inst,
                    format!("index {level} goes past a scalar component"),
                ));
            };
            let (next, bound) = match &self.shader.types[t] {
                Type::Vector { scalar, len } => (Part::Component(*scalar), Some(u32::from(*len))),
                Type::Matrix {
                    column, columns, ..
                } => (Part::Ty(*column), Some(u32::from(*columns))),
                Type::Array { elem, len, .. } => (Part::Ty(*elem), *len),
                Type::Struct { members, .. } => match members.get(i as usize) {
                    Some(m) => (Part::Ty(m.ty), None),
                    None => (Part::Ty(t), Some(members.len() as u32)),
                },
                Type::Void
                | Type::Scalar(_)
                | Type::Pointer { .. }
                | Type::Image(_)
                | Type::Sampler
                | Type::SampledImage { .. } => {
                    return Err(malformed(
                        inst,
                        format!(
                            "index {level} goes into {}, which is not a composite",
                            self.shader.type_name(t)
                        ),
                    ));
                }
            };
            if let Some(n) = bound.filter(|&n| i >= n) {
                return Err(malformed(
                    inst,
                    format!(
                        "index {level} is {i}, past the {n} parts of {}",
                        self.shader.type_name(t)
                    ),
                ));
            }
            part = next;
        }
        Ok(part)
    }

    /// A vector component reached by the indices has `ty`'s scalar type
    /// (composites may differ in layout decorations, so only scalars are
    /// compared; a composite reached must at least be a composite).
    fn check_part(
        &self,
        inst: &Instruction,
        part: Part,
        ty: TypeId,
        what: &str,
    ) -> Result<(), FrontendError> {
        let fits = match (part, &self.shader.types[ty]) {
            (Part::Component(s), Type::Scalar(t)) => s == *t,
            (Part::Component(_), _) => false,
            (Part::Ty(p), t) => {
                std::mem::discriminant(&self.shader.types[p]) == std::mem::discriminant(t)
            }
        };
        if fits {
            Ok(())
        } else {
            Err(malformed(
                inst,
                format!(
                    "{what} has type {}, not the type the indices name",
                    self.shader.type_name(ty)
                ),
            ))
        }
    }
}

fn len_of(t: &Type) -> Option<usize> {
    match t {
        Type::Vector { len, .. } => Some(usize::from(*len)),
        _ => None,
    }
}
