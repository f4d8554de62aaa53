//! Builders for hand-made mesh draws and coverage maps, shared by the
//! rasterizer tests. Positions are given in framebuffer pixels of the
//! test image (x right, y down) and turned into clip space here.
#![allow(dead_code)] // each test binary uses a different subset

use spvsass_sim::raster::{RenderState, fragments};
use spvsass_sim::{Attributes, Counters, MeshDraw, MeshWorkgroup, PipelineStatistics};
use std::collections::BTreeMap;

/// The side of the square test image.
pub const SIDE: u32 = 16;

pub fn state() -> RenderState {
    RenderState {
        width: SIDE,
        height: SIDE,
        ..RenderState::default()
    }
}

/// Clip coordinates of framebuffer point (x, y), scaled by `w`, at depth z.
pub fn clip_at(x: f32, y: f32, z: f32, w: f32) -> [f32; 4] {
    let ndc = |p: f32| p / SIDE as f32 * 2.0 - 1.0;
    [ndc(x) * w, ndc(y) * w, z * w, w]
}

/// A vertex at framebuffer (x, y), depth 0.5, w = 1, without colour.
pub fn at(x: f32, y: f32) -> Attributes {
    with_position(clip_at(x, y, 0.5, 1.0))
}

pub fn with_position(position: [f32; 4]) -> Attributes {
    Attributes {
        position: Some(position),
        ..Attributes::default()
    }
}

/// `attrs` with colour (Location 0).
pub fn coloured(mut attrs: Attributes, colour: [f32; 4]) -> Attributes {
    attrs.generic.insert(0, colour.map(Some));
    attrs
}

/// A one-workgroup draw.
pub fn draw(topology: &'static str, indices: &[&[u32]], vertices: Vec<Attributes>) -> MeshDraw {
    MeshDraw {
        workgroups: vec![MeshWorkgroup {
            id: [0, 0, 0],
            task_workgroup: None,
            primitive_count: indices.len() as u32,
            indices: indices.iter().map(|i| i.to_vec()).collect(),
            vertices,
            primitives: Vec::new(),
        }],
        ..empty_draw(topology)
    }
}

/// A draw without workgroups.
pub fn empty_draw(topology: &'static str) -> MeshDraw {
    MeshDraw {
        topology,
        tasks: Vec::new(),
        workgroups: Vec::new(),
        counters: Counters::default(),
        statistics: PipelineStatistics::default(),
        queries: Vec::new(),
    }
}

/// How many fragments land on each pixel of layer 0, row by row.
pub fn counts(draw: &MeshDraw, state: &RenderState) -> Vec<Vec<u32>> {
    let mut counts = vec![vec![0; state.width as usize]; state.height as usize];
    fragments(draw, state, |f| counts[f.y as usize][f.x as usize] += 1).expect("rasterizes");
    counts
}

/// The set of covered pixels (x, y), each fragment listed.
pub fn covered(draw: &MeshDraw, state: &RenderState) -> Vec<(u32, u32)> {
    let mut pixels = Vec::new();
    fragments(draw, state, |f| pixels.push((f.x, f.y))).expect("rasterizes");
    pixels.sort_unstable();
    pixels
}

/// Pixels (x, y) of the image for which `inside` holds, sorted.
pub fn expected(inside: impl Fn(u32, u32) -> bool) -> Vec<(u32, u32)> {
    let mut pixels: Vec<(u32, u32)> = (0..SIDE)
        .flat_map(|x| (0..SIDE).map(move |y| (x, y)))
        .filter(|&(x, y)| inside(x, y))
        .collect();
    pixels.sort_unstable();
    pixels
}

/// The colour of every fragment, by pixel (the last one where several).
pub fn colours(draw: &MeshDraw, state: &RenderState) -> BTreeMap<(u32, u32), [f32; 4]> {
    let mut colours = BTreeMap::new();
    fragments(draw, state, |f| {
        colours.insert((f.x, f.y), f.colour);
    })
    .expect("rasterizes");
    colours
}

/// A coverage map as text, for failure messages.
pub fn picture(counts: &[Vec<u32>]) -> String {
    counts
        .iter()
        .map(|row| {
            row.iter()
                .map(|c| char::from(b'0' + (*c as u8).min(9)))
                .collect::<String>()
                + "\n"
        })
        .collect()
}
