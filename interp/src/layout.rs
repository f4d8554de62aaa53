//! Explicitly laid-out memory (storage and uniform buffers, push
//! constants): values read and written at byte offsets following the
//! SPIR-V layout decorations (Offset, ArrayStride, MatrixStride, RowMajor),
//! as docs/ABI.md describes. Also the zero value of a type, for variables.

use crate::value::Val;
use spvsass_frontend::ir::{Scalar, Shader, Type, TypeId};

/// Why a laid-out access failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LayoutErr {
    OutOfBounds { offset: u64, size: u64, len: u64 },
    Unsupported(String),
}

type R<T> = Result<T, LayoutErr>;

/// The std430 size of a type without explicit strides (the fallback
/// where a decoration is missing; arrays use their ArrayStride).
pub fn size_of(shader: &Shader, ty: TypeId) -> u64 {
    match &shader.types[ty] {
        Type::Void
        | Type::Pointer { .. }
        | Type::Image(_)
        | Type::Sampler
        | Type::SampledImage { .. } => 8,
        Type::Scalar(s) => u64::from(s.size()),
        Type::Vector { scalar, len } => u64::from(scalar.size()) * u64::from(*len),
        Type::Matrix {
            column,
            columns,
            stride,
            ..
        } => {
            let col = stride.map_or_else(|| size_of(shader, *column), u64::from);
            col * u64::from(*columns)
        }
        Type::Array { elem, len, stride } => {
            let s = stride.map_or_else(|| size_of(shader, *elem), u64::from);
            s * u64::from(len.unwrap_or(0))
        }
        Type::Struct { members, .. } => members
            .iter()
            .map(|m| u64::from(m.offset.unwrap_or(0)) + size_of(shader, m.ty))
            .max()
            .unwrap_or(0),
    }
}

/// The byte step between elements of an array type.
pub fn array_stride(shader: &Shader, elem: TypeId, stride: Option<u32>) -> u64 {
    stride.map_or_else(|| size_of(shader, elem), u64::from)
}

fn read(bytes: &[u8], offset: u64, size: u64) -> R<u64> {
    let end = offset.checked_add(size);
    match end {
        Some(end) if end <= bytes.len() as u64 => {
            let mut v = 0u64;
            for i in (0..size as usize).rev() {
                v = (v << 8) | u64::from(bytes[offset as usize + i]);
            }
            Ok(v)
        }
        _ => Err(LayoutErr::OutOfBounds {
            offset,
            size,
            len: bytes.len() as u64,
        }),
    }
}

fn write(bytes: &mut [u8], offset: u64, size: u64, v: u64) -> R<()> {
    let end = offset.checked_add(size);
    match end {
        Some(end) if end <= bytes.len() as u64 => {
            for i in 0..size as usize {
                bytes[offset as usize + i] = (v >> (8 * i)) as u8;
            }
            Ok(())
        }
        _ => Err(LayoutErr::OutOfBounds {
            offset,
            size,
            len: bytes.len() as u64,
        }),
    }
}

fn scalar_load(bytes: &[u8], offset: u64, s: Scalar) -> R<u64> {
    let v = read(bytes, offset, u64::from(s.size()))?;
    Ok(match s {
        Scalar::Bool => u64::from(v != 0),
        Scalar::Int { .. } | Scalar::Float { .. } => v,
    })
}

/// Loads a value of type `ty` at `offset`.
pub fn load(shader: &Shader, bytes: &[u8], offset: u64, ty: TypeId) -> R<Val> {
    Ok(match &shader.types[ty] {
        Type::Scalar(s) => Val::S(scalar_load(bytes, offset, *s)?),
        Type::Vector { scalar, len } => {
            let step = u64::from(scalar.size());
            let mut v = Vec::with_capacity(usize::from(*len));
            for i in 0..u64::from(*len) {
                v.push(Val::S(scalar_load(bytes, offset + i * step, *scalar)?));
            }
            Val::C(v)
        }
        Type::Matrix {
            column,
            columns,
            stride,
            row_major,
        } => {
            let (scalar, rows) = match &shader.types[*column] {
                Type::Vector { scalar, len } => (*scalar, *len),
                other => {
                    return Err(LayoutErr::Unsupported(format!(
                        "a matrix whose column is {other:?}"
                    )));
                }
            };
            let stride = stride.map_or_else(|| size_of(shader, *column), u64::from);
            let es = u64::from(scalar.size());
            let mut cols = Vec::new();
            for c in 0..u64::from(*columns) {
                let mut col = Vec::new();
                for r in 0..u64::from(rows) {
                    let at = if *row_major {
                        offset + r * stride + c * es
                    } else {
                        offset + c * stride + r * es
                    };
                    col.push(Val::S(scalar_load(bytes, at, scalar)?));
                }
                cols.push(Val::C(col));
            }
            Val::C(cols)
        }
        Type::Array { elem, len, stride } => {
            let Some(len) = len else {
                return Err(LayoutErr::Unsupported(
                    "a load of a whole runtime array".into(),
                ));
            };
            let step = array_stride(shader, *elem, *stride);
            let mut v = Vec::new();
            for i in 0..u64::from(*len) {
                v.push(load(shader, bytes, offset + i * step, *elem)?);
            }
            Val::C(v)
        }
        Type::Struct { members, .. } => {
            let mut v = Vec::new();
            for m in members {
                v.push(load(
                    shader,
                    bytes,
                    offset + u64::from(m.offset.unwrap_or(0)),
                    m.ty,
                )?);
            }
            Val::C(v)
        }
        Type::Void
        | Type::Pointer { .. }
        | Type::Image(_)
        | Type::Sampler
        | Type::SampledImage { .. } => {
            return Err(LayoutErr::Unsupported(
                "a pointer or void in laid-out memory".into(),
            ));
        }
    })
}

