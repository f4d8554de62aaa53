//! Task shaders and what they hand to mesh shaders (nvidia-facts.md §3,
//! seed 000 "Task"): EmitMeshTasksEXT, the task payload, the workgroup index
//! and the group counts a mesh shader reads from its input ISBE.
//!
//! Task output ATTR region (no SKEW): bytes 0x00..0x20 reserved, the mesh
//! workgroup count x*y*z at 0x04, x/y/z at 0x08/0x0C/0x10, the payload from
//! 0x20. A mesh shader fed by a task shader sees that region as its input
//! ATTR region, with word 0 holding its workgroup index within the task's
//! launch (filled by the hardware).
//!
//! Payload layout (project-defined: the hardware only sees bytes): every
//! 32-bit component of the payload variable in declaration order, 4 bytes
//! each, from 0x20. Task and mesh shader declare the same payload type (the
//! API requires it), so both compute the same offsets.

use super::places::{Place, Step, comp_count};
use super::{Comp, Isel};
use crate::error::BackendError;
use crate::isa::{
    Dst, Instr, IntCmp, IsbeAccess, IsbeSize, Op, OpISetP, OpIsbeRd, OpIsbeWr, PredCombine,
    PredSrc, Reg, RegFile, SpecialReg, Src, SrcRef,
};
use crate::isbe_layout::task as task_attr;
use spvsass_frontend::ir::{self, Shader, StorageClass, Type, TypeId, Value};

/// Bytes of the task payload a shader declares (0 without one).
pub fn payload_bytes(sh: &Shader) -> u32 {
    sh.globals
        .values()
        .filter(|g| g.class == StorageClass::TaskPayload)
        .filter_map(|g| comp_count(sh, g.ty))
        .map(|n| 4 * n)
        .max()
        .unwrap_or(0)
}

/// Whether a type holds booleans (kept in predicates, not in words).
fn has_bool(sh: &Shader, ty: TypeId) -> bool {
    match &sh.types[ty] {
        Type::Scalar(s) | Type::Vector { scalar: s, .. } => *s == ir::Scalar::Bool,
        Type::Array { elem, .. } => has_bool(sh, *elem),
        Type::Struct { members, .. } => members.iter().any(|m| has_bool(sh, m.ty)),
        _ => false,
    }
}

/// The element type and component stride of one step into `ty`.
fn step_into(sh: &Shader, ty: TypeId, step: &Step) -> Option<(TypeId, u32, u32)> {
    match (&sh.types[ty], step) {
        (Type::Struct { members, .. }, Step::Const(m)) => {
            let m = *m as usize;
            let start = members[..m.min(members.len())]
                .iter()
                .map(|x| comp_count(sh, x.ty))
                .sum::<Option<u32>>()?;
            Some((members.get(m)?.ty, start, 0))
        }
        (Type::Struct { .. }, Step::Dyn(_)) => None,
        (Type::Array { elem, .. }, _) => Some((*elem, 0, comp_count(sh, *elem)?)),
        (Type::Matrix { column, .. }, _) => Some((*column, 0, comp_count(sh, *column)?)),
        (Type::Vector { scalar, .. }, _) => {
            let s = sh
                .types
                .iter()
                .find(|(_, t)| **t == Type::Scalar(*scalar))?
                .0;
            Some((s, 0, 1))
        }
        _ => None,
    }
}

