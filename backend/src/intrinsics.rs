//! Backend intrinsics: operations that the lowerings before instruction
//! selection (`lower_*.rs`, run in the order `compile::lower` lists) add to
//! a shader, as Mesa's NAK lowers whole features to NIR intrinsics before
//! `from_nir`. The IR is the frontend's, and the interpreter runs it, so
//! they are not IR ops: they are kept beside the IR, attached to the
//! instruction they run before or to the shader's prologue, and
//! instruction selection maps each to machine instructions one to one
//! (`from_ir/intrinsics.rs`), knowing nothing of the feature that asked
//! for it.

use cranelift_entity::SecondaryMap;
use spvsass_frontend::ir::{Inst, Value};

/// A 32-bit operand of an intrinsic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Operand {
    Const(u32),
    /// A scalar IR value, as selected where the intrinsic runs.
    Value(Value),
}

/// One backend intrinsic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Intrinsic {
    /// Adds `value`, zero-extended, to the 64-bit counter at byte `offset`
    /// of the query block whose address the root table holds
    /// (`abi::QUERY_ADDRESS`), once for the workgroup: `RED.E.ADD.64`
    /// from lane 0.
    AddToQuery { offset: u32, value: Operand },
}

/// The intrinsics of one shader, by where they run.
#[derive(Clone, Debug, Default)]
pub(crate) struct Intrinsics {
    /// At the top of the entry block, after the set-up selection does
    /// there (viewport masks, zeroed shared memory); once per workgroup,
    /// however many logical subgroups it has.
    pub prologue: Vec<Intrinsic>,
    /// Right before an instruction, and wherever selection selects it
    /// (once per logical subgroup for per-invocation code); skipped where
    /// the instruction is (part two of in-shader culling).
    pub before: SecondaryMap<Inst, Vec<Intrinsic>>,
}
