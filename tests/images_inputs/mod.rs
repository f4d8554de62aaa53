//! The image checks of corpus shaders whose inputs (buffers, uniforms,
//! push constants) the test binds itself: no run description gives them.

use super::{CLEAR, WHITE, draw_bound, golden, lit};
use spvsass::sim::ComputeInputs;
use spvsass::sim::raster::RenderState;

/// clip_cull_distance.mesh's uniform block (std140): clipPlanes[2], then
/// cullPlane, each a vec4.
fn planes(clip: [[f32; 4]; 2], cull: [f32; 4]) -> ComputeInputs {
    let bytes = clip
        .iter()
        .chain([&cull])
        .flatten()
        .flat_map(|f| f.to_le_bytes());
    ComputeInputs {
        uniforms: [(0, bytes.collect())].into(),
        ..ComputeInputs::default()
    }
}

pub fn check_clip_cull_distance() {
    // A quad over the whole image: triangle 0 = vertices (-1,-1), (1,-1),
    // (-1,1) (framebuffer (0,0), (64,0), (0,64): upper left, its diagonal
    // x + y = 64 a right edge through the centres with i + j = 63, which
    // it leaves), triangle 1 the lower right. Distances are dot(p, plane)
    // with p = (x, y, 0.5, 1):
    // - clip 0 = x + 0.5 keeps x >= -0.5: columns 16 and up;
    // - clip 1 = 0.5 - y keeps y <= 0.5: rows up to 47;
    // - cull 0 = -x - y - 0.5 is -0.5, -0.5, -2.5 at triangle 1's
    //   vertices: it is culled; triangle 0 has 1.5 at (-1,-1).
    let clip = [[1.0, 0.0, 0.0, 0.5], [0.0, -1.0, 0.0, 0.5]];
    let inputs = planes(clip, [-1.0, -1.0, 0.0, -0.5]);
    // ClipDistance[2] then CullDistance[1]: the binary says two of the
    // distance words clip, and keeps saying so through its file form.
    let binary = super::compile("clip_cull_distance.mesh", false).binary;
    assert_eq!(binary.mesh.as_ref().map(|m| m.clip_distances), Some(2));
    let file = binary.to_bytes();
    let back = spvsass::backend::binary::Binary::from_bytes(&file).expect("reads back");
    assert_eq!(back, binary);
    let draw = draw_bound("clip_cull_distance.mesh", [1, 1, 1], inputs);
    let v = &draw.workgroups[0].vertices[3];
    assert_eq!(v.clip_distance.values().collect::<Vec<_>>(), [&1.5, &-0.5]);
    assert_eq!(v.cull_distance.values().collect::<Vec<_>>(), [&-2.5]);
    let image = spvsass::render(&draw, &RenderState::default()).unwrap();
    let image = golden("clip_cull_distance.mesh", image);
    for j in 0..64 {
        for i in 0..64 {
            let inside = i >= 16 && j <= 47 && i + j <= 62;
            let want = if inside { WHITE } else { CLEAR };
            assert_eq!(image.pixel(i, j, 0), want, "pixel ({i}, {j})");
        }
    }
    // 47 + 46 + ... + 1 pixels (row j from column 16 to 62 - j).
    assert_eq!(lit(&image), 47 * 48 / 2);
    // A cull distance of 1 everywhere culls nothing: triangle 1 shows,
    // clipped the same way.
    let draw = draw_bound(
        "clip_cull_distance.mesh",
        [1, 1, 1],
        planes(clip, [0.0, 0.0, 0.0, 1.0]),
    );
    let image = spvsass::render(&draw, &RenderState::default()).unwrap();
    assert_eq!(image.pixel(60, 40, 0), WHITE, "triangle 1");
    assert_eq!(image.pixel(60, 50, 0), CLEAR, "clipped by plane 1");
    assert_eq!(lit(&image), 48 * 48);
}

pub fn check_terrain_grid() {
    // viewProj maps world (x, h, z) to clip (x/4 - 7/8, z/4 - 7/8,
    // h/8 + ½, 1): a top-down orthographic view of the grid x, z = 0..7
    // (origin 0, scale 1), heights ±2 within depth ¼..¾. On the image the
    // grid is the square 4..60 (integer edges between pixel centres):
    // 56 × 56 pixels, each once across the shared diagonals.
    let columns: [[f32; 4]; 4] = [
        [0.25, 0.0, 0.0, 0.0],
        [0.0, 0.0, 0.125, 0.0],
        [0.0, 0.25, 0.0, 0.0],
        [-0.875, -0.875, 0.5, 1.0],
    ];
    let push = columns.iter().flatten().chain(&[0.0, 0.0, 1.0]);
    let inputs = ComputeInputs {
        push_constants: push.flat_map(|f| f.to_le_bytes()).collect(),
        ..ComputeInputs::default()
    };
    let draw = draw_bound("terrain_grid.mesh", [1, 1, 1], inputs);
    let image = spvsass::render(&draw, &RenderState::default()).unwrap();
    let image = golden("terrain_grid.mesh", image);
    assert_eq!(lit(&image), 56 * 56);
    assert_eq!(image.pixel(3, 30, 0), CLEAR, "left of the grid");
    assert_eq!(image.pixel(30, 60, 0), CLEAR, "below the grid");
    // The colour is the normal cross(dz, dx) normalized, whose y is
    // scale² = 1 before normalizing: green is positive everywhere (and
    // the vec3 colour's alpha reads 1).
    let covered = image.pixels().iter().filter(|p| p[3] != 0.0);
    assert!(covered.clone().all(|p| p[1] > 0.0 && p[3] == 1.0));
    // Interpolated unit normals are at most unit length.
    assert!(
        covered
            .clone()
            .all(|p| p[0] * p[0] + p[1] * p[1] + p[2] * p[2] <= 1.0 + 1e-5)
    );
}

