//! Random-program testing of spvsass: the oracle (compiled code in the
//! simulator against the IR interpreter), a generator of well-defined
//! random GLSL compute, task and mesh programs, and a reducer of failing ones.

pub mod adapter;
pub mod ast;
pub mod cost;
pub mod generate;
#[cfg(feature = "inproc-glslang")]
pub mod glslang_inproc;
pub mod lavapipe;
pub mod oracle;
pub mod print;
pub mod reduce;
pub mod run;
