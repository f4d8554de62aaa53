//! The multiview method stream: one draw per set bit of the view mask,
//! each after LOAD_CONSTANT_BUFFER_OFFSET/LOAD_CONSTANT_BUFFER (the view
//! index into the root table) and SET_RT_LAYER. Each row encodes a mask,
//! decodes it back into its draws, and prints it; the rejection table
//! edits a valid stream into one the hardware would not run as intended.

use spvsass_isa::abi;
use spvsass_isa::binary::Stage;
use spvsass_isa::binary::{Binary, MeshState, MeshTopology};
use spvsass_isa::methods::{
    Draw, HeaderType, MethodError, decode, encode_draw, header, mthd, print,
};
use spvsass_isa::target::Arch;

/// A one-warp triangle mesh shader (only its draw state matters here).
fn mesh() -> Binary {
    Binary {
        arch: Arch::Sm86,
        stage: Stage::Mesh,
        workgroup_size: [32, 1, 1],
        num_gprs: 8,
        mesh: Some(MeshState {
            topology: MeshTopology::Triangles,
            max_vertices: 3,
            max_primitives: 1,
            shared_mem_lines: 0,
            vertex_attrs: Vec::new(),
            primitive_attrs: Vec::new(),
            clip_distances: 0,
        }),
        task: None,
        compute: None,
        sph: None,
        code: Vec::new(),
        gs_sph: None,
        resources: Vec::new(),
    }
}

/// Encodes `mask` and checks the decoded draws and the printed methods.
fn round_trip(mask: u32, views: &[u32]) {
    let words = encode_draw(None, &mesh(), 3, mask);
    let state = decode(&words).expect("decodes");
    let expected: Vec<Draw> = if views.is_empty() {
        vec![Draw {
            view_index: None,
            layer: None,
            group_count: 3,
        }]
    } else {
        views
            .iter()
            .map(|&v| Draw {
                view_index: Some(v),
                layer: Some(v),
                group_count: 3,
            })
            .collect()
    };
    assert_eq!(state.draws, expected);
    assert_eq!(state.view_mask(), mask);
    assert_eq!(state.group_count, Some(3));
    let text = print(&words, Arch::Sm86).expect("prints");
    assert_eq!(
        text.matches("NVC697_DRAW_VERTEX_ARRAY_BEGIN_END_B").count(),
        expected.len()
    );
    assert_eq!(text.matches("NVC697_SET_RT_LAYER").count(), views.len());
    assert_eq!(
        text.matches(".OFFSET = (0xc)").count(),
        views.len(),
        "every view loads the view-index slot"
    );
    for v in views {
        assert!(text.contains(&format!(
            "mthd 15cc NVC697_SET_RT_LAYER\n    .V = ({v:#x})\n    .CONTROL = V_SELECTS_LAYER"
        )));
    }
}

macro_rules! round_trips {
    ($($test:ident: $mask:literal => $views:expr;)*) => {
        $(#[test] fn $test() { round_trip($mask, &$views); })*
    };
}

round_trips! {
    no_multiview: 0 => [];
    one_view: 0b1 => [0];
    views_0_and_2: 0b101 => [0, 2];
    four_views: 0b1111 => [0, 1, 2, 3];
    view_31_only: 0x8000_0000 => [31];
}

/// The stream of mask 0b101 with `remove` words from index `at`
/// (counting from view 0's LOAD_CONSTANT_BUFFER_OFFSET header) replaced
/// by `insert`.
fn edited(at: usize, remove: usize, insert: &[u32]) -> Vec<u32> {
    let mut words = encode_draw(None, &mesh(), 1, 0b101);
    let offset = header(
        HeaderType::Incrementing,
        1,
        0,
        mthd::LOAD_CONSTANT_BUFFER_OFFSET,
    );
    let start = words
        .iter()
        .position(|&w| w == offset)
        .expect("a view's offset");
    words.splice(start + at..start + at + remove, insert.iter().copied());
    words
}

fn bad(method: &str, why: &str) -> impl Fn(&MethodError) -> bool {
    let (method, why) = (method.to_string(), why.to_string());
    move |e| matches!(e, MethodError::BadValue { method: m, why: w, .. } if *m == method && w.contains(&why))
}

macro_rules! rejects {
    ($($test:ident: $words:expr => $check:expr;)*) => {
        $(#[test] fn $test() {
            let e = decode(&$words).expect_err("rejected");
            assert!($check(&e), "{e}");
        })*
    };
}

// View 0's words, from the start: 0 OFFSET header, 1 offset, 2 LOAD header,
// 3 view, 4 SET_RT_LAYER (IMMD), 5 draw header, 6 START, 7 COUNT; view 2's
// follow at 8.
rejects! {
    load_at_another_offset: edited(1, 1, &[u32::from(abi::CULL_CONTROL)])
        => bad("LOAD_CONSTANT_BUFFER_OFFSET", "view-index slot");
    load_without_offset: edited(0, 2, &[])
        => bad("LOAD_CONSTANT_BUFFER(0)", "offset other than the view-index slot");
    view_past_31: edited(3, 1, &[32])
        => bad("LOAD_CONSTANT_BUFFER(0)", "below 32");
    layer_without_view: edited(0, 4, &[])
        => bad("DRAW_VERTEX_ARRAY_BEGIN_END_B", "SET_RT_LAYER without a view index");
    view_without_layer: edited(4, 1, &[])
        => bad("DRAW_VERTEX_ARRAY_BEGIN_END_B", "without SET_RT_LAYER");
    layer_by_geometry_shader: edited(
        4,
        1,
        &[header(HeaderType::Incrementing, 1, 0, mthd::SET_RT_LAYER), 1 << 16],
    ) => bad("SET_RT_LAYER", "V_SELECTS_LAYER");
    layer_reserved_bits: edited(
        4,
        1,
        &[header(HeaderType::Incrementing, 1, 0, mthd::SET_RT_LAYER), 1 << 17],
    ) => bad("SET_RT_LAYER", "reserved bits");
    counts_disagree: edited(7, 1, &[2])
        => bad("DRAW_VERTEX_ARRAY_BEGIN_END_B", "another COUNT");
    views_descending: edited(8 + 3, 1, &[0])
        => bad("DRAW_VERTEX_ARRAY_BEGIN_END_B", "ascending");
    view_left_without_draw: edited(8 + 5, 3, &[])
        => |e: &MethodError| matches!(e, MethodError::Missing(m) if m.contains("last view"));
    plain_draw_then_view: {
        let mut w = encode_draw(None, &mesh(), 1, 0);
        w.extend(edited(0, 0, &[])[7..].iter().copied());
        w
    } => bad("DRAW_VERTEX_ARRAY_BEGIN_END_B", "after a draw without a view index");
}
