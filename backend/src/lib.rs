//! spvsass backend: the SASS-like ISA and everything that turns the IR into
//! encoded machine code.

#![forbid(unsafe_code)]

pub mod advice;
pub mod assign_regs;
pub mod block_order;
pub mod calc_instr_deps;
pub mod compile;
pub mod cubin;
pub mod layout;
pub mod limits;
pub mod logical_subgroups;
pub mod mir;
pub mod mir_info;
pub mod opt_const_fold;
pub mod opt_copy_prop;
pub mod opt_cse;
pub mod opt_ffma;
pub mod opt_imad;
pub mod opt_lop3;
pub mod opt_predicate;
pub mod reg_pressure;
pub mod spill;
pub mod structured;
pub mod uniformity;
pub mod verify;

pub use spvsass_frontend as frontend;
pub use spvsass_isa::{
    abi, asm, binary, descriptor_set, isa, isbe_layout, methods, program, sph, target,
};
pub mod error;
pub mod fold;
pub mod from_ir;
