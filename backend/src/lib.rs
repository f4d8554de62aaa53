//! spvsass backend: everything that turns the frontend's IR into an
//! encoded program of the target crate (spvsass-isa): instruction
//! selection, the machine-IR passes, register allocation, layout and
//! dependency computation, and the cubin writer.
//!
//! Its public API: [`compile::compile`] with [`compile::BackendOptions`]
//! and [`compile::Compiled`], the errors ([`error`]), performance advice
//! ([`advice`]), the limits checked ([`limits`]), the cubin writer
//! ([`cubin`]), the per-phase runner of the benchmarks ([`phases`]), and
//! the target crate's modules re-exported (`isa`, `binary`, ...). The rest
//! is private to the crate.

#![forbid(unsafe_code)]

pub mod advice;
pub mod compile;
pub mod cubin;
pub mod error;
pub mod limits;
pub mod phases;

pub(crate) mod assign_regs;
pub(crate) mod block_order;
pub(crate) mod calc_instr_deps;
pub(crate) mod fold;
pub(crate) mod from_ir;
pub(crate) mod insert_cull;
pub(crate) mod intrinsics;
pub(crate) mod layout;
pub(crate) mod logical_subgroups;
pub(crate) mod lower_cull;
pub(crate) mod lower_returns;
pub(crate) mod lower_statistics;
pub(crate) mod mir;
pub(crate) mod mir_info;
pub(crate) mod opt_const_fold;
pub(crate) mod opt_copy_prop;
pub(crate) mod opt_cse;
pub(crate) mod opt_ffma;
pub(crate) mod opt_imad;
pub(crate) mod opt_licm;
pub(crate) mod opt_lop3;
pub(crate) mod opt_predicate;
pub(crate) mod reg_pressure;
pub(crate) mod special_regs;
pub(crate) mod spill;
pub(crate) mod structured;
pub(crate) mod uniformity;
pub(crate) mod verify;

#[cfg(test)]
mod tests;

pub use spvsass_frontend as frontend;
pub use spvsass_isa::{
    abi, asm, binary, descriptor_set, isa, isbe_layout, methods, program, sph, target,
};
