//! Writes a generated program as GLSL. Every operation whose result GLSL
//! or SPIR-V leaves undefined is guarded here: division and remainder by
//! zero (and of the minimum by −1: `-a` instead), shift amounts masked to
//! the width, float sums and products clamped to ±1e18 (so no infinity and
//! no NaN ever appears), float-to-integer conversions clamped to the
//! target's range, array indices masked to the array.

use crate::ast::{
    AtomOp, BinOp, CmpOp, Expr, Func, MeshShape, Program, SgOp, Stage, Stmt, Topology, Ty, UnOp,
    words_of,
};
use std::fmt::Write;

/// The GLSL source of `p` (of the task shader for a task program; its
/// mesh shader is [`mesh_glsl`]'s).
pub fn glsl(p: &Program) -> String {
    let mut s = String::new();
    let n = p.invocations();
    let mesh_ext = match &p.stage {
        Stage::Compute => "",
        Stage::Mesh(_) | Stage::Task(_) => "#extension GL_EXT_mesh_shader : require\n",
    };
    let out_binding = match &p.stage {
        Stage::Mesh(MeshShape {
            behind_task: Some(_),
            ..
        }) => 3,
        Stage::Compute | Stage::Mesh(_) | Stage::Task(_) => 1,
    };
    let _ = writeln!(
        s,
        "#version 460
{mesh_ext}#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require
layout(local_size_x = {}, local_size_y = {}, local_size_z = {}) in;
layout(std430, set = 0, binding = 0) readonly buffer In {{ uint inp[]; }};
layout(std430, set = 0, binding = {out_binding}) buffer Out {{ uint outp[]; }};
layout(std430, set = 0, binding = 2) buffer Atom {{ uint at[]; }};
shared uint sh[{n}];",
        p.size[0], p.size[1], p.size[2]
    );
    match &p.stage {
        Stage::Compute => {}
        Stage::Mesh(m) => mesh_decls(&mut s, m),
        Stage::Task(_) => payload_decl(&mut s, n),
    }
    let mut body = String::new();
    for (i, f) in p.helpers.iter().enumerate() {
        func(&mut body, f, &format!("f{i}"), p);
    }
    func(&mut body, &p.main, "main", p);
    // The guarded division helpers the program calls.
    for &t in Ty::INTEGERS {
        let g = t.glsl();
        let tag = t.tag();
        if !body.contains(&format!("div_{tag}(")) && !body.contains(&format!("mod_{tag}(")) {
            continue;
        }
        if t.is_signed() {
            let _ = writeln!(
                s,
                "{g} div_{tag}({g} a, {g} b) {{ return b == {g}(0) ? a : (b == {g}(-1) ? -a : a / b); }}
{g} mod_{tag}({g} a, {g} b) {{ return (b == {g}(0) || b == {g}(-1)) ? a : a % b; }}"
            );
        } else {
            let _ = writeln!(
                s,
                "{g} div_{tag}({g} a, {g} b) {{ return b == {g}(0) ? a : a / b; }}
{g} mod_{tag}({g} a, {g} b) {{ return b == {g}(0) ? a : a % b; }}"
            );
        }
    }
    s.push_str(&body);
    s
}

