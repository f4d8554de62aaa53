//! OpSwitch in the spine of a task or mesh workgroup of more than 32
//! invocations (`crate::logical_subgroups`): a switch whose cases hold a
//! workgroup barrier, SetMeshOutputsEXT or EmitMeshTasksEXT.
//!
//! Such a switch is dynamically uniform by Vulkan's rules, like a spine
//! branch, and is decided once for the workgroup the same way
//! (ARCHITECTURE.md, "Wide task/mesh workgroups"): a selector the analysis
//! proves uniform is logical subgroup 0's; any other is *voted* case group
//! by case group, in the order of their first case: a group is taken when
//! any invocation still running, of any logical subgroup, selects one of
//! its literals (`Isel::workgroup_vote_of`), and the default when none
//! does. For a uniform selector that is every invocation's case; for one
//! that is not (undefined behaviour) the whole workgroup still goes one
//! way. The warp never diverges, so no convergence barrier is needed: the
//! switch is a chain of uniform conditional branches, each further branch
//! a block of its own laid out right after the header, as
//! `control.rs::switch` lays out a switch of one warp.

use super::subgroups::CopyState;
use super::{BlockMap, Comp, Isel};
use crate::error::BackendError;
use crate::isa::{Instr, Op, OpBra};
use crate::mir::{BlockId, VReg};
use spvsass_frontend::ir::{BlockCall, InstData, Value};

/// The operands of a spine OpSwitch.
pub(super) struct SwitchArms<'s> {
    pub selector: Value,
    pub default: &'s BlockCall,
    pub cases: &'s [(u64, BlockCall)],
}

impl Isel<'_> {
    /// The spine switch `inst` (`voted`: its selector is not proven
    /// uniform), with every copy's edge arguments on each edge.
    pub(super) fn spine_switch(
        &mut self,
        inst: &InstData,
        arms: SwitchArms<'_>,
        voted: bool,
        spine: &BlockMap,
        copies: &mut [CopyState],
    ) -> Result<(), BackendError> {
        let SwitchArms {
            selector,
            default,
            cases,
        } = arms;
        let groups = self.switch_groups(inst, default, cases)?;
        // Each group's workgroup-wide condition, in order; the first one
        // known to be true ends the chain (it is the default from there).
        let mut taken: Vec<(Comp, &BlockCall)> = Vec::new();
        let mut last = default;
        for (call, lits) in &groups {
            let cond = if voted {
                self.workgroup_vote_of(copies, |isel| isel.selects(selector, lits))?
            } else {
                self.selects(selector, lits)?
            };
            match cond {
                Comp::Bool(false) => {}
                Comp::Bool(true) => {
                    last = call;
                    break;
                }
                Comp::Pred(_) => taken.push((cond, call)),
                _ => {
                    return Err(BackendError::Invalid {
                        what: "a switch case condition that is not a boolean".into(),
                        spirv_id: inst.spirv_id,
                    });
                }
            }
        }
        // Every edge's arguments are computed in the header, before the
        // branches.
        let mut edges: Vec<(Comp, BlockId, Vec<VReg>)> = Vec::new();
        for (cond, call) in taken {
            let args = self.spine_args(call, copies)?;
            edges.push((cond, spine.at(call.block), args));
        }
        let last_args = self.spine_args(last, copies)?;
        let from = self.cur;
        let mut at = from;
        for (cond, to, args) in edges {
            let Comp::Pred(p) = cond else {
                unreachable!("only predicates are kept")
            };
            self.cur = at;
            self.emit(Instr::guarded(
                p.pred(),
                Op::Bra(OpBra {
                    target: to.target(),
                }),
            ));
            self.f.add_edge(at, to, args);
            let next = self.f.new_block();
            self.split_off.entry(from).or_default().push(next);
            self.f.add_edge(at, next, Vec::new());
            at = next;
        }
        self.cur = at;
        self.bra(spine.at(last.block), last_args);
        Ok(())
    }

    /// Whether the current copy's `selector` equals one of `lits`: a
    /// constant when the selector is one, else a predicate.
    fn selects(&mut self, selector: Value, lits: &[u32]) -> Result<Comp, BackendError> {
        Ok(match self.value_comp(selector)? {
            Comp::Const(k) => Comp::Bool(lits.contains(&k)),
            sel => {
                let sel = self.src_of(sel);
                Comp::Pred(self.case_predicate(sel, lits))
            }
        })
    }
}
