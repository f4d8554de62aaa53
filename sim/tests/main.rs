//! One test binary for the simulator's integration tests: each file beside this one is a
//! module of it. One binary links the crate and its dependencies once, where
//! a binary per file linked them once per file (ARCHITECTURE.md, "Tests").
//! `autotests = false` in Cargo.toml: a file must be named here to be built,
//! and `every_test_file_is_a_module` in the root package's tests checks that
//! each one is.

mod common;
mod raster_common;

mod asm_programs;
mod compute_parallel;
mod compute_phases;
mod control_flow;
mod ctrl_check;
mod dispatch;
mod errors;
mod memory;
mod mesh_outputs;
mod parallel_draw;
mod raster_attributes;
mod raster_clip_distances;
mod raster_image;
mod raster_points_lines;
mod raster_triangles;
mod xdc_point;
