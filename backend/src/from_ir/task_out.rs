//! Task shaders and what they hand to mesh shaders (docs/HARDWARE.md,
//! "ISBE"): EmitMeshTasksEXT, the task payload, the workgroup index
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
use crate::mir::{BlockId, VReg};
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
pub(super) fn has_bool(sh: &Shader, ty: TypeId) -> bool {
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
    pub(super) fn payload_offset(
        &mut self,
        place: &Place,
        spirv_id: Option<u32>,
    ) -> Result<(Src, u32), BackendError> {
        self.word_offset(place, task_attr::PAYLOAD, "the task payload", spirv_id)
    }

    /// The byte offset of a place in a region of 32-bit words (payload,
    /// shared memory) whose variable starts at `base`.
    pub(super) fn word_offset(
        &mut self,
        place: &Place,
        base: u32,
        region: &str,
        spirv_id: Option<u32>,
    ) -> Result<(Src, u32), BackendError> {
        let sh = self.sh;
        let mut ty = sh.globals[place.var].ty;
        let mut constant = 0u32;
        let mut dynamic = Src::ZERO;
        for step in &place.path {
            let (elem, start, stride) =
                step_into(sh, ty, step).ok_or_else(|| BackendError::Unsupported {
                    what: format!("this access into {region} ({})", sh.type_name(ty)),
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
        Ok((dynamic, base + 4 * constant))
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
    /// The address operands of an ISBE access at `base + imm`: a register
    /// (or RZ) and an immediate offset the encoder takes (none before
    /// sm86; at most `MAX_IMM_OFFSET`). A `base` that folded to a constant
    /// goes into the immediate, or into a register when it does not fit.
    pub(super) fn isbe_address(&mut self, base: Src, imm: u32) -> (Src, u32) {
        use crate::isa::MAX_IMM_OFFSET;
        let imm_ok = |k: u32| k == 0 || self.target.has_isbe_imm_offset() && k <= MAX_IMM_OFFSET;
        match super::const_src(base) {
            Some(k) if imm_ok(k.wrapping_add(imm)) => (Src::ZERO, k.wrapping_add(imm)),
            Some(_) => (self.add_imm(base, imm), 0),
            None if imm_ok(imm) => (base, imm),
            None => (self.add_imm(base, imm), 0),
        }
    }

    pub(super) fn isbe_read(&mut self, base: Src, imm: u32, output: bool, skew: bool) -> VReg {
        self.isbe_read_as(base, imm, output, skew, IsbeAccess::Attr, IsbeSize::B32)
    }

    /// Reads `size` bytes of region `access` of the input ISBE (or the
    /// output one with `output`) at `base + imm`, zero-extended.
    pub(super) fn isbe_read_as(
        &mut self,
        base: Src,
        imm: u32,
        output: bool,
        skew: bool,
        access: IsbeAccess,
        size: IsbeSize,
    ) -> VReg {
        let (addr, imm) = self.isbe_address(base, imm);
        let r = self.f.new_vreg(RegFile::Gpr);
        self.emit(Instr::new(Op::IsbeRd(OpIsbeRd {
            dst: r.dst(),
            addr,
            imm,
            output,
            access,
            size,
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
        self.write_attr_words(base, imm, comps, "boolean task payload members", spirv_id)
    }

    /// Writes 32-bit components to consecutive words of the output ATTR
    /// region from `base + imm` (no SKEW): the payload and task/mesh shared
    /// memory. Booleans have no memory form there (`what` names the case).
    pub(super) fn write_attr_words(
        &mut self,
        base: Src,
        imm: u32,
        comps: &[Comp],
        what: &str,
        spirv_id: Option<u32>,
    ) -> Result<(), BackendError> {
        for (j, &c) in comps.iter().enumerate() {
            if matches!(c, Comp::Pred(_) | Comp::Bool(_)) {
                return Err(BackendError::Unsupported {
                    what: what.into(),
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
    /// a mesh shader a task shader launched (docs/HARDWARE.md, "ISBE").
    /// Read once, at the
    /// top of the entry block, so before any output write.
    pub(super) fn workgroup_index(&mut self) -> VReg {
        if let Some(r) = self.workgroup_index {
            return r;
        }
        let skew = !(self.sh.stage == ir::Stage::Mesh && self.task_present);
        let r = self.f.new_vreg(RegFile::Gpr);
        self.f.blocks[BlockId::ENTRY].instrs.insert(
            0,
            Instr::new(Op::IsbeRd(OpIsbeRd {
                dst: r.dst(),
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

    /// EmitMeshTasksEXT: one invocation writes the count x*y*z and x/y/z,
    /// then the task shader ends.
    pub(super) fn emit_mesh_tasks(&mut self, x: Comp, y: Comp, z: Comp) {
        let guard = self.lane0_guard();
        self.write_mesh_tasks(x, y, z, guard);
        self.emit(Instr::new(Op::Exit));
    }

    /// The count x*y*z and x/y/z, written by the lanes `guard` lets through.
    pub(super) fn write_mesh_tasks(&mut self, x: Comp, y: Comp, z: Comp, guard: PredSrc) {
        let (xs, ys, zs) = (self.src_of(x), self.src_of(y), self.src_of(z));
        let xy = self.imad_comp(xs, ys);
        let xy = self.src_of(xy);
        let count = self.imad_comp(xy, zs);
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
    }

    /// `a * b` as a component (folded when both are constant; no
    /// multiply by one).
    fn imad_comp(&mut self, a: Src, b: Src) -> Comp {
        if let (SrcRef::Reg(Reg::Virt(r)), SrcRef::Imm(1))
        | (SrcRef::Imm(1), SrcRef::Reg(Reg::Virt(r))) = (a.src, b.src)
            && !a.neg
            && !b.neg
        {
            return Comp::Reg(VReg::from_u32(r));
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
            dst: p.dst(),
            cmp: IntCmp::Ne,
            signed: false,
            combine: PredCombine::And,
            srcs: [lane.src(), Src::ZERO],
            accum: PredSrc::TRUE,
        })));
        PredSrc {
            reg: Some(p.reg()),
            neg: true,
        }
    }
}
