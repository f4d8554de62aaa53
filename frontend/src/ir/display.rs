//! The IR's text form, used by `--print-ir` and in test failure messages.

use super::{BlockCall, GlobalVarData, Op, Shader, Type, Value};
use std::fmt::{self, Write};

impl Shader {
    fn fmt_type(&self, f: &mut impl Write, ty: super::TypeId) -> fmt::Result {
        match &self.types[ty] {
            Type::Void => write!(f, "void"),
            Type::Scalar(s) => write!(f, "{s}"),
            Type::Vector { scalar, len } => write!(f, "{scalar}x{len}"),
            Type::Matrix {
                column, columns, ..
            } => {
                write!(f, "mat{columns}<")?;
                self.fmt_type(f, *column)?;
                write!(f, ">")
            }
            Type::Array { elem, len, .. } => {
                write!(f, "[")?;
                self.fmt_type(f, *elem)?;
                match len {
                    Some(n) => write!(f, "; {n}]"),
                    None => write!(f, "]"),
                }
            }
            Type::Struct { members, .. } => {
                write!(f, "{{")?;
                for (i, m) in members.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    self.fmt_type(f, m.ty)?;
                }
                write!(f, "}}")
            }
            Type::Pointer {
                class,
                pointee,
                array_stride,
            } => {
                write!(f, "ptr<{class:?}, ")?;
                self.fmt_type(f, *pointee)?;
                if let Some(s) = array_stride {
                    write!(f, ", stride {s}")?;
                }
                write!(f, ">")
            }
            Type::Image(i) => write!(
                f,
                "image<{:?}{}{}{}, {}>",
                i.dim,
                if i.arrayed { " array" } else { "" },
                if i.multisampled { " ms" } else { "" },
                if i.depth { " depth" } else { "" },
                i.sampled_type
            ),
            Type::Sampler => write!(f, "sampler"),
            Type::SampledImage { image } => {
                write!(f, "sampled<")?;
                self.fmt_type(f, *image)?;
                write!(f, ">")
            }
        }
    }

    pub fn type_name(&self, ty: super::TypeId) -> String {
        let mut s = String::new();
        // Writing into a String cannot fail.
        let _ = self.fmt_type(&mut s, ty);
        s
    }
}

