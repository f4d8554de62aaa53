//! `disasm --ctrl` prints a whole binary (its container fields as
//! directives, then the code with control bits), and `asm` reads it back
//! to the same bytes: one test per shader of a representative set (task,
//! mesh with per-primitive outputs, clip distances, in-shader culling and
//! multiview, compute with shared and local memory, descriptors and
//! images), each on sm75, sm86 and sm90.

use crate::common;

use spvsass::backend::binary::Binary;
use spvsass::backend::target::Arch;

fn compile(name: &str, arch: Arch, shader_cull: bool) -> Binary {
    let options = spvsass::Options {
        arch: Some(arch),
        shader_cull,
        task_present: common::task_partner(name).is_some(),
        ..Default::default()
    };
    spvsass::compile(&common::shader_words(name), &options)
        .unwrap_or_else(|e| panic!("{name} on {arch}: {e}"))
        .binary
}

/// compile -> disasm --ctrl -> asm gives the compiled bytes.
fn round_trip(name: &str, shader_cull: bool) {
    for arch in [Arch::Sm75, Arch::Sm86, Arch::Sm90] {
        let bytes = compile(name, arch, shader_cull).to_bytes();
        let binary = Binary::from_bytes(&bytes).expect("reads back");
        let text = spvsass::listing(&binary, true).expect("listing");
        let assembled = spvsass::backend::asm::assemble(&text)
            .unwrap_or_else(|e| panic!("{name} on {arch}: {e}\n{text}"))
            .to_binary()
            .unwrap_or_else(|e| panic!("{name} on {arch}: {e}"));
        assert!(
            assembled.to_bytes() == bytes,
            "{name} on {arch}: the assembled binary differs\n{text}"
        );
    }
}

macro_rules! round_trips {
    ($($test:ident: $name:literal, $cull:expr;)*) => {$(
        #[test]
        fn $test() {
            round_trip($name, $cull);
        }
    )*};
}

round_trips! {
    task_with_payload: "d_payload.task", false;
    wide_task: "w_exchange.task", false;
    mesh_behind_a_task: "d_payload.mesh", false;
    mesh_triangle: "triangle.mesh", false;
    mesh_per_primitive_outputs: "meshlet_per_primitive_colour.mesh", false;
    mesh_clip_and_cull_distances: "clip_cull_distance.mesh", false;
    mesh_with_culling: "dense_grid.mesh", true;
    mesh_multiview: "multiview_draw_index.mesh", false;
    mesh_wide: "w_vertices128.mesh", false;
    compute_push_constants: "c_add_push.comp", false;
    compute_shared_memory: "lt_shared_init.comp", false;
    compute_local_memory: "c_local_array.comp", false;
    compute_descriptor_sets: "res_sets.comp", false;
    compute_images: "d_reader_images.comp", false;
}

/// The command line: `compile -o`, `disasm --ctrl`, `asm -o` give the
/// compiled file again, for a task shader's partner mesh shader.
#[test]
fn disasm_ctrl_then_asm_reproduces_the_file() {
    use std::process::Command;
    let dir = std::env::temp_dir().join(format!("spvsass-asm-roundtrip-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let (bin, sass, back) = (dir.join("x.bin"), dir.join("x.sass"), dir.join("y.bin"));
    let run = |args: &[&std::ffi::OsStr]| {
        let out = Command::new(env!("CARGO_BIN_EXE_spvsass"))
            .args(args)
            .output()
            .expect("runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    };
    let shader = common::shader_path("d_payload.mesh");
    run(&[
        "compile".as_ref(),
        shader.as_os_str(),
        "--task-present".as_ref(),
        "--arch".as_ref(),
        "sm90".as_ref(),
        "-o".as_ref(),
        bin.as_os_str(),
    ]);
    let listing = run(&["disasm".as_ref(), "--ctrl".as_ref(), bin.as_os_str()]);
    std::fs::write(&sass, listing).expect("write listing");
    run(&[
        "asm".as_ref(),
        sass.as_os_str(),
        "-o".as_ref(),
        back.as_os_str(),
    ]);
    let (a, b) = (std::fs::read(&bin).unwrap(), std::fs::read(&back).unwrap());
    let _ = std::fs::remove_dir_all(&dir);
    assert!(a == b, "the assembled file differs");
}
