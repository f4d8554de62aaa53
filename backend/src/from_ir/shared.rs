//! Workgroup (shared) variables of task and mesh shaders. These stages have
//! no shared memory of their own: it lives in the output ISBE ATTR region
//! (docs/HARDWARE.md, "ISBE"), after all
//! attributes for a mesh shader (per-vertex then per-primitive blocks) and
//! after the payload for a task shader, starting on a 128-byte line. It is
//! accessed with 32-bit `ISBERD.O.ATTR.32` / `ISBEWR.O.ATTR.32`, no SKEW.
//!
//! Layout (project-defined): every Workgroup variable in declaration
//! order, each 32-bit component 4 bytes, as the payload.
//!
//! Initial contents: Vulkan leaves Workgroup memory undefined unless the
//! variable has a null initializer (VK_KHR_zero_initialize_workgroup_memory);
//! such variables are zero-filled at the top of the shader, every lane
//! writing every N-th word (N the workgroup's lanes). Others are left as
//! the ISBE holds them (the simulator's task output starts filled with
//! 0xcd bytes, so a read of never-written shared memory shows up).

use super::places::{Place, comp_count};
use super::{Comp, Isel};
use crate::error::BackendError;
use crate::isa::{
    Dst, Instr, IntCmp, IsbeAccess, IsbeSize, Op, OpISetP, OpIsbeWr, PredCombine, PredSrc, RegFile,
    SpecialReg, Src,
};
use crate::isbe_layout::LINE;
use rustc_hash::FxHashMap;
use spvsass_frontend::ir::{GlobalVar, Op as IrOp, Shader, Stage, StorageClass, Value};

/// Where each Workgroup variable sits in the output ATTR region.
#[derive(Clone, Debug, Default)]
pub struct SharedLayout {
    /// The first byte of shared memory (a line boundary).
    pub base: u32,
    offsets: FxHashMap<GlobalVar, u32>,
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
        for (var, g) in sh.globals.iter() {
            if g.class != StorageClass::Workgroup {
                continue;
            }
            let bytes = comp_count(sh, g.ty).map_or(0, |n| 4 * n);
            layout.offsets.insert(var, layout.bytes);
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
        self.offsets.get(&var).map(|o| self.base + o)
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
    /// constant part.
    pub(super) fn shared_offset(
        &mut self,
        place: &Place,
        spirv_id: Option<u32>,
    ) -> Result<(Src, u32), BackendError> {
        let base = self
            .shared
            .offset(place.var)
            .ok_or_else(|| BackendError::Invalid {
                what: "a Workgroup variable of a type without a size".into(),
                spirv_id,
            })?;
        self.word_offset(place, base, "shared memory", spirv_id)
    }

    pub(super) fn store_shared(
        &mut self,
        place: &Place,
        comps: &[Comp],
        spirv_id: Option<u32>,
    ) -> Result<(), BackendError> {
        let (base, imm) = self.shared_offset(place, spirv_id)?;
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
        spirv_id: Option<u32>,
    ) -> Result<Vec<Comp>, BackendError> {
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
        let (base, imm) = self.shared_offset(place, spirv_id)?;
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
            let words = comp_count(sh, g.ty).unwrap_or(0);
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
