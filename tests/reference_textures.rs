//! Images, texel buffers and samplers on this machine's Vulkan driver
//! (lavapipe here and in CI) against the simulator's texture unit: each
//! run description (tests/runs/tex_sample, tex_misc, image_ops) is run on
//! the driver, and every value its shader wrote is computed again here by
//! `spvsass::sim::texture::TextureUnit` from the same description's
//! images and samplers, placed as the simulator places them. Integer and
//! nearest results must be equal; filtered ones may differ by the
//! precision Vulkan leaves to the implementation (the bound and the
//! largest difference seen are below).
//!
//! Without a Vulkan loader or driver the tests print that they skipped,
//! unless SPVSASS_REQUIRE_VULKAN=1 (CI sets it): then they fail.

use spvsass::backend::isa::{AtomOp, AtomType};
use spvsass::reference::{self, Capture, ReferenceError, RunDescription};
use spvsass::sim::texture::host::{Placed, place, read_back};
use spvsass::sim::texture::{Gather, Lod, Lookup, Query, TextureUnit, cube};
use spvsass::sim::{GlobalMemory, Slot};
use std::path::PathBuf;

fn runs() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/runs")
}

fn vulkan_required() -> bool {
    std::env::var("SPVSASS_REQUIRE_VULKAN").is_ok_and(|v| v == "1")
}

/// Runs `name` on the driver; `None` without one.
fn run(name: &str) -> Option<Capture> {
    match reference::run_file(&runs().join(format!("{name}.json"))) {
        Err(
            e @ (ReferenceError::NoLoader(_)
            | ReferenceError::NoDevice(_)
            | ReferenceError::NoUsableDevice(_)),
        ) => {
            assert!(!vulkan_required(), "SPVSASS_REQUIRE_VULKAN=1, but {e}");
            eprintln!("skipped {name}: {e}");
            None
        }
        r => Some(r.unwrap_or_else(|e| panic!("{name}: {e}"))),
    }
}

/// The description's images and samplers placed as the simulator places
/// them.
struct Unit {
    mem: GlobalMemory,
    placed: Placed,
}

impl Unit {
    fn new(name: &str) -> Unit {
        let desc = RunDescription::load(&runs().join(format!("{name}.json"))).unwrap();
        let (images, samplers) =
            reference::bound_images(&desc.images, &desc.samplers, &runs()).unwrap();
        let mut mem = GlobalMemory::default();
        let placed = place(&images, &samplers, &mut mem).unwrap();
        Unit { mem, placed }
    }

    fn handle(&self, binding: u32, element: u32) -> u32 {
        let slot = Slot {
            set: 0,
            binding,
            element,
        };
        self.placed
            .handles
            .iter()
            .find(|(s, _)| *s == slot)
            .expect("bound")
            .1
    }

    fn tu(&mut self) -> TextureUnit<'_> {
        TextureUnit::new(&mut self.mem, self.placed.pools)
    }
}

/// The words of the read-back buffer or image at `binding`.
fn words(c: &Capture, binding: u32) -> &[u32] {
    &c.result
        .buffers
        .iter()
        .find(|b| b.binding == binding)
        .expect("read back")
        .words
}

fn vec4s(w: &[u32]) -> Vec<[u32; 4]> {
    w.chunks_exact(4)
        .map(|c| [c[0], c[1], c[2], c[3]])
        .collect()
}

/// UNORM texels as floats: Vulkan defines the value as `c / (2^b − 1)`;
/// the texture unit rounds that quotient once, lavapipe multiplies by the
/// rounded reciprocal and is 1 ULP off for some `c` (the spec wins; the
/// tests allow lavapipe that ULP).
fn unorm_eq(driver: [u32; 4], unit: [u32; 4]) -> bool {
    (0..4).all(|c| driver[c].abs_diff(unit[c]) <= 1)
}

/// The largest difference between float words.
fn float_distance(a: [u32; 4], b: [u32; 4]) -> f32 {
    (0..4)
        .map(|c| (f32::from_bits(a[c]) - f32::from_bits(b[c])).abs())
        .fold(0.0, f32::max)
}

/// One step of a filter weight: both drivers report
/// subTexelPrecisionBits = mipmapPrecisionBits = 8.
const STEP: f32 = 1.0 / 256.0;

/// How far a filtered value may be from lavapipe's, for a lookup reading
/// `levels` levels (1 or 2) over `axes` axes of texels whose values lie in
/// a range of `range`, counted in weight steps (each step of weight moved
/// between two texels moves the value by at most `range` of a step):
/// - the texture unit rounds its weights once per split, `2^axes − 1`
///   splits per level (sim/src/texture/weights.rs), each moving at most
///   half a step;
/// - lavapipe takes its own 8-bit coordinate fraction on each axis, which
///   may be one step from the texture unit's (other rounding);
/// - with two levels, its level fraction may be one step from the texture
///   unit's (which truncates λ; lavapipe approximates log2 and rounds).
fn filter_bound(levels: u32, axes: u32, range: f32) -> f32 {
    let unit = levels as f32 * ((1u32 << axes) - 1) as f32 * 0.5;
    let coordinates = axes as f32;
    let level_fraction = if levels == 2 { 1.0 } else { 0.0 };
    (unit + coordinates + level_fraction) * STEP * range
}

/// Filtered RGBA8 lookups (two levels, two axes, values 0..1), plus
/// lavapipe's rounding of its result to 8 bits (half an 8-bit step): 6
/// weight steps and half an 8-bit step in all.
fn rgba8_tolerance() -> f32 {
    filter_bound(2, 2, 1.0) + 0.5 / 255.0
}

