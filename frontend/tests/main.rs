//! One test binary for the frontend's integration tests: each file beside this one is a
//! module of it. One binary links the crate and its dependencies once, where
//! a binary per file linked them once per file (ARCHITECTURE.md, "Tests").
//! `autotests = false` in Cargo.toml: a file must be named here to be built,
//! and `every_test_file_is_a_module` in the root package's tests checks that
//! each one is.

mod common;

mod composites;
mod corpus;
mod errors;
mod images;
mod inlining;
mod mutations;
mod semantics;
mod shaders;
mod spec_constants;
mod ssa;
mod validate;
