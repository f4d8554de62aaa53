//! Byte layout of IR types in memory. Buffer types carry their layout
//! decorations (Offset, ArrayStride, MatrixStride) and those win; types
//! without them (shared, local and private variables) get a std430-like
//! layout: scalars aligned to their size, two-component vectors to twice
//! that, three- and four-component ones to four times; array strides and
//! struct sizes rounded up to the alignment. A row-major matrix's stride
//! steps over rows: whole-matrix accesses follow it (`scalars`), and an
//! access chain into one of its columns (`chain_step`) leads to a vector
//! whose components lie one row stride apart (`strided_scalars`).

use spvsass_frontend::ir::{Scalar, Shader, StorageClass, Type, TypeId};

/// `x` rounded up to a multiple of `align`; `None` past 4 GiB (a
/// malformed module's offsets can get there: no layout).
fn round_up(x: u32, align: u32) -> Option<u32> {
    x.div_ceil(align.max(1)).checked_mul(align.max(1))
}

/// Size and alignment in bytes; a runtime array has size 0 (it is the
/// last member of a buffer block and runs to the end of the buffer).
pub fn size_align(sh: &Shader, ty: TypeId) -> Option<(u32, u32)> {
    Some(match &sh.types[ty] {
        Type::Scalar(s) => (s.size(), s.size()),
        Type::Vector { scalar, len } => {
            let n = u32::from(*len);
            (
                scalar.size() * n,
                scalar.size() * if n == 3 { 4 } else { n },
            )
        }
        Type::Matrix {
            column,
            columns,
            row_major,
            ..
        } => {
            let (_, align) = size_align(sh, *column)?;
            // The stride steps over columns, or over rows when row-major.
            let count = if *row_major {
                rows(sh, *column)?
            } else {
                u32::from(*columns)
            };
            (stride_of(sh, ty)?.checked_mul(count)?, align)
        }
        Type::Array { elem, len, .. } => {
            let (_, align) = size_align(sh, *elem)?;
            // A size past 4 GiB has no layout (the caller refuses it).
            (stride_of(sh, ty)?.checked_mul(len.unwrap_or(0))?, align)
        }
        Type::Struct { members, .. } => {
            let (mut end, mut align) = (0, 1);
            for (i, m) in members.iter().enumerate() {
                let (size, a) = size_align(sh, m.ty)?;
                end = end.max(member_offset(sh, ty, i as u32)?.checked_add(size)?);
                align = align.max(a);
            }
            (round_up(end, align)?, align)
        }
        // A buffer device address (phys_ptr.rs).
        Type::Pointer {
            class: StorageClass::PhysicalStorageBuffer,
            ..
        } => (8, 8),
        // Handles live in descriptors, never in a buffer or variable.
        Type::Void
        | Type::Pointer { .. }
        | Type::Image(_)
        | Type::Sampler
        | Type::SampledImage { .. } => return None,
    })
}

/// The number of rows of a matrix with columns of type `column`.
fn rows(sh: &Shader, column: TypeId) -> Option<u32> {
    match sh.types[column] {
        Type::Vector { len, .. } => Some(u32::from(len)),
        _ => None,
    }
}

/// The element stride of an array or the column stride of a matrix.
fn stride_of(sh: &Shader, ty: TypeId) -> Option<u32> {
    match &sh.types[ty] {
        Type::Array { elem, stride, .. } => match stride {
            Some(s) => Some(*s),
            None => {
                let (size, align) = size_align(sh, *elem)?;
                round_up(size, align)
            }
        },
        Type::Matrix { column, stride, .. } => match stride {
            Some(s) => Some(*s),
            None => {
                let (size, align) = size_align(sh, *column)?;
                round_up(size, align)
            }
        },
        _ => None,
    }
}

fn member_offset(sh: &Shader, ty: TypeId, index: u32) -> Option<u32> {
    let Type::Struct { members, .. } = &sh.types[ty] else {
        return None;
    };
    let mut end = 0;
    for (i, m) in members.iter().enumerate().take(index as usize + 1) {
        let (size, align) = size_align(sh, m.ty)?;
        let offset = match m.offset {
            Some(o) => o,
            None => round_up(end, align)?,
        };
        if i == index as usize {
            return Some(offset);
        }
        end = offset.checked_add(size)?;
    }
    None
}

/// One step into a composite: the child type, the constant byte offset of
/// child `index` (for a constant index) and the stride a dynamic index is
/// multiplied by.
pub struct Child {
    pub ty: TypeId,
    pub offset: u32,
    pub stride: u32,
}