#[test]
fn filtered_lookups_and_fetches() {
    let Some(c) = run("tex_sample") else { return };
    let mut unit = Unit::new("tex_sample");
    let tex = unit.handle(0, 0);
    let samplers: Vec<u32> = (0..5).map(|e| unit.handle(1, e)).collect();
    let got = vec4s(words(&c, 2));
    let mut worst = 0f32;
    for i in 0..256u32 {
        let u = ((i % 16) as f32 - 4.0) / 8.0 + 1.0 / 32.0;
        let v = (((i / 16) % 16) as f32 - 4.0) / 8.0 + 3.0 / 64.0;
        let lod = (i % 5) as f32 * 0.3 + 0.05;
        let at = |k: u32| got[(i * 7 + k) as usize];
        let fetch = unit
            .tu()
            .fetch(tex, [(i % 4) as i32, ((i / 4) % 4) as i32, 0], 0, 0)
            .unwrap();
        assert!(
            unorm_eq(at(0), fetch),
            "texelFetch {i}: driver {:?}, texture unit {:?}",
            at(0),
            fetch
        );
        let grad = Lookup {
            lod: Lod::Gradient {
                dx: [(i % 7) as f32 * 0.1, 0.05, 0.0],
                dy: [0.0, (i % 5) as f32 * 0.07, 0.0],
            },
            ..Lookup::new([u, v, 0.0, 0.0], 0.0)
        };
        // Vulkan lets ρ along each axis be any value from the larger
        // derivative to their sum; the texture unit takes the larger plus
        // 11/32 of the other (the H200's, docs/TEXTURES.md).
        // lavapipe's λ lies up to 1/16 below that range (a log2
        // approximation), so the driver's value must match the texture
        // unit's at some λ from 1/16 below the range to its top.
        let want = unit.tu().sample(tex | samplers[0], &grad).unwrap();
        let (dx, dy) = ([(i % 7) as f32 * 0.4, 0.2], [0.0, (i % 5) as f32 * 0.28]);
        let lo = dx[0].max(dx[1]).max(dy[0].max(dy[1]));
        let hi = (dx[0] + dx[1]).max(dy[0] + dy[1]);
        let (lo, hi) = (lo.log2() - 1.0 / 16.0, hi.log2());
        let d = (0..=((hi - lo) * 256.0) as u32 + 1)
            .map(|k| lo + k as f32 / 256.0)
            .map(|l| {
                let lookup = Lookup::new([u, v, 0.0, 0.0], l);
                float_distance(at(5), unit.tu().sample(tex | samplers[0], &lookup).unwrap())
            })
            .fold(float_distance(at(5), want), f32::min);
        worst = worst.max(d);
        assert!(
            d <= rgba8_tolerance(),
            "textureGrad {i}: driver {:?}, texture unit {:?}",
            at(5).map(f32::from_bits),
            want.map(f32::from_bits)
        );
        let want = unit
            .tu()
            .sample(tex | samplers[4], &Lookup::new([u, v, 0.0, 0.0], lod))
            .unwrap();
        assert!(
            unorm_eq(at(6), want),
            "mirror-clamp-to-edge {i}: driver {:?}, texture unit {want:?}",
            at(6)
        );
        for (k, &s) in samplers[..4].iter().enumerate() {
            let want = unit
                .tu()
                .sample(tex | s, &Lookup::new([u, v, 0.0, 0.0], lod))
                .unwrap();
            let have = at(k as u32 + 1);
            if k == 2 {
                // Nearest filtering and nearest mip: the same texel.
                assert!(
                    unorm_eq(have, want),
                    "sampler {k}, invocation {i}: ({u}, {v}) lod {lod}: driver {have:?}, texture unit {want:?}"
                );
            } else {
                let d = float_distance(have, want);
                worst = worst.max(d);
                assert!(
                    d <= rgba8_tolerance(),
                    "sampler {k}, invocation {i}: ({u}, {v}) lod {lod}: driver {:?}, texture unit {:?}",
                    have.map(f32::from_bits),
                    want.map(f32::from_bits)
                );
            }
        }
    }
    eprintln!(
        "tex_sample: largest filtered difference {worst} ({} of an 8-bit step)",
        worst * 255.0
    );
}

#[test]
fn gathers_compares_cubes_arrays_and_volumes() {
    let Some(c) = run("tex_misc") else { return };
    let mut unit = Unit::new("tex_misc");
    let h: Vec<u32> = (0..5).map(|b| unit.handle(b, 0)).collect();
    let got = vec4s(words(&c, 5));
    let mut worst = 0f32;
    let mut corners = 0;
    for i in 0..64u32 {
        let uv = [
            (i % 8) as f32 / 8.0 + 1.0 / 32.0,
            (i / 8) as f32 / 8.0 + 1.0 / 64.0,
        ];
        let reference = (i % 7) as f32 / 6.0;
        let dir = [
            (i % 4) as f32 - 1.5,
            ((i / 4) % 4) as f32 - 1.25,
            (i / 16) as f32 - 1.75,
        ];
        let at = |k: u32| got[(i * 8 + k) as usize];
        let l = Lookup::new([uv[0], uv[1], 0.0, 0.0], 0.0);
        let mut tu = unit.tu();
        assert_eq!(
            at(0),
            tu.gather(h[0], &l, &Gather::default()).unwrap(),
            "gather {i}"
        );
        let offset = Lookup {
            offset: [1, -1, 0],
            ..l
        };
        let g1 = Gather {
            component: 1,
            offsets: None,
        };
        assert_eq!(
            at(1),
            tu.gather(h[0], &offset, &g1).unwrap(),
            "gather offset {i}"
        );
        let cmp = Lookup {
            reference: Some(reference),
            ..l
        };
        let r = tu.sample(h[1], &cmp).unwrap()[0];
        let d = float_distance(at(2), [r; 4]);
        worst = worst.max(d);
        assert!(
            d <= 1.0 / 64.0,
            "compare {i}: driver {:?}, texture unit {}",
            at(2).map(f32::from_bits),
            f32::from_bits(r)
        );
        assert_eq!(
            at(3),
            tu.gather(h[1], &cmp, &Gather::default()).unwrap(),
            "compare gather {i}"
        );
        let unit = unit_major(dir);
        let cube = tu
            .sample(h[2], &Lookup::new([unit[0], unit[1], unit[2], 0.0], 0.0))
            .unwrap();
        // Linear and seamless: texels across a face's edge come from the
        // neighbouring face. Footprints over a face's corner (both
        // coordinates across) are left out: Vulkan leaves the corner
        // texel to the implementation.
        let (_, fs, ft) = cube::face_coords(unit);
        let across = |c: f32| {
            let i0 = (c * 2.0 - 0.5).floor();
            i0 < 0.0 || i0 + 1.0 > 1.0
        };
        if across(fs) && across(ft) {
            corners += 1;
        } else {
            let d = float_distance(at(4), cube);
            worst = worst.max(d);
            // One level, two axes, texels 0..23/32.
            assert!(
                d <= filter_bound(1, 2, 23.0 / 32.0),
                "cube {i}: direction {dir:?}: driver {:?}, texture unit {:?}",
                at(4).map(f32::from_bits),
                cube.map(f32::from_bits)
            );
        }
        let layer = (i % 4) as f32 - 0.25;
        let arr = tu
            .sample(h[3], &Lookup::new([uv[0], uv[1], layer, 0.0], 0.0))
            .unwrap();
        assert_eq!(at(5), arr, "array {i}");
        let w = (i % 3) as f32 / 3.0 + 0.1;
        let vol = tu
            .sample(h[4], &Lookup::new([uv[0], uv[1], w, 0.0], 0.0))
            .unwrap();
        let d = float_distance(at(6), vol);
        worst = worst.max(d);
        // One level, three axes, texels 0..0.875.
        assert!(
            d <= filter_bound(1, 3, 0.875),
            "3D {i}: driver {:?}, texture unit {:?}",
            at(6).map(f32::from_bits),
            vol.map(f32::from_bits)
        );
        let size = tu.query(h[3], Query::Size { lod: 0 }).unwrap();
        let levels = tu.query(h[3], Query::Levels).unwrap()[0];
        assert_eq!(at(7), [size[0], size[1], size[2], levels], "sizes {i}");
    }
    assert!(corners < 32, "{corners} of 64 cube lookups cross a corner");
    eprintln!("tex_misc: largest filtered difference {worst}; {corners} cube corners left out");
}