fn list(vals: &[Value]) -> String {
    vals.iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

fn call(c: &BlockCall) -> String {
    if c.args.is_empty() {
        c.block.to_string()
    } else {
        format!("{}({})", c.block, list(&c.args))
    }
}

fn op_text(op: &Op) -> String {
    match op {
        Op::Const(bits) => format!("const {bits:#x}"),
        Op::Undef => "undef".into(),
        Op::Unary(o, a) => format!("{o:?} {a}"),
        Op::Binary(o, a, b) => format!("{o:?} {a}, {b}"),
        Op::Cmp(o, a, b) => format!("cmp.{o:?} {a}, {b}"),
        Op::Convert(o, a) => format!("convert.{o:?} {a}"),
        Op::Select {
            cond,
            if_true,
            if_false,
        } => format!("select {cond}, {if_true}, {if_false}"),
        Op::CompositeConstruct(v) => format!("construct {}", list(v)),
        Op::CompositeExtract { composite, indices } => format!("extract {composite}, {indices:?}"),
        Op::CompositeInsert {
            object,
            composite,
            indices,
        } => {
            format!("insert {object} into {composite}, {indices:?}")
        }
        Op::VectorShuffle { a, b, components } => format!("shuffle {a}, {b}, {components:?}"),
        Op::VarAddr(gv) => format!("addr {gv}"),
        Op::AccessChain { base, indices } => format!("access_chain {base}, [{}]", list(indices)),
        Op::PtrAccessChain {
            base,
            element,
            indices,
        } => format!("ptr_access_chain {base}, {element}, [{}]", list(indices)),
        Op::ExtractDynamic { vector, index } => format!("extract_dynamic {vector}, {index}"),
        Op::InsertDynamic {
            vector,
            component,
            index,
        } => format!("insert_dynamic {component} into {vector}, {index}"),
        Op::CopyLogical(a) => format!("copy_logical {a}"),
        Op::SampledImage { image, sampler } => format!("sampled_image {image}, {sampler}"),
        Op::ImageOf(a) => format!("image_of {a}"),
        Op::ImageTexelPointer {
            image,
            coord,
            sample,
        } => format!("image_texel_pointer {image}, {coord}, {sample}"),
        Op::Image(i) => {
            let args: Vec<Value> = i.args().collect();
            format!("image.{:?} {}", i.op, list(&args))
        }
        Op::Load { ptr } => format!("load {ptr}"),
        Op::CopyMemory { dst, src } => format!("copy_memory {dst}, {src}"),
        Op::ArrayLength { ptr, member } => format!("array_length {ptr}, {member}"),
        Op::Math(o, args) => format!("math.{o:?} {}", list(args)),
        Op::Atomic { op, ptr, args } if args.is_empty() => format!("atomic.{op:?} {ptr}"),
        Op::Atomic { op, ptr, args } => format!("atomic.{op:?} {ptr}, {}", list(args)),
        Op::Subgroup(o, args) => format!("subgroup.{o:?} {}", list(args)),
        Op::Store { ptr, value } => format!("store {ptr}, {value}"),
        Op::SetMeshOutputs {
            vertex_count,
            primitive_count,
        } => {
            format!("set_mesh_outputs {vertex_count}, {primitive_count}")
        }
        Op::ControlBarrier => "control_barrier".into(),
        Op::MemoryBarrier => "memory_barrier".into(),
        Op::Jump(c) => format!("jump {}", call(c)),
        Op::Branch {
            cond,
            then_dest,
            else_dest,
        } => {
            format!("branch {cond}, {}, {}", call(then_dest), call(else_dest))
        }
        Op::Switch {
            selector,
            default,
            cases,
        } => {
            let cases: Vec<String> = cases
                .iter()
                .map(|(lit, c)| format!("{lit}: {}", call(c)))
                .collect();
            format!(
                "switch {selector}, default {}, [{}]",
                call(default),
                cases.join(", ")
            )
        }
        Op::Return => "return".into(),
        Op::EmitMeshTasks { x, y, z } => format!("emit_mesh_tasks {x}, {y}, {z}"),
        Op::Unreachable => "unreachable".into(),
    }
}

fn global_text(sh: &Shader, g: &GlobalVarData) -> String {
    let mut s = format!("{:?} {}", g.class, sh.type_name(g.ty));
    if let Some(b) = g.builtin {
        let _ = write!(s, " builtin({b:?})");
    }
    if let Some(l) = g.location {
        let _ = write!(s, " location({l})");
    }
    if g.per_primitive {
        s.push_str(" per_primitive");
    }
    if g.interpolation.flat {
        s.push_str(" flat");
    }
    if let Some(n) = &g.name {
        let _ = write!(s, " ; {n}");
    }
    s
}

impl fmt::Display for Shader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [x, y, z] = self.workgroup_size;
        writeln!(
            f,
            "{} shader \"{}\" local_size({x}, {y}, {z})",
            self.stage.name(),
            self.entry_name
        )?;
        if let Some(m) = &self.mesh {
            writeln!(
                f,
                "  output {} max_vertices {} max_primitives {}",
                m.topology.name(),
                m.max_vertices,
                m.max_primitives
            )?;
        }
        for (gv, g) in &self.globals {
            writeln!(f, "{gv} = {}", global_text(self, g))?;
        }
        for &block in &self.layout {
            let data = &self.blocks[block];
            write!(f, "{block}")?;
            if !data.params.is_empty() {
                let params: Vec<String> = data
                    .params
                    .iter()
                    .map(|&p| format!("{p}: {}", self.type_name(self.values[p].ty)))
                    .collect();
                write!(f, "({})", params.join(", "))?;
            }
            match data.merge {
                Some(super::Merge::Selection { merge }) => {
                    writeln!(f, ":  ; selection merge {merge}")?
                }
                Some(super::Merge::Loop {
                    merge,
                    continue_target,
                }) => writeln!(f, ":  ; loop merge {merge} continue {continue_target}")?,
                None => writeln!(f, ":")?,
            }
            for &inst in &data.insts {
                let d = &self.insts[inst];
                match d.result {
                    Some(v) => writeln!(
                        f,
                        "    {v}: {} = {}",
                        self.type_name(self.values[v].ty),
                        op_text(&d.op)
                    )?,
                    None => writeln!(f, "    {}", op_text(&d.op))?,
                }
            }
        }
        Ok(())
    }
}
