//! Rasterizer throughput on a dense mesh: a 256×256 image tiled by a
//! 64×64 grid of quads, two small triangles each (8192 triangles of about
//! 6.5 pixels: w grows from 1 to 1.25 across the grid, which also makes
//! the interpolation perspective-correct work), with per-vertex colours,
//! in meshlets of 8×8 quads (81 vertices, 128 triangles) as a mesh shader
//! would emit them; and the same grid as points (2×2) and lines (two
//! 4-pixel segments per cell).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use spvsass_sim::raster::{RenderState, render};
use spvsass_sim::{Attributes, Counters, MeshDraw, MeshWorkgroup, PipelineStatistics};
use std::hint::black_box;

const SIDE: u32 = 256;
const CELLS: u32 = 64;

fn vertex(i: u32, j: u32) -> Attributes {
    let (x, y) = (i as f32 / CELLS as f32, j as f32 / CELLS as f32);
    let mut a = Attributes {
        position: Some([x * 2.0 - 1.0, y * 2.0 - 1.0, 0.5, 1.0 + 0.25 * x]),
        point_size: Some(2.0),
        ..Attributes::default()
    };
    a.generic
        .insert(0, [Some(x), Some(y), Some(1.0 - x), Some(1.0)]);
    a
}

/// Meshlets of 8×8 cells: 81 vertices, 128 triangles.
fn dense_mesh(topology: &'static str) -> MeshDraw {
    let per = 8;
    let mut workgroups = Vec::new();
    for mj in 0..CELLS / per {
        for mi in 0..CELLS / per {
            let vertices = (0..=per)
                .flat_map(|j| (0..=per).map(move |i| vertex(mi * per + i, mj * per + j)))
                .collect();
            let v = |i: u32, j: u32| j * (per + 1) + i;
            let mut indices = Vec::new();
            for j in 0..per {
                for i in 0..per {
                    let quad = [v(i, j), v(i + 1, j), v(i + 1, j + 1), v(i, j + 1)];
                    match topology {
                        "triangles" => {
                            indices.push(vec![quad[0], quad[1], quad[2]]);
                            indices.push(vec![quad[0], quad[2], quad[3]]);
                        }
                        "lines" => {
                            indices.push(vec![quad[0], quad[1]]);
                            indices.push(vec![quad[0], quad[3]]);
                        }
                        _ => indices.push(vec![quad[0]]),
                    }
                }
            }
            workgroups.push(MeshWorkgroup {
                id: [mi, mj, 0],
                task_workgroup: None,
                primitive_count: indices.len() as u32,
                indices,
                vertices,
                primitives: Vec::new(),
            });
        }
    }
    MeshDraw {
        topology,
        tasks: Vec::new(),
        workgroups,
        counters: Counters::default(),
        statistics: PipelineStatistics::default(),
        queries: Vec::new(),
    }
}

fn bench(c: &mut Criterion) {
    let state = RenderState {
        width: SIDE,
        height: SIDE,
        ..RenderState::default()
    };
    let mut group = c.benchmark_group("raster");
    for topology in ["triangles", "lines", "points"] {
        let draw = dense_mesh(topology);
        let primitives: u64 = draw
            .workgroups
            .iter()
            .map(|w| u64::from(w.primitive_count))
            .sum();
        group.throughput(Throughput::Elements(primitives));
        group.bench_function(format!("{topology}_256x256"), |b| {
            b.iter(|| render(black_box(&draw), &state).expect("renders"))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
