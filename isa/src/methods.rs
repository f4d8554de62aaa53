//! The pushbuffer method stream of a mesh draw (docs/HARDWARE.md,
//! "Methods"): encoded as the words a driver pushes, decoded back into
//! methods, printed in the format of the XDC 2024 slides, and checked into
//! the state the simulator starts a draw from.
//!
//! Header word (docs/HARDWARE.md, "Methods"): bits 29..32 type (1
//! incrementing, printed `NINC` as in the slides' dump; 3 non-incrementing; 4 immediate `IMMD`;
//! 5 increment once), 16..29 the data word count (IMMD: the 13-bit value),
//! 13..16 the subchannel, 0..13 the method address / 4.
//!
//! Method addresses: docs/HARDWARE.md, "Methods", among them
//! SET_VERTEX_ID_BASE 0x1118 and SET_MESH_INIT_SHADER 0x1158 (public NVC597 headers and NVK's early mesh
//! header, where the latter is named SET_TASK_LAYOUT). Field positions:
//! SET_DRAW_CONTROL_A INSTANCE_ID 5..7, INSTANCE_ITERATE_ENABLE 9,
//! IGNORE_GLOBAL_BASE_VERTEX/INSTANCE 10/11 (public NVC597 header; the
//! slides' `8c000098` = value 0xc00 confirms 10 and 11); TOPOLOGY 0..4,
//! PRIMITIVE_ID 4 and SPLIT_MODE 7..9 are inferred (the values used are 0).
//! SET_MESH_SHADER_A TOPOLOGY 0..4, MAX_VERTEX 4..13, MAX_PRIMITIVE 13..22
//! and SET_MESH_SHADER_B THREAD_COUNT 20..32, SET_MESH_INIT_SHADER
//! THREAD_COUNT 0..12 come from NVK's early mesh header (which overlaps
//! the first two fields by one bit; this project does not);
//! SHARED_MEM_LINES 0..9, LOCAL_BUFFER_LINES 12..22 and OUTPUT_TO_M_S_LINES
//! 22..32 are project-defined.
//!
//! Multiview (docs/HARDWARE.md, "Multiview"): with a view mask, the setup
//! is followed by one draw per set bit, in ascending view order, each preceded by the view
//! index written into the root table and the render-target layer, as
//! NVK's per-view draw loop does. LOAD_CONSTANT_BUFFER_OFFSET 0x238c and
//! LOAD_CONSTANT_BUFFER(i) 0x2390 + 4i are from NVIDIA's public clc597.h
//! (as quoted by a third-party header): the offset is a byte offset into
//! the selected constant buffer, and each loaded word advances it by 4.
//! The buffer loaded is the root table, bound as bank `abi::ROOT_BANK`;
//! the real driver first selects it with SET_CONSTANT_BUFFER_SELECTOR_A/B/C
//! (size and address), which this project's stream leaves implicit: the
//! selection is always the root table. SET_RT_LAYER's address 0x15cc comes
//! from ONE UNVERIFIED source; its fields (V 0..16, CONTROL 16, where
//! CONTROL = 0 is V_SELECTS_LAYER) follow NVK's nvk_cmd_draw.c, which
//! writes NV9097_SET_RT_LAYER with the view in V and CONTROL 0. Without a
//! view mask the stream is the single draw of the slides, unchanged.

mod check;

use crate::abi;
use crate::binary::{Binary, MeshTopology};
use crate::isbe_layout::task as task_attr;
use crate::target::Arch;
use std::fmt::Write;
use std::ops::Range;

