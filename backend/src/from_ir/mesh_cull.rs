//! In-shader culling's hooks in instruction selection
//! (`BackendOptions::shader_cull`, docs/HARDWARE.md "In-shader culling").
//! The decisions are `lower_cull.rs`'s and the culling code is
//! `insert_cull.rs`'s, a pass between the shader's two selections
//! (`compile::select`). Selection only maps: it reserves the block part
//! one's OpReturn branches to (`reserve_culling`), gives each instruction
//! the role the lowering decided for it in the part being selected
//! (`cull_inst`), and selects the shader a second time, as part two, from
//! where the culling code left off (`select_part_two`).

use super::{Comp, Isel};
use crate::error::BackendError;
use crate::insert_cull::PartTwo;
use crate::isa::{Instr, Op, OpBra};
use crate::lower_cull::{CullRole, Part};
use crate::mir::{BlockId, VReg};
use spvsass_frontend::ir::{Inst, InstData};

/// Which selection of the shader is under way, when culling is compiled in.
#[derive(Clone, Copy)]
pub(super) enum CullState {
    /// Part one: its OpReturn branches to `culling`, where the culling
    /// pass puts its code.
    PartOne { culling: BlockId },
    /// Part two: `played` holds the local invocation index each lane
    /// plays (`insert_cull::PartTwo`).
    PartTwo { played: VReg },
}

impl Isel<'_> {
    /// The culling's hook into instruction selection: maps `inst`'s role
    /// in the part being selected (`lower_cull.rs`) and returns true, or
    /// returns false when it has none.
    pub(super) fn cull_inst(&mut self, id: Inst, inst: &InstData) -> Result<bool, BackendError> {
        let (Some(state), Some(lowering)) = (self.cull, self.cull_lowering) else {
            return Ok(false);
        };
        let part = match state {
            CullState::PartOne { .. } => Part::One,
            CullState::PartTwo { .. } => Part::Two,
        };
        match (lowering.role(part, id), state) {
            (None, _) => Ok(false),
            (Some(CullRole::Skip), _) => Ok(true),
            (Some(CullRole::ToCulling), CullState::PartOne { culling }) => {
                let from = self.cur;
                self.emit(Instr::new(Op::Bra(OpBra {
                    target: culling.target(),
                })));
                self.f.add_edge(from, culling, Vec::new());
                Ok(true)
            }
            (Some(CullRole::PlayedInvocation { id_vector }), CullState::PartTwo { played }) => {
                let Some(r) = inst.result else {
                    return Ok(false);
                };
                let mut comps = vec![Comp::Reg(played)];
                if id_vector {
                    comps.extend([Comp::Const(0), Comp::Const(0)]);
                } else {
                    self.lane_ids.insert(r);
                }
                self.vals.insert(r, comps);
                Ok(true)
            }
            // `lower_cull` gives these roles in the other part only.
            (Some(CullRole::ToCulling), CullState::PartTwo { .. })
            | (Some(CullRole::PlayedInvocation { .. }), CullState::PartOne { .. }) => Ok(false),
        }
    }

    /// Creates the empty block part one's OpReturn branches to (after the
    /// shader's blocks), when culling is compiled in.
    pub(super) fn reserve_culling(&mut self) {
        if self.cull_lowering.is_some() {
            let culling = self.f.new_block();
            self.cull = Some(CullState::PartOne { culling });
        }
    }

    /// Selects the shader a second time, as part two, branching to it from
    /// where the culling code ends (`start.from`).
    pub(super) fn select_part_two(&mut self, start: PartTwo) -> Result<(), BackendError> {
        self.cull = Some(CullState::PartTwo {
            played: start.played,
        });
        let sh = self.sh;
        self.blocks.clear();
        for &b in &sh.layout {
            let mb = self.f.new_block();
            self.blocks.insert(b, mb);
        }
        self.cur = start.from;
        let first = self.blocks.at(sh.entry_block());
        self.emit(Instr::new(Op::Bra(OpBra {
            target: first.target(),
        })));
        self.f.add_edge(start.from, first, Vec::new());
        for &b in &sh.layout {
            self.block(b)?;
        }
        Ok(())
    }
}
