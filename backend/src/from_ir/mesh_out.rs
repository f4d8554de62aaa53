//! Mesh outputs: which output components a shader writes (the layout of
//! its output ISBE and SPH), and the lowering of stores to them and of
//! SetMeshOutputsEXT into ISBEWR (nvidia-facts.md §3).

use super::places::{Place, Step, resolve};
use super::{Comp, Isel};
use crate::error::BackendError;
use crate::isa::{
    Dst, Instr, IsbeAccess, IsbeSize, Op, OpIMad, OpIsbeWr, OpLop3, OpShf, PredSrc, Src,
};
use crate::isbe_layout::{AttrLayout, addr, map};
use spvsass_frontend::ir::{BuiltIn, Op as IrOp, Shader, StorageClass, Type};

/// Where a store to an output goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OutputTarget {
    /// Per-vertex attribute components (SPH addresses), one per stored
    /// component, of vertex `vertex`.
    Vertex { vertex: Step, addrs: Vec<u16> },
    /// Vertex indices `first..first + count` of primitive `prim`.
    Indices { prim: Step, first: u32, count: u32 },
}

fn unsupported(what: impl Into<String>, spirv_id: Option<u32>) -> BackendError {
    BackendError::Unsupported {
        what: what.into(),
        opcode: "OpStore".into(),
        spirv_id,
    }
}

fn const_step(s: Option<&Step>, what: &str, spirv_id: Option<u32>) -> Result<u32, BackendError> {
    match s {
        None => Ok(0),
        Some(Step::Const(c)) => Ok(*c),
        Some(Step::Dyn(_)) => Err(unsupported(
            format!("a dynamic {what} index into a mesh output"),
            spirv_id,
        )),
    }
}

/// Classifies a store of `count` components to `place`.
pub fn classify(
    sh: &Shader,
    place: &Place,
    count: u32,
    spirv_id: Option<u32>,
) -> Result<OutputTarget, BackendError> {
    let var = &sh.globals[place.var];
    let elem = *place
        .path
        .first()
        .ok_or_else(|| unsupported("a store to a whole arrayed mesh output", spirv_id))?;
    if var.per_primitive {
        return Err(unsupported("per-primitive outputs (issue [D])", spirv_id));
    }
    match var.builtin {
        Some(
            BuiltIn::PrimitivePointIndices
            | BuiltIn::PrimitiveLineIndices
            | BuiltIn::PrimitiveTriangleIndices,
        ) => {
            let first = const_step(place.path.get(1), "vertex-index component", spirv_id)?;
            return Ok(OutputTarget::Indices {
                prim: elem,
                first,
                count,
            });
        }
        Some(b) => {
            return Err(unsupported(
                format!("the mesh output built-in {b:?}"),
                spirv_id,
            ));
        }
        None => {}
    }
    let Type::Array { elem: elem_ty, .. } = &sh.types[var.ty] else {
        return Err(unsupported("a mesh output that is not an array", spirv_id));
    };
    let (base, comp_step) = match &sh.types[*elem_ty] {
        Type::Struct { members, .. } => {
            let m = const_step(place.path.get(1), "member", spirv_id)? as usize;
            let member = members
                .get(m)
                .ok_or_else(|| unsupported("a member index out of range", spirv_id))?;
            if member.per_primitive {
                return Err(unsupported("per-primitive outputs (issue [D])", spirv_id));
            }
            let base = match member.builtin {
                Some(BuiltIn::Position) => addr::POSITION,
                Some(BuiltIn::PointSize) => addr::POINT_SIZE,
                Some(b) => {
                    return Err(unsupported(
                        format!("the mesh output built-in {b:?}"),
                        spirv_id,
                    ));
                }
                None => {
                    return Err(unsupported(
                        "user outputs inside an output block (issue [D])",
                        spirv_id,
                    ));
                }
            };
            (base, place.path.get(2))
        }
        Type::Scalar(_) | Type::Vector { .. } => {
            let loc = var
                .location
                .ok_or_else(|| unsupported("an output without Location", spirv_id))?;
            (
                addr::generic(loc, var.component.unwrap_or(0)),
                place.path.get(1),
            )
        }
        _ => {
            return Err(unsupported(
                "mesh outputs of matrix or array element type (issue [D])",
                spirv_id,
            ));
        }
    };
    let first = const_step(comp_step, "component", spirv_id)?;
    let addrs = (0..count).map(|j| base + 4 * (first + j) as u16).collect();
    Ok(OutputTarget::Vertex {
        vertex: elem,
        addrs,
    })
}

/// The per-vertex components a shader writes, from all its stores.
pub fn written_vertex_components(sh: &Shader) -> Result<Vec<u16>, BackendError> {
    let mut comps = Vec::new();
    for (_, inst) in sh.insts.iter() {
        let IrOp::Store { ptr, value } = inst.op else {
            continue;
        };
        let place = resolve(sh, ptr, inst.spirv_id)?;
        if sh.globals[place.var].class != StorageClass::Output {
            continue;
        }
        let count = super::places::comp_count(sh, sh.values[value].ty).unwrap_or(1);
        if let OutputTarget::Vertex { addrs, .. } = classify(sh, &place, count, inst.spirv_id)? {
            comps.extend(addrs);
        }
    }
    comps.sort_unstable();
    comps.dedup();
    Ok(comps)
}