impl Isel<'_> {
    /// The byte offset of a payload place: a register part (dynamic
    /// indices, or RZ) and a constant part (from 0x20).
    fn payload_offset(
        &mut self,
        place: &Place,
        spirv_id: Option<u32>,
    ) -> Result<(Src, u32), BackendError> {
        let sh = self.sh;
        let mut ty = sh.globals[place.var].ty;
        let mut constant = 0u32;
        let mut dynamic = Src::ZERO;
        for step in &place.path {
            let (elem, start, stride) =
                step_into(sh, ty, step).ok_or_else(|| BackendError::Unsupported {
                    what: format!("this access into the task payload ({})", sh.type_name(ty)),
                    opcode: "OpAccessChain".into(),
                    spirv_id,
                })?;
            constant += start;
            match *step {
                Step::Const(k) => constant += k * stride,
                Step::Dyn(v) if stride > 0 => {
                    let c = self.value_comp(v)?;
                    let i = self.src_of(c);
                    dynamic = self.imad_src(i, Src::imm(4 * stride), dynamic);
                }
                Step::Dyn(_) => {}
            }
            ty = elem;
        }
        Ok((dynamic, task_attr::PAYLOAD + 4 * constant))
    }

    fn imad_src(&mut self, a: Src, b: Src, c: Src) -> Src {
        let r = self.alu(Op::IMad(crate::isa::OpIMad {
            dst: Dst::None,
            srcs: [a, b, c],
            signed: false,
        }));
        self.src_of(r)
    }

    /// Reads a 32-bit word from the input ISBE (or the output one with
    /// `output`) at `base + imm`, ATTR region.
    fn isbe_read(&mut self, base: Src, imm: u32, output: bool, skew: bool) -> u32 {
        let (addr, imm) = if self.target.has_isbe_imm_offset() || imm == 0 {
            (base, imm)
        } else {
            (self.add_imm(base, imm), 0)
        };
        let r = self.f.new_vreg(RegFile::Gpr);
        self.emit(Instr::new(Op::IsbeRd(OpIsbeRd {
            dst: Dst::Reg(Reg::Virt(r)),
            addr,
            imm,
            output,
            access: IsbeAccess::Attr,
            size: IsbeSize::B32,
            skew,
        })));
        r
    }

    /// Stores to the payload (task shaders): plain 32-bit ATTR writes of
    /// the output ISBE, by every invocation that stores.
    pub(super) fn store_payload(
        &mut self,
        place: &Place,
        comps: &[Comp],
        spirv_id: Option<u32>,
    ) -> Result<(), BackendError> {
        if self.sh.stage != ir::Stage::Task {
            return Err(BackendError::Invalid {
                what: "a store to the task payload outside a task shader".into(),
                spirv_id,
            });
        }
        let (base, imm) = self.payload_offset(place, spirv_id)?;
        for (j, &c) in comps.iter().enumerate() {
            if matches!(c, Comp::Pred(_) | Comp::Bool(_)) {
                return Err(BackendError::Unsupported {
                    what: "boolean task payload members".into(),
                    opcode: "OpStore".into(),
                    spirv_id,
                });
            }
            let data = self.reg_or_zero(c);
            self.isbe_write(
                OpIsbeWr {
                    addr: base,
                    imm: imm + 4 * j as u32,
                    data,
                    access: IsbeAccess::Attr,
                    size: IsbeSize::B32,
                    skew: false,
                },
                PredSrc::TRUE,
            );
        }
        Ok(())
    }

    /// Loads from the payload: a task shader reads its own output ISBE
    /// (`ISBERD.O.ATTR.32`), a mesh shader its input (`ISBERD.ATTR.32`).
    pub(super) fn load_payload(
        &mut self,
        place: &Place,
        result: Value,
        spirv_id: Option<u32>,
    ) -> Result<Vec<Comp>, BackendError> {
        let ty = self.sh.values[result].ty;
        let n = comp_count(self.sh, ty).ok_or_else(|| BackendError::Unsupported {
            what: format!("a payload load of type {}", self.sh.type_name(ty)),
            opcode: "OpLoad".into(),
            spirv_id,
        })?;
        if has_bool(self.sh, ty) {
            return Err(BackendError::Unsupported {
                what: "boolean task payload members".into(),
                opcode: "OpLoad".into(),
                spirv_id,
            });
        }
        let (base, imm) = self.payload_offset(place, spirv_id)?;
        let output = self.sh.stage == ir::Stage::Task;
        Ok((0..n)
            .map(|j| Comp::Reg(self.isbe_read(base, imm + 4 * j, output, false)))
            .collect())
    }

    /// The workgroup index: VERTEX_ID from the input ISBE, read with SKEW
    /// in a task shader and in a mesh shader without one, without SKEW in
    /// a mesh shader a task shader launched (facts §3). Read once, at the
    /// top of the entry block, so before any output write.
    pub(super) fn workgroup_index(&mut self) -> u32 {
        if let Some(r) = self.workgroup_index {
            return r;
        }
        let skew = !(self.sh.stage == ir::Stage::Mesh && self.task_present);
        let r = self.f.new_vreg(RegFile::Gpr);
        self.f.blocks[0].instrs.insert(
            0,
            Instr::new(Op::IsbeRd(OpIsbeRd {
                dst: Dst::Reg(Reg::Virt(r)),
                addr: Src::ZERO,
                imm: task_attr::MESH_GROUP_INDEX,
                output: false,
                access: IsbeAccess::Attr,
                size: IsbeSize::B32,
                skew,
            })),
        );
        self.workgroup_index = Some(r);
        r
    }

    /// gl_NumWorkGroups of a mesh shader launched by a task shader: the
    /// counts the task shader emitted, from its input ISBE.
    pub(super) fn mesh_group_counts(&mut self) -> Vec<Comp> {
        [task_attr::GROUP_X, task_attr::GROUP_Y, task_attr::GROUP_Z]
            .into_iter()
            .map(|a| Comp::Reg(self.isbe_read(Src::ZERO, a, false, false)))
            .collect()
    }

    /// gl_WorkGroupID of a mesh shader launched by a task shader: its
    /// index within the launch split by the task's x/y/z counts from the
    /// input ISBE (x = i % cx, y = i / cx % cy, z = i / cx / cy). `want_yz`
    /// is false when only .x is read (one division instead of two).
    /// Computed once per MIR block.
    pub(super) fn mesh_workgroup_id(&mut self, want_yz: bool) -> Vec<Comp> {
        if let Some(c) = self.workgroup_ids.get(&(self.cur, want_yz)) {
            return c.clone();
        }
        let index = Comp::Reg(self.workgroup_index());
        let cx = Comp::Reg(self.isbe_read(Src::ZERO, task_attr::GROUP_X, false, false));
        let (q, x) = self.udiv_rem(index, cx, want_yz);
        let comps = if want_yz {
            let cy = Comp::Reg(self.isbe_read(Src::ZERO, task_attr::GROUP_Y, false, false));
            let (z, y) = self.udiv_rem(q, cy, true);
            vec![x, y, z]
        } else {
            vec![x, Comp::Const(0), Comp::Const(0)]
        };
        self.workgroup_ids
            .insert((self.cur, want_yz), comps.clone());
        comps
    }

    /// `n / d` and `n % d` for `n` below 2^22 (mesh workgroup indices) and
    /// `d` at least 1 (the ISA has no integer division): a float estimate
    /// `n * (1 / d)`, the reciprocal from an integer first guess and four
    /// Newton steps, truncated and then corrected by one in either
    /// direction. With `n` under 2^22 the estimate is off by less than one
    /// (f32 keeps 24 bits), so the corrections make it exact. Without
    /// `need_q` the quotient's corrections are left out (it is returned
    /// uncorrected).
    fn udiv_rem(&mut self, n: Comp, d: Comp, need_q: bool) -> (Comp, Comp) {
        use crate::isa::{ConvKind, FloatArith, OpConv, OpFArith, OpIAdd3};
        let conv = |kind, src| {
            Op::Conv(OpConv {
                kind,
                dst: Dst::None,
                src,
                signed: false,
            })
        };
        let farith = |kind, srcs| {
            Op::FArith(OpFArith {
                kind,
                dst: Dst::None,
                srcs,
                ftz: false,
                rnd: Default::default(),
            })
        };
        let iadd = |a: Src, b: Src| {
            Op::IAdd3(OpIAdd3 {
                dst: Dst::None,
                srcs: [a, b, Src::ZERO],
            })
        };
        let (ns, ds) = (self.src_of(n), self.src_of(d));
        let fnum = self.alu(conv(ConvKind::IntToFloat, ns));
        let fden = self.alu(conv(ConvKind::IntToFloat, ds));
        let fden = self.src_of(fden);
        // 1/x guess from the float's bits (relative error under 1/8).
        let mut r = self.alu(iadd(fden.negated(), Src::imm(0x7ef3_11c7)));
        for _ in 0..4 {
            let rs = self.src_of(r);
            let two = Src::imm(2.0f32.to_bits());
            let e = self.alu(farith(FloatArith::Fma, [fden.negated(), rs, two]));
            let es = self.src_of(e);
            r = self.alu(farith(FloatArith::Mul, [rs, es, Src::ZERO]));
        }
        let (fnum, rs) = (self.src_of(fnum), self.src_of(r));
        let qf = self.alu(farith(FloatArith::Mul, [fnum, rs, Src::ZERO]));
        let qf = self.src_of(qf);
        let mut q = self.alu(conv(ConvKind::FloatToInt, qf));
        let qs = self.src_of(q);
        let t = self.alu(Op::IMad(crate::isa::OpIMad {
            dst: Dst::None,
            srcs: [qs, ds, Src::ZERO],
            signed: false,
        }));
        let ts = self.src_of(t);
        let mut rem = self.alu(iadd(ns, ts.negated()));
        // One too big: the remainder went negative.
        for (cmp, signed, q_step, rem_step) in [
            (IntCmp::Lt, true, Src::imm(u32::MAX), ds),
            (IntCmp::Ge, false, Src::imm(1), ds.negated()),
        ] {
            let rems = self.src_of(rem);
            let limit = if signed { Src::ZERO } else { ds };
            let fix = self.alu(Op::ISetP(OpISetP {
                dst: Dst::None,
                cmp,
                signed,
                combine: PredCombine::And,
                srcs: [rems, limit],
                accum: PredSrc::TRUE,
            }));
            let fixed = self.alu(iadd(rems, rem_step));
            let fixed = self.src_of(fixed);
            rem = self.select(fix, fixed, rems);
            if need_q {
                let qs = self.src_of(q);
                let fixed = self.alu(iadd(qs, q_step));
                let fixed = self.src_of(fixed);
                q = self.select(fix, fixed, qs);
            }
        }
        (q, rem)
    }

    /// EmitMeshTasksEXT: one invocation writes the count x*y*z and x/y/z,
    /// then the task shader ends.
    pub(super) fn emit_mesh_tasks(&mut self, x: Comp, y: Comp, z: Comp) {
        let (xs, ys, zs) = (self.src_of(x), self.src_of(y), self.src_of(z));
        let xy = self.imad_comp(xs, ys);
        let xy = self.src_of(xy);
        let count = self.imad_comp(xy, zs);
        let guard = self.lane0_guard();
        for (c, off) in [
            (count, task_attr::GROUP_COUNT),
            (x, task_attr::GROUP_X),
            (y, task_attr::GROUP_Y),
            (z, task_attr::GROUP_Z),
        ] {
            let data = self.reg_or_zero(c);
            self.isbe_write(
                OpIsbeWr {
                    addr: Src::ZERO,
                    imm: off,
                    data,
                    access: IsbeAccess::Attr,
                    size: IsbeSize::B32,
                    skew: false,
                },
                guard,
            );
        }
        self.emit(Instr::new(Op::Exit));
    }

    /// `a * b` as a component (folded when both are constant; no
    /// multiply by one).
    fn imad_comp(&mut self, a: Src, b: Src) -> Comp {
        if let (SrcRef::Reg(Reg::Virt(r)), SrcRef::Imm(1))
        | (SrcRef::Imm(1), SrcRef::Reg(Reg::Virt(r))) = (a.src, b.src)
            && !a.neg
            && !b.neg
        {
            return Comp::Reg(r);
        }
        self.alu(Op::IMad(crate::isa::OpIMad {
            dst: Dst::None,
            srcs: [a, b, Src::ZERO],
            signed: false,
        }))
    }

    /// The guard that lets only lane 0 execute (none in a one-invocation
    /// workgroup, which only has lane 0).
    pub(super) fn lane0_guard(&mut self) -> PredSrc {
        if self.sh.invocations() == 1 {
            return PredSrc::TRUE;
        }
        let lane = self.special_reg(SpecialReg::LaneId);
        let p = self.f.new_vreg(RegFile::Pred);
        self.emit(Instr::new(Op::ISetP(OpISetP {
            dst: Dst::Reg(Reg::Virt(p)),
            cmp: IntCmp::Ne,
            signed: false,
            combine: PredCombine::And,
            srcs: [Src::reg(Reg::Virt(lane)), Src::ZERO],
            accum: PredSrc::TRUE,
        })));
        PredSrc {
            reg: Some(Reg::Virt(p)),
            neg: true,
        }
    }
}
