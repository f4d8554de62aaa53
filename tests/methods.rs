//! Draws start from their method stream (docs/HARDWARE.md, "Methods"): the
//! simulator decodes
//! the pushbuffer words, takes the group count and stage state from them,
//! and refuses malformed streams or streams that disagree with the shaders.

use crate::common;

use spvsass::backend::methods::{self, HeaderType, MethodError, header, mthd};
use spvsass::backend::target::Arch;
use spvsass::sim::{DrawError, SimOptions, run_methods};

fn point() -> spvsass::Compiled {
    common::compile("point.mesh", Arch::Sm86)
}

#[test]
fn the_group_count_comes_from_the_stream() {
    let m = point();
    let mut words = spvsass::draw_methods(None, &m.binary, 1, 0);
    // The last word is DRAW_VERTEX_ARRAY_BEGIN_END_B.COUNT.
    *words.last_mut().unwrap() = 3;
    let d = run_methods(&words, None, &m.binary, &SimOptions::default()).expect("runs");
    assert_eq!(d.workgroups.len(), 3);
    let ids: Vec<[u32; 3]> = d.workgroups.iter().map(|w| w.id).collect();
    assert_eq!(ids, vec![[0, 0, 0], [1, 0, 0], [2, 0, 0]]);
    assert_eq!(d.statistics.mesh_invocations, 3);
}

#[test]
fn a_grid_is_a_count_for_the_hardware() {
    let m = point();
    let d = spvsass::Draw::new(None, &m.binary, [2, 3, 1])
        .run()
        .map(|r| r.draw)
        .expect("runs");
    // The stream carries the count 6; the shader splits its linear index
    // by the grid in the root table (x fastest).
    assert_eq!(
        methods::decode(&spvsass::draw_methods(None, &m.binary, 6, 0))
            .unwrap()
            .group_count,
        Some(6)
    );
    assert_eq!(d.workgroups.len(), 6);
    assert_eq!(d.workgroups[5].id, [1, 2, 0]);
}

#[test]
fn the_task_draw_stream_has_the_init_shader() {
    let t = common::compile("d_payload.task", Arch::Sm86);
    let m = common::compile("d_payload.mesh", Arch::Sm86);
    let words = spvsass::draw_methods(Some(&t.binary), &m.binary, 2, 0);
    let state = methods::decode(&words).expect("decodes");
    // 32 threads; 0x20 reserved + 34 payload words = 168 bytes: 2 lines.
    assert_eq!(state.init_shader, Some([32, 2, 2]));
    assert_eq!(state.mesh_shader_a, Some([0, 1, 1]));
    assert_eq!(state.mesh_shader_b, Some([0, 32]));
    assert_eq!(state.group_count, Some(2));
}

fn decode_err(words: &[u32]) -> MethodError {
    methods::decode(words).unwrap_err()
}

#[test]
fn truncated_stream() {
    let m = point();
    let words = spvsass::draw_methods(None, &m.binary, 1, 0);
    let err = decode_err(&words[..words.len() - 1]);
    assert_eq!(
        err,
        MethodError::Truncated {
            index: 7,
            word: 0x2002_009c,
            count: 2,
            left: 1
        }
    );
}

#[test]
fn unknown_header_type() {
    let err = decode_err(&[0xe001_0453]);
    assert_eq!(
        err,
        MethodError::BadHeaderType {
            index: 0,
            word: 0xe001_0453,
            ty: 7
        }
    );
}

#[test]
fn unknown_method() {
    let err = decode_err(&[header(HeaderType::Immediate, 1, 0, 0x0100)]);
    assert_eq!(
        err,
        MethodError::UnknownMethod {
            index: 0,
            method: 0x0100
        }
    );
}

#[test]
fn mesh_state_before_mesh_control() {
    let m = point();
    let words = spvsass::draw_methods(None, &m.binary, 1, 0);
    let err = decode_err(&words[1..]);
    assert_eq!(
        err,
        MethodError::MeshNotEnabled {
            index: 0,
            method: "SET_MESH_SHADER_A"
        }
    );
}

#[test]
fn a_stream_without_a_draw() {
    let m = point();
    let words = spvsass::draw_methods(None, &m.binary, 1, 0);
    let err = decode_err(&words[..words.len() - 3]);
    assert_eq!(err, MethodError::Missing("DRAW_VERTEX_ARRAY_BEGIN_END_B"));
}

#[test]
fn a_stream_for_other_shaders_is_refused() {
    let point = point();
    let triangle = common::compile("triangle.mesh", Arch::Sm86);
    let words = spvsass::draw_methods(None, &triangle.binary, 1, 0);
    let err = run_methods(&words, None, &point.binary, &SimOptions::default()).unwrap_err();
    assert_eq!(
        err,
        DrawError::Methods(MethodError::Mismatch {
            what: "SET_MESH_SHADER_A.OUTPUT_TOPOLOGY",
            stream: 4,
            binary: 0,
            shader: "mesh"
        })
    );
    assert!(err.to_string().contains("OUTPUT_TOPOLOGY = 4"), "{err}");
}

#[test]
fn a_task_draw_needs_the_init_shader() {
    let t = common::compile("d_payload.task", Arch::Sm86);
    let m = common::compile("d_payload.mesh", Arch::Sm86);
    let words = spvsass::draw_methods(None, &m.binary, 1, 0);
    let err = run_methods(&words, Some(&t.binary), &m.binary, &SimOptions::default()).unwrap_err();
    assert!(
        matches!(err, DrawError::Methods(MethodError::Missing(m)) if m.starts_with("SET_MESH_INIT_SHADER")),
        "{err}"
    );
}

