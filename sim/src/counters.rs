//! What a run executed: instruction counts for reports and tests.

use crate::program::Program;
use serde::Serialize;
use spvsass_isa::isa::Op;
use std::collections::BTreeMap;

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Counters {
    /// Instructions issued, each counted once for the lanes that ran it
    /// together (guarded-off lanes included).
    pub warp_instructions: u64,
    /// Per issued instruction, the lanes whose guard held, summed.
    pub thread_instructions: u64,
    /// Bytes the executing lanes wrote to the output ISBE (ISBEWR).
    pub isbe_bytes_written: u64,
    /// Warp-instructions per mnemonic (a BTreeMap, so output is stable).
    pub per_op: BTreeMap<&'static str, u64>,
    /// How many of `warp_instructions` the native tier ran (`Tier`): how
    /// the run was executed, not what it simulated, so JSON output leaves
    /// it out and comparisons between tiers set it aside.
    #[serde(skip)]
    pub native_warp_instructions: u64,
}

impl Counters {
    /// The counts of a run that issued instruction `i` of `program`
    /// `issued[i]` times with `lanes[i]` executing lanes in all.
    pub(crate) fn from_issues(program: &Program, issued: &[u64], lanes: &[u64]) -> Counters {
        let mut counters = Counters::default();
        for ((instr, &n), &l) in program.instrs().iter().zip(issued).zip(lanes) {
            counters.thread_instructions += l;
            if let Op::IsbeWr(w) = &instr.op {
                counters.isbe_bytes_written += l * u64::from(w.size.bytes());
            }
            if n != 0 {
                counters.warp_instructions += n;
                *counters.per_op.entry(mnemonic(&instr.op)).or_default() += n;
            }
        }
        counters
    }

    /// Adds another run's counts (workgroups of one draw).
    pub fn add(&mut self, other: &Counters) {
        self.warp_instructions += other.warp_instructions;
        self.thread_instructions += other.thread_instructions;
        self.isbe_bytes_written += other.isbe_bytes_written;
        self.native_warp_instructions += other.native_warp_instructions;
        for (name, n) in &other.per_op {
            *self.per_op.entry(name).or_default() += n;
        }
    }
}

/// The pipeline statistics of a draw as the H100's driver reports them
/// (docs/HARDWARE.md, "Workgroups"): invocations, not workgroups; generated primitives include
/// culled ones. The hardware needs the shaders to count these themselves,
/// and they do: each workgroup adds its counts to the query block the root
/// table points to (`abi::query`, `backend/src/lower_statistics.rs`); the draw sums
/// those blocks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PipelineStatistics {
    pub task_invocations: u64,
    pub mesh_invocations: u64,
    pub mesh_primitives_generated: u64,
}

impl PipelineStatistics {
    /// Adds another workgroup's or view's counts, wrapping as the 64-bit
    /// counters of a query block do (a shader may add any value).
    pub fn add(&mut self, other: &PipelineStatistics) {
        self.task_invocations = self.task_invocations.wrapping_add(other.task_invocations);
        self.mesh_invocations = self.mesh_invocations.wrapping_add(other.mesh_invocations);
        self.mesh_primitives_generated = self
            .mesh_primitives_generated
            .wrapping_add(other.mesh_primitives_generated);
    }
}

/// The op's name without modifiers, as the listing begins it.
pub fn mnemonic(op: &Op) -> &'static str {
    op.mnemonic()
}

#[cfg(test)]
mod statistics_tests {
    use super::PipelineStatistics;

    /// Found by the binary mutations (tests/input_mutations.rs): a mutated
    /// mesh shader adds any value to its query block, and the draw's sum
    /// wrapped past 2^64 with an overflow panic.
    #[test]
    fn counts_wrap_like_the_query_counters() {
        let mut sum = PipelineStatistics {
            mesh_invocations: u64::MAX,
            ..PipelineStatistics::default()
        };
        sum.add(&PipelineStatistics {
            mesh_invocations: 2,
            task_invocations: 3,
            mesh_primitives_generated: 4,
        });
        assert_eq!(sum.mesh_invocations, 1);
        assert_eq!(sum.task_invocations, 3);
    }
}
