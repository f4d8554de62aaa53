//! `spvsass run --texture/--sampler/--out` (src/cli_images.rs): a storage
//! image and a texel buffer given on the command line, written back with
//! --out, and a malformed flag refused with a usage message.

use std::process::Command;

fn spvsass() -> Command {
    Command::new(env!("CARGO_BIN_EXE_spvsass"))
}

fn dir() -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("spvsass-texture-cli-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn storage_texel_buffer_is_written_back() {
    let d = dir();
    let f = |t: f32| t.to_le_bytes();
    let vertices: Vec<u8> = (0..64)
        .flat_map(|t| [f(t as f32), f(t as f32 + 0.5), f(-(t as f32)), f(1.0)].concat())
        .collect();
    let indices: Vec<u8> = (0..32u32).flat_map(|t| (3 * t + 1).to_le_bytes()).collect();
    std::fs::write(d.join("v.bin"), vertices).unwrap();
    std::fs::write(d.join("i.bin"), indices).unwrap();
    std::fs::write(d.join("s.bin"), [0u8; 128]).unwrap();
    let p = |n: &str| d.join(n).display().to_string();
    let out = spvsass()
        .args([
            "run",
            "tests/shaders/img_texel_buffer.comp.spv",
            "--groups",
            "1",
        ])
        .args(["--buffer", "3=1024"])
        .args([
            "--texture",
            &format!(
                "0=uniform_texel_buffer:r32g32b32a32_sfloat:buffer:64:{}",
                p("v.bin")
            ),
        ])
        .args([
            "--texture",
            &format!("1=uniform_texel_buffer:r32_uint:buffer:32:{}", p("i.bin")),
        ])
        .args([
            "--texture",
            &format!("2=storage_texel_buffer:r32_sfloat:buffer:32:{}", p("s.bin")),
        ])
        .args(["--out", &format!("2={}", p("scratch.bin"))])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let got = std::fs::read(d.join("scratch.bin")).unwrap();
    let want: Vec<u8> = (0..32)
        .flat_map(|j| ((3 * j + 1) as f32 * 0.5).to_le_bytes())
        .collect();
    assert_eq!(got, want);
}

#[test]
fn a_malformed_texture_is_a_usage_error() {
    let out = spvsass()
        .args([
            "run",
            "tests/shaders/img_texel_buffer.comp.spv",
            "--groups",
            "1",
        ])
        .args(["--texture", "0=storage:not_a_format:2d:4x4:x.bin"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("'not_a_format' is not a supported format")
    );
}