/// Child `index` of `ty` (`index` only matters for structs and constant
/// steps; arrays, matrices and vectors scale it by the stride).
pub fn child(sh: &Shader, ty: TypeId, index: u32) -> Option<Child> {
    match &sh.types[ty] {
        Type::Struct { members, .. } => Some(Child {
            ty: members.get(index as usize)?.ty,
            offset: member_offset(sh, ty, index)?,
            stride: 0,
        }),
        Type::Array { elem, .. } => {
            let stride = stride_of(sh, ty)?;
            Some(Child {
                ty: *elem,
                offset: stride.wrapping_mul(index),
                stride,
            })
        }
        // A column of a row-major matrix is not contiguous: `chain_step`
        // describes it.
        Type::Matrix {
            column,
            row_major: false,
            ..
        } => {
            let stride = stride_of(sh, ty)?;
            Some(Child {
                ty: *column,
                offset: stride.wrapping_mul(index),
                stride,
            })
        }
        Type::Vector { scalar, .. } => {
            let scalar_ty = scalar_type(sh, *scalar)?;
            Some(Child {
                ty: scalar_ty,
                offset: scalar.size().wrapping_mul(index),
                stride: scalar.size(),
            })
        }
        _ => None,
    }
}

/// One access-chain step into `ty`, which is a column of a row-major
/// matrix when `row_stride` is given (a vector whose components lie
/// `row_stride` bytes apart). Returns the child and, for a step into a
/// row-major matrix, the row stride of the column it leads to.
pub fn chain_step(
    sh: &Shader,
    ty: TypeId,
    index: u32,
    row_stride: Option<u32>,
) -> Option<(Child, Option<u32>)> {
    match (&sh.types[ty], row_stride) {
        (Type::Vector { scalar, .. }, Some(stride)) => Some((
            Child {
                ty: scalar_type(sh, *scalar)?,
                offset: stride.wrapping_mul(index),
                stride,
            },
            None,
        )),
        // Column i of a row-major matrix: element (i, j) at
        // j * stride + i * size.
        (
            Type::Matrix {
                column,
                row_major: true,
                ..
            },
            _,
        ) => {
            let Type::Vector { scalar, .. } = sh.types[*column] else {
                return None;
            };
            let size = scalar.size();
            let column = Child {
                ty: *column,
                offset: size.wrapping_mul(index),
                stride: size,
            };
            Some((column, Some(stride_of(sh, ty)?)))
        }
        _ => child(sh, ty, index).map(|c| (c, None)),
    }
}

/// The scalars of a column of a row-major matrix (a vector of type `ty`
/// whose components lie `row_stride` bytes apart) at byte offset `base`.
pub fn strided_scalars(
    sh: &Shader,
    ty: TypeId,
    base: u32,
    row_stride: u32,
    out: &mut Vec<(u32, Scalar)>,
) -> Option<()> {
    let Type::Vector { scalar, len } = sh.types[ty] else {
        return None;
    };
    for j in 0..u32::from(len) {
        out.push((base.checked_add(j.checked_mul(row_stride)?)?, scalar));
    }
    Some(())
}

fn scalar_type(sh: &Shader, s: Scalar) -> Option<TypeId> {
    sh.types
        .iter()
        .find(|(_, t)| **t == Type::Scalar(s))
        .map(|(id, _)| id)
}

/// The scalars of a value of type `ty` at byte offset `base`, in the order
/// of the value's register components.
pub fn scalars(sh: &Shader, ty: TypeId, base: u32, out: &mut Vec<(u32, Scalar)>) -> Option<()> {
    match &sh.types[ty] {
        Type::Scalar(s) => out.push((base, *s)),
        // A buffer device address is stored as a u64.
        Type::Pointer {
            class: StorageClass::PhysicalStorageBuffer,
            ..
        } => out.push((
            base,
            Scalar::Int {
                bits: 64,
                signed: false,
            },
        )),
        Type::Vector { scalar, len } => {
            for i in 0..u32::from(*len) {
                out.push((base.checked_add(i * scalar.size())?, *scalar));
            }
        }
        Type::Matrix {
            column,
            columns,
            row_major: true,
            ..
        } => {
            // Row-major: element (column i, row j) at j * stride + i * size.
            let Type::Vector { scalar, len } = sh.types[*column] else {
                return None;
            };
            let stride = stride_of(sh, ty)?;
            for i in 0..u32::from(*columns) {
                for j in 0..u32::from(len) {
                    out.push((
                        base.checked_add(j.checked_mul(stride)?)?
                            .checked_add(i * scalar.size())?,
                        scalar,
                    ));
                }
            }
        }
        Type::Matrix { columns, .. } => {
            for i in 0..u32::from(*columns) {
                let c = child(sh, ty, i)?;
                scalars(sh, c.ty, base.checked_add(c.offset)?, out)?;
            }
        }
        Type::Array { len: Some(n), .. } => {
            for i in 0..*n {
                let c = child(sh, ty, i)?;
                scalars(sh, c.ty, base.checked_add(c.offset)?, out)?;
            }
        }
        Type::Struct { members, .. } => {
            for i in 0..members.len() as u32 {
                let c = child(sh, ty, i)?;
                scalars(sh, c.ty, base.checked_add(c.offset)?, out)?;
            }
        }
        Type::Array { len: None, .. }
        | Type::Void
        | Type::Pointer { .. }
        | Type::Image(_)
        | Type::Sampler
        | Type::SampledImage { .. } => return None,
    }
    Some(())
}
