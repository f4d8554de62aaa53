//! Operand types: the checks the backend would otherwise have to make.
//! SPIR-V lets integer operands differ in signedness (and shift amounts in
//! width), so integers are compared by *shape*: kind, width and
//! component count.

use super::invalid;
use crate::FrontendError;
use crate::ir::{AtomicOp, BinaryOp, Inst, Op, Scalar, Shader, Type, TypeId, UnaryOp, Value};

/// A numeric or boolean type with signedness left out.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Shape {
    Bool(u8),
    Int(u8, u8),
    Float(u8, u8),
}

fn shape(shader: &Shader, ty: TypeId) -> Option<Shape> {
    let (scalar, len) = match shader.types[ty] {
        Type::Scalar(s) => (s, 1),
        Type::Vector { scalar, len } => (scalar, len),
        _ => return None,
    };
    Some(match scalar {
        Scalar::Bool => Shape::Bool(len),
        Scalar::Int { bits, .. } => Shape::Int(bits, len),
        Scalar::Float { bits } => Shape::Float(bits, len),
    })
}

fn len(s: Shape) -> u8 {
    match s {
        Shape::Bool(n) | Shape::Int(_, n) | Shape::Float(_, n) => n,
    }
}

pub(super) fn check(shader: &Shader) -> Result<(), FrontendError> {
    for &block in &shader.layout {
        for &inst in &shader.blocks[block].insts {
            if let Err(what) = check_inst(shader, inst) {
                return Err(invalid(&block.to_string(), Some(inst), &what));
            }
        }
    }
    Ok(())
}

fn check_inst(shader: &Shader, inst: Inst) -> Result<(), String> {
    let data = &shader.insts[inst];
    let ty = |v: Value| shader.values[v].ty;
    let name = |t: TypeId| shader.type_name(t);
    let shape_of = |v: Value| {
        shape(shader, ty(v)).ok_or_else(|| format!("{v} of type {} is not a number", name(ty(v))))
    };
    let result = data.result.map(ty);
    let pointee = |v: Value| match shader.types[ty(v)] {
        Type::Pointer { pointee, .. } => Ok(pointee),
        _ => Err(format!("{v} of type {} is not a pointer", name(ty(v)))),
    };
    let is_bool = |v: Value| matches!(shape(shader, ty(v)), Some(Shape::Bool(1)));
    match &data.op {
        Op::Binary(op, a, b) => {
            let (sa, sb) = (shape_of(*a)?, shape_of(*b)?);
            let shift = matches!(
                op,
                BinaryOp::Shl | BinaryOp::ShrLogical | BinaryOp::ShrArithmetic
            );
            let agree = if shift { len(sa) == len(sb) } else { sa == sb };
            if !agree {
                return Err(format!(
                    "operands of types {} and {} do not agree",
                    name(ty(*a)),
                    name(ty(*b))
                ));
            }
            same_shape(shader, result, sa)?;
        }
        // The result of OpBitCount may be narrower than its operand.
        Op::Unary(UnaryOp::BitCount, a) => {
            let sa = shape_of(*a)?;
            match result.and_then(|t| shape(shader, t)) {
                Some(Shape::Int(_, n)) if n == len(sa) => {}
                _ => return Err("the bit count's result does not fit its operand".into()),
            }
        }
        Op::Unary(_, a) => {
            let sa = shape_of(*a)?;
            same_shape(shader, result, sa)?;
        }
        Op::Cmp(_, a, b) => {
            let (sa, sb) = (shape_of(*a)?, shape_of(*b)?);
            if sa != sb {
                return Err(format!("compares {} with {}", name(ty(*a)), name(ty(*b))));
            }
            same_shape(shader, result, Shape::Bool(len(sa)))?;
        }
        Op::Select {
            cond,
            if_true,
            if_false,
        } => {
            if !matches!(shape_of(*cond)?, Shape::Bool(_)) {
                return Err(format!("the condition {cond} is not boolean"));
            }
            if ty(*if_true) != ty(*if_false) || Some(ty(*if_true)) != result {
                return Err("the selected values and the result differ in type".into());
            }
        }
        Op::Load { ptr } => ensure(Some(pointee(*ptr)?) == result, || {
            format!("loads {} through {ptr}", name(result.unwrap_or(ty(*ptr))))
        })?,
        Op::Store { ptr, value } => {
            let target = pointee(*ptr)?;
            ensure(target == ty(*value), || {
                format!(
                    "stores {} through a pointer to {}",
                    name(ty(*value)),
                    name(target)
                )
            })?
        }
        Op::CopyMemory { dst, src } => ensure(
            crate::ir::copyable(shader, pointee(*dst)?, pointee(*src)?),
            || "copies between pointers to different types".into(),
        )?,
        Op::AccessChain { base, .. } | Op::PtrAccessChain { base, .. } => {
            pointee(*base)?;
        }
        Op::ArrayLength { ptr, .. } => {
            pointee(*ptr)?;
        }
        Op::Atomic { op, ptr, args } => {
            let target = pointee(*ptr)?;
            if args.iter().any(|&a| ty(a) != target) {
                return Err(format!(
                    "an operand is not of the pointee type {}",
                    name(target)
                ));
            }
            let expected = (*op != AtomicOp::Store).then_some(target);
            if result != expected {
                return Err("the result is not of the pointee type".into());
            }
        }
        Op::Branch { cond, .. } if !is_bool(*cond) => {
            return Err(format!(
                "the branch condition {cond} is not a boolean scalar"
            ));
        }
        Op::Switch { selector, .. } => {
            ensure(matches!(shape_of(*selector)?, Shape::Int(_, 1)), || {
                format!("the selector {selector} is not an integer scalar")
            })?
        }
        Op::SetMeshOutputs {
            vertex_count,
            primitive_count,
        } => {
            for v in [vertex_count, primitive_count] {
                if shape_of(*v)? != Shape::Int(32, 1) {
                    return Err(format!("the count {v} is not a 32-bit integer"));
                }
            }
        }
        _ => {}
    }
    Ok(())
}

fn ensure(ok: bool, what: impl FnOnce() -> String) -> Result<(), String> {
    if ok { Ok(()) } else { Err(what()) }
}

/// The result has shape `expected`.
fn same_shape(shader: &Shader, result: Option<TypeId>, expected: Shape) -> Result<(), String> {
    match result {
        Some(t) if shape(shader, t) == Some(expected) => Ok(()),
        Some(t) => Err(format!(
            "the result type {} does not fit operands of shape {expected:?}",
            shader.type_name(t)
        )),
        None => Err("the instruction has no result".into()),
    }
}
