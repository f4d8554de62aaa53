//! spvsass backend: the SASS-like ISA and everything that turns the IR into
//! encoded machine code.

#![forbid(unsafe_code)]

pub mod abi;
pub mod advice;
pub mod asm;
pub mod assign_regs;
pub mod binary;
pub mod block_order;
pub mod calc_instr_deps;
pub mod compile;
pub mod cubin;
pub mod descriptor_set;
pub mod isa;
pub mod isbe_layout;
pub mod layout;
pub mod limits;
pub mod logical_subgroups;
pub mod methods;
pub mod mir;
pub mod mir_info;
pub mod opt_const_fold;
pub mod opt_copy_prop;
pub mod opt_cse;
pub mod opt_ffma;
pub mod opt_imad;
pub mod opt_lop3;
pub mod opt_predicate;
pub mod program;
pub mod reg_pressure;
pub mod sph;
pub mod spill;
pub mod structured;
pub mod target;
pub mod uniformity;
pub mod verify;

pub use spvsass_frontend as frontend;
pub mod error;
pub mod fold;
pub mod from_ir;
