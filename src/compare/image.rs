//! Images: which pixels each side covers, and the colours where both do.
//!
//! A pixel counts as covered when any component is non-zero: the image
//! is cleared to (0, 0, 0, 0) on both sides and a reference capture has
//! nothing else to tell coverage by (docs/RUNS.md asks test shaders to
//! keep alpha non-zero for this reason).

use super::edges::{Segment, distance_to_edge};
use crate::reference::Capture;

/// One pixel, with the distance from its centre to the nearest edge of
/// the simulated draw.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pixel {
    pub layer: u32,
    pub x: u32,
    pub y: u32,
    pub edge_distance: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ImageComparison {
    pub width: u32,
    pub height: u32,
    pub layers: u32,
    /// Pixels covered on both sides, and by each side.
    pub covered_both: u64,
    pub covered_simulator: u64,
    pub covered_reference: u64,
    /// Coverage mismatches away from edges: covered by one side only.
    pub only_simulator: Vec<Pixel>,
    pub only_reference: Vec<Pixel>,
    /// Coverage mismatches at edge pixels (not counted against a match).
    pub edge_only_simulator: Vec<Pixel>,
    pub edge_only_reference: Vec<Pixel>,
    /// The largest per-component colour difference over pixels both
    /// cover away from edges, and where it is.
    pub max_colour_error: f32,
    pub max_colour_error_at: Option<Pixel>,
    /// The same at edge pixels, reported only: there a neighbouring
    /// primitive may own the pixel on one side.
    pub max_edge_colour_error: f32,
}

impl ImageComparison {
    pub fn matches(&self, colour_tolerance: f32) -> bool {
        self.only_simulator.is_empty()
            && self.only_reference.is_empty()
            && self.max_colour_error <= colour_tolerance
    }
}

fn covered(p: &[f32]) -> bool {
    p.iter().any(|&c| c != 0.0)
}

/// The largest per-component difference; NaN on one side only is
/// infinitely far, NaN on both is equal.
fn colour_error(a: &[f32], b: &[f32]) -> f32 {
    a.iter()
        .zip(b)
        .map(|(&a, &b)| match (a.is_nan(), b.is_nan()) {
            (true, true) => 0.0,
            (false, false) => (a - b).abs(),
            _ => f32::INFINITY,
        })
        .fold(0.0, f32::max)
}

pub fn compare(
    sim: &Capture,
    reference: &Capture,
    edges: &[Segment],
    edge_distance: f64,
) -> Result<Option<ImageComparison>, String> {
    let (s, r) = match (&sim.result.image, &reference.result.image) {
        (None, None) => return Ok(None),
        (Some(s), Some(r)) => (s, r),
        (Some(_), None) => return Err("the reference has no image".into()),
        (None, Some(_)) => return Err("the simulator made no image".into()),
    };
    if (s.width, s.height, s.layers) != (r.width, r.height, r.layers) {
        return Err(format!(
            "the simulator's image is {}x{} with {} layers, the reference's {}x{} with {}",
            s.width, s.height, s.layers, r.width, r.height, r.layers
        ));
    }
    let mut c = ImageComparison {
        width: r.width,
        height: r.height,
        layers: r.layers,
        covered_both: 0,
        covered_simulator: 0,
        covered_reference: 0,
        only_simulator: Vec::new(),
        only_reference: Vec::new(),
        edge_only_simulator: Vec::new(),
        edge_only_reference: Vec::new(),
        max_colour_error: 0.0,
        max_colour_error_at: None,
        max_edge_colour_error: 0.0,
    };
    let pixels = sim
        .pixels
        .chunks_exact(4)
        .zip(reference.pixels.chunks_exact(4));
    for (i, (a, b)) in pixels.enumerate() {
        let (in_sim, in_ref) = (covered(a), covered(b));
        if !in_sim && !in_ref {
            continue;
        }
        let i = i as u64;
        let (w, h) = (u64::from(r.width), u64::from(r.height));
        // Below width * height * layers, which are u32 each.
        let (layer, y, x) = ((i / (w * h)) as u32, (i / w % h) as u32, (i % w) as u32);
        let edge_distance_here = distance_to_edge(edges, layer, x, y);
        let pixel = Pixel {
            layer,
            x,
            y,
            edge_distance: edge_distance_here,
        };
        let at_edge = edge_distance_here <= edge_distance;
        c.covered_simulator += u64::from(in_sim);
        c.covered_reference += u64::from(in_ref);
        match (in_sim, in_ref, at_edge) {
            (true, true, _) => {
                c.covered_both += 1;
                let e = colour_error(a, b);
                if at_edge {
                    c.max_edge_colour_error = c.max_edge_colour_error.max(e);
                } else if e.is_nan() || e > c.max_colour_error {
                    c.max_colour_error = e;
                    c.max_colour_error_at = Some(pixel);
                }
            }
            (true, false, false) => c.only_simulator.push(pixel),
            (true, false, true) => c.edge_only_simulator.push(pixel),
            (false, true, false) => c.only_reference.push(pixel),
            (false, true, true) => c.edge_only_reference.push(pixel),
            (false, false, _) => {}
        }
    }
    Ok(Some(c))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::{DeviceInfo, FORMAT, ImageResult, RunResult, Statistics};

    fn capture(pixels: Vec<f32>) -> Capture {
        let device = DeviceInfo {
            device_name: "d".into(),
            device_type: "CPU".into(),
            vendor_id: 0,
            device_id: 0,
            api_version: String::new(),
            driver_name: "x".into(),
            driver_info: String::new(),
            driver_version: String::new(),
            driver_version_raw: 0,
            conformance_version: String::new(),
        };
        let image = ImageResult {
            file: "image.rgba32f".into(),
            width: 2,
            height: 2,
            layers: 1,
            format: "rgba32f".into(),
        };
        Capture {
            result: RunResult {
                format: FORMAT,
                run: "t".into(),
                command: None,
                device,
                statistics: Statistics::default(),
                buffers: Vec::new(),
                image: Some(image),
            },
            pixels,
        }
    }

    #[test]
    fn coverage_mismatches_are_split_by_distance_to_an_edge() {
        let white = [1.0, 1.0, 1.0, 1.0];
        let empty = [0.0; 4];
        let grey = [0.5, 0.5, 0.5, 1.0];
        // Pixels (0,0) both, (1,0) simulator only, (0,1) reference only.
        let sim = [white, white, empty, empty].concat();
        let reference = [grey, empty, white, empty].concat();
        // An edge through the centre of (1,0) only.
        let edge = Segment {
            layer: 0,
            a: [1.5, 0.0],
            b: [1.5, 1.0],
        };
        let c = compare(&capture(sim), &capture(reference), &[edge], 1.0 / 64.0)
            .expect("same shape")
            .expect("images");
        assert_eq!(c.covered_both, 1);
        assert_eq!(c.edge_only_simulator.len(), 1);
        assert!(c.only_simulator.is_empty());
        assert_eq!((c.only_reference[0].x, c.only_reference[0].y), (0, 1));
        assert_eq!(c.max_colour_error, 0.5);
        assert!(!c.matches(1e-5));
    }

    #[test]
    fn images_of_other_shapes_are_not_compared() {
        let mut other = capture(vec![0.0; 16]);
        if let Some(i) = &mut other.result.image {
            i.layers = 2;
        }
        let e = compare(&capture(vec![0.0; 16]), &other, &[], 0.0).err();
        assert_eq!(
            e.as_deref(),
            Some("the simulator's image is 2x2 with 1 layers, the reference's 2x2 with 2")
        );
    }
}
