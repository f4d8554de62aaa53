//! Performance advice (docs/HARDWARE.md, "Performance advice", adapted to one-warp workgroups and SKEW
//! output blocks): returned in `Compiled::warnings`, printed by the CLI.

use crate::common;

use spvsass::backend::advice::Warning;
use spvsass::backend::target::Arch;

fn warnings(name: &str) -> Vec<Warning> {
    common::compile(name, Arch::Sm86).warnings
}

#[test]
fn idle_invocations_when_the_workgroup_outgrows_the_outputs() {
    assert_eq!(
        warnings("triangle.mesh"),
        vec![Warning::IdleInvocations {
            invocations: 32,
            max_vertices: 3,
            max_primitives: 1
        }]
    );
}

#[test]
fn partial_warp_for_narrow_workgroups() {
    assert_eq!(
        warnings("d_viewport.mesh"),
        vec![Warning::PartialWarp { invocations: 4 }]
    );
}

#[test]
fn computed_offsets_and_padded_blocks() {
    let w = warnings("d_prims.mesh");
    // Position, location 0 (vertex loop); PrimitiveId, Layer, cull mask,
    // shading rate, location 1 (primitive loop): all by a loop variable,
    // not gl_LocalInvocationIndex.
    assert!(
        matches!(
            w[0],
            Warning::ComputedOffsets {
                stores: 7,
                first_spirv_id: Some(_)
            }
        ),
        "{w:?}"
    );
    // 42 vertices x 5 components: 22 padded slots x 20 bytes; 40
    // primitives x 8 components: 24 x 32 bytes.
    assert_eq!(
        w[1..],
        [
            Warning::PaddedBlock {
                what: "vertices",
                max: 42,
                wasted_bytes: 440
            },
            Warning::PaddedBlock {
                what: "primitives",
                max: 40,
                wasted_bytes: 768
            },
        ]
    );
}

#[test]
fn own_vertex_writes_give_no_offset_warning() {
    // d_viewport writes vertex and primitive gl_LocalInvocationIndex.
    assert!(
        !warnings("d_viewport.mesh")
            .iter()
            .any(|w| matches!(w, Warning::ComputedOffsets { .. }))
    );
}

#[test]
fn large_output_staging() {
    // 256 vertices of 20 components: under the 32768-byte limit, over half.
    let mesh = spvsass::backend::binary::MeshState {
        topology: spvsass::backend::binary::MeshTopology::Points,
        max_vertices: 256,
        max_primitives: 1,
        shared_mem_lines: 0,
        vertex_attrs: (0..20).map(|c| 0x80 + 4 * c).collect(),
        primitive_attrs: Vec::new(),
        clip_distances: 0,
    };
    let w = spvsass::backend::advice::advise(32, Some(&mesh), &[]);
    // 8 blocks x 20 lines x 128 bytes + MAP 4 + 1 byte.
    assert_eq!(w, vec![Warning::LargeOutput { bytes: 20480 + 5 }]);
    assert!(w[0].to_string().contains("32768-byte limit"), "{}", w[0]);
}

#[test]
fn the_cli_prints_warnings_to_stderr() {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_spvsass"))
        .args([
            "compile",
            common::shader_path("triangle.mesh").to_str().unwrap(),
        ])
        .output()
        .expect("spvsass runs");
    assert!(o.status.success());
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(
        err.starts_with("warning: ") && err.contains("29 invocations own no output"),
        "{err}"
    );
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(!out.contains("warning"), "{out}");
}