pub mod mthd {
    pub const SET_DRAW_CONTROL_A: u32 = 0x0260;
    pub const DRAW_VERTEX_ARRAY_BEGIN_END_A: u32 = 0x0270;
    pub const DRAW_VERTEX_ARRAY_BEGIN_END_B: u32 = 0x0274;
    pub const SET_VERTEX_ID_BASE: u32 = 0x1118;
    pub const SET_MESH_CONTROL: u32 = 0x114c;
    pub const SET_MESH_SHADER_A: u32 = 0x1150;
    pub const SET_MESH_SHADER_B: u32 = 0x1154;
    pub const SET_MESH_INIT_SHADER: u32 = 0x1158;
    pub const SET_GLOBAL_BASE_INSTANCE_INDEX: u32 = 0x1438;
    /// Unverified address (one source; see the module comment).
    pub const SET_RT_LAYER: u32 = 0x15cc;
    pub const LOAD_CONSTANT_BUFFER_OFFSET: u32 = 0x238c;
    /// LOAD_CONSTANT_BUFFER(0); (i) is at + 4i, which this stream never uses.
    pub const LOAD_CONSTANT_BUFFER0: u32 = 0x2390;
}

/// The header types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeaderType {
    /// Type 1: data words go to consecutive methods.
    Incrementing = 1,
    /// Type 3: every data word goes to the same method.
    NonIncrementing = 3,
    /// Type 4: the value is in the header.
    Immediate = 4,
    /// Type 5: the first data word goes to the method, the rest to the next.
    IncrementOnce = 5,
}

impl HeaderType {
    fn from_bits(b: u32) -> Option<HeaderType> {
        Some(match b {
            1 => HeaderType::Incrementing,
            3 => HeaderType::NonIncrementing,
            4 => HeaderType::Immediate,
            5 => HeaderType::IncrementOnce,
            _ => return None,
        })
    }

    /// The name the slides' dump prints.
    fn name(self) -> &'static str {
        match self {
            HeaderType::Incrementing => "NINC",
            HeaderType::NonIncrementing => "NONINC",
            HeaderType::Immediate => "IMMD",
            HeaderType::IncrementOnce => "1INC",
        }
    }
}

/// The largest IMMD value (13 bits).
pub const MAX_IMMEDIATE: u32 = 0x1fff;

/// A pushbuffer header word.
pub fn header(ty: HeaderType, count_or_value: u32, subchannel: u32, method: u32) -> u32 {
    ((ty as u32) << 29)
        | ((count_or_value & 0x1fff) << 16)
        | ((subchannel & 7) << 13)
        | ((method / 4) & 0x1fff)
}

fn field(v: u32, r: Range<u32>) -> u32 {
    (v >> r.start) & ((1u32 << (r.end - r.start)) - 1)
}

fn put(v: u32, r: Range<u32>) -> u32 {
    (v & ((1u32 << (r.end - r.start)) - 1)) << r.start
}

mod f {
    use std::ops::Range;
    pub const DC_TOPOLOGY: Range<u32> = 0..4;
    pub const DC_PRIMITIVE_ID: Range<u32> = 4..5;
    pub const DC_INSTANCE_ID: Range<u32> = 5..7;
    pub const DC_SPLIT_MODE: Range<u32> = 7..9;
    pub const DC_INSTANCE_ITERATE: Range<u32> = 9..10;
    pub const DC_IGNORE_BASE_VERTEX: Range<u32> = 10..11;
    pub const DC_IGNORE_BASE_INSTANCE: Range<u32> = 11..12;
    pub const A_TOPOLOGY: Range<u32> = 0..4;
    pub const A_MAX_VERTEX: Range<u32> = 4..13;
    pub const A_MAX_PRIMITIVE: Range<u32> = 13..22;
    pub const B_SHARED_MEM_LINES: Range<u32> = 0..9;
    pub const B_THREAD_COUNT: Range<u32> = 20..32;
    pub const I_THREAD_COUNT: Range<u32> = 0..12;
    pub const I_LOCAL_BUFFER_LINES: Range<u32> = 12..22;
    pub const I_OUTPUT_TO_M_S_LINES: Range<u32> = 22..32;
    pub const RT_LAYER_V: Range<u32> = 0..16;
    pub const RT_LAYER_CONTROL: Range<u32> = 16..17;
}

/// Draw topology codes (SET_DRAW_CONTROL_A, SET_MESH_SHADER_A).
fn topology_code(t: MeshTopology) -> u32 {
    match t {
        MeshTopology::Points => 0,
        MeshTopology::Lines => 1,
        MeshTopology::Triangles => 4,
    }
}