fn func(s: &mut String, f: &Func, name: &str, p: &Program) {
    let is_main = f.ret.is_none();
    let ret = f.ret.as_ref().map_or("void", |(t, _)| t.glsl());
    let params: Vec<String> = f
        .params
        .iter()
        .enumerate()
        .map(|(i, t)| format!("{} v{i}", t.glsl()))
        .collect();
    let _ = writeln!(s, "{ret} {name}({}) {{", params.join(", "));
    if is_main {
        let n = p.invocations();
        match &p.stage {
            Stage::Mesh(MeshShape {
                behind_task: Some(_),
                ..
            }) => {
                let _ = writeln!(
                    s,
                    "    uint gid = gl_LocalInvocationIndex + {n}u * (pl.task * 4u + gl_WorkGroupID.x);"
                );
            }
            Stage::Compute | Stage::Mesh(_) | Stage::Task(_) => {
                let _ = writeln!(
                    s,
                    "    uint gid = gl_LocalInvocationIndex + {n}u * gl_WorkGroupID.x;"
                );
            }
        }
        if let Stage::Mesh(m) = &p.stage
            && !m.counts_late
        {
            set_mesh_outputs(s, m);
        }
    }
    for a in 0..f.arrays {
        let _ = writeln!(
            s,
            "    uint a{a}[8] = uint[8](0u, 1u, 2u, 3u, 4u, 5u, 6u, 7u);"
        );
    }
    let np = f.params.len();
    for (k, init) in f.inits.iter().enumerate() {
        let i = np + k;
        let _ = writeln!(s, "    {} v{i} = {};", f.vars[i].glsl(), expr(init));
    }
    if is_main
        && let Stage::Mesh(MeshShape {
            behind_task: Some(tn),
            rot,
            ..
        }) = &p.stage
    {
        let _ = writeln!(
            s,
            "    v0 ^= pl.w[(gl_LocalInvocationIndex + {rot}u) % {tn}u];"
        );
    }
    block(s, &f.body, f, 1);
    if is_main {
        let mut w = 0;
        let k = p.out_words();
        for (i, t) in f.vars.iter().enumerate() {
            for (j, e) in out_words(*t, &format!("v{i}")).iter().enumerate() {
                let _ = writeln!(s, "    outp[gid * {k}u + {}u] = {e};", w + j);
            }
            w += words_of(*t) as usize;
        }
        for a in 0..f.arrays {
            for j in 0..8 {
                let _ = writeln!(s, "    outp[gid * {k}u + {}u] = a{a}[{j}];", w + j);
            }
            w += 8;
        }
        let words: Vec<String> = f
            .vars
            .iter()
            .enumerate()
            .flat_map(|(i, t)| out_words(*t, &format!("v{i}")))
            .collect();
        match &p.stage {
            Stage::Compute => {}
            Stage::Mesh(m) => mesh_outputs(s, m, p.invocations(), &words),
            Stage::Task(t) => {
                let _ = writeln!(
                    s,
                    "    pl.w[gl_LocalInvocationIndex] = {} ^ {};",
                    words[0],
                    words[words.len() - 1]
                );
                let _ = writeln!(
                    s,
                    "    if (gl_LocalInvocationIndex == 0u) pl.task = gl_WorkGroupID.x;"
                );
                let _ = writeln!(
                    s,
                    "    EmitMeshTasksEXT({}, 1u, 1u);",
                    count(t.emit, t.fewer_in_odd_groups)
                );
            }
        }
    }
    if let Some((_, e)) = &f.ret {
        let _ = writeln!(s, "    return {};", expr(e));
    }
    let _ = writeln!(s, "}}");
}

/// The GLSL source of a task program's mesh shader.
pub fn mesh_glsl(p: &Program) -> Option<String> {
    match &p.stage {
        Stage::Task(t) => Some(glsl(&t.mesh)),
        Stage::Compute | Stage::Mesh(_) => None,
    }
}

/// The task payload: the launching workgroup's index and one word per
/// task invocation.
fn payload_decl(s: &mut String, task_invocations: u32) {
    let _ = writeln!(
        s,
        "struct Payload {{ uint task; uint w[{task_invocations}]; }};
taskPayloadSharedEXT Payload pl;"
    );
}

fn mesh_decls(s: &mut String, m: &MeshShape) {
    let topo = match m.topology {
        Topology::Points => "points",
        Topology::Lines => "lines",
        Topology::Triangles => "triangles",
    };
    let _ = writeln!(
        s,
        "layout({topo}, max_vertices = {}, max_primitives = {}) out;
layout(location = 0) flat out uvec4 vbits[];
layout(location = 1) perprimitiveEXT flat out uvec4 pbits[];",
        m.max_vertices, m.max_primitives
    );
    if let Some(tn) = m.behind_task {
        payload_decl(s, tn);
    }
}