#[test]
fn storage_images_atomics_and_texel_buffers() {
    let Some(c) = run("image_ops") else { return };
    let mut unit = Unit::new("image_ops");
    let h: Vec<u32> = (0..6).map(|b| unit.handle(b, 0)).collect();
    let got = vec4s(words(&c, 6));
    for i in 0..16u32 {
        let p = [(i % 4) as i32, (i / 4) as i32, 0];
        let mut tu = unit.tu();
        let color = tu.load(h[0], p, 0).unwrap();
        // The store converts what the driver loaded (its UNORM values may
        // be 1 ULP off, above), so the comparison isolates the store.
        let loaded = got[(i * 4 + 1) as usize];
        let out = loaded.map(|w| (f32::from_bits(w) * 2.0 - 0.5).to_bits());
        tu.store(h[1], p, 0, out).unwrap();
        tu.atomic(
            h[2],
            [p[0] & 1, p[1] & 1, 0],
            0,
            AtomOp::Add,
            AtomType::U32,
            i + 1,
            0,
        )
        .unwrap();
        tu.atomic(
            h[2],
            [2 + (p[0] & 1), p[1], 0],
            0,
            AtomOp::Max,
            AtomType::U32,
            i * 3,
            0,
        )
        .unwrap();
        let t = tu.fetch(h[3], [i as i32, 0, 0], 0, 0).unwrap();
        let sum = (t[0] as i32) as f32 * 0.5 + (t[1] as i32) as f32;
        tu.store(h[4], [i as i32, 0, 0], 0, [sum.to_bits(), 0, 0, 0])
            .unwrap();
        assert_eq!(got[(i * 4) as usize], t, "texel buffer {i}");
        let have = got[(i * 4 + 1) as usize];
        assert!(
            unorm_eq(have, color),
            "imageLoad {i}: driver {have:?}, texture unit {color:?}"
        );
        let size = tu.query(h[5], Query::Size { lod: 1 }).unwrap();
        let src = tu.query(h[0], Query::Size { lod: 0 }).unwrap();
        assert_eq!(
            got[(i * 4 + 2) as usize],
            [src[0], src[1], size[0], size[1]],
            "sizes {i}"
        );
        let levels = tu.query(h[5], Query::Levels).unwrap()[0];
        let stb = tu.query(h[4], Query::Size { lod: 0 }).unwrap()[0];
        let tb = tu.query(h[3], Query::Size { lod: 0 }).unwrap()[0];
        assert_eq!(
            got[(i * 4 + 3) as usize],
            [levels, stb, tb, 0],
            "levels and buffer sizes {i}"
        );
    }
    // RGBA16F: Vulkan leaves the rounding of a float stored into a
    // narrower float open ("Floating Point Format Conversions"); the texture
    // unit rounds to nearest even, lavapipe toward zero, so each half may
    // be one step apart.
    let bytes = read_back(
        &unit.placed,
        Slot {
            set: 0,
            binding: 1,
            element: 0,
        },
        &unit.mem,
    )
    .unwrap();
    let halves = |w: &[u32]| {
        w.iter()
            .flat_map(|w| [*w as u16, (*w >> 16) as u16])
            .collect::<Vec<u16>>()
    };
    let (driver, ours) = (
        halves(words(&c, 1)),
        halves(&reference::image_words(&bytes)),
    );
    assert_eq!(driver.len(), ours.len());
    for (k, (a, b)) in driver.iter().zip(&ours).enumerate() {
        assert!(
            a.abs_diff(*b) <= 1,
            "RGBA16F half {k}: driver {a:#x}, texture unit {b:#x}"
        );
    }
    for binding in [2, 4] {
        let slot = Slot {
            set: 0,
            binding,
            element: 0,
        };
        let bytes = read_back(&unit.placed, slot, &unit.mem).unwrap();
        assert_eq!(
            words(&c, binding),
            reference::image_words(&bytes),
            "image at binding {binding}"
        );
    }
}

/// A shader's image with nothing bound is found before any device is
/// touched, so this holds on every machine.
#[test]
fn an_unbound_image_is_refused_before_the_device() {
    let mut desc = RunDescription::load(&runs().join("tex_sample.json")).unwrap();
    desc.images.clear();
    let e = reference::run(&desc, "tex_sample", &runs()).err();
    assert!(
        matches!(
            e,
            Some(ReferenceError::ImageInterface {
                set: 0,
                binding: 0,
                ..
            })
        ),
        "{e:?}"
    );
}

/// `spvsass run ... --texture ... --reference vulkan`: the command line's
/// storage images (RGBA8, R32F, RGBA32UI) become the run description's,
/// reach both sides, are read back and compared word for word, and
/// `--out` writes the simulator's image.
#[test]
fn run_with_reference_takes_storage_images_from_the_command_line() {
    let dir = tempfile::tempdir().expect("temporary folder");
    let path = |f: &str| dir.path().join(f).to_str().expect("utf-8 path").to_owned();
    let colour: Vec<u8> = (0..128u32).map(|i| (i * 37 % 256) as u8).collect();
    let depth: Vec<f32> = (0..32).map(|i| (i as f32 - 13.0) / 8.0).collect();
    let ids: Vec<u32> = (0..128u32).map(|i| i * 7919 % 65536).collect();
    std::fs::write(path("colour.bin"), &colour).expect("written");
    std::fs::write(
        path("depth.bin"),
        depth
            .iter()
            .flat_map(|f| f.to_le_bytes())
            .collect::<Vec<u8>>(),
    )
    .expect("written");
    std::fs::write(
        path("ids.bin"),
        ids.iter()
            .flat_map(|w| w.to_le_bytes())
            .collect::<Vec<u8>>(),
    )
    .expect("written");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_spvsass"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "run",
            "tests/shaders/img_storage2d.comp.spv",
            "--groups",
            "1",
        ])
        .args([
            "--texture",
            &format!("0=storage:r8g8b8a8_unorm:2d:8x4:{}", path("colour.bin")),
        ])
        .args([
            "--texture",
            &format!("1=storage:r32_sfloat:2d:8x4:{}", path("depth.bin")),
        ])
        .args([
            "--texture",
            &format!("2=storage:r32g32b32a32_uint:2d:8x4:{}", path("ids.bin")),
        ])
        .args(["--buffer", "3=24"])
        .args(["--out", &format!("1={}", path("depth_out.bin"))])
        .args(["--reference", "vulkan"])
        .output()
        .expect("spvsass runs");
    let stderr = String::from_utf8_lossy(&o.stderr);
    if !o.status.success() && stderr.contains("no Vulkan") {
        assert!(!vulkan_required(), "SPVSASS_REQUIRE_VULKAN=1, but {stderr}");
        eprintln!("skipped: {stderr}");
        return;
    }
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{stdout}{stderr}");
    for line in [
        "buffer 0 (integers, exact): 32 words equal",
        "buffer 1 (integers, exact): 32 words equal",
        "buffer 2 (integers, exact): 128 words equal",
        "buffer 3 (integers, exact): 6 words equal",
    ] {
        assert!(stdout.contains(line), "{line}: {stdout}");
    }
    // img_storage2d.comp stores d·2 + 1 into the R32F image.
    let out = std::fs::read(path("depth_out.bin")).expect("--out written");
    let want: Vec<u8> = depth
        .iter()
        .flat_map(|d| (d * 2.0 + 1.0).to_le_bytes())
        .collect();
    assert_eq!(out, want);
}

