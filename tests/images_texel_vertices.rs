//! A mesh shader that reads its meshlets from texel buffers
//! (tests/runs/mesh_texel_vertices.json, nvpro's meshlet renderer's form:
//! descriptors, positions, colours and indices fetched through
//! samplerBuffer/usamplerBuffer): the simulator's image of the run
//! description against the shapes written into the description, listed
//! here by hand in pixels. lavapipe has no mesh shaders; the H100 capture
//! of the same description is tests/reference/mesh_texel_vertices
//! (compared in tests/reference_compare.rs).

use spvsass::simulate_run::{SimulateOptions, simulate_run_file};
use std::path::PathBuf;

const RED: [f32; 4] = [1.0, 0.0, 0.0, 1.0];
const GREEN: [f32; 4] = [0.0, 1.0, 0.0, 1.0];
const BLUE: [f32; 4] = [0.0, 0.0, 1.0, 1.0];
const YELLOW: [f32; 4] = [1.0, 1.0, 0.0, 1.0];
const CYAN: [f32; 4] = [0.0, 1.0, 1.0, 1.0];
const CLEAR: [f32; 4] = [0.0; 4];

/// The colour the draw must give the pixel whose centre is (x, y) (pixels
/// from the top left), or `None` where the centre lies on an edge (the
/// tie rule is not this test's subject). Meshlet 0: a rectangle from
/// (4, 4) to (20, 28); 1: (24, 8) to (40, 24); 2: the triangle (44, 4),
/// (60, 4), (44, 20); 3: (8, 36) to (56, 44) and (8, 48) to (56, 60).
fn expected(x: f32, y: f32) -> Option<[f32; 4]> {
    let inside = |x0: f32, y0: f32, x1: f32, y1: f32| x > x0 && x < x1 && y > y0 && y < y1;
    if (x + y - 64.0).abs() < 0.01 && x > 44.0 && y > 4.0 {
        return None;
    }
    Some(if inside(4.0, 4.0, 20.0, 28.0) {
        RED
    } else if inside(24.0, 8.0, 40.0, 24.0) {
        GREEN
    } else if x > 44.0 && y > 4.0 && x + y < 64.0 {
        BLUE
    } else if inside(8.0, 36.0, 56.0, 44.0) {
        YELLOW
    } else if inside(8.0, 48.0, 56.0, 60.0) {
        CYAN
    } else {
        CLEAR
    })
}

#[test]
fn meshlets_from_texel_buffers_draw_the_listed_shapes() {
    let run = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/runs/mesh_texel_vertices.json");
    let sim =
        simulate_run_file(&run, &SimulateOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let image = sim
        .capture
        .result
        .image
        .as_ref()
        .expect("a mesh run has an image");
    assert_eq!((image.width, image.height, image.layers), (64, 64, 1));
    let mut covered = 0;
    for y in 0..64 {
        for x in 0..64 {
            let got = sim.capture.pixel(0, x, y).expect("inside the image");
            let Some(want) = expected(x as f32 + 0.5, y as f32 + 0.5) else {
                continue;
            };
            assert_eq!(got, want, "pixel ({x}, {y})");
            covered += usize::from(want != CLEAR);
        }
    }
    // 16·24 + 16·16 + the triangle's 120 off its hypotenuse + 48·8 + 48·12.
    assert_eq!(covered, 384 + 256 + 120 + 384 + 576);
    // Four workgroups, one per meshlet, and the meshlets' nine triangles.
    let stats = &sim.capture.result.statistics;
    assert_eq!(stats.mesh_primitives_generated, Some(9));
}

/// On a driver with mesh shaders the same description draws the same
/// shapes; lavapipe (Mesa 22.3) has none and must say so.
#[test]
fn the_driver_draws_the_listed_shapes_or_has_no_mesh_shaders() {
    use spvsass::reference::{self, ReferenceError};
    let run = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/runs/mesh_texel_vertices.json");
    let c = match reference::run_file(&run) {
        Err(
            e @ (ReferenceError::NoLoader(_)
            | ReferenceError::NoDevice(_)
            | ReferenceError::NoUsableDevice(_)),
        ) => {
            let required = std::env::var("SPVSASS_REQUIRE_VULKAN").is_ok_and(|v| v == "1");
            assert!(!required, "SPVSASS_REQUIRE_VULKAN=1, but {e}");
            eprintln!("skipped: {e}");
            return;
        }
        Err(e) => {
            assert!(
                e.to_string()
                    .starts_with("mesh shaders not supported by this driver ("),
                "{e}"
            );
            return;
        }
        Ok(c) => c,
    };
    for y in 0..64 {
        for x in 0..64 {
            let Some(want) = expected(x as f32 + 0.5, y as f32 + 0.5) else {
                continue;
            };
            let got = c.pixel(0, x, y).expect("inside the image");
            // UNORM colours of 0 and 255 are exact on every driver.
            assert_eq!(got, want, "pixel ({x}, {y})");
        }
    }
}