/// A count, one fewer in odd workgroups when `fewer`.
fn count(n: u32, fewer: bool) -> String {
    if fewer {
        format!("({n}u - (gl_WorkGroupID.x & 1u))")
    } else {
        format!("{n}u")
    }
}

fn set_mesh_outputs(s: &mut String, m: &MeshShape) {
    let _ = writeln!(
        s,
        "    SetMeshOutputsEXT({}, {});",
        count(m.vertices, m.fewer_in_odd_groups),
        count(m.primitives, m.fewer_in_odd_groups)
    );
}

/// The vertex and primitive writes at the end of a mesh shader's main:
/// invocation i writes vertices and primitives i, i + n, ... from its
/// variables' `words`.
fn mesh_outputs(s: &mut String, m: &MeshShape, n: u32, words: &[String]) {
    if m.counts_late {
        set_mesh_outputs(s, m);
    }
    let w = |i: usize| &words[i % words.len()];
    let vc = count(m.vertices, m.fewer_in_odd_groups);
    let pc = count(m.primitives, m.fewer_in_odd_groups);
    let rot = m.rot;
    let _ = writeln!(
        s,
        "    for (uint k = gl_LocalInvocationIndex; k < {vc}; k += {n}u) {{
        uint h = k * 2654435761u;
        uint s = (k + {rot}u) % {vc};
        gl_MeshVerticesEXT[s].gl_Position = vec4(uintBitsToFloat(({} ^ h) & 0x3fffffffu), uintBitsToFloat({} & 0x3fffffffu), uintBitsToFloat(({} + k) & 0x3fffffffu), 1.0);
        vbits[s] = uvec4({} + h, {}, {} ^ k, {});
    }}",
        w(0),
        w(1),
        w(2),
        w(3),
        w(4),
        w(5),
        w(6)
    );
    let index = match m.topology {
        Topology::Points => format!("gl_PrimitivePointIndicesEXT[k] = ({} + k) % {vc};", w(1)),
        Topology::Lines => format!(
            "gl_PrimitiveLineIndicesEXT[k] = uvec2(k % {vc}, ({} ^ k) % {vc});",
            w(1)
        ),
        Topology::Triangles => format!(
            "gl_PrimitiveTriangleIndicesEXT[k] = uvec3(k % {vc}, ({} + k) % {vc}, ({} ^ h) % {vc});",
            w(1),
            w(2)
        ),
    };
    let _ = writeln!(
        s,
        "    for (uint k = gl_LocalInvocationIndex; k < {pc}; k += {n}u) {{
        uint h = k * 40503u;
        {index}
        pbits[k] = uvec4({} ^ h, {} + k, {}, {});
    }}",
        w(3),
        w(4),
        w(5),
        w(0)
    );
}

/// The uint words of a value named `v` of type `t`.
fn out_words(t: Ty, v: &str) -> Vec<String> {
    match t {
        Ty::U8 | Ty::U16 | Ty::U32 => vec![format!("uint({v})")],
        Ty::I8 | Ty::I16 | Ty::I32 => vec![format!("uint(int({v}))")],
        Ty::U64 | Ty::I64 => vec![
            format!("uint(uint64_t({v}))"),
            format!("uint(uint64_t({v}) >> 32)"),
        ],
        Ty::F32 => vec![format!("floatBitsToUint({v})")],
        Ty::F64 => vec![
            format!("uint(doubleBitsToUint64({v}))"),
            format!("uint(doubleBitsToUint64({v}) >> 32)"),
        ],
        Ty::Bool => vec![format!("uint({v})")],
        Ty::UV2 => vec![format!("{v}.x"), format!("{v}.y")],
        Ty::IV3 => vec![
            format!("uint({v}.x)"),
            format!("uint({v}.y)"),
            format!("uint({v}.z)"),
        ],
        Ty::V4 => ["x", "y", "z", "w"]
            .iter()
            .map(|c| format!("floatBitsToUint({v}.{c})"))
            .collect(),
    }
}