fn topology_name(code: u32) -> Option<&'static str> {
    Some(match code {
        0 => "POINTS",
        1 => "LINES",
        4 => "TRIANGLES",
        _ => return None,
    })
}

/// What the decoded stream set up: the state a draw starts from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DrawState {
    pub mesh_enabled: bool,
    /// THREAD_COUNT, LOCAL_BUFFER_LINES, OUTPUT_TO_M_S_LINES (task present).
    pub init_shader: Option<[u32; 3]>,
    /// OUTPUT_TOPOLOGY code, MAX_VERTEX, MAX_PRIMITIVE.
    pub mesh_shader_a: Option<[u32; 3]>,
    /// SHARED_MEM_LINES, THREAD_COUNT.
    pub mesh_shader_b: Option<[u32; 2]>,
    pub vertex_id_base: u32,
    pub global_base_instance: u32,
    pub draw_control_a: Option<u32>,
    pub start: u32,
    /// DRAW_VERTEX_ARRAY_BEGIN_END_B.COUNT: the workgroups each draw
    /// launches (the draws of a multiview stream must agree).
    pub group_count: Option<u32>,
    /// The draws, in stream order: one without multiview, else one per view.
    pub draws: Vec<Draw>,
}

/// One DRAW_VERTEX_ARRAY_BEGIN_END of a stream, with the per-view state
/// written before it (both `None` outside multiview).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Draw {
    /// The LOAD_CONSTANT_BUFFER word at the root table's view-index slot.
    pub view_index: Option<u32>,
    /// SET_RT_LAYER.V: the image layer the draw's primitives go to.
    pub layer: Option<u32>,
    pub group_count: u32,
}

