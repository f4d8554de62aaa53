//! Values of the interpreter: scalars as raw bits, composites as lists,
//! pointers as a memory and a place in it.

use spvsass_frontend::ir::{GlobalVar, Scalar, StorageClass, Type, TypeId};

/// A runtime value. Scalars hold their bits zero-extended to 64 (bools
/// are 0 or 1); vectors, matrices (columns), arrays and structs are lists.
#[derive(Clone, Debug, PartialEq)]
pub enum Val {
    S(u64),
    C(Vec<Val>),
    P(Ptr),
}

/// Which memory a pointer points into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mem {
    /// A storage buffer of set 0 (its binding), or a physical address
    /// resolved to one.
    Buffer(u32),
    Uniform(u32),
    Push,
    /// A variable kept as a value tree: Function/Private variables of the
    /// invocation, Workgroup variables of the workgroup, inputs.
    Var(GlobalVar),
}

/// A place: a byte offset in explicitly laid-out memory, or a path of
/// indices into a variable's value tree.
#[derive(Clone, Debug, PartialEq)]
pub enum Loc {
    Bytes(u64),
    Path(Vec<u32>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Ptr {
    pub mem: Mem,
    pub class: StorageClass,
    /// The pointee type.
    pub ty: TypeId,
    pub loc: Loc,
}

impl Val {
    pub fn bits(&self) -> u64 {
        match self {
            Val::S(b) => *b,
            // Callers ask only scalars for bits (validated IR).
            Val::C(_) | Val::P(_) => 0,
        }
    }

    pub fn parts(&self) -> &[Val] {
        match self {
            Val::C(v) => v,
            Val::S(_) | Val::P(_) => &[],
        }
    }
}

/// All ones in the low `bits` bits.
pub fn mask(bits: u8) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// `v`'s low `bits` bits, sign-extended.
pub fn sext(v: u64, bits: u8) -> i64 {
    let sh = 64 - u32::from(bits);
    ((v << sh) as i64) >> sh
}

/// The scalar type of a scalar or vector type.
pub fn scalar_of(ty: &Type) -> Option<Scalar> {
    match ty {
        Type::Scalar(s) | Type::Vector { scalar: s, .. } => Some(*s),
        Type::Void
        | Type::Matrix { .. }
        | Type::Array { .. }
        | Type::Struct { .. }
        | Type::Pointer { .. }
        | Type::Image(_)
        | Type::Sampler
        | Type::SampledImage { .. } => None,
    }
}