fn block(s: &mut String, stmts: &[Stmt], f: &Func, depth: usize) {
    for st in stmts {
        stmt(s, st, f, depth);
    }
}

fn stmt(s: &mut String, st: &Stmt, f: &Func, depth: usize) {
    let pad = "    ".repeat(depth);
    match st {
        Stmt::Assign(v, e) => {
            let _ = writeln!(s, "{pad}v{v} = {};", expr(e));
        }
        Stmt::ArrStore(a, i, e) => {
            let _ = writeln!(s, "{pad}a{a}[({}) & 7u] = {};", expr(i), expr(e));
        }
        Stmt::If(c, t, e) => {
            let _ = writeln!(s, "{pad}if ({}) {{", expr(c));
            block(s, t, f, depth + 1);
            if e.is_empty() {
                let _ = writeln!(s, "{pad}}}");
            } else {
                let _ = writeln!(s, "{pad}}} else {{");
                block(s, e, f, depth + 1);
                let _ = writeln!(s, "{pad}}}");
            }
        }
        Stmt::Loop(id, n, body) => {
            let _ = writeln!(s, "{pad}for (uint i{id} = 0u; i{id} < {n}u; i{id}++) {{");
            block(s, body, f, depth + 1);
            let _ = writeln!(s, "{pad}}}");
        }
        Stmt::Break(c) => {
            let _ = writeln!(s, "{pad}if ({}) break;", expr(c));
        }
        Stmt::Continue(c) => {
            let _ = writeln!(s, "{pad}if ({}) continue;", expr(c));
        }
        Stmt::Switch(sel, cases, default) => {
            let _ = writeln!(s, "{pad}switch (({}) & 7u) {{", expr(sel));
            for (label, body, falls) in cases {
                let _ = writeln!(s, "{pad}case {label}u: {{");
                block(s, body, f, depth + 1);
                if !falls {
                    let _ = writeln!(s, "{pad}    break;");
                }
                let _ = writeln!(s, "{pad}}}");
            }
            let _ = writeln!(s, "{pad}default: {{");
            block(s, default, f, depth + 1);
            let _ = writeln!(s, "{pad}    break;");
            let _ = writeln!(s, "{pad}}}");
            let _ = writeln!(s, "{pad}}}");
        }
        Stmt::Return(c, e) => {
            let _ = writeln!(s, "{pad}if ({}) return {};", expr(c), expr(e));
        }
        Stmt::Atomic(op, slot, e) => {
            let (name, k) = match op {
                AtomOp::Add => ("atomicAdd", 0),
                AtomOp::Or => ("atomicOr", 1),
                AtomOp::Xor => ("atomicXor", 2),
                AtomOp::And => ("atomicAnd", 3),
                AtomOp::Min => ("atomicMin", 4),
                AtomOp::Max => ("atomicMax", 5),
            };
            let _ = writeln!(
                s,
                "{pad}{name}(at[{}u + (({}) & 7u)], {});",
                k * 8,
                expr(slot),
                expr(e)
            );
        }
        Stmt::Shared(v, e, rot) => {
            let _ = writeln!(s, "{pad}barrier();");
            let _ = writeln!(s, "{pad}sh[gl_LocalInvocationIndex] = {};", expr(e));
            let _ = writeln!(s, "{pad}barrier();");
            let _ = writeln!(
                s,
                "{pad}v{v} = sh[(gl_LocalInvocationIndex + {rot}u) % uint(sh.length())];"
            );
            let _ = writeln!(s, "{pad}barrier();");
        }
        Stmt::Subgroup(v, op, e) => {
            let e = expr(e);
            let call = match op {
                SgOp::Add => format!("subgroupAdd({e})"),
                SgOp::Min => format!("subgroupMin({e})"),
                SgOp::Max => format!("subgroupMax({e})"),
                SgOp::And => format!("subgroupAnd({e})"),
                SgOp::Or => format!("subgroupOr({e})"),
                SgOp::Xor => format!("subgroupXor({e})"),
                SgOp::InclusiveAdd => format!("subgroupInclusiveAdd({e})"),
                SgOp::ExclusiveAdd => format!("subgroupExclusiveAdd({e})"),
                SgOp::BroadcastFirst => format!("subgroupBroadcastFirst({e})"),
                SgOp::Ballot => format!("subgroupBallot(({e}) != 0u).x"),
                SgOp::Elect => "(subgroupElect() ? 1u : 0u)".to_string(),
                SgOp::All => format!("(subgroupAll(({e}) != 0u) ? 1u : 0u)"),
                SgOp::Any => format!("(subgroupAny(({e}) != 0u) ? 1u : 0u)"),
                SgOp::ShuffleXor(m) => format!("subgroupShuffleXor({e}, {m}u)"),
            };
            let _ = writeln!(s, "{pad}v{v} = {call};");
        }
    }
}