impl DrawState {
    /// The view mask of the stream's draws (0: no multiview).
    pub fn view_mask(&self) -> u32 {
        self.draws
            .iter()
            .filter_map(|d| d.view_index)
            .fold(0, |m, v| m | 1 << v)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MethodError {
    #[error("method stream word {index:#x}: header {word:#010x} has unknown type {ty}")]
    BadHeaderType { index: usize, word: u32, ty: u32 },
    #[error(
        "method stream word {index:#x}: header {word:#010x} announces {count} data words, \
         {left} left"
    )]
    Truncated {
        index: usize,
        word: u32,
        count: u32,
        left: usize,
    },
    #[error("method stream word {index:#x}: method {method:#06x} is not a mesh draw method")]
    UnknownMethod { index: usize, method: u32 },
    #[error("method stream word {index:#x}: {method} has value {value:#x}: {why}")]
    BadValue {
        index: usize,
        method: &'static str,
        value: u32,
        why: &'static str,
    },
    #[error("method stream word {index:#x}: {method} before SET_MESH_CONTROL.ENABLE = TRUE")]
    MeshNotEnabled { index: usize, method: &'static str },
    #[error("the method stream never sets {0}")]
    Missing(&'static str),
    #[error("the method stream sets {what} = {stream} but the {shader} shader has {binary}")]
    Mismatch {
        what: &'static str,
        stream: u32,
        binary: u32,
        shader: &'static str,
    },
}

/// The method words of a draw of `group_count` workgroups (of the task
/// shader when there is one, else of the mesh shader), in the order of the
/// slides: SET_MESH_CONTROL, the stage setup, then the draw. A non-zero
/// `view_mask` draws once per set bit, each draw preceded by its view
/// index (into the root table) and SET_RT_LAYER (module comment).
pub fn encode_draw(
    task: Option<&Binary>,
    mesh: &Binary,
    group_count: u32,
    view_mask: u32,
) -> Vec<u32> {
    use HeaderType::*;
    let mut w = vec![header(Immediate, 1, 0, mthd::SET_MESH_CONTROL)];
    if let Some(t) = task {
        let (payload, shared) = t
            .task
            .as_ref()
            .map_or((0, 0), |s| (s.payload_bytes, s.shared_lines));
        // The task's output: the reserved words and the payload (what the
        // mesh stage sees), then the task's shared memory lines
        // (docs/HARDWARE.md, "Methods": LOCAL_BUFFER_LINES counts all of it, payload included).
        let out_lines = crate::isbe_layout::task_output_lines(payload);
        let lines = out_lines + shared;
        w.push(header(Incrementing, 1, 0, mthd::SET_MESH_INIT_SHADER));
        w.push(
            put(threads(t), f::I_THREAD_COUNT)
                | put(lines, f::I_LOCAL_BUFFER_LINES)
                | put(out_lines, f::I_OUTPUT_TO_M_S_LINES),
        );
    }
    if let Some(m) = &mesh.mesh {
        w.push(header(Incrementing, 2, 0, mthd::SET_MESH_SHADER_A));
        w.push(
            put(topology_code(m.topology), f::A_TOPOLOGY)
                | put(m.max_vertices, f::A_MAX_VERTEX)
                | put(m.max_primitives, f::A_MAX_PRIMITIVE),
        );
        w.push(
            put(m.shared_mem_lines, f::B_SHARED_MEM_LINES) | put(threads(mesh), f::B_THREAD_COUNT),
        );
    }
    w.push(header(Immediate, 0, 0, mthd::SET_VERTEX_ID_BASE));
    w.push(header(
        Immediate,
        0,
        0,
        mthd::SET_GLOBAL_BASE_INSTANCE_INDEX,
    ));
    let dc = put(1, f::DC_IGNORE_BASE_VERTEX) | put(1, f::DC_IGNORE_BASE_INSTANCE);
    w.push(header(Immediate, dc, 0, mthd::SET_DRAW_CONTROL_A));
    let draw = [
        header(Incrementing, 2, 0, mthd::DRAW_VERTEX_ARRAY_BEGIN_END_A),
        0,
        group_count,
    ];
    if view_mask == 0 {
        w.extend(draw);
    }
    for view in (0..32).filter(|v| view_mask & (1 << v) != 0) {
        w.push(header(
            Incrementing,
            1,
            0,
            mthd::LOAD_CONSTANT_BUFFER_OFFSET,
        ));
        w.push(u32::from(abi::VIEW_INDEX));
        w.push(header(Incrementing, 1, 0, mthd::LOAD_CONSTANT_BUFFER0));
        w.push(view);
        // V_SELECTS_LAYER (CONTROL 0): the layer is V.
        w.push(header(Immediate, view, 0, mthd::SET_RT_LAYER));
        w.extend(draw);
    }
    w
}

/// The hardware threads of a workgroup: one warp at most; a wider API
/// workgroup runs as logical subgroups on it (backend `logical_subgroups`).
fn threads(b: &Binary) -> u32 {
    b.workgroup_size
        .iter()
        .product::<u32>()
        .min(crate::limits::WARP_LANES)
}

/// One method write of a decoded stream.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Write1 {
    /// The header's word index, and the header.
    index: usize,
    header: u32,
    method: u32,
    value: u32,
}

/// Splits a stream into method writes, grouped by header.
fn writes(words: &[u32]) -> Result<Vec<Vec<Write1>>, MethodError> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let h = words[i];
        let ty_bits = h >> 29;
        let ty = HeaderType::from_bits(ty_bits).ok_or(MethodError::BadHeaderType {
            index: i,
            word: h,
            ty: ty_bits,
        })?;
        let count = field(h, 16..29);
        let method = field(h, 0..13) * 4;
        let mut group = Vec::new();
        if ty == HeaderType::Immediate {
            group.push(Write1 {
                index: i,
                header: h,
                method,
                value: count,
            });
            i += 1;
        } else {
            let data = words
                .get(i + 1..i + 1 + count as usize)
                .ok_or(MethodError::Truncated {
                    index: i,
                    word: h,
                    count,
                    left: words.len() - i - 1,
                })?;
            for (k, &value) in data.iter().enumerate() {
                let step = match ty {
                    HeaderType::Incrementing => k as u32,
                    HeaderType::NonIncrementing => 0,
                    _ => u32::from(k > 0),
                };
                group.push(Write1 {
                    index: i,
                    header: h,
                    method: method + 4 * step,
                    value,
                });
            }
            i += 1 + count as usize;
        }
        out.push(group);
    }
    Ok(out)
}

