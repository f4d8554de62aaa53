//! The simulator against a reference capture of the same run description:
//! coverage, colour, buffers and statistics, each judged by its own rule
//! ([`Tolerances`]); [`Comparison::matches`] says whether they agree and
//! its `Display` is the report `spvsass compare` prints.

mod buffers;
mod edges;
mod image;
mod report;
mod statistics;

pub use buffers::{BufferComparison, WordMismatch, ulp_distance};
pub use edges::{Segment, distance_to_edge, edges};
pub use image::{ImageComparison, Pixel};
pub use statistics::{PER_VIEW, StatisticComparison, StatisticVerdict};

use crate::reference::{Capture, RunDescription};
use crate::simulate_run::SimulatedRun;
use std::collections::BTreeMap;

/// How close is close enough.
#[derive(Clone, Debug, PartialEq)]
pub struct Tolerances {
    /// A pixel whose centre lies within this many pixels of a primitive
    /// edge is an "edge" pixel: coverage there may differ without a
    /// mismatch. The H100 snaps vertices to 1/256 pixel (8 sub-pixel bits,
    /// like the simulator) but computes the viewport transform in f32 and
    /// may round the last bit differently; 1/64 pixel is four sub-pixel
    /// steps, well above that and well below any real coverage error.
    pub edge_distance: f64,
    /// The largest colour difference, per component, allowed at pixels
    /// both sides cover away from edges.
    pub colour: f32,
    /// Buffers compared as f32 words within this many ULPs, by binding;
    /// every other buffer is compared as integers, exactly.
    pub float_ulps: BTreeMap<crate::sim::Slot, u32>,
}

/// The default edge distance: 1/64 pixel.
pub const EDGE_DISTANCE: f64 = 1.0 / 64.0;
/// The default colour tolerance.
pub const COLOUR_TOLERANCE: f32 = 1e-5;

impl Default for Tolerances {
    fn default() -> Tolerances {
        Tolerances {
            edge_distance: EDGE_DISTANCE,
            colour: COLOUR_TOLERANCE,
            float_ulps: BTreeMap::new(),
        }
    }
}

impl Tolerances {
    /// The default tolerances, with the f32 buffers and their ULP bounds
    /// that the run description declares.
    pub fn for_run(desc: &RunDescription) -> Tolerances {
        Tolerances {
            float_ulps: desc
                .buffers
                .iter()
                .filter_map(|b| {
                    let slot = crate::sim::Slot {
                        set: b.set,
                        binding: b.binding,
                        element: b.element,
                    };
                    Some((slot, b.float_ulps?))
                })
                .collect(),
            ..Tolerances::default()
        }
    }
}

/// Everything compared, with the verdicts.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    pub run: String,
    /// Who produced the reference: device and driver.
    pub reference: String,
    pub tolerances: Tolerances,
    /// `Err` names how the images' shapes differ (or that one side has
    /// none); `Ok(None)` when neither has an image.
    pub image: Result<Option<ImageComparison>, String>,
    pub buffers: Vec<BufferComparison>,
    pub statistics: Vec<StatisticComparison>,
}

impl Comparison {
    /// Whether the simulator agrees with the reference under the
    /// tolerances.
    pub fn matches(&self) -> bool {
        let image = match &self.image {
            Ok(None) => true,
            Ok(Some(i)) => i.matches(self.tolerances.colour),
            Err(_) => false,
        };
        image
            && self.buffers.iter().all(BufferComparison::matches)
            && self
                .statistics
                .iter()
                .all(|s| s.verdict() != StatisticVerdict::Differ)
    }
}

/// Compares a simulated run with a reference capture of the same run.
pub fn compare(sim: &SimulatedRun, reference: &Capture, tolerances: &Tolerances) -> Comparison {
    let device = &reference.result.device;
    let edges = sim
        .draw
        .as_ref()
        .map_or_else(Vec::new, |(draw, render)| edges::edges(draw, render));
    Comparison {
        run: reference.result.run.clone(),
        reference: format!(
            "{} ({} {})",
            device.device_name, device.driver_name, device.driver_info
        ),
        tolerances: tolerances.clone(),
        image: image::compare(&sim.capture, reference, &edges, tolerances.edge_distance),
        buffers: buffers::compare(&sim.capture, reference, &tolerances.float_ulps),
        statistics: statistics::compare(
            &sim.capture.result.statistics,
            &reference.result.statistics,
            sim.views,
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_description_declares_its_float_buffers() {
        let desc: RunDescription = serde_json::from_str(
            r#"{
                "stages": { "compute": { "spirv": "x.spv" } },
                "groups": [1, 1, 1],
                "buffers": [
                    { "binding": 0, "kind": "storage", "contents": [ { "zero": 4 } ] },
                    { "binding": 2, "kind": "storage", "contents": [ { "zero": 4 } ],
                      "read_back": true, "float_ulps": 3 }
                ]
            }"#,
        )
        .expect("a valid description");
        let t = Tolerances::for_run(&desc);
        let slot = crate::sim::Slot {
            set: 0,
            binding: 2,
            element: 0,
        };
        assert_eq!(t.float_ulps, BTreeMap::from([(slot, 3)]));
        assert_eq!(t.edge_distance, EDGE_DISTANCE);
    }
}
