//! Workgroup (shared) variables of task and mesh shaders. These stages have
//! no shared memory of their own: it lives in the output ISBE ATTR region
//! (docs/HARDWARE.md, "ISBE"), after all
//! attributes for a mesh shader (per-vertex then per-primitive blocks) and
//! after the payload for a task shader, starting on a 128-byte line. It is
//! accessed with `ISBERD.O.ATTR` / `ISBEWR.O.ATTR`, no SKEW.
//!
//! Layout (project-defined): explicitly laid out Workgroup blocks
//! (WorkgroupMemoryExplicitLayoutKHR: Block-decorated structs) all start at
//! byte 0 of shared memory and alias one another, each scalar at its Offset
//! layout, accessed at its own width (`ISBERD/ISBEWR.U8/.U16/.32`); every
//! other Workgroup variable follows, in declaration order, each 32-bit
//! component 4 bytes, as the payload.
//!
//! Initial contents: Vulkan leaves Workgroup memory undefined unless the
//! variable has a null initializer (VK_KHR_zero_initialize_workgroup_memory);
//! such variables are zero-filled at the top of the shader, every lane
//! writing every N-th word (N the workgroup's lanes). Others are left as
//! the ISBE holds them (the simulator's task output starts filled with
//! 0xcd bytes, so a read of never-written shared memory shows up).

use super::mem_layout::size_align;
use super::memory::explicit_workgroup_block;
use super::places::{Place, comp_count};
use super::{Comp, Isel};
use crate::error::BackendError;
use crate::isa::{
    Dst, Instr, IntCmp, IsbeAccess, IsbeSize, MemSize, Op, OpISetP, OpIsbeWr, PredCombine, PredSrc,
    RegFile, SpecialReg, Src,
};
use crate::isbe_layout::LINE;
use cranelift_entity::SecondaryMap;
use spvsass_frontend::ir::{
    GlobalVar, InstData, Op as IrOp, Scalar, Shader, Stage, StorageClass, Value,
};

/// Where each Workgroup variable sits in the output ATTR region.
#[derive(Clone, Debug, Default)]
pub struct SharedLayout {
    /// The first byte of shared memory (a line boundary).
    pub base: u32,
    offsets: SecondaryMap<GlobalVar, Option<u32>>,
    /// Bytes of all Workgroup variables.
    pub bytes: u32,
}

impl SharedLayout {
    /// The layout of `sh`'s Workgroup variables from `after` (the end of
    /// the attributes or payload), rounded up to a line.
    pub fn new(sh: &Shader, after: u32) -> SharedLayout {
        let mut layout = SharedLayout {
            base: after.next_multiple_of(LINE),
            ..SharedLayout::default()
        };
        if sh.stage == Stage::Compute {
            return layout;
        }
        // Explicitly laid out blocks alias from byte 0 (a block without a
        // layout takes no bytes: its accesses are refused).
        for (var, g) in sh.globals.iter() {
            if explicit_workgroup_block(sh, var) {
                let bytes = size_align(sh, g.ty).map_or(0, |(size, _)| size);
                layout.offsets[var] = Some(0);
                layout.bytes = layout.bytes.max(bytes.next_multiple_of(4));
            }
        }
        for (var, g) in sh.globals.iter() {
            if g.class != StorageClass::Workgroup || layout.offsets[var].is_some() {
                continue;
            }
            let bytes = comp_count(sh, g.ty).map_or(0, |n| 4 * n);
            layout.offsets[var] = Some(layout.bytes);
            layout.bytes += bytes;
        }
        layout
    }

    /// Memory lines the shared variables take (SET_MESH_SHADER_B's
    /// SHARED_MEM_LINES; a task shader adds them to its payload lines).
    pub fn lines(&self) -> u32 {
        self.bytes.div_ceil(LINE)
    }

    /// The byte offset of a variable in the region.
    pub fn offset(&self, var: GlobalVar) -> Option<u32> {
        self.offsets[var].map(|o| self.base + o)
    }
}