fn method_name(m: u32) -> Option<&'static str> {
    Some(match m {
        mthd::SET_DRAW_CONTROL_A => "SET_DRAW_CONTROL_A",
        mthd::DRAW_VERTEX_ARRAY_BEGIN_END_A => "DRAW_VERTEX_ARRAY_BEGIN_END_A",
        mthd::DRAW_VERTEX_ARRAY_BEGIN_END_B => "DRAW_VERTEX_ARRAY_BEGIN_END_B",
        mthd::SET_VERTEX_ID_BASE => "SET_VERTEX_ID_BASE",
        mthd::SET_MESH_CONTROL => "SET_MESH_CONTROL",
        mthd::SET_MESH_SHADER_A => "SET_MESH_SHADER_A",
        mthd::SET_MESH_SHADER_B => "SET_MESH_SHADER_B",
        mthd::SET_MESH_INIT_SHADER => "SET_MESH_INIT_SHADER",
        mthd::SET_GLOBAL_BASE_INSTANCE_INDEX => "SET_GLOBAL_BASE_INSTANCE_INDEX",
        mthd::SET_RT_LAYER => "SET_RT_LAYER",
        mthd::LOAD_CONSTANT_BUFFER_OFFSET => "LOAD_CONSTANT_BUFFER_OFFSET",
        mthd::LOAD_CONSTANT_BUFFER0 => "LOAD_CONSTANT_BUFFER(0)",
        _ => return None,
    })
}

/// The fields of a method value, as the slides print them.
fn fields(method: u32, v: u32) -> Vec<(&'static str, String)> {
    let num = |x: u32| format!("({x:#x})");
    let bool_ = |x: u32| if x != 0 { "TRUE" } else { "FALSE" }.to_string();
    let topo = |x: u32| topology_name(x).map_or_else(|| num(x), str::to_string);
    let first = |x: u32, other: &str| {
        if x == 0 {
            "FIRST".into()
        } else {
            other.to_string()
        }
    };
    match method {
        mthd::SET_MESH_CONTROL => vec![("ENABLE", bool_(field(v, 0..1)))],
        mthd::SET_MESH_INIT_SHADER => vec![
            ("THREAD_COUNT", num(field(v, f::I_THREAD_COUNT))),
            ("LOCAL_BUFFER_LINES", num(field(v, f::I_LOCAL_BUFFER_LINES))),
            (
                "OUTPUT_TO_M_S_LINES",
                num(field(v, f::I_OUTPUT_TO_M_S_LINES)),
            ),
        ],
        mthd::SET_MESH_SHADER_A => vec![
            ("OUTPUT_TOPOLOGY", topo(field(v, f::A_TOPOLOGY))),
            ("MAX_VERTEX", num(field(v, f::A_MAX_VERTEX))),
            ("MAX_PRIMITIVE", num(field(v, f::A_MAX_PRIMITIVE))),
        ],
        mthd::SET_MESH_SHADER_B => vec![
            ("SHARED_MEM_LINES", num(field(v, f::B_SHARED_MEM_LINES))),
            ("THREAD_COUNT", num(field(v, f::B_THREAD_COUNT))),
        ],
        mthd::SET_DRAW_CONTROL_A => vec![
            ("TOPOLOGY", topo(field(v, f::DC_TOPOLOGY))),
            (
                "PRIMITIVE_ID",
                first(field(v, f::DC_PRIMITIVE_ID), "UNCHANGED"),
            ),
            (
                "INSTANCE_ID",
                first(field(v, f::DC_INSTANCE_ID), "SUBSEQUENT"),
            ),
            (
                "SPLIT_MODE",
                if field(v, f::DC_SPLIT_MODE) == 0 {
                    "NORMAL_BEGIN_NORMAL_END".into()
                } else {
                    num(field(v, f::DC_SPLIT_MODE))
                },
            ),
            (
                "INSTANCE_ITERATE_ENABLE",
                bool_(field(v, f::DC_INSTANCE_ITERATE)),
            ),
            (
                "IGNORE_GLOBAL_BASE_VERTEX_INDEX",
                bool_(field(v, f::DC_IGNORE_BASE_VERTEX)),
            ),
            (
                "IGNORE_GLOBAL_BASE_INSTANCE_INDEX",
                bool_(field(v, f::DC_IGNORE_BASE_INSTANCE)),
            ),
        ],
        mthd::DRAW_VERTEX_ARRAY_BEGIN_END_A => vec![("START", num(v))],
        mthd::DRAW_VERTEX_ARRAY_BEGIN_END_B => vec![("COUNT", num(v))],
        mthd::SET_RT_LAYER => vec![
            ("V", num(field(v, f::RT_LAYER_V))),
            (
                "CONTROL",
                if field(v, f::RT_LAYER_CONTROL) == 0 {
                    "V_SELECTS_LAYER".into()
                } else {
                    "GEOMETRY_SHADER_SELECTS_LAYER".into()
                },
            ),
        ],
        mthd::LOAD_CONSTANT_BUFFER_OFFSET => vec![("OFFSET", num(v))],
        // LOAD_CONSTANT_BUFFER's one field is V, the word loaded.
        _ => vec![("V", num(v))],
    }
}