/// The same with a combined image-sampler: `--sampler` at its slot is its
/// sampler on both sides (linear, clamp-to-edge; img_linear.comp's
/// lookups halfway between texels are exact on both).
#[test]
fn run_with_reference_takes_a_combined_sampler_from_the_command_line() {
    let dir = tempfile::tempdir().expect("temporary folder");
    let tex = dir.path().join("tex.bin");
    let texels: Vec<u8> = (0..16)
        .flat_map(|i| (i as f32 * 1.25 - 3.0).to_le_bytes())
        .collect();
    std::fs::write(&tex, texels).expect("written");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_spvsass"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["run", "tests/shaders/img_linear.comp.spv", "--groups", "1"])
        .args([
            "--texture",
            &format!("0=combined:r32_sfloat:2d:4x4:{}", tex.display()),
        ])
        .args(["--sampler", "0=linear,clamp", "--buffer", "1=128"])
        .args(["--reference", "vulkan"])
        .output()
        .expect("spvsass runs");
    let stderr = String::from_utf8_lossy(&o.stderr);
    if !o.status.success() && stderr.contains("no Vulkan") {
        assert!(!vulkan_required(), "SPVSASS_REQUIRE_VULKAN=1, but {stderr}");
        eprintln!("skipped: {stderr}");
        return;
    }
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{stdout}{stderr}");
    assert!(
        stdout.contains("buffer 1 (integers, exact): 32 words equal"),
        "{stdout}"
    );
}

