//! The texture unit's operations on images placed by the host side,
//! against values computed by hand.

use super::host::{
    BorderColor, BoundImage, BoundSampler, ImageDim, ImageKind, ImageShape, SamplerState, place,
    read_back,
};
use super::*;
use crate::descriptors::Slot;
use crate::memory::GlobalMemory;
use spvsass_isa::isa::{AtomOp, AtomType};

fn slot(binding: u32) -> Slot {
    Slot {
        set: 0,
        binding,
        element: 0,
    }
}

fn shape(format: Format, dim: ImageDim, size: [u32; 3], levels: u32) -> ImageShape {
    ImageShape {
        format,
        dim,
        width: size[0],
        height: size[1],
        depth: size[2],
        levels,
        samples: 1,
    }
}

fn image(
    kind: ImageKind,
    shape: ImageShape,
    bytes: Vec<u8>,
    sampler: Option<SamplerState>,
) -> BoundImage {
    BoundImage {
        slot: slot(0),
        kind,
        shape,
        bytes,
        sampler,
        offset: 0,
    }
}

fn f32s(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn u32s(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Places one image and returns memory, pools and its handle.
fn one(img: BoundImage) -> (GlobalMemory, TexturePools, u32) {
    let mut mem = GlobalMemory::default();
    let placed = place(&[img], &[], &mut mem).unwrap();
    (mem, placed.pools, placed.handles[0].1)
}

fn float(v: [u32; 4]) -> [f32; 4] {
    v.map(f32::from_bits)
}

fn linear_clamp() -> SamplerState {
    SamplerState {
        address: [Wrap::ClampToEdge; 3],
        mag_filter: Filter::Linear,
        min_filter: Filter::Linear,
        ..SamplerState::default()
    }
}

#[test]
fn fetch_reads_texels_and_zero_outside() {
    let bytes = vec![1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16];
    let s = shape(Format::R8G8B8A8Uint, ImageDim::D2, [2, 2, 1], 1);
    let (mut mem, pools, h) = one(image(ImageKind::Sampled, s, bytes, None));
    let mut tu = TextureUnit::new(&mut mem, pools);
    assert_eq!(tu.fetch(h, [1, 1, 0], 0, 0).unwrap(), [13, 14, 15, 16]);
    assert_eq!(tu.fetch(h, [2, 0, 0], 0, 0).unwrap(), [0; 4]);
    assert_eq!(tu.fetch(h, [0, 0, 0], 1, 0).unwrap(), [0; 4]);
    assert_eq!(tu.fetch(h, [0, 0, 0], 0, 1).unwrap(), [0; 4]);
    assert_eq!(
        tu.fetch(0, [0, 0, 0], 0, 0),
        Err(TexError::NullTexture { handle: 0 })
    );
    assert_eq!(
        tu.fetch(2, [0, 0, 0], 0, 0),
        Err(TexError::TextureIndex { index: 2, max: 1 })
    );
    // A sampled lookup through a handle without a sampler.
    assert_eq!(
        tu.sample(h, &Lookup::new([0.0; 4], 0.0)),
        Err(TexError::NullSampler { handle: h })
    );
}

#[test]
fn linear_filtering_with_each_address_mode() {
    // A 2×1 R8 row: 0.0 and 1.0.
    let s = shape(Format::R8Unorm, ImageDim::D2, [2, 1, 1], 1);
    let at = |state: SamplerState, u: f32| {
        let (mut mem, pools, h) = one(image(ImageKind::Combined, s, vec![0, 255], Some(state)));
        float(
            TextureUnit::new(&mut mem, pools)
                .sample(h, &Lookup::new([u, 0.5, 0.0, 0.0], 0.0))
                .unwrap(),
        )[0]
    };
    // 8-bit UNORM filtering ends in 16 bits (docs/TEXTURES.md): a
    // weight of w/256 on texel 1.0 gives round(w · 65535 / 256) / 65535.
    let n16 = |w: u32| ((f64::from((w * 65535 + 128) >> 8)) / 65535.0) as f32;
    // u = 0.5 → 1.0 texels: halfway between the texels, 32768 / 65535.
    assert_eq!(at(linear_clamp(), 0.5), n16(128));
    assert_eq!(n16(128), 0.500_007_6);
    // u = 0.375 → 0.75 texels: weight 0.25 on texel 1.
    assert_eq!(at(linear_clamp(), 0.375), n16(64));
    // u = 0.376: 0.752 texels, 0.252 of a texel rounds to 65/256.
    assert_eq!(at(linear_clamp(), 0.376), n16(65));
    // At u = 0 clamp-to-edge clamps the coordinate to texel 0's centre.
    assert_eq!(at(linear_clamp(), 0.0), 0.0);
    let repeat = SamplerState {
        address: [Wrap::Repeat; 3],
        ..linear_clamp()
    };
    // Texels -1 (wrapped to 1) and 0, equally weighted.
    assert_eq!(at(repeat, 0.0), n16(128));
    let border = SamplerState {
        address: [Wrap::ClampToBorder; 3],
        border_color: BorderColor::FloatOpaqueWhite,
        ..linear_clamp()
    };
    assert_eq!(at(border, 0.0), n16(128));
    assert_eq!(at(border, 1.25), 1.0);
    let mirror = SamplerState {
        address: [Wrap::MirroredRepeat; 3],
        ..linear_clamp()
    };
    // 2.75 texels → footprint texels 2 and 3, mirrored to 1 and 0, weight
    // 0.25 on the second: 0.75 · 1.0 + 0.25 · 0.0.
    assert_eq!(at(mirror, 1.375), n16(192));
    // Unnormalised: u in texels.
    let unnorm = SamplerState {
        unnormalized_coordinates: true,
        ..linear_clamp()
    };
    assert_eq!(at(unnorm, 1.25), n16(192));
}

#[test]
fn explicit_lod_and_gradients_pick_levels() {
    // 4×4 R32F level 0 all 1.0, 2×2 level 1 all 2.0, 1×1 level 2 4.0.
    let mut v = vec![1.0; 16];
    v.extend([2.0; 4]);
    v.push(4.0);
    let bytes = f32s(&v);
    let s = shape(Format::R32Sfloat, ImageDim::D2, [4, 4, 1], 3);
    let state = SamplerState {
        mipmap_mode: MipFilter::Linear,
        ..linear_clamp()
    };
    let (mut mem, pools, h) = one(image(ImageKind::Combined, s, bytes, Some(state)));
    let mut tu = TextureUnit::new(&mut mem, pools);
    let lod = |tu: &mut TextureUnit, l: Lod| {
        float(
            tu.sample(
                h,
                &Lookup {
                    lod: l,
                    ..Lookup::new([0.5, 0.5, 0.0, 0.0], 0.0)
                },
            )
            .unwrap(),
        )[0]
    };
    assert_eq!(lod(&mut tu, Lod::Explicit(1.0)), 2.0);
    assert_eq!(lod(&mut tu, Lod::Explicit(0.5)), 1.5);
    assert_eq!(lod(&mut tu, Lod::Explicit(1.75)), 3.5);
    assert_eq!(lod(&mut tu, Lod::Explicit(7.0)), 4.0);
    // A gradient of 1/2 in normalised u is 2 texels: λ = 1.
    let g = Lod::Gradient {
        dx: [0.5, 0.0, 0.0],
        dy: [0.0, 0.25, 0.0],
    };
    assert_eq!(lod(&mut tu, g), 2.0);
}

#[test]
fn cube_faces_are_layers() {
    // 1×1 faces holding their index.
    let s = shape(Format::R32Sfloat, ImageDim::Cube, [1, 1, 1], 1);
    let bytes = f32s(&[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]);
    let (mut mem, pools, h) = one(image(ImageKind::Combined, s, bytes, Some(linear_clamp())));
    let mut tu = TextureUnit::new(&mut mem, pools);
    let at = |tu: &mut TextureUnit, h: u32, d: [f32; 3]| {
        float(
            tu.sample(h, &Lookup::new([d[0], d[1], d[2], 0.0], 0.0))
                .unwrap(),
        )[0]
    };
    // Linear filtering is seamless: towards -X's texel (sc = 0.1,
    // tc = -0.2: 0.55 and 0.4 texels), the footprint is -X's texel, +Z's
    // across the right edge (sc = z), +Y's across the top (tc = -y); the
    // corner texel beyond both has no texel (cube::share_corner).
    // Fractions: u − 0.5 = 0.05 → 13/256; v − 0.5 = −0.1 → row −1, 230/256
    // on row 0. Weights (weights.rs): columns 243 and 13; rows of the
    // first 218 (row 0) and 25, of the second 12 (row 0) and 1, the
    // corner's: its 1 goes to -X's own texel.
    let want = (25.0 * 2.0 + 219.0 * 1.0 + 12.0 * 4.0) / 256.0;
    assert_eq!(at(&mut tu, h, [-1.0, 0.2, 0.1]), want);
    // Fetching treats the faces as layers.
    assert_eq!(float(tu.fetch(h, [0, 0, 3], 0, 0).unwrap())[0], 3.0);
    assert_eq!(tu.query(h, Query::Size { lod: 0 }).unwrap(), [1, 1, 0, 0]);
    let (mut mem, pools, h) = one(image(
        ImageKind::Combined,
        s,
        f32s(&[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]),
        Some(SamplerState::default()),
    ));
    let mut tu = TextureUnit::new(&mut mem, pools);
    assert_eq!(at(&mut tu, h, [-1.0, 0.2, 0.1]), 1.0);
    assert_eq!(at(&mut tu, h, [0.0, 3.0, 0.0]), 2.0);
    assert_eq!(at(&mut tu, h, [0.1, 0.1, -1.0]), 5.0);
}

#[test]
fn gather_returns_the_footprint_in_vulkan_order() {
    // 2×2 RG32UI: texel (x, y) = (10·y + x, 100 + x).
    let s = shape(Format::R32G32Uint, ImageDim::D2, [2, 2, 1], 1);
    let bytes = u32s(&[0, 100, 1, 101, 10, 100, 11, 101]);
    let (mut mem, pools, h) = one(image(
        ImageKind::Combined,
        s,
        bytes,
        Some(SamplerState::default()),
    ));
    let mut tu = TextureUnit::new(&mut mem, pools);
    let l = Lookup::new([0.5, 0.5, 0.0, 0.0], 0.0);
    // (i0, j1), (i1, j1), (i1, j0), (i0, j0).
    assert_eq!(
        tu.gather(h, &l, &Gather::default()).unwrap(),
        [10, 11, 1, 0]
    );
    assert_eq!(
        tu.gather(
            h,
            &l,
            &Gather {
                component: 1,
                offsets: None
            }
        )
        .unwrap(),
        [100, 101, 101, 100]
    );
    // Repeat wraps an offset of one texel.
    let off = Gather {
        component: 0,
        offsets: Some([[1, 0], [0, 0], [0, 0], [0, 0]]),
    };
    assert_eq!(tu.gather(h, &l, &off).unwrap(), [11, 11, 1, 0]);
    // Component 3 is the integer 1 the format lacks.
    assert_eq!(
        tu.gather(
            h,
            &l,
            &Gather {
                component: 3,
                offsets: None
            }
        )
        .unwrap(),
        [1; 4]
    );
}

#[test]
fn depth_compares_filter_the_results() {
    let s = shape(Format::D32Sfloat, ImageDim::D2, [2, 1, 1], 1);
    let state = SamplerState {
        compare: Some(CompareOp::Less),
        ..linear_clamp()
    };
    let (mut mem, pools, h) = one(image(
        ImageKind::Combined,
        s,
        f32s(&[0.25, 0.75]),
        Some(state),
    ));
    let mut tu = TextureUnit::new(&mut mem, pools);
    let cmp = |tu: &mut TextureUnit, u: f32, r: f32| {
        float(
            tu.sample(
                h,
                &Lookup {
                    reference: Some(r),
                    ..Lookup::new([u, 0.5, 0.0, 0.0], 0.0)
                },
            )
            .unwrap(),
        )[0]
    };
    // reference < texel: 0.5 < 0.25 fails, 0.5 < 0.75 passes.
    assert_eq!(cmp(&mut tu, 0.5, 0.5), 0.5);
    assert_eq!(cmp(&mut tu, 1.0, 0.5), 1.0);
    assert_eq!(cmp(&mut tu, 0.0, 0.1), 1.0);
    let l = Lookup {
        reference: Some(0.5),
        ..Lookup::new([0.5, 0.5, 0.0, 0.0], 0.0)
    };
    assert_eq!(
        float(tu.gather(h, &l, &Gather::default()).unwrap()),
        [0.0, 1.0, 1.0, 0.0]
    );
}

#[test]
fn integer_formats_refuse_linear_filtering() {
    let s = shape(Format::R8Uint, ImageDim::D2, [1, 1, 1], 1);
    let (mut mem, pools, h) = one(image(ImageKind::Combined, s, vec![7], Some(linear_clamp())));
    assert_eq!(
        TextureUnit::new(&mut mem, pools).sample(h, &Lookup::new([0.5; 4], 0.0)),
        Err(TexError::FilterInteger {
            index: 1,
            format: Format::R8Uint
        })
    );
}

#[test]
fn queries() {
    let s = shape(Format::R8Unorm, ImageDim::D2Array, [5, 3, 4], 3);
    let bytes = vec![0; s.bytes() as usize];
    let (mut mem, pools, h) = one(image(ImageKind::Sampled, s, bytes, None));
    let mut tu = TextureUnit::new(&mut mem, pools);
    assert_eq!(tu.query(h, Query::Size { lod: 1 }).unwrap(), [2, 1, 4, 0]);
    assert_eq!(tu.query(h, Query::Size { lod: 3 }).unwrap(), [0; 4]);
    assert_eq!(tu.query(h, Query::Levels).unwrap(), [3, 0, 0, 0]);
    assert_eq!(tu.query(h, Query::Samples).unwrap(), [1, 0, 0, 0]);
}

#[test]
fn storage_loads_stores_and_atomics() {
    let s = shape(Format::B8G8R8A8Unorm, ImageDim::D2, [2, 1, 1], 1);
    let mut mem = GlobalMemory::default();
    let images = [
        image(ImageKind::Storage, s, vec![0; 8], None),
        BoundImage {
            slot: slot(1),
            ..image(
                ImageKind::Storage,
                shape(Format::R32Uint, ImageDim::D1, [4, 1, 1], 1),
                u32s(&[5, 6, 7, 8]),
                None,
            )
        },
    ];
    let placed = place(&images, &[], &mut mem).unwrap();
    let (bgra, r32) = (placed.handles[0].1, placed.handles[1].1);
    let mut tu = TextureUnit::new(&mut mem, placed.pools);
    let red = [1.0f32, 0.0, 0.2, 0.5].map(f32::to_bits);
    tu.store(bgra, [1, 0, 0], 0, red).unwrap();
    // Stores outside the image are dropped.
    tu.store(bgra, [2, 0, 0], 0, red).unwrap();
    assert_eq!(
        float(tu.load(bgra, [1, 0, 0], 0).unwrap()),
        [1.0, 0.0, 0.2, 128.0 / 255.0]
    );
    assert_eq!(
        tu.load_raw(bgra, [1, 0, 0], 0).unwrap(),
        [u32::from_le_bytes([51, 0, 255, 128]), 0, 0, 0]
    );
    tu.store_raw(bgra, [0, 0, 0], 0, [0x0403_0201, 0, 0, 0])
        .unwrap();
    assert_eq!(
        tu.atomic(r32, [2, 0, 0], 0, AtomOp::Add, AtomType::U32, 10, 0)
            .unwrap(),
        7
    );
    assert_eq!(
        tu.atomic(r32, [2, 0, 0], 0, AtomOp::CmpExch, AtomType::U32, 1, 17)
            .unwrap(),
        17
    );
    assert_eq!(
        tu.atomic(
            r32,
            [3, 0, 0],
            0,
            AtomOp::Min,
            AtomType::S32,
            (-1i32) as u32,
            0
        )
        .unwrap(),
        8
    );
    assert_eq!(
        tu.atomic(r32, [4, 0, 0], 0, AtomOp::Add, AtomType::U32, 1, 0)
            .unwrap(),
        0
    );
    assert_eq!(
        tu.atomic(bgra, [0, 0, 0], 0, AtomOp::Add, AtomType::U32, 1, 0),
        Err(TexError::AtomicFormat {
            index: 1,
            format: Format::R8G8B8A8Unorm
        })
    );
    assert_eq!(
        read_back(&placed, slot(0), &mem).unwrap(),
        vec![1, 2, 3, 4, 51, 0, 255, 128]
    );
    assert_eq!(
        read_back(&placed, slot(1), &mem).unwrap(),
        u32s(&[5, 6, 1, u32::MAX])
    );
}

#[test]
fn texel_buffers_fetch_by_index() {
    let s = shape(Format::R16G16Sint, ImageDim::Buffer, [3, 1, 1], 1);
    let bytes = vec![1, 0, 0xff, 0xff, 2, 0, 3, 0, 4, 0, 5, 0];
    let (mut mem, pools, h) = one(image(ImageKind::UniformTexelBuffer, s, bytes, None));
    let mut tu = TextureUnit::new(&mut mem, pools);
    assert_eq!(tu.fetch(h, [0, 0, 0], 0, 0).unwrap(), [1, u32::MAX, 0, 1]);
    assert_eq!(tu.fetch(h, [2, 0, 0], 0, 0).unwrap(), [4, 5, 0, 1]);
    assert_eq!(tu.fetch(h, [3, 0, 0], 0, 0).unwrap(), [0; 4]);
    assert_eq!(tu.query(h, Query::Size { lod: 0 }).unwrap(), [3, 0, 0, 0]);
    assert_eq!(
        tu.sample(h | (1 << 20), &Lookup::new([0.0; 4], 0.0)),
        Err(TexError::SamplerIndex { index: 1, max: 0 })
    );
}

#[test]
fn separate_samplers_and_3d_trilinear() {
    // 2×2×2 R32F: texel (x, y, z) = x + 2y + 4z; the centre averages all.
    let s = shape(Format::R32Sfloat, ImageDim::D3, [2, 2, 2], 1);
    let bytes = f32s(&[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]);
    let mut mem = GlobalMemory::default();
    let placed = place(
        &[image(ImageKind::Sampled, s, bytes, None)],
        &[BoundSampler {
            slot: slot(1),
            state: linear_clamp(),
        }],
        &mut mem,
    )
    .unwrap();
    // A shader combines the image's handle with the sampler's.
    let sampler = placed
        .handles
        .iter()
        .find(|(s, _)| *s == slot(1))
        .unwrap()
        .1;
    let texture = placed
        .handles
        .iter()
        .find(|(s, _)| *s == slot(0))
        .unwrap()
        .1;
    let h = texture | sampler;
    let mut tu = TextureUnit::new(&mut mem, placed.pools);
    assert_eq!(
        float(
            tu.sample(h, &Lookup::new([0.5, 0.5, 0.5, 0.0], 0.0))
                .unwrap()
        )[0],
        3.5
    );
    // A quarter texel toward x = 1 (u = 1.25 texels → weight 0.75 on x = 1).
    assert_eq!(
        float(
            tu.sample(h, &Lookup::new([0.625, 0.25, 0.25, 0.0], 0.0))
                .unwrap()
        )[0],
        0.75
    );
}

#[test]
fn host_side_checks_sizes() {
    let s = shape(Format::R8Unorm, ImageDim::D2, [2, 2, 1], 1);
    let mut mem = GlobalMemory::default();
    let e = place(
        &[image(ImageKind::Sampled, s, vec![0; 3], None)],
        &[],
        &mut mem,
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "set 0 binding 0: the image's bytes are 3, its format and shape need 4"
    );
    let e = place(
        &[image(ImageKind::Combined, s, vec![0; 4], None)],
        &[],
        &mut mem,
    )
    .unwrap_err();
    assert!(matches!(e, super::host::HostError::Kind { .. }), "{e}");
}

#[test]
fn a_dispatch_binds_handles_in_set_memory_and_the_pools() {
    use crate::dispatch::ComputeInputs;
    use spvsass_isa::abi::{RootTable, set_address};
    let s = shape(Format::R32Uint, ImageDim::D1, [2, 1, 1], 1);
    let inputs = ComputeInputs {
        images: vec![BoundImage {
            slot: Slot {
                set: 1,
                binding: 2,
                element: 1,
            },
            ..image(ImageKind::Storage, s, u32s(&[41, 42]), None)
        }],
        samplers: vec![BoundSampler {
            slot: Slot {
                set: 1,
                binding: 0,
                element: 0,
            },
            state: SamplerState::default(),
        }],
        ..ComputeInputs::default()
    };
    let mut root = RootTable::default();
    let mut resources = crate::memory::Resources::default();
    let bases = crate::descriptors::bind(inputs, &[], &mut root, &mut resources).unwrap();
    // Set 1's address from the root table, then binding 2's descriptors.
    let at = usize::from(set_address(1).unwrap());
    let set = u64::from_le_bytes(root.bytes()[at..at + 8].try_into().unwrap());
    let word = |mem: &mut GlobalMemory, a: u64| {
        u32::from_le_bytes(mem.read(a, 4).unwrap().try_into().unwrap())
    };
    let mut mem = resources.global.clone();
    let first = word(&mut mem, set + 8);
    let handle = word(&mut mem, set + u64::from(first) + 16);
    let zero = word(&mut mem, set);
    let sampler = word(&mut mem, set + u64::from(zero));
    assert_eq!((Handle(handle).texture(), Handle(handle).sampler()), (1, 0));
    assert_eq!(
        (Handle(sampler).texture(), Handle(sampler).sampler()),
        (0, 1)
    );
    // Element 0 of binding 2 is the null descriptor.
    assert_eq!(word(&mut mem, set + u64::from(first)), 0);
    let mut tu = TextureUnit::new(&mut resources.global, resources.textures);
    assert_eq!(tu.load(handle, [1, 0, 0], 0).unwrap(), [42, 0, 0, 1]);
    tu.store(handle, [0, 0, 0], 0, [7, 0, 0, 0]).unwrap();
    let (_, _, images) = crate::descriptors::read_back(&bases, &mut resources);
    assert_eq!(
        images[&Slot {
            set: 1,
            binding: 2,
            element: 1
        }],
        u32s(&[7, 42])
    );
}

#[test]
fn png_files_become_rgba8() {
    let mut file = Vec::new();
    {
        let mut e = png::Encoder::new(&mut file, 2, 1);
        e.set_color(png::ColorType::Rgb);
        e.set_depth(png::BitDepth::Eight);
        let mut w = e.write_header().unwrap();
        w.write_image_data(&[1, 2, 3, 4, 5, 6]).unwrap();
    }
    let (w, h, bytes) = super::host::png_rgba8(&file).unwrap();
    assert_eq!((w, h), (2, 1));
    // No alpha in the file: opaque.
    assert_eq!(bytes, [1, 2, 3, 255, 4, 5, 6, 255]);
    let e = super::host::png_rgba8(&file[..20]).unwrap_err();
    assert!(
        e.to_string().starts_with("cannot read the PNG image"),
        "{e}"
    );
}

#[test]
fn multisampled_texels_and_1d_arrays() {
    // 2×1 R32UI with 4 samples: texel x, sample s holds 10·x + s, stored
    // as the 4×2 sample grid (2×2 samples a pixel, sample s at (s & 1,
    // s >> 1) of its pixel's square).
    let s = ImageShape {
        samples: 4,
        ..shape(Format::R32Uint, ImageDim::D2, [2, 1, 1], 1)
    };
    let (mut mem, pools, h) = one(image(
        ImageKind::Sampled,
        s,
        u32s(&[0, 1, 10, 11, 2, 3, 12, 13]),
        None,
    ));
    let mut tu = TextureUnit::new(&mut mem, pools);
    assert_eq!(tu.fetch(h, [1, 0, 0], 0, 2).unwrap(), [12, 0, 0, 1]);
    assert_eq!(tu.fetch(h, [1, 0, 0], 0, 4).unwrap(), [0; 4]);
    assert_eq!(tu.query(h, Query::Samples).unwrap(), [4, 0, 0, 0]);
    // A 1D array of 2 layers of 2 texels: the layer follows x, and a
    // sampled lookup rounds it to the nearest (ties to even) and clamps.
    let s = shape(Format::R32Sfloat, ImageDim::D1Array, [2, 1, 2], 1);
    let (mut mem, pools, h) = one(image(
        ImageKind::Combined,
        s,
        f32s(&[1.0, 2.0, 3.0, 4.0]),
        Some(SamplerState::default()),
    ));
    let mut tu = TextureUnit::new(&mut mem, pools);
    assert_eq!(float(tu.fetch(h, [1, 1, 0], 0, 0).unwrap())[0], 4.0);
    let at = |tu: &mut TextureUnit, u: f32, layer: f32| {
        float(
            tu.sample(h, &Lookup::new([u, layer, 0.0, 0.0], 0.0))
                .unwrap(),
        )[0]
    };
    assert_eq!(at(&mut tu, 0.25, 0.5), 1.0);
    assert_eq!(at(&mut tu, 0.75, 0.6), 4.0);
    assert_eq!(at(&mut tu, 0.25, 7.0), 3.0);
    assert_eq!(tu.query(h, Query::Size { lod: 0 }).unwrap(), [2, 2, 0, 0]);
}

/// A texel buffer bound at an offset: the header's address is the
/// buffer's plus the offset (texels before it are not seen, the size is
/// the view's), the whole buffer is read back; an offset off the 16-byte
/// alignment, or on an image, is refused.
#[test]
fn texel_buffer_at_an_offset() {
    let s = shape(Format::R32Uint, ImageDim::Buffer, [3, 1, 1], 1);
    let bytes = u32s(&[90, 91, 92, 93, 10, 11, 12]);
    let img = BoundImage {
        offset: 16,
        ..image(ImageKind::StorageTexelBuffer, s, bytes.clone(), None)
    };
    let mut mem = GlobalMemory::default();
    let placed = place(std::slice::from_ref(&img), &[], &mut mem).unwrap();
    let h = placed.handles[0].1;
    let mut tu = TextureUnit::new(&mut mem, placed.pools);
    assert_eq!(tu.fetch(h, [0, 0, 0], 0, 0).unwrap()[0], 10);
    assert_eq!(tu.fetch(h, [2, 0, 0], 0, 0).unwrap()[0], 12);
    assert_eq!(tu.fetch(h, [3, 0, 0], 0, 0).unwrap()[0], 0, "past the view");
    assert_eq!(tu.query(h, Query::Size { lod: 0 }).unwrap()[0], 3);
    tu.store(h, [1, 0, 0], 0, [77, 0, 0, 0]).unwrap();
    assert_eq!(
        read_back(&placed, slot(0), &mem).unwrap(),
        u32s(&[90, 91, 92, 93, 10, 77, 12])
    );
    let e = place(
        &[BoundImage {
            offset: 8,
            bytes: u32s(&[0, 0, 1, 2, 3]),
            ..img.clone()
        }],
        &[],
        &mut mem,
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "set 0 binding 0: a texel buffer view's offset 8 must be a multiple of 16"
    );
    let e = place(
        &[BoundImage {
            offset: 16,
            ..image(
                ImageKind::Storage,
                shape(Format::R32Uint, ImageDim::D1, [3, 1, 1], 1),
                bytes,
                None,
            )
        }],
        &[],
        &mut mem,
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "set 0 binding 0: only texel buffers are bound at an offset"
    );
}

/// A multisampled 2D array (2×1 pixels, 2 layers, 8 samples in the
/// 4×2-D3D layout) fetched sample by sample, and the same bytes bound as
/// a storage image: its header is the 8×2 sample grid, its descriptor
/// carries log2 of the grid (bits 20..23) and the sample map, and a
/// surface op at the grid position NVK's lowering computes reads the
/// same texel.
#[test]
fn multisampled_array_layers_and_storage_views() {
    use super::samples::SampleLayout;
    let s = ImageShape {
        samples: 8,
        ..shape(Format::R32Uint, ImageDim::D2Array, [2, 1, 2], 1)
    };
    let layout = SampleLayout::S4x2D3d;
    // Texel (x, layer), sample k holds 100·layer + 10·x + k, at grid
    // position (4x + sx, sy) of the layer's 8×2 grid.
    let mut words = vec![0u32; 2 * 8 * 2];
    for layer in 0..2u32 {
        for x in 0..2u32 {
            for k in 0..8 {
                let (sx, sy) = layout.position(k);
                words[(layer * 16 + sy * 8 + 4 * x + sx) as usize] = 100 * layer + 10 * x + k;
            }
        }
    }
    let (mut mem, pools, h) = one(image(ImageKind::Sampled, s, u32s(&words), None));
    let mut tu = TextureUnit::new(&mut mem, pools);
    for (x, layer, k) in [(0, 0, 0), (1, 0, 5), (0, 1, 7), (1, 1, 3)] {
        assert_eq!(
            tu.fetch(h, [x, 0, layer], 0, k).unwrap()[0],
            100 * layer as u32 + 10 * x as u32 + k
        );
    }
    assert_eq!(tu.fetch(h, [0, 0, 0], 0, 8).unwrap(), [0; 4], "no sample 8");
    assert_eq!(tu.query(h, Query::Samples).unwrap()[0], 8);
    assert_eq!(tu.query(h, Query::Size { lod: 0 }).unwrap(), [2, 1, 2, 0]);

    let mut mem = GlobalMemory::default();
    let placed = place(
        &[image(ImageKind::Storage, s, u32s(&words), None)],
        &[],
        &mut mem,
    )
    .unwrap();
    let h = placed.handles[0].1;
    assert_eq!(h >> 20, 2 | 1 << 2, "sw = 4, sh = 2");
    let map = placed.sample_maps[0].1;
    assert_eq!(map, layout.sample_map());
    let mut tu = TextureUnit::new(&mut mem, placed.pools);
    assert_eq!(tu.query(h, Query::Size { lod: 0 }).unwrap(), [8, 2, 2, 0]);
    assert_eq!(tu.query(h, Query::Samples).unwrap()[0], 1);
    let (x, layer, k) = (1, 1, 6);
    let nibble = map >> (4 * k) & 0xf;
    let at = [4 * x + (nibble & 3) as i32, (nibble >> 2) as i32, layer];
    assert_eq!(tu.load(h, at, 0).unwrap()[0], 100 + 10 + 6);
    // 16 samples do not fit the map; 3 samples and mipmapped or 3D
    // multisampled images do not exist.
    let mut refused = |s: ImageShape, kind| {
        place(
            &[image(kind, s, vec![0; s.bytes() as usize], None)],
            &[],
            &mut mem,
        )
        .unwrap_err()
        .to_string()
    };
    let ms = |samples, dim, levels| ImageShape {
        samples,
        ..shape(Format::R32Uint, dim, [2, 2, 1], levels)
    };
    assert!(refused(ms(16, ImageDim::D2, 1), ImageKind::Storage).contains("at most 8 samples"));
    assert!(refused(ms(3, ImageDim::D2, 1), ImageKind::Sampled).contains("1, 2, 4, 8 or 16"));
    assert!(refused(ms(4, ImageDim::D2, 2), ImageKind::Sampled).contains("one level"));
    assert!(refused(ms(4, ImageDim::D3, 1), ImageKind::Sampled).contains("2d image"));
}

#[test]
fn cube_gradient_lods_of_the_h200_capture() {
    // tex_grad3d_rho's cube lookups (16×16 faces, level L holding 64·L,
    // so each word is λ in 1/256 steps): direction, the two derivatives
    // and the step the H200 took (docs/TEXTURES.md, "3D and cube
    // gradients").
    let steps = |d: [f32; 3], dx: [f32; 3], dy: [f32; 3]| {
        (super::cube::gradient_lod(d, dx, dy, 16.0) * 256.0).floor()
    };
    let p = [1.0, 0.25, -0.125];
    // Along the major axis only: a forward difference (s of p + d less s
    // of p) counts 1.14 texels; the projection (da·m − a·dm)/m² 2.1.
    assert_eq!(steps(p, [0.9375, 0.0, 0.0], [0.0; 3]), 47.0);
    // Face coordinates on a 1/11 grid: ρ = 1.08984375 + 11/32 · 3/11 lies
    // on a table boundary in exact arithmetic; rounding the moved point's
    // s up takes the step below.
    assert_eq!(steps(p, [0.375, 0.281_25, 0.0], [0.0; 3]), 62.0);
    let n = [-0.0625, 0.3125, -1.0];
    assert_eq!(steps(n, [0.125, 0.0, -0.375], [0.0; 3]), 35.0);
    // A pair pointing nearly opposite ways counts 11/16 of its difference:
    // (0, −1) and (−0.33, 0.67) texels give 1.23, not the larger 1.0.
    assert_eq!(steps(p, [0.0, 0.125, 0.0], [0.5, 0.0, 0.0]), 75.0);
    assert_eq!(steps(p, [0.0, 0.093_75, 0.0], [0.9375, 0.0, 0.0]), 95.0);
}

#[test]
fn cube_gradient_past_an_edge_unfolds() {
    // The H100's tex_grad3d, invocation 19, lookup 3 (4×4 faces): on −x
    // at (−2, −0.75, 0.125) the first derivative moves to (−0.5, −0.75,
    // 0.125), past the −y edge (|y| > |x|). Unfolded onto −y it lies 1/6
    // of a face coordinate past the edge: t 1.1667, s 0.5833 (not t 1.25,
    // s 0.5625 on −x's plane), ρ = 1.916 + 11/32 · 0.208 = 1.988: step
    // 253, as the H100 took (the plane's ρ 2.38 would give 320).
    let steps = (super::cube::gradient_lod(
        [-2.0, -0.75, 0.125],
        [1.5, 0.0, 0.0],
        [-0.5, 0.8125, 0.031_25],
        4.0,
    ) * 256.0)
        .floor();
    assert_eq!(steps, 253.0);
}
