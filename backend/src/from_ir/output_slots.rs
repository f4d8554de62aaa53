//! Where the 32-bit components of a user mesh output, or of the clip and
//! cull distance arrays, go in the SPH attribute space (docs/HARDWARE.md,
//! "Shader program header").
//!
//! User outputs follow Vulkan's Location/Component rules ("Location
//! Assignment" in the Vulkan spec's interface chapter): a scalar or vector
//! takes one location from its Component; each matrix column and each
//! array element takes the next locations; members of an output block take
//! their own Location, or the block's and then consecutive ones. Each
//! location is the generic attribute of that number (4 words at
//! 0x80 + 16·loc).
//!
//! `ClipDistance[k]` is at 0x2c0 + 4k; `CullDistance[k]` follows the clip
//! distances, at 0x2c0 + 4·(clip count + k): the two arrays share the eight
//! words 0x2c0..0x2e0, as the hardware's clip/cull slots do (docs/HARDWARE.md
//! gives the range; the packing is the project's choice, NAK's order).

use super::places::Step;
use crate::isbe_layout::addr;
use spvsass_frontend::ir::{BuiltIn, Shader, StorageClass, StructMember, Type, TypeId, Value};

/// The clip/cull distance words (0x2c0..0x2e0).
pub const CLIP_CULL_WORDS: u32 = 8;

/// Why a place has no attribute addresses.
pub enum SlotError {
    /// An index into it that is not a constant (the component must be
    /// known to place it in the layout).
    Dynamic,
    /// An index beyond its type, or a type outputs cannot have.
    Shape(String),
}

/// The number of locations a type takes.
pub fn locations(sh: &Shader, ty: TypeId) -> u32 {
    match &sh.types[ty] {
        Type::Matrix { columns, .. } => u32::from(*columns),
        Type::Array { elem, len, .. } => len.unwrap_or(0) * locations(sh, *elem),
        Type::Struct { members, .. } => members.iter().map(|m| locations(sh, m.ty)).sum(),
        _ => 1,
    }
}

/// The addresses of every 32-bit component of `ty` placed at location
/// `loc`, component `comp`, in the order of the value's components.
fn flatten(sh: &Shader, ty: TypeId, loc: u32, comp: u32, out: &mut Vec<u16>) {
    match &sh.types[ty] {
        Type::Vector { len, .. } => {
            out.extend((0..u32::from(*len)).map(|i| addr::generic(loc, comp + i)))
        }
        Type::Matrix {
            column, columns, ..
        } => {
            for c in 0..u32::from(*columns) {
                flatten(sh, *column, loc + c, comp, out);
            }
        }
        Type::Array { elem, len, .. } => {
            let step = locations(sh, *elem);
            for i in 0..len.unwrap_or(0) {
                flatten(sh, *elem, loc + i * step, comp, out);
            }
        }
        Type::Struct { members, .. } => {
            let mut at = loc;
            for m in members {
                flatten(sh, m.ty, m.location.unwrap_or(at), 0, out);
                at = m.location.unwrap_or(at) + locations(sh, m.ty);
            }
        }
        _ => out.push(addr::generic(loc, comp)),
    }
}

fn const_index(step: &Step) -> Result<u32, SlotError> {
    match step {
        Step::Const(c) => Ok(*c),
        Step::Dyn(_) => Err(SlotError::Dynamic),
    }
}

/// The addresses of the user output of type `ty` at location `loc`,
/// component `comp`, reached by `path` (constant array, column and
/// component indices).
pub fn user_addrs(
    sh: &Shader,
    mut ty: TypeId,
    mut loc: u32,
    comp: u32,
    path: &[Step],
) -> Result<Vec<u16>, SlotError> {
    for step in path {
        let i = const_index(step)?;
        match &sh.types[ty] {
            Type::Array { elem, len, .. } if len.is_none_or(|n| i < n) => {
                loc += i * locations(sh, *elem);
                ty = *elem;
            }
            Type::Matrix {
                column, columns, ..
            } if i < u32::from(*columns) => {
                loc += i;
                ty = *column;
            }
            Type::Vector { len, .. } if i < u32::from(*len) => {
                return Ok(vec![addr::generic(loc, comp + i)]);
            }
            other => {
                return Err(SlotError::Shape(format!(
                    "index {i} into an output of type {other:?}"
                )));
            }
        }
    }
    let mut out = Vec::new();
    flatten(sh, ty, loc, comp, &mut out);
    Ok(out)
}

