//! Structured control flow, as far as the backend relies on it: loops are
//! entered only through their header (every back edge targets a block
//! that declares a loop merge), merge blocks are other blocks than their
//! header, and a selection header ends in a conditional branch or switch.

use super::dominance::Dominators;
use super::invalid;
use crate::FrontendError;
use crate::ir::{Merge, Op, Shader};

pub(super) fn check(shader: &Shader, doms: &Dominators) -> Result<(), FrontendError> {
    for &block in doms.order() {
        match shader.blocks[block].merge {
            Some(Merge::Selection { merge }) => {
                if merge == block {
                    return Err(invalid(
                        &block.to_string(),
                        None,
                        "the selection is its own merge block",
                    ));
                }
                if !matches!(
                    shader.terminator(block),
                    Some(Op::Branch { .. } | Op::Switch { .. })
                ) {
                    return Err(invalid(
                        &block.to_string(),
                        None,
                        "a selection header does not end in a conditional branch or switch",
                    ));
                }
            }
            Some(Merge::Loop {
                merge,
                continue_target,
            }) if merge == block || merge == continue_target => {
                return Err(invalid(
                    &block.to_string(),
                    None,
                    "the loop's merge block is its header or continue target",
                ));
            }
            Some(Merge::Loop { .. }) => {}
            None => {}
        }
        for succ in shader.successors(block) {
            let back_edge = doms.dominates(succ, block);
            let loop_header = matches!(shader.blocks[succ].merge, Some(Merge::Loop { .. }));
            if back_edge && !loop_header {
                return Err(invalid(
                    &block.to_string(),
                    None,
                    &format!("the back edge to {succ} does not go to a loop header"),
                ));
            }
        }
    }
    Ok(())
}
