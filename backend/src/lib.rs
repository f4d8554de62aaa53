//! spvsass backend: the SASS-like ISA and everything that turns the IR into
//! encoded machine code.

pub mod abi;
pub mod advice;
pub mod asm;
pub mod assign_regs;
pub mod binary;
pub mod calc_instr_deps;
pub mod compile;
pub mod isa;
pub mod isbe_layout;
pub mod layout;
pub mod limits;
pub mod logical_subgroups;
pub mod methods;
pub mod mir;
pub mod program;
pub mod sph;
pub mod structured;
pub mod target;
pub mod uniformity;

pub use spvsass_frontend as frontend;
pub mod error;
pub mod fold;
pub mod from_ir;
