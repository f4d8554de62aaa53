//! Pipeline statistics and MESH_PRIMITIVES_GENERATED, field by field.

use crate::reference::Statistics;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StatisticComparison {
    pub name: &'static str,
    pub simulator: Option<u64>,
    pub reference: Option<u64>,
    /// How many times the simulator counts what the reference counts once:
    /// the views of a multiview draw for the statistics its per-view loop
    /// multiplies (see [`PER_VIEW`]), 1 everywhere else.
    pub per_view: u32,
}

/// The statistics a multiview draw counts once per view in the simulator
/// but once in all on the H100. The simulator runs the draw once per view,
/// as NVK's per-view loop does (docs/HARDWARE.md, "Multiview"); NVIDIA's driver on the H100 ran
/// a two-view mesh draw's shader once for both views (32 mesh invocations
/// and 1 primitive generated for views 0b11, tests/reference/README.md).
/// Clipping and fragment counts are per view on both and stay exact.
pub const PER_VIEW: &[&str] = &["mesh_shader_invocations", "mesh_primitives_generated"];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StatisticVerdict {
    Equal,
    Differ,
    /// The reference counted it, the simulator does not model it.
    NotModelled,
    /// The reference's device could not count it (or the run has no
    /// such stage).
    NotCounted,
    /// The simulator's count is exactly the reference's times the views
    /// of a multiview draw, for a statistic of [`PER_VIEW`]: the per-view
    /// loop's counting, not a disagreement.
    PerView {
        views: u32,
    },
}

impl StatisticComparison {
    pub fn verdict(&self) -> StatisticVerdict {
        match (self.simulator, self.reference) {
            (_, None) => StatisticVerdict::NotCounted,
            (None, Some(_)) => StatisticVerdict::NotModelled,
            (Some(a), Some(b)) if a == b => StatisticVerdict::Equal,
            (Some(a), Some(b))
                if self.per_view > 1 && Some(a) == b.checked_mul(self.per_view.into()) =>
            {
                StatisticVerdict::PerView {
                    views: self.per_view,
                }
            }
            (Some(_), Some(_)) => StatisticVerdict::Differ,
        }
    }
}

/// Every statistic of the result format. The simulator's fragment shader
/// invocations are the fragments it rasterized (one per covered pixel
/// and primitive, no helper invocations: the H100 counts those the same
/// way in the captures). `views` is the number of views the simulator
/// ran a multiview draw for (1 for any other run).
pub fn compare(sim: &Statistics, reference: &Statistics, views: u32) -> Vec<StatisticComparison> {
    let pair = |name, s: Option<u64>, r: Option<u64>| StatisticComparison {
        name,
        simulator: s,
        reference: r,
        per_view: if PER_VIEW.contains(&name) { views } else { 1 },
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

#[cfg(test)]
mod tests {
    use super::*;

    fn mesh_stats(invocations: u64, primitives: u64, fragments: u64) -> Statistics {
        Statistics {
            mesh_shader_invocations: Some(invocations),
            mesh_primitives_generated: Some(primitives),
            fragment_shader_invocations: Some(fragments),
            ..Statistics::default()
        }
    }

    fn verdict(list: &[StatisticComparison], name: &str) -> StatisticVerdict {
        let found = list.iter().find(|s| s.name == name);
        found
            .map(StatisticComparison::verdict)
            .unwrap_or_else(|| panic!("{name} listed"))
    }

    #[test]
    fn per_view_counts_are_allowed_for_multiview_runs_only() {
        let sim = mesh_stats(64, 2, 512);
        let reference = mesh_stats(32, 1, 512);
        let two_views = compare(&sim, &reference, 2);
        let per_view = StatisticVerdict::PerView { views: 2 };
        assert_eq!(verdict(&two_views, "mesh_shader_invocations"), per_view);
        assert_eq!(verdict(&two_views, "mesh_primitives_generated"), per_view);
        assert_eq!(
            verdict(&two_views, "fragment_shader_invocations"),
            StatisticVerdict::Equal
        );
        // The same counts in a run of one view differ.
        let one_view = compare(&sim, &reference, 1);
        let differ = StatisticVerdict::Differ;
        assert_eq!(verdict(&one_view, "mesh_shader_invocations"), differ);
    }

    #[test]
    fn only_the_exact_multiple_of_the_views_is_allowed() {
        let two_views = compare(&mesh_stats(63, 3, 512), &mesh_stats(32, 1, 256), 2);
        for name in ["mesh_shader_invocations", "mesh_primitives_generated"] {
            assert_eq!(
                verdict(&two_views, name),
                StatisticVerdict::Differ,
                "{name}"
            );
        }
        // Fragments are counted per view on both sides: twice is a mismatch.
        assert_eq!(
            verdict(&two_views, "fragment_shader_invocations"),
            StatisticVerdict::Differ
        );
    }
}