/// A literal of type `t` from its bits.
pub fn lit(t: Ty, bits: u64) -> String {
    match t {
        Ty::U8 | Ty::U16 => format!("{}({}u)", t.glsl(), bits),
        Ty::I8 | Ty::I16 => format!("{}({})", t.glsl(), bits as i64),
        Ty::U32 => format!("{}u", bits as u32),
        Ty::I32 => {
            let v = bits as i32;
            if v == i32::MIN {
                "(-2147483647 - 1)".into()
            } else if v < 0 {
                format!("({v})")
            } else {
                format!("{v}")
            }
        }
        Ty::U64 => format!("{bits}ul"),
        Ty::I64 => {
            let v = bits as i64;
            if v == i64::MIN {
                "(-9223372036854775807l - 1l)".into()
            } else if v < 0 {
                format!("({v}l)")
            } else {
                format!("{v}l")
            }
        }
        Ty::F32 => format!("({:?})", f64::from_bits(bits) as f32),
        Ty::F64 => format!("({:?}lf)", f64::from_bits(bits)),
        Ty::Bool => (if bits != 0 { "true" } else { "false" }).into(),
        Ty::UV2 => format!("uvec2({}u)", bits as u32),
        Ty::IV3 => format!("ivec3({})", bits as i32),
        Ty::V4 => format!("vec4({:?})", f64::from_bits(bits) as f32),
    }
}

/// The clamp bounds of a float-to-integer conversion to `t`.
fn range(t: Ty) -> (&'static str, &'static str) {
    match t {
        Ty::U8 => ("0.0", "255.0"),
        Ty::I8 => ("-128.0", "127.0"),
        Ty::U16 => ("0.0", "65535.0"),
        Ty::I16 => ("-32768.0", "32767.0"),
        Ty::U32 => ("0.0", "4294967040.0"),
        Ty::I32 => ("-2147483520.0", "2147483520.0"),
        Ty::U64 => ("0.0", "1.8e19"),
        Ty::I64 => ("-9.2e18", "9.2e18"),
        _ => ("-1e18", "1e18"),
    }
}

