//! One test binary for the root package's integration tests: each file beside this one is a
//! module of it. One binary links the crate and its dependencies once, where
//! a binary per file linked them once per file (ARCHITECTURE.md, "Tests").
//! `autotests = false` in Cargo.toml: a file must be named here to be built,
//! and `every_test_file_is_a_module` in the root package's tests checks that
//! each one is.

mod common;

mod advice;
mod asm_cli;
mod asm_roundtrip;
mod atomics64;
mod cli;
mod cli_bounds;
mod compute;
mod compute_cli;
mod control_flow;
mod cubin;
mod docs_in_repo;
mod draw_grid;
mod float_atomics;
mod floats64;
mod golden;
mod images;
mod images_cli;
mod images_compute;
mod images_texel_vertices;
mod input_mutations;
mod large_copies;
mod limits;
mod long_tail;
mod math;
mod math_shaders;
mod memory_ops;
mod mesh_buffers;
mod methods;
mod mufu_h100;
mod multiview;
mod narrow_ints;
mod native_tier;
mod op_truth;
mod op_truth_hand;
mod outputs;
mod per_primitive;
mod pow2_div_logic;
mod predication;
mod random_finds;
mod reference_compare;
mod reference_cuda;
mod reference_cuda_images;
mod reference_cuda_races;
mod reference_lavapipe;
mod reference_textures;
mod regalloc;
mod resources;
mod roundtrip;
mod shader_cull;
mod shared_blocks;
mod shared_memory;
mod simulate;
mod statistics_guard;
mod subgroups;
mod task_mesh;
mod test_layout;
mod texture_cli;
mod var_ptrs;
mod wide_div;
mod wide_ints;
mod wide_workgroups;
mod workgroup_id;