/// Little-endian bytes of 32-bit values.
fn bytes<T: Copy>(values: &[T], le: fn(T) -> [u8; 4]) -> Vec<u8> {
    values.iter().flat_map(|&v| le(v)).collect()
}

pub fn check_primitive_culling() {
    // Identity mvp; the quad corners (±½, ±½) and three vertices right
    // of x = 1. Triangle 0 (0, 1, 2) has NDC area +1 and is kept;
    // triangle 1 (1, 2, 3) has area -1: culled as back-facing; triangle 2
    // (4, 5, 6) has every x > 1: culled as outside.
    let xy: [[f32; 2]; 7] = [
        [-0.5, -0.5],
        [0.5, -0.5],
        [-0.5, 0.5],
        [0.5, 0.5],
        [1.2, 0.0],
        [1.5, 0.5],
        [1.3, -0.5],
    ];
    let positions: Vec<f32> = xy.iter().flat_map(|p| [p[0], p[1], 0.5, 1.0]).collect();
    let triangles: [u32; 12] = [0, 1, 2, 0, 1, 2, 3, 0, 4, 5, 6, 0];
    let identity: Vec<f32> = (0..16).map(|k| f32::from(k % 5 == 0)).collect();
    let mut push = bytes(&identity, f32::to_le_bytes);
    push.extend(bytes(&[7u32, 3], u32::to_le_bytes));
    let inputs = ComputeInputs {
        buffers: [
            (0, bytes(&positions, f32::to_le_bytes)),
            (1, bytes(&triangles, u32::to_le_bytes)),
        ]
        .into(),
        push_constants: push,
        ..ComputeInputs::default()
    };
    let draw = draw_bound("primitive_culling.mesh", [1, 1, 1], inputs);
    let culled: Vec<_> = draw.workgroups[0]
        .primitives
        .iter()
        .map(|p| p.cull)
        .collect();
    assert_eq!(culled, [Some(false), Some(true), Some(true)]);
    let image = spvsass::render(&draw, &RenderState::default()).unwrap();
    let image = golden("primitive_culling.mesh", image);
    // Triangle 0 on the image: (16, 16), (48, 16), (16, 48); its diagonal
    // through the centres with i + j = 63 is a right edge, left out.
    for j in 0..64 {
        for i in 0..64 {
            let inside = i >= 16 && j >= 16 && i + j <= 62;
            let want = if inside { WHITE } else { CLEAR };
            assert_eq!(image.pixel(i, j, 0), want, "pixel ({i}, {j})");
        }
    }
}

pub fn check_subgroup_primitive_compaction() {
    // Lane i reads vertex i and triangle i: the quad corners (±½, ±½)
    // (the other vertices at the origin), triangles (0, 1, 2) and
    // (1, 3, 2) counter-clockwise in NDC (cross z = +1: visible),
    // (1, 2, 3) clockwise (-1) and the rest (0, 0, 0) degenerate (0). The
    // ballot keeps two, compacted into slots 0 and 1.
    let mut positions = vec![[0.0f32, 0.0, 0.5, 1.0]; 32];
    for (k, xy) in [[-0.5, -0.5], [0.5, -0.5], [-0.5, 0.5], [0.5, 0.5]]
        .iter()
        .enumerate()
    {
        positions[k] = [xy[0], xy[1], 0.5, 1.0];
    }
    let mut triangles = vec![[0u32; 4]; 32];
    triangles[..3].copy_from_slice(&[[0, 1, 2, 0], [1, 2, 3, 0], [1, 3, 2, 0]]);
    let inputs = ComputeInputs {
        buffers: [
            (0, bytes(positions.as_flattened(), f32::to_le_bytes)),
            (1, bytes(triangles.as_flattened(), u32::to_le_bytes)),
        ]
        .into(),
        ..ComputeInputs::default()
    };
    let draw = draw_bound("subgroup_primitive_compaction.mesh", [1, 1, 1], inputs);
    assert_eq!(draw.workgroups[0].indices, [[0, 1, 2], [1, 3, 2]]);
    let image = spvsass::render(&draw, &RenderState::default()).unwrap();
    let image = golden("subgroup_primitive_compaction.mesh", image);
    // The two triangles tile the square 16..48 on the image, white.
    for j in 0..64 {
        for i in 0..64 {
            let inside = (16..48).contains(&i) && (16..48).contains(&j);
            let want = if inside { WHITE } else { CLEAR };
            assert_eq!(image.pixel(i, j, 0), want, "pixel ({i}, {j})");
        }
    }
}