pub fn expr(e: &Expr) -> String {
    match e {
        Expr::Var(v) => format!("v{v}"),
        Expr::Counter(i) => format!("i{i}"),
        Expr::Lit(t, b) => lit(*t, *b),
        Expr::Lid => "gl_LocalInvocationIndex".into(),
        Expr::Input(n) => format!("inp[gid * 8u + {n}u]"),
        Expr::Un(op, t, a) => {
            let a = expr(a);
            match op {
                UnOp::Neg => format!("(-{a})"),
                UnOp::BitNot => format!("(~{a})"),
                UnOp::Abs => format!("abs({a})"),
                UnOp::Not => format!("(!{a})"),
                UnOp::Floor => format!("floor({a})"),
                UnOp::Ceil => format!("ceil({a})"),
                UnOp::Trunc => format!("trunc({a})"),
                UnOp::Fract => {
                    let _ = t;
                    format!("fract({a})")
                }
            }
        }
        Expr::Bin(op, t, a, b) => bin(*op, *t, &expr(a), &expr(b)),
        Expr::Cmp(op, _, a, b) => {
            let o = match op {
                CmpOp::Lt => "<",
                CmpOp::Le => "<=",
                CmpOp::Gt => ">",
                CmpOp::Ge => ">=",
                CmpOp::Eq => "==",
                CmpOp::Ne => "!=",
            };
            format!("({} {o} {})", expr(a), expr(b))
        }
        Expr::Conv(to, from, a) => {
            let a = expr(a);
            if from.is_float() && (to.is_int() || *to == Ty::Bool) {
                let (lo, hi) = range(*to);
                let suffix = if *from == Ty::F64 { "lf" } else { "" };
                format!("{}(clamp({a}, {lo}{suffix}, {hi}{suffix}))", to.glsl())
            } else {
                format!("{}({a})", to.glsl())
            }
        }
        Expr::Select(_, c, a, b) => format!("({} ? {} : {})", expr(c), expr(a), expr(b)),
        Expr::Arr(a, i) => format!("a{a}[({}) & 7u]", expr(i)),
        Expr::Comp(_, v, c) => format!("{}.{}", expr(v), ["x", "y", "z", "w"][usize::from(*c)]),
        Expr::Splat(t, a) => format!("{}({})", t.glsl(), expr(a)),
        Expr::Call(n, args) => {
            let a: Vec<String> = args.iter().map(expr).collect();
            format!("f{n}({})", a.join(", "))
        }
    }
}

fn bin(op: BinOp, t: Ty, a: &str, b: &str) -> String {
    let float = t.is_float() || t == Ty::V4;
    let big = if t == Ty::F64 { "1e18lf" } else { "1e18" };
    let clampf = |x: String| format!("clamp({x}, -{big}, {big})");
    match op {
        BinOp::Add if float => clampf(format!("{a} + {b}")),
        BinOp::Sub if float => clampf(format!("{a} - {b}")),
        BinOp::Mul if float => clampf(format!("{a} * {b}")),
        BinOp::Add => format!("({a} + {b})"),
        BinOp::Sub => format!("({a} - {b})"),
        BinOp::Mul => format!("({a} * {b})"),
        BinOp::Div | BinOp::Mod => {
            let name = if op == BinOp::Div { "div" } else { "mod" };
            match t {
                Ty::UV2 => format!(
                    "({a} {} ({b} | uvec2(1u)))",
                    if op == BinOp::Div { "/" } else { "%" }
                ),
                Ty::IV3 => format!(
                    "({a} {} (({b} & ivec3(255)) | ivec3(1)))",
                    if op == BinOp::Div { "/" } else { "%" }
                ),
                _ => format!("{name}_{}({a}, {b})", t.tag()),
            }
        }
        BinOp::And => format!("({a} & {b})"),
        BinOp::Or => format!("({a} | {b})"),
        BinOp::Xor => format!("({a} ^ {b})"),
        BinOp::Shl | BinOp::Shr => {
            let o = if op == BinOp::Shl { "<<" } else { ">>" };
            let m = match t {
                Ty::UV2 => "uvec2(31u)".to_string(),
                Ty::IV3 => "ivec3(31)".to_string(),
                _ => format!("{}({})", t.glsl(), t.width() - 1),
            };
            format!("({a} {o} ({b} & {m}))")
        }
        BinOp::Min => format!("min({a}, {b})"),
        BinOp::Max => format!("max({a}, {b})"),
        BinOp::LAnd => format!("({a} && {b})"),
        BinOp::LOr => format!("({a} || {b})"),
        BinOp::LXor => format!("({a} ^^ {b})"),
    }
}
