//! In-shader primitive culling for mesh shaders (RADV's NGG culling,
//! docs/HARDWARE.md "In-shader culling", adapted to this hardware's mesh outputs), compiled in with
//! `BackendOptions::shader_cull`.
//!
//! The shader's own code runs first ("part one"); its OpReturn jumps to
//! the culling code instead of exiting. That code reads the root table's
//! culling word (docs/ABI.md); 0 skips it. Otherwise each lane takes the
//! primitives `lane + 32k`, reads their vertex indices from the output MAP
//! region and their vertices' positions from the output ATTR region, and
//! tests them (`mesh_cull_triangle`). Surviving primitives are compacted with
//! a ballot and a prefix count (VOTE, POPC of the lanes below), the
//! vertices they reference get new, dense indices (REDUX.OR of the
//! reference bits, prefix counts), and indices, per-primitive attributes,
//! vertices and the primitive count are rewritten in place. Each block of
//! 32 elements is read whole before any of it is written, and an element
//! only moves down, so no write clobbers an element not yet read.
//!
//! Deferred attribute shading: when the shader allows it (`crate::lower_cull::plan`), part
//! one is the shader without its per-vertex outputs other than position,
//! and after the culling the shader runs again ("part two") for the
//! surviving vertices only: lane `L` plays the invocation whose vertex
//! became vertex `L` (its local invocation index is the `L`-th set bit of
//! the reference mask), writes only the per-vertex outputs other than
//! position, and lanes beyond the surviving vertex count exit at once.
//! Dead-code elimination then removes the attribute work from part one and
//! the position work from part two. With the culling switched off, part
//! two runs for every lane as itself.

use super::Isel;
use crate::abi;
use crate::error::BackendError;
use crate::isa::{Instr, Op, OpBra, OpWarpSync, PredSrc, RegFile, Src};
pub use crate::lower_cull::CullPlan;
use crate::lower_cull::{CullRole, Part};
use crate::mir::{BlockId, VReg};
use spvsass_frontend::ir::{Inst, InstData};

/// The culling state of an instruction selection.
pub(super) struct CullState {
    pub plan: CullPlan,
    pub part: Part,
    /// The MIR block part one's OpReturn jumps to.
    pub entry: BlockId,
    /// Part two's local invocation index (a register).
    pub source: Option<VReg>,
}

impl Isel<'_> {
    /// The culling's hook into instruction selection: maps `inst`'s role
    /// in the part being selected (`lower_cull.rs`) and returns true, or
    /// returns false when it has none.
    pub(super) fn cull_inst(&mut self, id: Inst, inst: &InstData) -> Result<bool, BackendError> {
        let (Some(state), Some(lowering)) = (&self.cull, self.cull_lowering) else {
            return Ok(false);
        };
        let (part, entry, source) = (state.part, state.entry, state.source);
        match lowering.role(part, id) {
            None => Ok(false),
            Some(CullRole::Skip) => Ok(true),
            Some(CullRole::ToCulling) => {
                let from = self.cur;
                self.emit(Instr::new(Op::Bra(OpBra {
                    target: entry.target(),
                })));
                self.f.add_edge(from, entry, Vec::new());
                Ok(true)
            }
            Some(CullRole::PlayedInvocation { id_vector }) => {
                let (Some(r), Some(src)) = (inst.result, source) else {
                    return Ok(false);
                };
                let mut comps = vec![super::Comp::Reg(src)];
                if id_vector {
                    comps.extend([super::Comp::Const(0), super::Comp::Const(0)]);
                } else {
                    self.lane_ids.insert(r);
                }
                self.vals.insert(r, comps);
                Ok(true)
            }
        }
    }

    /// Creates the block part one returns to (after the shader's blocks).
    pub(super) fn begin_cull(&mut self) {
        let Some(lowering) = self.cull_lowering else {
            return;
        };
        let plan = lowering.plan;
        let entry = self.f.new_block();
        self.cull = Some(CullState {
            plan,
            part: Part::One,
            entry,
            source: None,
        });
    }

    /// Emits the culling code, and part two when deferred.
    pub(super) fn finish_cull(&mut self) -> Result<(), BackendError> {
        let Some(state) = &self.cull else {
            return Ok(());
        };
        let (plan, entry) = (state.plan, state.entry);
        self.cur = entry;
        // Every invocation reaches the one top-level OpReturn; the warp
        // is converged here.
        self.emit(Instr::new(Op::WarpSync(OpWarpSync {
            mask: Src::imm(u32::MAX),
        })));
        let control = self.root_word(abi::CULL_CONTROL);
        let control = self.src_of(control);
        let off = self.c_isetp(crate::isa::IntCmp::Eq, control, Src::ZERO);
        let enabled = self.f.new_block();
        let disabled = self.f.new_block();
        self.branch(off, disabled, enabled);

        self.cur = enabled;
        let survivors = self.cull_and_compact(control, plan)?;
        let lane = self.special_reg(crate::isa::SpecialReg::LaneId).src();
        match plan {
            CullPlan::Epilogue => {
                self.emit(Instr::new(Op::Exit));
                self.cur = disabled;
                self.emit(Instr::new(Op::Exit));
            }
            CullPlan::Deferred => {
                let join = self.f.new_block();
                let source = self.f.new_vreg(RegFile::Gpr);
                self.f.blocks[join].params = vec![source];
                // Lanes past the surviving vertices have nothing to do.
                let (count, mask) = survivors;
                let src = self.nth_set_bit(mask, lane);
                let done = self.c_isetp(crate::isa::IntCmp::Ge, lane, count);
                let exit = self.f.new_block();
                let go = self.f.new_block();
                self.branch(done, exit, go);
                self.cur = exit;
                self.emit(Instr::new(Op::Exit));
                self.cur = go;
                self.jump_with(join, vec![reg_of(src)]);
                // Switched off: every lane runs part two as itself.
                self.cur = disabled;
                self.jump_with(join, vec![reg_of(lane)]);
                self.begin_part_two(join, source)?;
            }
        }
        Ok(())
    }

    /// Selects the shader a second time, as part two, from `join`.
    fn begin_part_two(&mut self, join: BlockId, source: VReg) -> Result<(), BackendError> {
        if let Some(state) = &mut self.cull {
            state.part = Part::Two;
            state.source = Some(source);
        }
        let sh = self.sh;
        self.blocks.clear();
        for &b in &sh.layout {
            let mb = self.f.new_block();
            self.blocks.insert(b, mb);
        }
        self.cur = join;
        let first = self.blocks.at(sh.entry_block());
        self.jump_with(first, Vec::new());
        for &b in &sh.layout {
            self.block(b)?;
        }
        Ok(())
    }

    /// `@p BRA taken`, else on to `other`.
    fn branch(&mut self, p: PredSrc, taken: BlockId, other: BlockId) {
        let from = self.cur;
        self.emit(Instr::guarded(
            p,
            Op::Bra(OpBra {
                target: taken.target(),
            }),
        ));
        self.f.add_edge(from, taken, Vec::new());
        self.f.add_edge(from, other, Vec::new());
    }

    fn jump_with(&mut self, to: BlockId, args: Vec<VReg>) {
        let from = self.cur;
        self.emit(Instr::new(Op::Bra(OpBra {
            target: to.target(),
        })));
        self.f.add_edge(from, to, args);
    }
}

/// The virtual register of a register source.
pub(super) fn reg_of(s: Src) -> VReg {
    match s.as_reg().and_then(VReg::from_reg) {
        Some(r) => r,
        None => unreachable!("culling values are virtual registers"),
    }
}
