//! Images end to end: tests/shaders/img_*.comp.glsl compiled, dispatched
//! in the simulator with images and texel buffers placed by the texture
//! unit's host side, and every output checked against the computation on
//! the CPU (not against the simulator's own texture code).

use crate::common;

use spvsass::backend::target::Arch;
use spvsass::sim::texture::Format;
use spvsass::sim::texture::host::{BoundImage, ImageDim, ImageKind, ImageShape, SamplerState};
use spvsass::sim::texture::{Filter, Wrap};
use spvsass::sim::{ComputeInputs, ComputeRun, Slot};
use std::collections::BTreeMap;

fn slot(binding: u32) -> Slot {
    Slot {
        set: 0,
        binding,
        element: 0,
    }
}

fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn image(
    binding: u32,
    kind: ImageKind,
    format: Format,
    dim: ImageDim,
    w: u32,
    h: u32,
    data: Vec<u8>,
) -> BoundImage {
    BoundImage {
        slot: slot(binding),
        kind,
        shape: ImageShape {
            format,
            dim,
            width: w,
            height: h,
            depth: 1,
            levels: 1,
            samples: 1,
        },
        bytes: data,
        sampler: None,
        offset: 0,
    }
}

fn dispatch(name: &str, groups: [u32; 3], inputs: ComputeInputs) -> ComputeRun {
    let compiled = common::compile(name, Arch::Sm86);
    spvsass::Dispatch::new(&compiled.binary, groups)
        .inputs(inputs)
        .run()
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn texel_buffers_fetch_load_and_store() {
    // vertices: 64 RGBA32F texels, texel t = (t, t + 0.5, -t, 1).
    let vertices: Vec<u32> = (0..64)
        .flat_map(|t| [t as f32, t as f32 + 0.5, -(t as f32), 1.0].map(f32::to_bits))
        .collect();
    // indices: 32 R32UI texels, 3t + 1.
    let indices: Vec<u32> = (0..32).map(|t| 3 * t + 1).collect();
    let inputs = ComputeInputs {
        buffers: BTreeMap::from([(3, vec![0u8; 64 * 16])]),
        images: vec![
            image(
                0,
                ImageKind::UniformTexelBuffer,
                Format::R32G32B32A32Sfloat,
                ImageDim::Buffer,
                64,
                1,
                bytes(&vertices),
            ),
            image(
                1,
                ImageKind::UniformTexelBuffer,
                Format::R32Uint,
                ImageDim::Buffer,
                32,
                1,
                bytes(&indices),
            ),
            image(
                2,
                ImageKind::StorageTexelBuffer,
                Format::R32Sfloat,
                ImageDim::Buffer,
                32,
                1,
                vec![0; 128],
            ),
        ],
        ..Default::default()
    };
    let run = dispatch("img_texel_buffer.comp", [1, 1, 1], inputs);
    let out: Vec<f32> = words(&run.buffers[&3])
        .into_iter()
        .map(f32::from_bits)
        .collect();
    for i in 0..32usize {
        let t = (2 * i + 1) as f32;
        assert_eq!(&out[4 * i..4 * i + 4], &[t, t + 0.5, -t, 1.0], "fetch {i}");
        // imageLoad(scratch, 31 - i) after every lane stored
        // float(3j + 1) * 0.5 at j (one warp: stores precede loads); an
        // R32F texel reads back as (r, 0, 0, 1).
        let j = 31 - i;
        let k = (3 * j + 1) as f32 * 0.5;
        assert_eq!(
            &out[4 * (i + 32)..4 * (i + 32) + 4],
            &[k, 0.0, 0.0, 1.0],
            "load {i}"
        );
    }
    let scratch: Vec<f32> = words(&run.images[&slot(2)])
        .into_iter()
        .map(f32::from_bits)
        .collect();
    assert_eq!(
        scratch,
        (0..32)
            .map(|j| (3 * j + 1) as f32 * 0.5)
            .collect::<Vec<_>>()
    );
}

#[test]
fn storage_images_load_store_and_size() {
    let (w, h) = (8u32, 4u32);
    let n = (w * h) as usize;
    let colour: Vec<u8> = (0..n * 4).map(|i| (i * 7 % 256) as u8).collect();
    let depth: Vec<u32> = (0..n).map(|i| (i as f32 * 0.25).to_bits()).collect();
    let ids: Vec<u32> = (0..n * 4).map(|i| i as u32 * 3).collect();
    let inputs = ComputeInputs {
        buffers: BTreeMap::from([(3, vec![0u8; 24])]),
        images: vec![
            image(
                0,
                ImageKind::Storage,
                Format::R8G8B8A8Unorm,
                ImageDim::D2,
                w,
                h,
                colour.clone(),
            ),
            image(
                1,
                ImageKind::Storage,
                Format::R32Sfloat,
                ImageDim::D2,
                w,
                h,
                bytes(&depth),
            ),
            image(
                2,
                ImageKind::Storage,
                Format::R32G32B32A32Uint,
                ImageDim::D2,
                w,
                h,
                bytes(&ids),
            ),
        ],
        ..Default::default()
    };
    let run = dispatch("img_storage2d.comp", [1, 1, 1], inputs);
    // imageStore(colour, p, c.bgra): UNORM8 round trip is exact.
    let got = &run.images[&slot(0)];
    for t in 0..n {
        let c = &colour[4 * t..4 * t + 4];
        assert_eq!(
            &got[4 * t..4 * t + 4],
            &[c[2], c[1], c[0], c[3]],
            "colour texel {t}"
        );
    }
    let got: Vec<f32> = words(&run.images[&slot(1)])
        .into_iter()
        .map(f32::from_bits)
        .collect();
    for (t, d) in got.iter().enumerate() {
        assert_eq!(*d, t as f32 * 0.25 * 2.0 + 1.0, "depth texel {t}");
    }
    let got = words(&run.images[&slot(2)]);
    for t in 0..n {
        let (x, y) = ((t as u32) % w, (t as u32) / w);
        let want = [
            ids[4 * t] + x,
            ids[4 * t + 1] + y,
            ids[4 * t + 2] + 7,
            ids[4 * t + 3] + 9,
        ];
        assert_eq!(&got[4 * t..4 * t + 4], &want, "id texel {t}");
    }
    assert_eq!(words(&run.buffers[&3]), [w, h, w, h, w, h]);
}

fn linear_inputs() -> ComputeInputs {
    // 4x4 RGBA32F, texel (x, y) = (x + 4y, 10x, y, 1).
    let texels: Vec<u32> = (0..16)
        .flat_map(|t| {
            let (x, y) = ((t % 4) as f32, (t / 4) as f32);
            [x + 4.0 * y, 10.0 * x, y, 1.0].map(f32::to_bits)
        })
        .collect();
    let mut tex = image(
        0,
        ImageKind::Combined,
        Format::R32G32B32A32Sfloat,
        ImageDim::D2,
        4,
        4,
        bytes(&texels),
    );
    tex.sampler = Some(SamplerState {
        address: [Wrap::ClampToEdge; 3],
        mag_filter: Filter::Linear,
        min_filter: Filter::Linear,
        ..SamplerState::default()
    });
    ComputeInputs {
        buffers: BTreeMap::from([(1, vec![0u8; 128])]),
        images: vec![tex],
        ..Default::default()
    }
}

/// Several workgroups run in parallel over overlays of global memory
/// (sim/src/overlay.rs), through which the texture unit reads its 32-byte
/// headers: the result is the one-workgroup result.
#[test]
fn lookups_in_parallel_workgroups_read_headers_through_the_overlay() {
    let one = dispatch("img_linear.comp", [1, 1, 1], linear_inputs());
    let four = dispatch("img_linear.comp", [4, 1, 1], linear_inputs());
    assert_eq!(one.buffers[&1], four.buffers[&1]);
}

#[test]
fn linear_lookups_and_gathers_of_a_2d_texture() {
    // 4x4 RGBA32F, texel (x, y) = (x + 4y, 10x, y, 1).
    let texels: Vec<u32> = (0..16)
        .flat_map(|t| {
            let (x, y) = ((t % 4) as f32, (t / 4) as f32);
            [x + 4.0 * y, 10.0 * x, y, 1.0].map(f32::to_bits)
        })
        .collect();
    let mut tex = image(
        0,
        ImageKind::Combined,
        Format::R32G32B32A32Sfloat,
        ImageDim::D2,
        4,
        4,
        bytes(&texels),
    );
    tex.sampler = Some(SamplerState {
        address: [Wrap::ClampToEdge; 3],
        mag_filter: Filter::Linear,
        min_filter: Filter::Linear,
        ..SamplerState::default()
    });
    let inputs = ComputeInputs {
        buffers: BTreeMap::from([(1, vec![0u8; 128])]),
        images: vec![tex],
        ..Default::default()
    };
    let run = dispatch("img_linear.comp", [1, 1, 1], inputs);
    let out: Vec<f32> = words(&run.buffers[&1])
        .into_iter()
        .map(f32::from_bits)
        .collect();
    let texel = |x: u32, y: u32| [(x + 4 * y) as f32, 10.0 * x as f32, y as f32, 1.0];
    for i in 0..4u32 {
        // Halfway between texels i and i + 1 (clamped) of row 1.
        let (a, b) = (texel(i, 1), texel((i + 1).min(3), 1));
        let want: Vec<f32> = (0..4).map(|c| 0.5 * a[c] + 0.5 * b[c]).collect();
        let at = 4 * i as usize;
        assert_eq!(&out[at..at + 4], &want[..], "textureLod {i}");
        // Gather order (i0, j1), (i1, j1), (i1, j0), (i0, j0); rows 1 and 2.
        let i1 = (i + 1).min(3);
        let want = [
            texel(i, 2)[0],
            texel(i1, 2)[0],
            texel(i1, 1)[0],
            texel(i, 1)[0],
        ];
        assert_eq!(&out[16 + at..16 + at + 4], &want, "textureGather {i}");
    }
}

#[test]
fn image_atomics_add_and_compare_swap() {
    // A 4x2 R32_UINT image: row 0 = 100, 200, 300, 400; texel (0, 1) = 5.
    let texels = [100u32, 200, 300, 400, 5, 0, 0, 0];
    let inputs = ComputeInputs {
        buffers: BTreeMap::from([(1, vec![0u8; 33 * 4])]),
        images: vec![image(
            0,
            ImageKind::Storage,
            Format::R32Uint,
            ImageDim::D2,
            4,
            2,
            bytes(&texels),
        )],
        ..Default::default()
    };
    let run = dispatch("img_atomic.comp", [1, 1, 1], inputs);
    let out = words(&run.buffers[&1]);
    // Lanes run in order within the warp: lane i sees the texel after the
    // adds of the lanes below it with the same i & 3.
    for i in 0..32u32 {
        let earlier: u32 = (0..i).filter(|j| j & 3 == i & 3).map(|j| j + 1).sum();
        assert_eq!(
            out[i as usize],
            texels[(i & 3) as usize] + earlier,
            "old value of lane {i}"
        );
    }
    assert_eq!(out[32], 5, "compare-and-swap returns the old value");
    let got = words(&run.images[&slot(0)]);
    for x in 0..4u32 {
        let added: u32 = (0..32).filter(|j| j & 3 == x).map(|j| j + 1).sum();
        assert_eq!(got[x as usize], texels[x as usize] + added);
    }
    assert_eq!(got[4], 77);
}