/// The addresses of every element a `path` with one dynamic index may
/// reach: that index's value, and for each value k of it (within the
/// array, matrix or vector it indexes) the addresses `user_addrs` gives
/// with k in its place. A second dynamic index, or one into an array
/// without a length, stays `SlotError::Dynamic`.
pub fn user_addr_choices(
    sh: &Shader,
    ty: TypeId,
    loc: u32,
    comp: u32,
    path: &[Step],
) -> Result<(Value, Vec<Vec<u16>>), SlotError> {
    let Some((d, index)) = path.iter().enumerate().find_map(|(d, s)| match s {
        Step::Dyn(v) => Some((d, *v)),
        Step::Const(_) => None,
    }) else {
        return Err(SlotError::Dynamic);
    };
    let mut t = ty;
    for _ in &path[..d] {
        t = match &sh.types[t] {
            Type::Array { elem, .. } => *elem,
            Type::Matrix { column, .. } => *column,
            other => {
                return Err(SlotError::Shape(format!(
                    "an index into an output of type {other:?}"
                )));
            }
        };
    }
    let n = match &sh.types[t] {
        Type::Array { len: Some(n), .. } => *n,
        Type::Matrix { columns, .. } => u32::from(*columns),
        Type::Vector { len, .. } => u32::from(*len),
        _ => return Err(SlotError::Dynamic),
    };
    let mut with_k = path.to_vec();
    let choices = (0..n)
        .map(|k| {
            with_k[d] = Step::Const(k);
            user_addrs(sh, ty, loc, comp, &with_k)
        })
        .collect::<Result<_, _>>()?;
    Ok((index, choices))
}

/// The location of member `m` of an output block whose variable has
/// `block_loc`: its own Location, else the one after the previous
/// member's locations.
pub fn member_location(sh: &Shader, members: &[StructMember], m: usize, block_loc: u32) -> u32 {
    let mut at = block_loc;
    for member in &members[..m] {
        at = member.location.unwrap_or(at) + locations(sh, member.ty);
    }
    members[m].location.unwrap_or(at)
}

/// The addresses of ClipDistance or CullDistance elements reached by
/// `path` (an element index, or nothing for the whole array), in a block
/// with `members`.
pub fn clip_cull_addrs(
    sh: &Shader,
    members: &[StructMember],
    member: usize,
    path: &[Step],
) -> Result<Vec<u16>, SlotError> {
    let len = |b: BuiltIn| {
        members
            .iter()
            .find(|m| m.builtin == Some(b))
            .map_or(0, |m| match &sh.types[m.ty] {
                Type::Array { len, .. } => len.unwrap_or(0),
                _ => 1,
            })
    };
    let clips = len(BuiltIn::ClipDistance);
    if clips + len(BuiltIn::CullDistance) > CLIP_CULL_WORDS {
        return Err(SlotError::Shape(format!(
            "{clips} clip and {} cull distances: over the {CLIP_CULL_WORDS} slots",
            len(BuiltIn::CullDistance)
        )));
    }
    let this = members[member].builtin.unwrap_or(BuiltIn::ClipDistance);
    let first = if this == BuiltIn::CullDistance {
        clips
    } else {
        0
    };
    let n = len(this);
    let (from, count) = match path {
        [] => (0, n),
        [k] => (const_index(k)?, 1),
        _ => return Err(SlotError::Shape("an index into a distance".into())),
    };
    if from + count > n {
        return Err(SlotError::Shape(format!("{this:?}[{from}] of {n}")));
    }
    Ok((first + from..first + from + count)
        .map(|k| addr::CLIP_DISTANCE + 4 * k as u16)
        .collect())
}

/// How many of the clip/cull words are clip distances (the first ones;
/// cull distances follow): the length of ClipDistance in the shader's
/// per-vertex output block. The draw's clip/cull operation per word
/// comes from it, as a driver derives it from the shader (Vulkan has no
/// other source for which distances cull).
pub fn clip_distance_count(sh: &Shader) -> u32 {
    sh.globals
        .values()
        .filter(|g| g.class == StorageClass::Output && !g.per_primitive)
        .filter_map(|g| match &sh.types[g.ty] {
            Type::Array { elem, .. } => match &sh.types[*elem] {
                Type::Struct { members, .. } => Some(members),
                _ => None,
            },
            _ => None,
        })
        .flatten()
        .filter(|m| m.builtin == Some(BuiltIn::ClipDistance))
        .map(|m| match &sh.types[m.ty] {
            Type::Array { len, .. } => len.unwrap_or(0),
            _ => 1,
        })
        .max()
        .unwrap_or(0)
        .min(CLIP_CULL_WORDS)
}
