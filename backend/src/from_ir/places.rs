//! Pointers in instruction selection: an access chain resolves to a place,
//! the variable plus the path of indices into it.

use crate::error::{BackendError, spirv_opcode};
use spvsass_frontend::ir::{GlobalVar, Op, Scalar, Shader, StorageClass, Type, TypeId, Value};

/// One step of an access chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    Const(u32),
    /// A dynamic index: the IR value (a 32-bit integer).
    Dyn(Value),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    pub var: GlobalVar,
    pub path: Vec<Step>,
}

/// The 32-bit components of one scalar: two for 64-bit ones (low word
/// first), one otherwise.
pub fn scalar_comps(s: Scalar) -> u32 {
    if s.size() == 8 { 2 } else { 1 }
}

/// The number of 32-bit components a value of type `ty` occupies in
/// registers (booleans take one predicate).
pub fn comp_count(sh: &Shader, ty: TypeId) -> Option<u32> {
    Some(match &sh.types[ty] {
        Type::Scalar(s) => scalar_comps(*s),
        Type::Vector { len, scalar } => u32::from(*len) * scalar_comps(*scalar),
        Type::Matrix {
            column, columns, ..
        } => comp_count(sh, *column)? * u32::from(*columns),
        Type::Array {
            elem, len: Some(n), ..
        } => comp_count(sh, *elem)? * n,
        Type::Struct { members, .. } => members
            .iter()
            .map(|m| comp_count(sh, m.ty))
            .sum::<Option<u32>>()?,
        // A buffer device address: its 64-bit address (phys_ptr.rs).
        Type::Pointer {
            class: StorageClass::PhysicalStorageBuffer,
            ..
        } => 2,
        // An image, sampler or sampled-image handle (docs/ABI.md).
        Type::Image(_) | Type::Sampler | Type::SampledImage { .. } => 1,
        Type::Array { len: None, .. } | Type::Void | Type::Pointer { .. } => return None,
    })
}

/// For each component of `ty`, in `comp_count`'s order, whether it is a
/// bool (a predicate register) rather than a GPR word.
pub fn bool_comps(sh: &Shader, ty: TypeId, out: &mut Vec<bool>) -> Option<()> {
    match &sh.types[ty] {
        Type::Scalar(s) => out.extend((0..scalar_comps(*s)).map(|_| *s == Scalar::Bool)),
        Type::Vector { len, scalar } => {
            for _ in 0..*len {
                out.extend((0..scalar_comps(*scalar)).map(|_| *scalar == Scalar::Bool));
            }
        }
        Type::Matrix {
            column, columns, ..
        } => {
            for _ in 0..*columns {
                bool_comps(sh, *column, out)?;
            }
        }
        Type::Array {
            elem, len: Some(n), ..
        } => {
            for _ in 0..*n {
                bool_comps(sh, *elem, out)?;
            }
        }
        Type::Struct { members, .. } => {
            for m in members {
                bool_comps(sh, m.ty, out)?;
            }
        }
        _ => out.extend((0..comp_count(sh, ty)?).map(|_| false)),
    }
    Some(())
}

/// The component range of member/element `index` inside a composite.
pub fn sub_range(sh: &Shader, ty: TypeId, index: u32) -> Option<(TypeId, u32)> {
    match &sh.types[ty] {
        Type::Vector { scalar, len } if index < u32::from(*len) => {
            let scalar_ty = sh
                .types
                .iter()
                .find(|(_, t)| **t == Type::Scalar(*scalar))?
                .0;
            Some((scalar_ty, index * scalar_comps(*scalar)))
        }
        Type::Matrix {
            column, columns, ..
        } if index < u32::from(*columns) => Some((*column, index * comp_count(sh, *column)?)),
        Type::Array {
            elem, len: Some(n), ..
        } if index < *n => Some((*elem, index * comp_count(sh, *elem)?)),
        Type::Struct { members, .. } => {
            let m = members.get(index as usize)?;
            let start = members[..index as usize]
                .iter()
                .map(|m| comp_count(sh, m.ty))
                .sum::<Option<u32>>()?;
            Some((m.ty, start))
        }
        _ => None,
    }
}

/// The place a pointer value designates, found by walking its definition
/// back through access chains to the variable.
pub fn resolve(sh: &Shader, ptr: Value, spirv_id: Option<u32>) -> Result<Place, BackendError> {
    // Named by the SPIR-V instruction that made the pointer, never by the
    // IR value.
    let not_a_place = || {
        let made_by = match sh.def_inst(ptr) {
            Some(def) => match def.spirv_id {
                Some(id) => format!("%{id} (made by {})", spirv_opcode(&def.op)),
                None => format!("made by {}", spirv_opcode(&def.op)),
            },
            None => "a block parameter (an OpPhi)".to_string(),
        };
        BackendError::Invalid {
            what: format!("the pointer {made_by} does not come from a variable or access chain"),
            spirv_id,
        }
    };
    match &sh.def_inst(ptr).ok_or_else(not_a_place)?.op {
        Op::VarAddr(var) => Ok(Place {
            var: *var,
            path: Vec::new(),
        }),
        Op::AccessChain { base, indices } => {
            let mut place = resolve(sh, *base, spirv_id)?;
            place
                .path
                .extend(indices.iter().map(|&i| match sh.const_value(i) {
                    Some(c) => Step::Const(c as u32),
                    None => Step::Dyn(i),
                }));
            Ok(place)
        }
        _ => Err(not_a_place()),
    }
}
