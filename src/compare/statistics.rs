//! Pipeline statistics and MESH_PRIMITIVES_GENERATED, field by field.

use crate::reference::Statistics;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StatisticComparison {
    pub name: &'static str,
    pub simulator: Option<u64>,
    pub reference: Option<u64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StatisticVerdict {
    Equal,
    Differ,
    /// The reference counted it, the simulator does not model it.
    NotModelled,
    /// The reference's device could not count it (or the run has no
    /// such stage).
    NotCounted,
}

impl StatisticComparison {
    pub fn verdict(&self) -> StatisticVerdict {
        match (self.simulator, self.reference) {
            (_, None) => StatisticVerdict::NotCounted,
            (None, Some(_)) => StatisticVerdict::NotModelled,
            (Some(a), Some(b)) if a == b => StatisticVerdict::Equal,
            (Some(_), Some(_)) => StatisticVerdict::Differ,
        }
    }
}

/// Every statistic of the result format. The simulator's fragment shader
/// invocations are the fragments it rasterized (one per covered pixel
/// and primitive, no helper invocations: the H100 counts those the same
/// way in the captures).
pub fn compare(sim: &Statistics, reference: &Statistics) -> Vec<StatisticComparison> {
    let pair = |name, s: Option<u64>, r: Option<u64>| StatisticComparison {
        name,
        simulator: s,
        reference: r,
    };
    vec![
        pair(
            "compute_shader_invocations",
            sim.compute_shader_invocations,
            reference.compute_shader_invocations,
        ),
        pair(
            "task_shader_invocations",
            sim.task_shader_invocations,
            reference.task_shader_invocations,
        ),
        pair(
            "mesh_shader_invocations",
            sim.mesh_shader_invocations,
            reference.mesh_shader_invocations,
        ),
        pair(
            "clipping_invocations",
            sim.clipping_invocations,
            reference.clipping_invocations,
        ),
        pair(
            "clipping_primitives",
            sim.clipping_primitives,
            reference.clipping_primitives,
        ),
        pair(
            "fragment_shader_invocations",
            sim.fragment_shader_invocations,
            reference.fragment_shader_invocations,
        ),
        pair(
            "mesh_primitives_generated",
            sim.mesh_primitives_generated,
            reference.mesh_primitives_generated,
        ),
    ]
}