pub fn check_skinned_meshlet() {
    // Every vertex blends bone 0 (identity) and bone 1 (a translation by
    // ½ in x; the block is row-major: the translation ends row 0) with
    // weights ½, ½: skin moves vertices by ¼ in x, and its 3×3 part is
    // the identity, so normals stay (0, 0, 1): blue, alpha 1 (vec3).
    // Triangle 0 is (-½, -½), (½, -½), (-½, ½); vertices 3..32 sit at the
    // origin (zero-area triangles). The camera is the identity.
    let mut verts = vec![[0.0f32; 16]; 32];
    for (k, v) in verts.iter_mut().enumerate() {
        let xy = [[-0.5, -0.5], [0.5, -0.5], [-0.5, 0.5]].get(k).copied();
        let [x, y] = xy.unwrap_or([0.0, 0.0]);
        let bones = f32::from_bits(1);
        *v = [
            x, y, 0.5, 1.0, // position
            0.0, 0.0, 1.0, 0.0, // normal
            0.0, bones, 0.0, 0.0, // bones (0, 1, 0, 0), as bits
            0.5, 0.5, 0.0, 0.0, // weights
        ];
    }
    let identity: Vec<f32> = (0..16).map(|k| f32::from(k % 5 == 0)).collect();
    let mut bones = identity.clone();
    bones.extend(&identity);
    bones[16 + 3] = 0.5;
    bones.resize(64 * 16, 0.0);
    let inputs = ComputeInputs {
        buffers: [(0, bytes(verts.as_flattened(), f32::to_le_bytes))].into(),
        uniforms: [
            (1, bytes(&bones, f32::to_le_bytes)),
            (2, bytes(&identity, f32::to_le_bytes)),
        ]
        .into(),
        ..ComputeInputs::default()
    };
    let draw = draw_bound("skinned_meshlet.mesh", [1, 1, 1], inputs);
    let image = spvsass::render(&draw, &RenderState::default()).unwrap();
    let image = golden("skinned_meshlet.mesh", image);
    // Triangle 0 moved to (-¼, -½), (¾, -½), (-¼, ½): on the image
    // (24, 16), (56, 16), (24, 48); its diagonal x + y = 72 through the
    // centres with i + j = 71 is a right edge, left out.
    for j in 0..64 {
        for i in 0..64 {
            let inside = i >= 24 && j >= 16 && i + j <= 70;
            let want = if inside {
                Some([0.0, 0.0, 1.0, 1.0])
            } else {
                CLEAR
            };
            assert_eq!(image.pixel(i, j, 0), want, "pixel ({i}, {j})");
        }
    }
}

/// A column-major translation matrix.
fn translation(x: f32, y: f32) -> [f32; 16] {
    let mut m: [f32; 16] = std::array::from_fn(|k| f32::from(k % 5 == 0));
    m[12] = x;
    m[13] = y;
    m
}

pub fn check_multiview_draw_index() {
    // A stereo draw (view mask 0b11, one layer per view): the local
    // triangle (0, 0), (1, 0), (0, 1) through model[draw 0] = identity
    // and eyeViewProj[view], translations by (-¾, -½) and (-¼, -½).
    // White (no colour output).
    let eyes = [translation(-0.75, -0.5), translation(-0.25, -0.5)];
    let inputs = ComputeInputs {
        uniforms: [(0, bytes(eyes.as_flattened(), f32::to_le_bytes))].into(),
        buffers: [(1, bytes(&translation(0.0, 0.0), f32::to_le_bytes))].into(),
        ..ComputeInputs::default()
    };
    let mesh = super::compile("multiview_draw_index.mesh", false);
    let options = spvsass::sim::SimOptions::default();
    let draw = spvsass::Draw::new(None, &mesh.binary, [1, 1, 1])
        .view_mask(0b11)
        .inputs(inputs)
        .options(options)
        .run()
        .expect("simulates")
        .draw;
    let state = RenderState {
        layers: 2,
        ..RenderState::default()
    };
    let image = golden(
        "multiview_draw_index.mesh",
        spvsass::render(&draw, &state).unwrap(),
    );
    // View 0 on the image: (8, 16), (40, 16), (8, 48), its hypotenuse
    // x + y = 56 a right edge through the centres with i + j = 55; view
    // 1 the same 16 pixels right.
    for (layer, left) in [(0, 8), (1, 24)] {
        for j in 0..64 {
            for i in 0..64 {
                let inside = i >= left && j >= 16 && i + j <= left + 46;
                let want = if inside { WHITE } else { CLEAR };
                assert_eq!(image.pixel(i, j, layer), want, "pixel ({i}, {j}, {layer})");
            }
        }
    }
}