#[test]
fn draw_control_must_ignore_base_indices() {
    let m = point();
    let mut words = spvsass::draw_methods(None, &m.binary, 1, 0);
    words[6] = header(HeaderType::Immediate, 0, 0, mthd::SET_DRAW_CONTROL_A);
    let err = decode_err(&words);
    assert!(
        matches!(
            err,
            MethodError::BadValue {
                method: "SET_DRAW_CONTROL_A",
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn compile_emit_methods_prints_the_slides_format() {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_spvsass"))
        .args([
            "compile",
            common::shader_path("point.mesh").to_str().unwrap(),
            "--emit",
            "methods",
            "--groups",
            "4",
        ])
        .output()
        .expect("spvsass runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(
        out.starts_with(
            "[0x00000000] HDR 80010453 subch 0 IMMD\nmthd 114c NVC697_SET_MESH_CONTROL\n    .ENABLE = TRUE\n"
        ),
        "{out}"
    );
    assert!(
        out.contains("mthd 0274 NVC697_DRAW_VERTEX_ARRAY_BEGIN_END_B\n    .COUNT = (0x4)"),
        "{out}"
    );
}

/// `--view-mask` prints the golden multiview stream of
/// tests/golden/triangle.mesh.views0b101.methods.
#[test]
fn compile_emit_methods_with_a_view_mask() {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_spvsass"))
        .args([
            "compile",
            common::shader_path("triangle.mesh").to_str().unwrap(),
            "--emit",
            "methods",
            "--view-mask",
            "0b101",
        ])
        .output()
        .expect("spvsass runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let golden = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/golden/triangle.mesh.views0b101.methods"),
    )
    .expect("golden");
    assert_eq!(String::from_utf8_lossy(&o.stdout), golden);
}

/// Arbitrary words never panic the decoder or the printer: every stream is
/// either a draw state or an error.
#[test]
fn random_streams_decode_or_fail_cleanly() {
    let m = point();
    let valid = spvsass::draw_methods(None, &m.binary, 1, 0);
    let mut seed = 0x9e37_79b9_u32;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        seed
    };
    let mut decoded = 0;
    for _ in 0..5000 {
        // Mutate one or two words of a valid stream, or make one up.
        let mut words = valid.clone();
        match next() % 3 {
            0 => {
                let i = next() as usize % words.len();
                words[i] = next();
            }
            1 => {
                let i = next() as usize % words.len();
                words[i] ^= 1 << (next() % 32);
            }
            _ => words = (0..next() % 12).map(|_| next()).collect(),
        }
        if methods::decode(&words).is_ok() {
            decoded += 1;
        }
        let _ = methods::print(&words, Arch::Sm86);
    }
    // Some single-bit changes keep a valid draw (other counts, START bits).
    assert!(decoded > 0);
}

#[test]
fn a_draw_over_the_workgroup_limit_is_refused() {
    let m = point();
    let err = spvsass::Draw::new(None, &m.binary, [4096, 1025, 1])
        .run()
        .map(|r| r.draw)
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("COUNT over the 2^22 workgroups of one draw"),
        "{err}"
    );
}

/// A multiview stream runs one draw per view, each with the view index it
/// loads into the root table and into the layer its SET_RT_LAYER names:
/// the same draw as the simulator's per-view loop.
#[test]
fn a_multiview_stream_draws_each_view_into_its_layer() {
    let m = common::compile("ref_views.mesh", Arch::Sm86);
    let options = SimOptions::default();
    let words = spvsass::draw_methods(None, &m.binary, 1, 0b101);
    let from_stream = run_methods(&words, None, &m.binary, &options).expect("runs");
    let looped = spvsass::sim::run_draw_multiview(None, &m.binary, [1, 1, 1], 0b101, &options)
        .expect("runs");
    assert_eq!(from_stream, looped);
    assert_eq!(from_stream.queries.len(), 2);
    // The first view's SET_RT_LAYER (IMMD, V = 0) sent to layer 1 instead.
    let rt0 = header(HeaderType::Immediate, 0, 0, mthd::SET_RT_LAYER);
    let at = words
        .iter()
        .position(|&w| w == rt0)
        .expect("view 0's layer");
    let mut moved = words.clone();
    moved[at] = header(HeaderType::Immediate, 1, 0, mthd::SET_RT_LAYER);
    let d = run_methods(&moved, None, &m.binary, &options).expect("runs");
    let layers: Vec<Option<i32>> = d
        .workgroups
        .iter()
        .flat_map(|w| w.primitives.iter().map(|p| p.layer))
        .collect();
    let per_view = layers.len() / 2;
    assert!(per_view > 0);
    assert!(
        layers[..per_view].iter().all(|&l| l == Some(1)),
        "{layers:?}"
    );
    assert!(
        layers[per_view..].iter().all(|&l| l == Some(2)),
        "{layers:?}"
    );
    // Only the layers moved: what each view's shader computed with its
    // view index is unchanged.
    let mut back = d.clone();
    let first_view = back.workgroups.len() / 2;
    for p in back.workgroups[..first_view]
        .iter_mut()
        .flat_map(|w| w.primitives.iter_mut())
    {
        p.layer = Some(0);
    }
    assert_eq!(back, from_stream);
}
