//! spvsass-sim: runs encoded SASS-like programs on a model of one SM warp.
//!
//! A program is decoded once ([`Program`]); each workgroup runs on one warp
//! of up to 32 lanes ([`run_workgroup`]) with its own ISBE memory
//! ([`Isbe`]); a mesh draw runs every workgroup of a grid and reads their
//! outputs back by meaning ([`run_mesh`]); the rasterizer draws them into
//! an image ([`raster::render`]), written as PNG or raw RGBA32F
//! ([`image`]); a compute dispatch runs a grid of workgroups of up to 32
//! warps each over bound buffers ([`run_compute`]). Op semantics come from
//! the ISA's `eval` methods, output locations from `isbe_layout`: the
//! simulator checks the compiler against the same definitions the compiler
//! uses.
//!
//! `unsafe` is denied outside the two places that need it: running the
//! AVX2 build of the converged loop (`converged.rs`) and calling native
//! code (`native/call.rs`).
#![deny(unsafe_code)]

mod compute_order;
mod converged;
mod counters;
mod descriptors;
mod dispatch;
mod draw;
mod error;
mod exec;
mod exec_ctrl;
mod exec_f64;
mod exec_mem;
mod exec_mem_rows;
mod exec_row;
mod exec_tex;
mod exec_warp;
pub mod image;
mod isbe;
mod launch_order;
mod memory;
mod mesh;
mod native;
mod overlay;
pub mod phases;
mod program;
pub mod raster;
mod row_form;
mod row_setp;
pub mod texture;
mod warp;
mod warp_phases;
mod workers;

pub use counters::{Counters, PipelineStatistics, mnemonic};
pub use descriptors::{BoundBuffer, BufferKind, Slot};
pub use dispatch::{ComputeInputs, ComputeRun, run_compute};
pub use draw::{
    BoundDraw, DrawError, MAX_MESH_GROUPS_PER_TASK, run_draw, run_draw_bound, run_draw_multiview,
    run_methods, run_methods_bound, run_methods_multiview,
};
pub use error::{CtrlHazard, SimError};
pub use isbe::{Isbe, IsbeFault, IsbeRegion};
pub use memory::{
    BUFFER_STRIDE, ConstantBanks, GlobalMemory, MAX_STORAGE_BUFFER_BYTES, MAX_UNIFORM_BUFFER_BYTES,
    MemFault, Resources, Space,
};
pub use mesh::{Attributes, MeshDraw, MeshWorkgroup, TaskWorkgroup, read_mesh_outputs, run_mesh};
/// The translation cache's entry files, which the CLI's compile cache
/// shares (`native/disk_cache.rs`).
pub use native::disk_cache as cache_files;
pub use native::{Handover, NativeError, NativeStats, Tier};
pub use program::Program;
pub use warp::{Launch, WARP_LANES, lane_count, run_workgroup};
pub use workers::prestart_workers;

/// Limits of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SimOptions {
    /// Warp-instructions one workgroup may execute before the run stops
    /// with [`SimError::StepLimit`] (a guard against endless loops).
    pub max_steps: u64,
    /// Warp-instructions a whole dispatch or draw (one view) may execute,
    /// summed over its workgroups in launch order: the run stops with
    /// [`SimError::TotalStepLimit`] at the workgroup that passes it, so a
    /// huge grid ends instead of running for days.
    pub max_total_steps: u64,
    /// Bytes of outputs a draw may hold for its result (an estimate of the
    /// memory its [`MeshWorkgroup`]s take, summed in launch order): the
    /// draw stops with [`SimError::OutputLimit`] at the workgroup that
    /// passes it. The outputs are kept for the caller (printing, JSON,
    /// rasterizing), not streamed, so this bounds the draw's memory.
    pub max_output_bytes: u64,
    /// The in-shader culling words a draw writes into its root table
    /// (`raster::RenderState::shader_cull` derives them from the
    /// rasterizer state); the default leaves culling off.
    pub cull: spvsass_isa::abi::CullControl,
    /// Which tier runs converged code: the interpreter, or native code
    /// translated from the program where it applies (`native`). Results,
    /// counters and errors are the same either way.
    pub tier: Tier,
    /// When the warps get the native code (`Tier::Native`): by default
    /// translated first, while the others wait (`Handover::Wait`), or in
    /// the background while they run in the interpreter.
    /// Results and counters (the native share aside) are the same
    /// whatever the hand-over.
    pub handover: Handover,
    /// Check the control bits as the run goes (`exec_ctrl`): a register
    /// read before its producer's latency has passed or its scoreboard
    /// was waited on, or overwritten while a late reader or writer may
    /// still use it, stops the run with [`SimError::Ctrl`]. On by
    /// default, so every caller that does not choose (the tests among
    /// them) checks the compiler's control bits; `spvsass run` turns it
    /// off with `--check-ctrl off` and under `--tier native` (docs/ISA.md,
    /// "Checking the control bits"). The native tier does not run while
    /// it is on.
    pub check_ctrl: bool,
    /// Whether a draw runs with a pipeline-statistics query active (the
    /// default): its root table then holds the query block's address,
    /// else 0, and the shaders skip their counting (docs/ABI.md,
    /// "Pipeline statistics"); the draw then reports zero task and mesh
    /// invocations and primitives.
    pub statistics_query: bool,
    /// Worker threads for a compute dispatch's workgroups and for the
    /// native tier's translation in pieces. `None`: as many as the rayon
    /// pool the caller runs in has (`rayon::current_num_threads`, which
    /// starts rayon's global pool if none runs yet). The CLI gives the
    /// count itself, so that a dispatch does not start a pool it never
    /// uses (a draw's workgroups run on rayon's pool). Results are the
    /// same bytes whatever the count.
    pub threads: Option<std::num::NonZeroUsize>,
    /// A directory where the native tier keeps translated code across
    /// runs (and processes), as a driver keeps a shader cache: a program
    /// translated before takes its code from there instead of compiling
    /// it again (ARCHITECTURE.md, "Native tier"). `None` (the default):
    /// no cache. The CLI keeps one unless told not to
    /// (`SPVSASS_TRANSLATION_CACHE`). Results are the same either way.
    pub translation_cache: Option<&'static std::path::Path>,
}

impl SimOptions {
    /// The worker threads a run uses (`threads`).
    pub fn worker_threads(&self) -> usize {
        self.threads
            .map_or_else(rayon::current_num_threads, std::num::NonZeroUsize::get)
    }

    /// How the native tier translates a program for this run.
    pub(crate) fn translation(&self) -> native::Translation {
        native::Translation {
            workers: self.worker_threads(),
            cache: self.translation_cache,
        }
    }
}

impl Default for SimOptions {
    fn default() -> SimOptions {
        SimOptions {
            max_steps: 10_000_000,
            max_total_steps: 10_000_000_000,
            max_output_bytes: 1 << 30,
            cull: spvsass_isa::abi::CullControl::default(),
            tier: Tier::Interp,
            handover: Handover::Wait,
            check_ctrl: true,
            statistics_query: true,
            threads: None,
            translation_cache: None,
        }
    }
}