/// Lines of shared memory of a task or mesh shader.
pub fn shared_lines(sh: &Shader) -> u32 {
    SharedLayout::new(sh, 0).lines()
}

/// Whether an initializer is all zeros (OpConstantNull and the like).
fn is_zero(sh: &Shader, v: Value) -> bool {
    match sh.def_inst(v).map(|i| &i.op) {
        Some(IrOp::Const(0)) => true,
        Some(IrOp::CompositeConstruct(parts)) => parts.iter().all(|&p| is_zero(sh, p)),
        _ => false,
    }
}

impl Isel<'_> {
    /// The byte offset of a place in shared memory: a register part and a
    /// constant part. In an explicitly laid out block the place must be
    /// one 32-bit word (the atomics' case, atomics.rs).
    pub(super) fn shared_offset(
        &mut self,
        place: &Place,
        inst: &InstData,
    ) -> Result<(Src, u32), BackendError> {
        let spirv_id = inst.spirv_id;
        let base = self
            .shared
            .offset(place.var)
            .ok_or_else(|| BackendError::Invalid {
                what: "a Workgroup variable of a type without a size".into(),
                spirv_id,
            })?;
        if !explicit_workgroup_block(self.sh, place.var) {
            return self.word_offset(place, base, "shared memory", spirv_id);
        }
        let (addr, parts) = self.block_parts(place, inst)?;
        match parts.as_slice() {
            [(offset, IsbeSize::B32)] => Ok((addr, *offset)),
            _ => Err(self.mem_error(
                "atomics on a scalar other than a 32-bit one in an explicitly laid out \
                 Workgroup block of a task/mesh shader"
                    .into(),
                inst,
            )),
        }
    }

    /// The accesses to the value at `place` in an explicitly laid out
    /// block: the register part of the address (RZ without dynamic
    /// indices) and each scalar's byte offset in the ATTR region and size,
    /// in component order (a 64-bit scalar is its two words, low first).
    fn block_parts(
        &mut self,
        place: &Place,
        inst: &InstData,
    ) -> Result<(Src, Vec<(u32, IsbeSize)>), BackendError> {
        let ty = self.sh.globals[place.var].ty;
        let a = self.address(place, (ty, 0), inst)?;
        let mut parts = Vec::new();
        for (offset, size, scalar) in self.leaf_scalars(&a, inst)? {
            let size = match size {
                _ if scalar == Scalar::Bool => None,
                MemSize::U8 | MemSize::S8 => Some(IsbeSize::U8),
                MemSize::U16 | MemSize::S16 => Some(IsbeSize::U16),
                MemSize::B32 => Some(IsbeSize::B32),
                MemSize::B64 | MemSize::B128 => None,
            }
            .ok_or_else(|| {
                self.mem_error(format!("{scalar} values in task/mesh shared memory"), inst)
            })?;
            // Offsets are aligned to the scalar's size (the Offset rules
            // of explicit layouts); a dynamic part is a multiple of it.
            let at = self.shared.base.checked_add(offset);
            match at {
                Some(at) if at.is_multiple_of(size.bytes()) => parts.push((at, size)),
                _ => {
                    return Err(BackendError::Invalid {
                        what: format!(
                            "a {scalar} at byte offset {offset} of a Workgroup block, not \
                             aligned to its size"
                        ),
                        spirv_id: inst.spirv_id,
                    });
                }
            }
        }
        Ok((a.dynamic.unwrap_or(Src::ZERO), parts))
    }

    pub(super) fn store_shared(
        &mut self,
        place: &Place,
        comps: &[Comp],
        inst: &InstData,
    ) -> Result<(), BackendError> {
        let spirv_id = inst.spirv_id;
        if explicit_workgroup_block(self.sh, place.var) {
            let (addr, parts) = self.block_parts(place, inst)?;
            for (&(imm, size), &c) in parts.iter().zip(comps) {
                let data = self.reg_or_zero(c);
                self.isbe_write(
                    OpIsbeWr {
                        addr,
                        imm,
                        data,
                        access: IsbeAccess::Attr,
                        size,
                        skew: false,
                    },
                    PredSrc::TRUE,
                );
            }
            return Ok(());
        }
        let (base, imm) = self.shared_offset(place, inst)?;
        self.write_attr_words(
            base,
            imm,
            comps,
            "boolean Workgroup variables in task/mesh shaders",
            spirv_id,
        )
    }

    pub(super) fn load_shared(
        &mut self,
        place: &Place,
        result: Value,
        inst: &InstData,
    ) -> Result<Vec<Comp>, BackendError> {
        let spirv_id = inst.spirv_id;
        if explicit_workgroup_block(self.sh, place.var) {
            let (addr, parts) = self.block_parts(place, inst)?;
            return Ok(parts
                .into_iter()
                .map(|(imm, size)| {
                    Comp::Reg(self.isbe_read_as(addr, imm, true, false, IsbeAccess::Attr, size))
                })
                .collect());
        }
        let ty = self.sh.values[result].ty;
        let n = comp_count(self.sh, ty)
            .filter(|_| !super::task_out::has_bool(self.sh, ty))
            .ok_or_else(|| BackendError::Unsupported {
                what: format!(
                    "a shared-memory load of type {} in a task/mesh shader",
                    self.sh.type_name(ty)
                ),
                opcode: "OpLoad".into(),
                spirv_id,
            })?;
        let (base, imm) = self.shared_offset(place, inst)?;
        Ok((0..n)
            .map(|j| Comp::Reg(self.isbe_read(base, imm + 4 * j, true, false)))
            .collect())
    }

    /// Zero-fills the Workgroup variables that have a null initializer, at
    /// the top of the entry block.
    pub(super) fn init_shared(&mut self) -> Result<(), BackendError> {
        let sh = self.sh;
        let lanes = sh.invocations().min(32);
        let mut lane_offset = None;
        for (var, g) in sh.globals.iter() {
            let Some(init) = g.initializer else { continue };
            if g.class != StorageClass::Workgroup {
                continue;
            }
            if !is_zero(sh, init) {
                return Err(BackendError::Unsupported {
                    what: "a Workgroup variable with a non-zero initializer".into(),
                    opcode: "OpVariable".into(),
                    spirv_id: None,
                });
            }
            let Some(start) = self.shared.offset(var) else {
                continue;
            };
            let words = if explicit_workgroup_block(sh, var) {
                size_align(sh, g.ty).map_or(0, |(size, _)| size.div_ceil(4))
            } else {
                comp_count(sh, g.ty).unwrap_or(0)
            };
            let lane_off = *lane_offset.get_or_insert_with(|| {
                let lane = self.special_reg(SpecialReg::LaneId);
                let c = self.alu(Op::IMad(crate::isa::OpIMad {
                    dst: Dst::None,
                    srcs: [lane.src(), Src::imm(4), Src::ZERO],
                    signed: false,
                }));
                self.src_of(c)
            });
            let mut k = 0;
            while k < words {
                // The last round: only the lanes below the words left.
                let guard = if words - k < lanes {
                    let lane = self.special_reg(SpecialReg::LaneId);
                    let p = self.f.new_vreg(RegFile::Pred);
                    self.emit(Instr::new(Op::ISetP(OpISetP {
                        dst: p.dst(),
                        cmp: IntCmp::Lt,
                        signed: false,
                        combine: PredCombine::And,
                        srcs: [lane.src(), Src::imm(words - k)],
                        accum: PredSrc::TRUE,
                    })));
                    p.pred()
                } else {
                    PredSrc::TRUE
                };
                self.isbe_write(
                    OpIsbeWr {
                        addr: lane_off,
                        imm: start + 4 * k,
                        data: Src::ZERO,
                        access: IsbeAccess::Attr,
                        size: IsbeSize::B32,
                        skew: false,
                    },
                    guard,
                );
                k += lanes;
            }
        }
        Ok(())
    }
}