/// The simulator's words (the shader compiled and simulated) and the
/// driver's of the run's read-back buffer at `binding`; `None` without a
/// driver.
fn simulated_and_driver(name: &str, binding: u32) -> Option<(Vec<u32>, Vec<u32>)> {
    use spvsass::simulate_run::{SimulateOptions, simulate_run_file};
    let c = run(name)?;
    let path = runs().join(format!("{name}.json"));
    let sim =
        simulate_run_file(&path, &SimulateOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let sim_words = sim.capture.buffer(binding).expect("read back").to_vec();
    Some((sim_words, words(&c, binding).to_vec()))
}

/// tex_cube_corner.comp's direction for invocation `j` of workgroup `c`.
fn corner_direction(c: u32, j: u32) -> [f32; 3] {
    let sign = |bit: u32| if c & bit != 0 { -1.0 } else { 1.0 };
    let a = ((j % 8) as f32 - 3.5) / 8.0 + c as f32 / 64.0 + 1.0 / 512.0;
    let b = ((j / 8) as f32 - 3.5) / 8.0 + 3.0 / 256.0;
    [sign(1) * (1.0 + a), sign(2) * (1.0 + b), sign(4)]
}

/// A cube direction scaled so its largest component has magnitude 1, as
/// compiled code hands it to the texture unit (from_ir/images.rs).
fn unit_major(d: [f32; 3]) -> [f32; 3] {
    let r = 1.0 / d[0].abs().max(d[1].abs()).max(d[2].abs());
    d.map(|c| c * r)
}

/// Whether a linear footprint of an `n`×`n` face at `dir` covers a cube
/// corner: both linear coordinates (rounded to 1/256 as the texture unit
/// rounds them) fall off the face.
fn covers_corner(dir: [f32; 3], n: u32) -> bool {
    let (_, s, t) = cube::face_coords(unit_major(dir));
    let off = |c: f32| {
        let lower = ((f64::from(c) * f64::from(n) - 0.5) * 256.0 + 0.5).floor() / 256.0;
        !(0.0..f64::from(n - 1)).contains(&lower.floor())
    };
    off(s) && off(t)
}

/// tex_cube_corner (the capture for the corner rule): the face a direction
/// selects (nearest lookups) is the same on lavapipe; linear lookups whose
/// footprint stays off the cube's corners agree within the filter bound;
/// at the corners, where Vulkan leaves the fourth texel open, both give
/// the three real texels weights summing to 1 (lavapipe's weights are not
/// 1/256 steps and differ from the texture unit's by up to 0.16).
#[test]
fn cube_corner_sweep() {
    let Some((sim, driver)) = simulated_and_driver("tex_cube_corner", 5) else {
        return;
    };
    assert_eq!(sim.len(), 512 * 12);
    let (sim, driver) = (vec4s(&sim), vec4s(&driver));
    let (mut corners, mut worst_corner) = (0, 0f32);
    for i in 0..512u32 {
        let dir = corner_direction(i / 64, i % 64);
        let at = |w: &[[u32; 4]], k: u32| w[(i * 3 + k) as usize];
        // Nearest: which texel of which face, equal.
        assert_eq!(at(&sim, 2)[1], at(&driver, 2)[1], "nearest {i} {dir:?}");
        // (vec4, component, face size, texel value range)
        let lookups = [
            (0, None, 2, 1.0),
            (1, None, 4, 1.0),
            (2, Some(0), 2, 23.0),
            (2, Some(2), 4, 95.0),
        ];
        for (k, component, n, range) in lookups {
            let pick = |v: [u32; 4]| match component {
                Some(c) => [v[c]; 4],
                None => v,
            };
            let d = float_distance(pick(at(&sim, k)), pick(at(&driver, k)));
            if covers_corner(dir, n) {
                worst_corner = worst_corner.max(d);
                continue;
            }
            assert!(
                d <= filter_bound(1, 2, range),
                "lookup {k} of {i}, direction {dir:?}: simulator {:?}, driver {:?}",
                at(&sim, k).map(f32::from_bits),
                at(&driver, k).map(f32::from_bits)
            );
        }
        if covers_corner(dir, 2) {
            corners += 1;
            // Weights of the X, Y and Z faces' texels in R, G, B; A = 1 on
            // every texel: the weights sum to 1 on both sides.
            for (side, v) in [("simulator", at(&sim, 0)), ("driver", at(&driver, 0))] {
                let v = v.map(f32::from_bits);
                assert!((v[3] - 1.0).abs() <= f32::EPSILON, "{side} {i}: {v:?}");
                let sum = v[0] + v[1] + v[2];
                assert!((sum - 1.0).abs() <= 1e-5, "{side} {i}: {v:?}");
            }
        }
    }
    assert!(
        corners > 256,
        "{corners} of 512 lookups at a corner of the 2×2 cube"
    );
    eprintln!("tex_cube_corner: {corners} corner lookups, largest difference there {worst_corner}");
}

/// How far an sRGB code's linear value may lie from lavapipe's: the
/// H100's decode table (which the texture unit uses, sim/src/texture/
/// srgb.rs) is up to 0.96 of an 8-bit step from the exact EOTF, lavapipe's
/// approximation up to 0.3.
const SRGB_TABLE: f32 = 1.3 / 255.0;

/// tex_formats (the capture for the formats the H200 captures had not
/// measured): fetches of B10G11R11 and R16F are equal; of UNORM16, SNORM8,
/// SNORM16 and A2B10G10R10 within lavapipe's ULP (above); of sRGB8 within
/// `SRGB_TABLE` (lavapipe approximates the sRGB EOTF; the texture unit
/// decodes by the H100's table). Linear lookups agree within the filter
/// bound (sRGB colour plus `SRGB_TABLE`). Clamp-to-border: the border's R agrees within the filter bound;
/// for the components an R16F image lacks, both substitute (G, B, A) =
/// (0, 0, 1) in the border texels too (as the H100 does: its tex_formats
/// capture).
#[test]
fn formats_and_border_colours() {
    let Some((sim, driver)) = simulated_and_driver("tex_formats", 10) else {
        return;
    };
    assert_eq!(sim.len(), 64 * 20 * 4);
    let (sim, driver) = (vec4s(&sim), vec4s(&driver));
    // Texel ranges: UNORM and sRGB 0..1, SNORM −1..1, the small floats up
    // to 65504, the bordered R16F image below 4.
    let linear_range = [1.0, 2.0, 2.0, 1.0, 1.0, 65504.0, 65504.0];
    let mut worst = [0f32; 20];
    for i in 0..64u32 {
        let at = |w: &[[u32; 4]], k: u32| w[(i * 20 + k) as usize];
        for k in 0..20u32 {
            let (s, d) = (at(&sim, k), at(&driver, k));
            worst[k as usize] = worst[k as usize].max(float_distance(s, d));
            let ok = match k {
                0..=2 | 4 => unorm_eq(d, s),
                3 => float_distance(s, d) <= SRGB_TABLE,
                5 | 6 => s == d,
                7..=13 => {
                    let eight_bit = matches!(k, 8 | 10);
                    let rounding = if eight_bit { 0.5 / 255.0 } else { 0.0 };
                    let table = if k == 10 { SRGB_TABLE } else { 0.0 };
                    float_distance(s, d)
                        <= filter_bound(1, 2, linear_range[k as usize - 7]) + rounding + table
                }
                14..=16 => float_distance(s, d) <= filter_bound(1, 2, 1.0) + 0.5 / 255.0,
                17 => float_distance(s, d) <= filter_bound(1, 2, 4.0),
                18 | 19 => {
                    let r_ok = float_distance([s[0]; 4], [d[0]; 4]) <= filter_bound(1, 2, 4.0);
                    let substituted = d[1..] == [0, 0, 1f32.to_bits()] && s[1..] == d[1..];
                    r_ok && substituted
                }
                _ => unreachable!("20 vec4s an invocation"),
            };
            assert!(
                ok,
                "vec4 {k} of {i}: simulator {:?}, driver {:?}",
                s.map(f32::from_bits),
                d.map(f32::from_bits)
            );
        }
    }
    eprintln!("tex_formats: largest difference per vec4 {worst:?}");
}

/// tex_grad.comp's gradient pair for invocation `i`: (major, minor).
fn grad_pair(i: u32) -> ([f32; 2], [f32; 2]) {
    const LENGTHS: [f32; 6] = [0.015625, 0.03125, 0.0625, 0.125, 0.25, 0.5];
    const RATIOS: [f32; 6] = [1.0, 0.5, 0.25, 0.125, 0.0625, 0.0];
    const DIRECTIONS: [[f32; 2]; 8] = [
        [1.0, 0.0],
        [0.921875, 0.3828125],
        [0.70703125, 0.70703125],
        [0.3828125, 0.921875],
        [0.0, 1.0],
        [-0.3828125, 0.921875],
        [-0.70703125, 0.70703125],
        [-0.921875, 0.3828125],
    ];
    let len = LENGTHS[(i % 6) as usize];
    let ratio = RATIOS[((i / 6) % 6) as usize];
    let d = DIRECTIONS[((i / 3) % 8) as usize];
    let major = [len * d[0], len * d[1]];
    let minor = [len * ratio * -d[1], len * ratio * d[0]];
    (major, minor)
}

/// tex_grad (the capture for gradient pairs): the compiled textureGrad
/// gives what the texture unit gives from the same gradients (exactly),
/// and the driver's value is the texture unit's at some λ from 1/16 below
/// Vulkan's range (ρ along an axis from the larger derivative component
/// to their sum) to its top, within the filter bound (as for tex_sample).
#[test]
fn gradient_pairs() {
    let Some((sim, driver)) = simulated_and_driver("tex_grad", 3) else {
        return;
    };
    assert_eq!(sim.len(), 128 * 6 * 4);
    let (sim, driver) = (vec4s(&sim), vec4s(&driver));
    let mut unit = Unit::new("tex_grad");
    let h: Vec<u32> = (0..3).map(|b| unit.handle(b, 0)).collect();
    let mut worst = 0f32;
    for i in 0..128u32 {
        let (major, minor) = grad_pair(i);
        let neg = |v: [f32; 2]| [-v[0], -v[1]];
        let scale = |v: [f32; 2], s: f32| [v[0] * s, v[1] * s];
        let uv = [
            (i % 8) as f32 / 8.0 + 3.0 / 64.0,
            (i / 8 % 8) as f32 / 8.0 + 5.0 / 128.0,
        ];
        let layer = (i % 3) as f32;
        // (vec4, image, size, layer coordinate, dx, dy, texel range)
        let lookups = [
            (0, 0, 16.0, 0.0, major, minor, 1.0),
            (1, 0, 16.0, 0.0, neg(minor), major, 1.0),
            (2, 1, 8.0, layer, major, minor, 255.0),
            (3, 2, 16.0, 0.0, major, minor, 319.0),
            (4, 2, 16.0, 0.0, neg(minor), major, 319.0),
            (
                5,
                2,
                16.0,
                0.0,
                scale(major, 1.5),
                scale(minor, 0.75),
                319.0,
            ),
        ];
        for (k, image, size, third, dx, dy, range) in lookups {
            let at = |w: &[[u32; 4]]| w[(i * 6 + k) as usize];
            let coords = [uv[0], uv[1], third, 0.0];
            let grad = Lookup {
                lod: Lod::Gradient {
                    dx: [dx[0], dx[1], 0.0],
                    dy: [dy[0], dy[1], 0.0],
                },
                ..Lookup::new(coords, 0.0)
            };
            let want = unit.tu().sample(h[image], &grad).unwrap();
            assert_eq!(at(&sim), want, "compiled textureGrad {k} of {i}");
            let (ax, ay) = (dx.map(|c| (c * size).abs()), dy.map(|c| (c * size).abs()));
            let lo = ax[0].max(ax[1]).max(ay[0].max(ay[1]));
            let hi = (ax[0] + ax[1]).max(ay[0] + ay[1]);
            let (lo, hi) = (lo.log2() - 1.0 / 16.0, hi.log2());
            let d = (0..=((hi - lo) * 256.0) as u32 + 1)
                .map(|s| lo + s as f32 / 256.0)
                .map(|l| {
                    let lookup = Lookup::new(coords, l);
                    float_distance(at(&driver), unit.tu().sample(h[image], &lookup).unwrap())
                })
                .fold(float_distance(at(&driver), want), f32::min);
            let tolerance = if image == 0 {
                rgba8_tolerance()
            } else {
                filter_bound(2, 2, range)
            };
            worst = worst.max(d / range);
            assert!(
                d <= tolerance,
                "textureGrad {k} of {i}: driver {:?}, texture unit {:?}",
                at(&driver).map(f32::from_bits),
                want.map(f32::from_bits)
            );
        }
    }
    eprintln!("tex_grad: largest difference {worst} of the texel range");
}

/// tex_texel_offset: texel buffers bound at 64, 48 and 32 bytes into their
/// buffers. The driver reads and writes the texels after the offsets (the
/// marker words before them untouched, sizes the views'), and the
/// simulator's words are equal to the driver's.
#[test]
fn texel_buffers_at_an_offset() {
    let Some((sim, driver)) = simulated_and_driver("tex_texel_offset", 3) else {
        return;
    };
    assert_eq!(sim, driver);
    for (i, v) in vec4s(&driver).into_iter().enumerate() {
        let i = i as u32;
        let half = |x: f32| x.to_bits();
        assert_eq!(
            v,
            [
                i * 7 + 5,
                half(i as f32 * 0.25 - 1.0),
                half(i as f32 * 1.5),
                16 | 16 << 16
            ],
            "invocation {i}"
        );
    }
    let Some((sim, driver)) = simulated_and_driver("tex_texel_offset", 2) else {
        return;
    };
    assert_eq!(sim, driver);
    let want: Vec<u32> = (0..8)
        .map(|k| 0xfeed_0000 + k)
        .chain((0..16).map(|i| (i * 7 + 5) * 3 + 1))
        .collect();
    assert_eq!(driver, want);
}

/// An `offset` is refused on an image and off the 16-byte alignment,
/// before anything runs.
#[test]
fn a_bad_texel_buffer_offset_is_refused() {
    let mut desc = RunDescription::load(&runs().join("tex_texel_offset.json")).unwrap();
    desc.images[0].offset = 8;
    let e = desc.pipeline().err().map(|e| e.to_string());
    assert!(
        e.as_deref()
            .is_some_and(|m| m.contains("a texel buffer's `offset` is a multiple of 16")),
        "{e:?}"
    );
    let mut desc = RunDescription::load(&runs().join("tex_sample.json")).unwrap();
    desc.images[0].offset = 16;
    let e = desc.pipeline().err().map(|e| e.to_string());
    assert!(
        e.as_deref()
            .is_some_and(|m| m.contains("only texel buffers have an `offset`")),
        "{e:?}"
    );
}

/// tex_srgb (the capture for the hardware's sRGB decoding; docs/TEXTURES.md):
/// fetches of every sRGB code agree within `SRGB_TABLE`, alpha exactly as
/// UNORM8 within lavapipe's ULP; lookups between neighbouring texels at
/// known weights agree within the filter bound plus half an 8-bit step
/// (lavapipe rounds filtered 8-bit results to 8 bits), through the sRGB
/// image (plus `SRGB_TABLE`) and the same bytes as UNORM and as SNORM.
#[test]
fn srgb_decoding_and_filtering() {
    let Some((sim, driver)) = simulated_and_driver("tex_srgb", 2) else {
        return;
    };
    assert_eq!(sim.len(), 256 * 8 * 4);
    let (sim, driver) = (vec4s(&sim), vec4s(&driver));
    let mut worst = [0f32; 8];
    for i in 0..256u32 {
        for k in 0..8u32 {
            let (s, d) = (sim[(i * 8 + k) as usize], driver[(i * 8 + k) as usize]);
            let distance = float_distance(s, d);
            worst[k as usize] = worst[k as usize].max(distance);
            let axes = match k {
                0 | 6 => 0,
                4 => 2,
                _ => 1,
            };
            let bound = match k {
                0 => SRGB_TABLE,
                1 | 3..=5 => filter_bound(1, axes, 1.0) + 0.5 / 255.0 + SRGB_TABLE,
                // SNORM spans −1..1.
                6 | 7 => filter_bound(1, axes, 2.0) + 0.5 / 255.0,
                _ => filter_bound(1, axes, 1.0) + 0.5 / 255.0,
            };
            assert!(
                distance <= bound,
                "vec4 {k} of {i}: simulator {:?}, driver {:?}",
                s.map(f32::from_bits),
                d.map(f32::from_bits)
            );
        }
        // Alpha is not sRGB: a fetch of it is UNORM8's.
        let (s, d) = (sim[(i * 8) as usize], driver[(i * 8) as usize]);
        assert!(unorm_eq([d[3]; 4], [s[3]; 4]), "alpha of {i}");
    }
    eprintln!("tex_srgb: largest difference per vec4 {worst:?}");
}

/// The words tex_multisample.comp and tex_multisample_storage.comp write
/// for the sample fetches and loads, from the texture unit: the R32UI
/// image's 48 samples, then the RGBA8 array's 32 samples of four words.
fn multisample_fetches(unit: &mut Unit) -> (Vec<u32>, Vec<[u32; 4]>) {
    let (ids, colours) = (unit.handle(0, 0), unit.handle(1, 0));
    let mut tu = unit.tu();
    let ids = (0..48u32)
        .map(|i| {
            let at = [(i / 4 % 4) as i32, (i / 16) as i32, 0];
            tu.fetch(ids, at, 0, i % 4).unwrap()[0]
        })
        .collect();
    let colours = (0..32u32)
        .map(|i| {
            let at = [(i / 4 % 2) as i32, (i / 8 % 2) as i32, (i / 16) as i32];
            tu.fetch(colours, at, 0, i % 4).unwrap()
        })
        .collect();
    (ids, colours)
}

/// tex_multisample: every sample of a 4-sample R32UI image and of a
/// 4-sample RGBA8 2D array, filled on the driver by the per-sample render
/// pass (src/reference/ms_fill.rs), read back by texelFetch: the driver's
/// R32UI samples are the description's (1000y + 100x + 10s + 7), its RGBA8
/// ones the texture unit's within lavapipe's UNORM ULP, its queries
/// (4×3, 4 samples; 2×2×2, 4 samples) exact; the compiled shader
/// (TLD.MS, TXQ) simulated gives the texture unit's words exactly.
#[test]
fn multisampled_fetches_and_queries() {
    let Some((sim, driver)) = simulated_and_driver("tex_multisample", 2) else {
        return;
    };
    assert_eq!(driver.len(), 183);
    let mut unit = Unit::new("tex_multisample");
    let (ids, colours) = multisample_fetches(&mut unit);
    for (i, &v) in ids.iter().enumerate() {
        let (x, y, s) = (i / 4 % 4, i / 16, i % 4);
        assert_eq!(
            v as usize,
            1000 * y + 100 * x + 10 * s + 7,
            "texture unit {i}"
        );
    }
    assert_eq!(driver[..48], ids[..], "driver R32UI samples");
    assert_eq!(sim[..48], ids[..], "simulated R32UI samples");
    for (i, &want) in colours.iter().enumerate() {
        let at = |w: &[u32]| {
            let k = 48 + 4 * i;
            [w[k], w[k + 1], w[k + 2], w[k + 3]]
        };
        assert!(
            unorm_eq(at(&driver), want),
            "RGBA8 sample {i}: driver {:?}, texture unit {:?}",
            at(&driver).map(f32::from_bits),
            want.map(f32::from_bits)
        );
        assert_eq!(at(&sim), want, "simulated RGBA8 sample {i}");
    }
    assert_eq!(driver[176..], [4, 3, 4, 2, 2, 2, 4], "driver queries");
    assert_eq!(sim[176..], driver[176..], "simulated queries");
}

/// tex_multisample_storage: the same images as multisampled storage
/// images (imageLoad of every sample, imageStore then imageLoad, sizes and
/// sample counts). The compiled code, which addresses the sample grid
/// through the descriptor's grid and sample map
/// (backend/src/from_ir/image_ms.rs), simulated gives the texture unit's
/// fetches of the description's samples and the stored values; the
/// driver gives the same, where it has shaderStorageImageMultisample.
#[test]
fn multisampled_storage_images() {
    use spvsass::simulate_run::{SimulateOptions, simulate_run_file};
    let name = "tex_multisample_storage";
    let path = runs().join(format!("{name}.json"));
    let sim =
        simulate_run_file(&path, &SimulateOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let sim = sim.capture.buffer(2).expect("read back").to_vec();
    assert_eq!(sim.len(), 231);
    let mut unit = Unit::new("tex_multisample");
    let (ids, colours) = multisample_fetches(&mut unit);
    let stored: Vec<u32> = (0..48).map(|i| 1000 + 7 * i).collect();
    let check = |w: &[u32], who: &str, exact: bool| {
        assert_eq!(w[..48], ids[..], "{who} imageLoad");
        assert_eq!(w[48..96], stored[..], "{who} imageLoad after imageStore");
        for (i, &want) in colours.iter().enumerate() {
            let k = 96 + 4 * i;
            let got = [w[k], w[k + 1], w[k + 2], w[k + 3]];
            if exact {
                assert_eq!(got, want, "{who} RGBA8 sample {i}");
            } else {
                assert!(unorm_eq(got, want), "{who} RGBA8 sample {i}");
            }
        }
        assert_eq!(w[224..], [4, 3, 4, 2, 2, 2, 4], "{who} queries");
    };
    check(&sim, "simulated", true);
    match reference::run_file(&path) {
        Err(ReferenceError::MissingFeatures { device, features }) => {
            eprintln!("driver part of {name} skipped: {device} lacks {features:?}");
        }
        Err(
            e @ (ReferenceError::NoLoader(_)
            | ReferenceError::NoDevice(_)
            | ReferenceError::NoUsableDevice(_)),
        ) => {
            assert!(!vulkan_required(), "SPVSASS_REQUIRE_VULKAN=1, but {e}");
            eprintln!("skipped {name}: {e}");
        }
        r => {
            let c = r.unwrap_or_else(|e| panic!("{name}: {e}"));
            check(words(&c, 2), "driver", false);
        }
    }
}

/// tex_multisample_counts (2 and 8 samples, the D3D layouts; lavapipe has
/// only 4, so NVIDIA's captures check the driver side): the compiled
/// shader simulated gives every sample the description gives it
/// (1000y + 100x + 10s + 3, and + 5), and the sizes and counts.
#[test]
fn multisampled_fetches_of_2_and_8_samples() {
    use spvsass::simulate_run::{SimulateOptions, simulate_run_file};
    let path = runs().join("tex_multisample_counts.json");
    let sim =
        simulate_run_file(&path, &SimulateOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let sim = sim.capture.buffer(2).expect("read back").to_vec();
    let two = (0..16u32).map(|i| 1000 * (i / 8) + 100 * (i / 2 % 4) + 10 * (i % 2) + 3);
    let eight = (0..32u32).map(|i| 1000 * (i / 16) + 100 * (i / 8 % 2) + 10 * (i % 8) + 5);
    let want: Vec<u32> = two.chain(eight).chain([4, 2, 2, 2, 2, 8]).collect();
    assert_eq!(sim, want);
}

/// One textureGrad of tex_grad3d.comp: image (binding), coordinates, dx,
/// dy.
type GradLookup = (usize, [f32; 4], [f32; 3], [f32; 3]);

/// tex_grad3d.comp's lookups of invocation `i`, in its output order.
fn grad3d_lookups(i: u32) -> [GradLookup; 5] {
    const LENGTHS: [f32; 4] = [0.0625, 0.125, 0.25, 0.5];
    const RATIOS: [f32; 4] = [1.0, 0.5, 0.25, 0.0];
    const DIRECTIONS: [[f32; 3]; 8] = [
        [1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.0, 0.0, 1.0],
        [0.5, 0.5, 0.70703125],
        [-0.6875, 0.5, 0.5],
        [0.375, -0.875, 0.3125],
        [0.25, 0.25, -0.9375],
        [-0.5625, -0.5625, 0.5625],
    ];
    const FACES: [[f32; 3]; 6] = [
        [1.0, 0.25, -0.125],
        [-1.0, -0.375, 0.0625],
        [0.3125, 1.0, 0.1875],
        [-0.125, -1.0, -0.4375],
        [0.1875, -0.25, 1.0],
        [-0.0625, 0.3125, -1.0],
    ];
    let len = LENGTHS[(i % 4) as usize];
    let ratio = RATIOS[(i / 4 % 4) as usize];
    let d = DIRECTIONS[(i / 2 % 8) as usize];
    let scale = |v: [f32; 3], s: f32| v.map(|c| c * s);
    let major = scale(d, len);
    let side = if d[2].abs() > 0.9 {
        [0.0, d[2], -d[1]]
    } else {
        [d[1], -d[0], 0.0]
    };
    let minor = scale(side, len * ratio);
    let uvw = [
        (i % 4) as f32 / 4.0 + 3.0 / 32.0,
        (i / 4 % 4) as f32 / 4.0 + 5.0 / 64.0,
        (i / 16) as f32 / 4.0 + 7.0 / 64.0,
        0.0,
    ];
    let p = FACES[(i % 6) as usize];
    let t = if p[0].abs() == 1.0 {
        [0.0, d[1], d[2]]
    } else if p[1].abs() == 1.0 {
        [d[0], 0.0, d[2]]
    } else {
        [d[0], d[1], 0.0]
    };
    let dx = [0, 1, 2].map(|a| len * (t[a] + 0.5 * p[a]));
    let dy = scale([t[1], t[2], t[0]], len * ratio);
    [
        (0, uvw, major, minor),
        (0, uvw, scale(minor, -1.0), scale(major, 1.5)),
        (1, [p[0], p[1], p[2], 0.0], dx, dy),
        (
            1,
            [2.0 * p[0], 2.0 * p[1], 2.0 * p[2], 0.0],
            scale(dy, 3.0),
            scale(dx, 2.0),
        ),
        (2, [p[0], p[1], p[2], (i % 2) as f32], dx, dy),
    ]
}

/// The derivatives of a lookup in texels of the base level along each
/// image axis (cube: projected onto the face as Vulkan's formula does,
/// `cube::projected_derivatives`: the bounds of the driver's λ).
fn texel_derivatives(image: usize, coords: [f32; 4], d: [f32; 3], size: f32) -> Vec<f32> {
    if image == 0 {
        d.iter().map(|c| c * size).collect()
    } else {
        let dir = [coords[0], coords[1], coords[2]];
        cube::projected_derivatives(dir, d)
            .iter()
            .map(|c| c * size)
            .collect()
    }
}

/// tex_grad3d: textureGrad on a 3D image, a cube map and a cube array,
/// compiled as a TEX at the LOD the shader computes
/// (backend/src/from_ir/image_grad.rs). The simulated word is the texture
/// unit's lookup at an explicit λ: for 3D within 1/128 of log2 ρ +
/// 17/16384, ρ the longest component + 11/32 of the middle + 1/4 of the
/// shortest (the shader's 8-bit log2 table and float arithmetic against
/// f64 here); for cubes exactly the λ of the texture unit's own cube rule
/// (`cube::gradient_lod`),
/// which the compiled code must agree with. The driver's is the texture
/// unit's at some λ from 1/16 below Vulkan's range (ρ from the largest
/// component to the sum of components of the projected derivatives) to
/// its top, within the filter bound.
#[test]
fn gradients_of_3d_and_cube_images() {
    let Some((sim, driver)) = simulated_and_driver("tex_grad3d", 3) else {
        return;
    };
    assert_eq!(sim.len(), 64 * 5 * 4);
    let (sim, driver) = (vec4s(&sim), vec4s(&driver));
    let mut unit = Unit::new("tex_grad3d");
    let h: Vec<u32> = (0..3).map(|b| unit.handle(b, 0)).collect();
    let sizes = [8.0f32, 4.0, 4.0];
    let mut worst = 0f32;
    for i in 0..64u32 {
        for (k, (image, coords, dx, dy)) in grad3d_lookups(i).into_iter().enumerate() {
            let at = |w: &[[u32; 4]]| w[(i * 5) as usize + k];
            let (tx, ty) = (
                texel_derivatives(image, coords, dx, sizes[image]),
                texel_derivatives(image, coords, dy, sizes[image]),
            );
            // 3D ρ as image_grad.rs computes it: longest + 11/32 middle +
            // 1/4 shortest; plus the texture unit's 17/16384.
            let rho = |v: &[f32]| {
                let mut a: Vec<f64> = v.iter().map(|c| f64::from(c.abs())).collect();
                a.sort_by(|x, y| y.total_cmp(x));
                a[0] + a[1] * 11.0 / 32.0 + a[2] / 4.0
            };
            let dir = [coords[0], coords[1], coords[2]];
            let exact = if image == 0 {
                (rho(&tx).max(rho(&ty)).log2() + 17.0 / 16384.0) as f32
            } else {
                cube::gradient_lod(dir, dx, dy, sizes[image])
            };
            let at_unit = if image == 0 {
                coords
            } else {
                let u = unit_major([coords[0], coords[1], coords[2]]);
                [u[0], u[1], u[2], coords[3]]
            };
            let lookup = |tu: &mut TextureUnit, l: f32| {
                tu.sample(h[image], &Lookup::new(at_unit, l)).unwrap()
            };
            if image != 0 {
                assert_eq!(
                    at(&sim),
                    lookup(&mut unit.tu(), exact),
                    "compiled cube textureGrad {k} of {i} against the texture unit's rule"
                );
            } else if exact.is_finite() {
                let near =
                    (-4..=4).any(|s| at(&sim) == lookup(&mut unit.tu(), exact + s as f32 / 512.0));
                assert!(
                    near,
                    "compiled textureGrad {k} of {i}: {:?}, texture unit at λ {exact}: {:?}",
                    at(&sim).map(f32::from_bits),
                    lookup(&mut unit.tu(), exact).map(f32::from_bits)
                );
            } else {
                assert_eq!(
                    at(&sim),
                    lookup(&mut unit.tu(), exact),
                    "textureGrad {k} of {i} (ρ 0)"
                );
            }
            let abs = |v: &[f32]| v.iter().map(|c| c.abs()).collect::<Vec<f32>>();
            let (ax, ay) = (abs(&tx), abs(&ty));
            let max = |v: &[f32]| v.iter().copied().fold(0.0, f32::max);
            let sum = |v: &[f32]| v.iter().sum::<f32>();
            let lo = max(&ax).max(max(&ay)).log2() - 1.0 / 16.0;
            let hi = sum(&ax).max(sum(&ay)).log2();
            let d = if lo.is_finite() {
                (0..=((hi - lo) * 256.0) as u32 + 1)
                    .map(|s| lo + s as f32 / 256.0)
                    .map(|l| float_distance(at(&driver), lookup(&mut unit.tu(), l)))
                    .fold(f32::INFINITY, f32::min)
            } else {
                float_distance(at(&driver), lookup(&mut unit.tu(), f32::NEG_INFINITY))
            };
            // Texel values a footprint mixes: 3D levels L and L + 1 hold
            // 64L..64L + 60 and 64(L + 1)..; cube faces 16f..16f + 15 of
            // 64L (the second cube 1000 more, a layer apart).
            let range = if image == 0 { 124.0 } else { 159.0 };
            let tolerance = filter_bound(2, if image == 0 { 3 } else { 2 }, range);
            worst = worst.max(d / range);
            assert!(
                d <= tolerance,
                "textureGrad {k} of {i}: driver {:?}, texture unit at λ {exact}: {:?}",
                at(&driver).map(f32::from_bits),
                lookup(&mut unit.tu(), exact).map(f32::from_bits)
            );
        }
    }
    eprintln!("tex_grad3d: largest difference {worst} of the texel range");
}