/// The class prefix of method names: Turing's 3D class C597 on sm75,
/// Ampere's C697 otherwise (Ada's and Hopper's classes are not modelled).
pub fn class_name(arch: Arch) -> &'static str {
    if arch == Arch::Sm75 {
        "NVC597"
    } else {
        "NVC697"
    }
}

/// The stream printed as in the XDC 2024 slides:
/// `[0x0000000b] HDR 80010453 subch 0 IMMD`, `mthd 114c NVC697_SET_MESH_CONTROL`,
/// `    .ENABLE = TRUE`. Word indices count from the stream's start.
pub fn print(words: &[u32], arch: Arch) -> Result<String, MethodError> {
    let mut s = String::new();
    for group in writes(words)? {
        let Some(first) = group.first() else { continue };
        let ty = HeaderType::from_bits(first.header >> 29).map_or("?", HeaderType::name);
        // Writing into a String cannot fail.
        let _ = writeln!(
            s,
            "[{:#010x}] HDR {:08x} subch {} {ty}",
            first.index,
            first.header,
            field(first.header, 13..16)
        );
        for w in &group {
            let name = method_name(w.method).ok_or(MethodError::UnknownMethod {
                index: w.index,
                method: w.method,
            })?;
            let _ = writeln!(s, "mthd {:04x} {}_{name}", w.method, class_name(arch));
            for (fname, value) in fields(w.method, w.value) {
                let _ = writeln!(s, "    .{fname} = {value}");
            }
        }
    }
    Ok(s)
}

