//! Unit tests of the backend's internals (the passes, the verifier, the
//! folder, the dependency computation and the analyses), which are not
//! part of its public API.

mod analyses;
mod insert_cull;
mod instr_deps;
mod lower_returns;
mod mir_verify;
mod op_semantics;
mod opt_passes;
mod opt_predicate;
