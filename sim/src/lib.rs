//! spvsass-sim: runs encoded SASS-like programs on a model of one SM warp.
//!
//! A program is decoded once ([`Program`]); each workgroup runs on one warp
//! of up to 32 lanes ([`run_workgroup`]) with its own ISBE memory
//! ([`Isbe`]); a mesh draw runs every workgroup of a grid and reads their
//! outputs back by meaning ([`run_mesh`]). Op semantics come from the ISA's
//! `eval` methods, output locations from `isbe_layout`: the simulator checks
//! the compiler against the same definitions the compiler uses.

mod counters;
mod draw;
mod error;
mod exec;
mod isbe;
mod mesh;
mod program;
mod warp;

pub use counters::{Counters, PipelineStatistics, mnemonic};
pub use draw::{DrawError, MAX_MESH_GROUPS_PER_TASK, run_draw, run_methods};
pub use error::SimError;
pub use isbe::{Isbe, IsbeFault, IsbeRegion};
pub use mesh::{Attributes, MeshDraw, MeshWorkgroup, TaskWorkgroup, read_mesh_outputs, run_mesh};
pub use program::Program;
pub use warp::{Launch, WARP_LANES, lane_count, run_workgroup};

/// Limits of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SimOptions {
    /// Warp-instructions one workgroup may execute before the run stops
    /// with [`SimError::StepLimit`] (a guard against endless loops).
    pub max_steps: u64,
}

impl Default for SimOptions {
    fn default() -> SimOptions {
        SimOptions {
            max_steps: 10_000_000,
        }
    }
}