/// Decodes a stream into the draw state it sets, rejecting streams the
/// hardware would not run as a mesh draw.
pub fn decode(words: &[u32]) -> Result<DrawState, MethodError> {
    let mut st = DrawState::default();
    // The constant-buffer offset the next LOAD_CONSTANT_BUFFER writes at,
    // and the per-view state written since the last draw.
    let mut cb_offset: Option<u32> = None;
    let mut view: Option<u32> = None;
    let mut layer: Option<u32> = None;
    for w in writes(words)?.into_iter().flatten() {
        let name = method_name(w.method).ok_or(MethodError::UnknownMethod {
            index: w.index,
            method: w.method,
        })?;
        let bad = |why| MethodError::BadValue {
            index: w.index,
            method: name,
            value: w.value,
            why,
        };
        let needs_mesh = matches!(
            w.method,
            mthd::SET_MESH_INIT_SHADER | mthd::SET_MESH_SHADER_A | mthd::SET_MESH_SHADER_B
        );
        if needs_mesh && !st.mesh_enabled {
            return Err(MethodError::MeshNotEnabled {
                index: w.index,
                method: name,
            });
        }
        match w.method {
            mthd::SET_MESH_CONTROL => {
                if w.value > 1 {
                    return Err(bad("reserved bits set"));
                }
                st.mesh_enabled = w.value == 1;
            }
            mthd::SET_MESH_INIT_SHADER => {
                let t = field(w.value, f::I_THREAD_COUNT);
                if t == 0 || t > 32 {
                    return Err(bad("THREAD_COUNT must be 1..=32 (one warp)"));
                }
                st.init_shader = Some([
                    t,
                    field(w.value, f::I_LOCAL_BUFFER_LINES),
                    field(w.value, f::I_OUTPUT_TO_M_S_LINES),
                ]);
            }
            mthd::SET_MESH_SHADER_A => {
                let topo = field(w.value, f::A_TOPOLOGY);
                if topology_name(topo).is_none() {
                    return Err(bad("OUTPUT_TOPOLOGY is not POINTS, LINES or TRIANGLES"));
                }
                if w.value >> f::A_MAX_PRIMITIVE.end != 0 {
                    return Err(bad("reserved bits set"));
                }
                st.mesh_shader_a = Some([
                    topo,
                    field(w.value, f::A_MAX_VERTEX),
                    field(w.value, f::A_MAX_PRIMITIVE),
                ]);
            }
            mthd::SET_MESH_SHADER_B => {
                let t = field(w.value, f::B_THREAD_COUNT);
                if t == 0 || t > 32 {
                    return Err(bad("THREAD_COUNT must be 1..=32 (one warp)"));
                }
                if field(w.value, f::B_SHARED_MEM_LINES.end..f::B_THREAD_COUNT.start) != 0 {
                    return Err(bad("reserved bits set"));
                }
                st.mesh_shader_b = Some([field(w.value, f::B_SHARED_MEM_LINES), t]);
            }
            mthd::SET_VERTEX_ID_BASE => st.vertex_id_base = w.value,
            mthd::SET_GLOBAL_BASE_INSTANCE_INDEX => st.global_base_instance = w.value,
            mthd::SET_DRAW_CONTROL_A => st.draw_control_a = Some(w.value),
            mthd::DRAW_VERTEX_ARRAY_BEGIN_END_A => st.start = w.value,
            mthd::DRAW_VERTEX_ARRAY_BEGIN_END_B => {
                if st.group_count.is_some_and(|c| c != w.value) {
                    return Err(bad(
                        "a view's draw with another COUNT than the first draw's",
                    ));
                }
                if w.value > task_attr::MAX_MESH_GROUPS {
                    return Err(bad("COUNT over the 2^22 workgroups of one draw \
                         (maxTaskWorkGroupTotalCount / maxMeshWorkGroupTotalCount)"));
                }
                let draw = Draw {
                    view_index: view.take(),
                    layer: layer.take(),
                    group_count: w.value,
                };
                match (draw.view_index, draw.layer, st.draws.last()) {
                    (Some(_), None, _) => {
                        return Err(bad("a view's draw without SET_RT_LAYER"));
                    }
                    (None, Some(_), _) => {
                        return Err(bad("SET_RT_LAYER without a view index for the draw"));
                    }
                    (None, None, Some(_)) => return Err(bad("a second draw without a view index")),
                    (Some(_), _, Some(prev)) if prev.view_index.is_none() => {
                        return Err(bad("a view's draw after a draw without a view index"));
                    }
                    (Some(v), _, Some(prev)) if prev.view_index.is_some_and(|p| p >= v) => {
                        return Err(bad("views not in ascending order"));
                    }
                    _ => {}
                }
                st.group_count = Some(w.value);
                st.draws.push(draw);
            }
            mthd::LOAD_CONSTANT_BUFFER_OFFSET => {
                if w.value != u32::from(abi::VIEW_INDEX) {
                    return Err(bad(
                        "the stream loads only the root table's view-index slot (0xc)",
                    ));
                }
                cb_offset = Some(w.value);
            }
            mthd::LOAD_CONSTANT_BUFFER0 => {
                if cb_offset != Some(u32::from(abi::VIEW_INDEX)) {
                    return Err(bad(
                        "LOAD_CONSTANT_BUFFER at an offset other than the view-index slot (0xc)",
                    ));
                }
                if w.value >= 32 {
                    return Err(bad("a view index must be below 32"));
                }
                // The hardware advances the offset past each loaded word.
                cb_offset = cb_offset.map(|o| o + 4);
                view = Some(w.value);
            }
            mthd::SET_RT_LAYER => {
                if field(w.value, f::RT_LAYER_CONTROL) != 0 {
                    return Err(bad("CONTROL must be V_SELECTS_LAYER (0)"));
                }
                if w.value >> f::RT_LAYER_CONTROL.end != 0 {
                    return Err(bad("reserved bits set"));
                }
                layer = Some(field(w.value, f::RT_LAYER_V));
            }
            _ => unreachable!("method_name knows only the methods above"),
        }
    }
    if !st.mesh_enabled {
        return Err(MethodError::Missing("SET_MESH_CONTROL.ENABLE = TRUE"));
    }
    if st.mesh_shader_a.is_none() {
        return Err(MethodError::Missing("SET_MESH_SHADER_A"));
    }
    if st.mesh_shader_b.is_none() {
        return Err(MethodError::Missing("SET_MESH_SHADER_B"));
    }
    let dc = st
        .draw_control_a
        .ok_or(MethodError::Missing("SET_DRAW_CONTROL_A"))?;
    // A mesh draw ignores the base indices (docs/HARDWARE.md, "Methods").
    if field(dc, f::DC_IGNORE_BASE_VERTEX) == 0 || field(dc, f::DC_IGNORE_BASE_INSTANCE) == 0 {
        return Err(MethodError::BadValue {
            index: 0,
            method: "SET_DRAW_CONTROL_A",
            value: dc,
            why: "a mesh draw must ignore the global base vertex and instance indices",
        });
    }
    if st.group_count.is_none() {
        return Err(MethodError::Missing("DRAW_VERTEX_ARRAY_BEGIN_END_B"));
    }
    if view.is_some() || layer.is_some() {
        return Err(MethodError::Missing(
            "DRAW_VERTEX_ARRAY_BEGIN_END_B after the last view's view index / SET_RT_LAYER",
        ));
    }
    Ok(st)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The two header words of the XDC 2024 dump (docs/HARDWARE.md,
    /// "Methods").
    #[test]
    fn header_words_of_the_slides() {
        assert_eq!(
            header(HeaderType::Immediate, 1, 0, mthd::SET_MESH_CONTROL),
            0x8001_0453
        );
        assert_eq!(
            header(HeaderType::Incrementing, 2, 0, mthd::SET_MESH_SHADER_A),
            0x2002_0454
        );
        assert_eq!(
            header(
                HeaderType::Immediate,
                0,
                0,
                mthd::SET_GLOBAL_BASE_INSTANCE_INDEX
            ),
            0x8000_050e
        );
        assert_eq!(
            header(
                HeaderType::Incrementing,
                2,
                0,
                mthd::DRAW_VERTEX_ARRAY_BEGIN_END_A
            ),
            0x2002_009c
        );
    }

    #[test]
    fn draw_control_a_of_the_slides() {
        // `HDR 8c000098`: IMMD, SET_DRAW_CONTROL_A, both IGNORE_* bits.
        let dc = put(1, f::DC_IGNORE_BASE_VERTEX) | put(1, f::DC_IGNORE_BASE_INSTANCE);
        assert_eq!(
            header(HeaderType::Immediate, dc, 0, mthd::SET_DRAW_CONTROL_A),
            0x8c00_0098
        );
    }

    #[test]
    fn subchannel_and_immediate_fields_decode() {
        let h = header(
            HeaderType::Immediate,
            MAX_IMMEDIATE,
            5,
            mthd::SET_VERTEX_ID_BASE,
        );
        let w = writes(&[h]).unwrap();
        assert_eq!(w[0][0].value, MAX_IMMEDIATE);
        assert_eq!(w[0][0].method, mthd::SET_VERTEX_ID_BASE);
        assert_eq!(field(h, 13..16), 5);
    }
}
