//! Image runs of our own cubins under CUDA (tests/reference/cuda/NAME, H200)
//! whose formats lack components: CUDA's texture headers return 0 for a
//! one- or two-channel format's absent components, where Vulkan and the
//! simulator return 1 (1.0 for a float format), and CUDA has no swizzle to
//! ask for another (docs/CUBIN.md, "Images under CUDA"). Every other word
//! equals the simulator's; each differing word is an absent component:
//! the simulator's 1 or 1.0 against CUDA's 0, and exactly as many as the
//! description's lookups of such formats give.

use spvsass::backend::target::Arch;
use spvsass::reference::Capture;
use spvsass::simulate_run::{SimulateOptions, simulate_run_file};
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Asserts that `dir`/`name`'s capture equals the simulation but for
/// `absent` words where the simulator has 1 (or 1.0) and CUDA 0.
fn agrees_but_absent_components(dir: &str, name: &str, absent: usize) {
    let run = root().join(format!("tests/runs/{dir}{name}.json"));
    let cuda = Capture::read(&root().join(format!("tests/reference/cuda/{name}")))
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        cuda.result
            .device
            .driver_info
            .contains("spvsass sm90 cubin")
    );
    for arch in [Arch::Sm90, Arch::Sm86] {
        let options = SimulateOptions {
            arch: Some(arch),
            ..SimulateOptions::default()
        };
        let sim = simulate_run_file(&run, &options).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(sim.capture.result.buffers.len(), cuda.result.buffers.len());
        let mut differ = 0;
        for (s, c) in sim.capture.result.buffers.iter().zip(&cuda.result.buffers) {
            assert_eq!(s.binding, c.binding);
            assert_eq!(s.words.len(), c.words.len());
            for (w, (&a, &b)) in s.words.iter().zip(&c.words).enumerate() {
                if a != b {
                    assert!(
                        (a == 1 || a == 0x3f80_0000) && b == 0,
                        "{arch} {name}: binding {} word {w}: simulator {a:#x}, CUDA {b:#x}",
                        s.binding
                    );
                    differ += 1;
                }
            }
        }
        assert_eq!(differ, absent, "{arch} {name}");
    }
}

/// R16G16 SINT storage image loads: the absent alpha of 16 texels.
#[test]
fn image_ops() {
    agrees_but_absent_components("", "image_ops", 16);
}

/// R32F texel buffer reads: the absent alpha of 32 texels.
#[test]
fn img_texel_buffer() {
    agrees_but_absent_components("cuda_all/", "img_texel_buffer", 32);
}

/// textureGrad on R32F images: the absent alpha of 512 lookups.
#[test]
fn tex_grad() {
    agrees_but_absent_components("", "tex_grad", 512);
}

/// textureGrad on 3D and cube R32F images (λ computed in the shader,
/// from_ir/image_grad.rs): the absent alpha of all 320 lookups; every
/// other word equal.
#[test]
fn tex_grad3d() {
    agrees_but_absent_components("", "tex_grad3d", 320);
}