/// Stores `val` of type `ty` at `offset`.
pub fn store(shader: &Shader, bytes: &mut [u8], offset: u64, ty: TypeId, val: &Val) -> R<()> {
    match &shader.types[ty] {
        Type::Scalar(s) => write(bytes, offset, u64::from(s.size()), val.bits()),
        Type::Vector { scalar, .. } => {
            let step = u64::from(scalar.size());
            for (i, c) in val.parts().iter().enumerate() {
                write(bytes, offset + i as u64 * step, step, c.bits())?;
            }
            Ok(())
        }
        Type::Matrix {
            column,
            stride,
            row_major,
            ..
        } => {
            let es = match &shader.types[*column] {
                Type::Vector { scalar, .. } => u64::from(scalar.size()),
                other => {
                    return Err(LayoutErr::Unsupported(format!(
                        "a matrix whose column is {other:?}"
                    )));
                }
            };
            let stride = stride.map_or_else(|| size_of(shader, *column), u64::from);
            for (c, col) in val.parts().iter().enumerate() {
                for (r, e) in col.parts().iter().enumerate() {
                    let (c, r) = (c as u64, r as u64);
                    let at = if *row_major {
                        offset + r * stride + c * es
                    } else {
                        offset + c * stride + r * es
                    };
                    write(bytes, at, es, e.bits())?;
                }
            }
            Ok(())
        }
        Type::Array { elem, stride, .. } => {
            let step = array_stride(shader, *elem, *stride);
            for (i, e) in val.parts().iter().enumerate() {
                store(shader, bytes, offset + i as u64 * step, *elem, e)?;
            }
            Ok(())
        }
        Type::Struct { members, .. } => {
            for (m, e) in members.iter().zip(val.parts()) {
                store(
                    shader,
                    bytes,
                    offset + u64::from(m.offset.unwrap_or(0)),
                    m.ty,
                    e,
                )?;
            }
            Ok(())
        }
        Type::Void
        | Type::Pointer { .. }
        | Type::Image(_)
        | Type::Sampler
        | Type::SampledImage { .. } => Err(LayoutErr::Unsupported(
            "a pointer or void in laid-out memory".into(),
        )),
    }
}

/// The byte offset of index `index` into a value of type `ty`, and the
/// element's type (one access-chain step in laid-out memory).
pub fn step(shader: &Shader, ty: TypeId, index: u64) -> R<(u64, TypeId)> {
    match &shader.types[ty] {
        Type::Vector { scalar, .. } => {
            let elem = find_scalar(shader, *scalar)?;
            Ok((index * u64::from(scalar.size()), elem))
        }
        Type::Matrix {
            column,
            stride,
            row_major,
            ..
        } => {
            if *row_major {
                return Err(LayoutErr::Unsupported(
                    "an access chain into a column of a row-major matrix".into(),
                ));
            }
            let stride = stride.map_or_else(|| size_of(shader, *column), u64::from);
            Ok((index * stride, *column))
        }
        Type::Array { elem, stride, .. } => {
            Ok((index * array_stride(shader, *elem, *stride), *elem))
        }
        Type::Struct { members, .. } => {
            let m = members
                .get(index as usize)
                .ok_or_else(|| LayoutErr::Unsupported(format!("struct member {index}")))?;
            Ok((u64::from(m.offset.unwrap_or(0)), m.ty))
        }
        Type::Void
        | Type::Scalar(_)
        | Type::Pointer { .. }
        | Type::Image(_)
        | Type::Sampler
        | Type::SampledImage { .. } => Err(LayoutErr::Unsupported(
            "an access chain into a scalar".into(),
        )),
    }
}

/// The type handle of scalar `s` (it exists: a vector of it does).
fn find_scalar(shader: &Shader, s: Scalar) -> R<TypeId> {
    shader
        .types
        .iter()
        .find(|(_, t)| **t == Type::Scalar(s))
        .map(|(id, _)| id)
        .ok_or_else(|| LayoutErr::Unsupported(format!("no scalar type {s}")))
}

/// The element type of a composite type at `index`.
pub fn elem_type(shader: &Shader, ty: TypeId, index: u64) -> Option<TypeId> {
    match &shader.types[ty] {
        Type::Vector { scalar, .. } => find_scalar(shader, *scalar).ok(),
        Type::Matrix { column, .. } => Some(*column),
        Type::Array { elem, .. } => Some(*elem),
        Type::Struct { members, .. } => members.get(index as usize).map(|m| m.ty),
        Type::Void
        | Type::Scalar(_)
        | Type::Pointer { .. }
        | Type::Image(_)
        | Type::Sampler
        | Type::SampledImage { .. } => None,
    }
}

/// The all-zero value of a type (runtime arrays are empty).
pub fn zero(shader: &Shader, ty: TypeId) -> Val {
    match &shader.types[ty] {
        Type::Void
        | Type::Scalar(_)
        | Type::Pointer { .. }
        | Type::Image(_)
        | Type::Sampler
        | Type::SampledImage { .. } => Val::S(0),
        Type::Vector { len, .. } => Val::C(vec![Val::S(0); usize::from(*len)]),
        Type::Matrix {
            column, columns, ..
        } => Val::C(vec![zero(shader, *column); usize::from(*columns)]),
        Type::Array { elem, len, .. } => {
            Val::C(vec![zero(shader, *elem); len.unwrap_or(0) as usize])
        }
        Type::Struct { members, .. } => {
            Val::C(members.iter().map(|m| zero(shader, m.ty)).collect())
        }
    }
}