impl Isel<'_> {
    /// Writes `data` (a register or zero) to the output ISBE at `base + imm`
    /// where `base` is a register (or RZ). Before SM86 the immediate must
    /// be folded into the register.
    pub(super) fn isbe_write(&mut self, mut w: OpIsbeWr, guard: PredSrc) {
        if !self.target.has_isbe_imm_offset() && w.imm != 0 {
            w.addr = self.add_imm(w.addr, w.imm);
            w.imm = 0;
        }
        self.emit(Instr::guarded(guard, Op::IsbeWr(w)));
    }

    /// Lowers a store of `comps` to an output place.
    pub(super) fn store_output(
        &mut self,
        place: &Place,
        comps: &[Comp],
        spirv_id: Option<u32>,
    ) -> Result<(), BackendError> {
        match classify(self.sh, place, comps.len() as u32, spirv_id)? {
            OutputTarget::Vertex { vertex, addrs } => {
                let layout = self.vertex_layout.clone();
                // Where the vertex lies: the invocation whose index it is
                // writes with SKEW from the lane-independent base (in a
                // one-invocation workgroup vertex 0 is lane 0's, as in the
                // XDC listing); a constant vertex has a fixed offset; any
                // other vertex gets its offset computed once.
                let (base, vertex_off, skew) = match vertex {
                    Step::Dyn(v) if self.is_lane_id(v) => (Src::ZERO, None, true),
                    Step::Const(0) if self.sh.invocations() == 1 => (Src::ZERO, None, true),
                    Step::Const(k) => (Src::ZERO, Some(k), false),
                    Step::Dyn(v) => {
                        let elem = self.value_comp(v)?;
                        (self.vertex_offset(elem, &layout), None, false)
                    }
                };
                for (&a, &c) in addrs.iter().zip(comps) {
                    let data = self.reg_or_zero(c);
                    let imm = match vertex_off {
                        Some(k) => self.check_vertex(&layout, k, a, spirv_id)?,
                        None => layout.skew_base(a).unwrap_or(0),
                    };
                    let w = OpIsbeWr {
                        addr: base,
                        imm,
                        data,
                        access: IsbeAccess::Attr,
                        size: IsbeSize::B32,
                        skew,
                    };
                    self.isbe_write(w, PredSrc::TRUE);
                }
            }
            OutputTarget::Indices { prim, first, count } => {
                let mesh = self.sh.mesh.ok_or_else(|| BackendError::Invalid {
                    what: "primitive indices written by a shader that is not a mesh shader".into(),
                    spirv_id,
                })?;
                let vpp = mesh.topology.vertices_per_primitive();
                if first + count > vpp {
                    return Err(BackendError::Invalid {
                        what: "a primitive index component out of range".into(),
                        spirv_id,
                    });
                }
                // The primitive's base: a constant, or computed once.
                let (base, prim) = match prim {
                    Step::Const(p) if p >= mesh.max_primitives => {
                        return Err(BackendError::Invalid {
                            what: format!(
                                "primitive {p} written, but the shader declares at most {}",
                                mesh.max_primitives
                            ),
                            spirv_id,
                        });
                    }
                    Step::Const(p) => (Src::ZERO, p),
                    Step::Dyn(v) => {
                        let p = self.value_comp(v)?;
                        let p = self.src_of(p);
                        (self.imad(p, Src::imm(vpp), Src::ZERO), 0)
                    }
                };
                for (j, &c) in comps.iter().enumerate() {
                    let data = self.reg_or_zero(c);
                    let imm = map::index_offset(prim, vpp, first + j as u32);
                    let w = OpIsbeWr {
                        addr: base,
                        imm,
                        data,
                        access: IsbeAccess::Map,
                        size: IsbeSize::U8,
                        skew: false,
                    };
                    self.isbe_write(w, PredSrc::TRUE);
                }
            }
        }
        Ok(())
    }

    fn check_vertex(
        &self,
        layout: &AttrLayout,
        k: u32,
        a: u16,
        spirv_id: Option<u32>,
    ) -> Result<u32, BackendError> {
        if k >= layout.max_elems {
            return Err(BackendError::Invalid {
                what: format!(
                    "vertex {k} written, but the shader declares at most {} vertices",
                    layout.max_elems
                ),
                spirv_id,
            });
        }
        Ok(layout.offset(k, a).unwrap_or(0))
    }

    /// `(v / 32) * block_size + (v % 32) * 4`: the vertex-dependent part of
    /// a non-SKEW attribute offset.
    fn vertex_offset(&mut self, v: Comp, layout: &AttrLayout) -> Src {
        let v = self.src_of(v);
        let block = self.alu(Op::Shf(OpShf {
            dst: Dst::None,
            srcs: [v, Src::imm(5), Src::ZERO],
            right: true,
            wrap: false,
            high: false,
        }));
        let lane = self.alu(Op::Lop3(OpLop3 {
            dst: Dst::None,
            srcs: [v, Src::imm(31), Src::ZERO],
            lut: OpLop3::A & OpLop3::B,
        }));
        let block = self.src_of(block);
        let lane = self.src_of(lane);
        let part = self.imad(block, Src::imm(layout.block_size()), Src::ZERO);
        self.imad(lane, Src::imm(4), part)
    }

    fn imad(&mut self, a: Src, b: Src, c: Src) -> Src {
        let r = self.alu(Op::IMad(OpIMad {
            dst: Dst::None,
            srcs: [a, b, c],
            signed: false,
        }));
        self.src_of(r)
    }

    /// SetMeshOutputsEXT: the primitive count goes to MAP 0x3, written by
    /// one lane. A one-invocation workgroup has only lane 0, so it needs no
    /// guard.
    pub(super) fn set_mesh_outputs(&mut self, primitive_count: Comp) {
        let data = self.reg_or_zero(primitive_count);
        let guard = self.lane0_guard();
        self.isbe_write(
            OpIsbeWr {
                addr: Src::ZERO,
                imm: map::PRIMITIVE_COUNT_WRITE_OFFSET,
                data,
                access: IsbeAccess::Map,
                size: IsbeSize::B32,
                skew: false,
            },
            guard,
        );
    }
}
