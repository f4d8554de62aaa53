//! A structural check of an [`crate::ir::Shader`]: what the backend relies on
//! without checking it again. It runs at the end of every translation and
//! can be run after any pass. The checks on one concern each live in
//! their own file: dominance ([`dominance`]), operand types ([`types`]),
//! structured control flow ([`structure`]).

mod dominance;
mod structure;
mod types;

use crate::FrontendError;
use crate::ir::{Block, Inst, Shader, Value, ValueDef};
use cranelift_entity::EntitySet;
use dominance::Dominators;

/// Checks that
/// - the layout lists blocks once each, starting with a parameterless entry;
/// - every block in the layout ends in exactly one terminator, with none
///   before it, and each instruction belongs to one block;
/// - every jump targets a block of the layout, with one argument of the
///   right type per parameter of the target;
/// - merge blocks and continue targets are blocks of the layout;
/// - every value used (by an instruction or as a global's initializer) is
///   defined by an instruction or parameter of the layout's blocks, and
///   values record where they are defined;
/// - in reachable blocks, every definition dominates its uses (a block
///   argument is used at the end of the block that passes it);
/// - operands have the types their op needs;
/// - every back edge goes to a loop header, and headers name blocks that
///   make sense as their merge and continue targets.
pub fn validate(shader: &Shader) -> Result<(), FrontendError> {
    let Some(&entry) = shader.layout.first() else {
        return Err(invalid("the shader", None, "it has no blocks"));
    };
    if !shader.blocks[entry].params.is_empty() {
        return Err(invalid(
            &entry.to_string(),
            None,
            "the entry block has parameters",
        ));
    }

    let mut in_layout = EntitySet::with_capacity(shader.blocks.len());
    let mut defined = EntitySet::with_capacity(shader.values.len());
    let mut placed = EntitySet::with_capacity(shader.insts.len());
    for &block in &shader.layout {
        if !in_layout.insert(block) {
            return Err(invalid(
                &block.to_string(),
                None,
                "the block is in the layout twice",
            ));
        }
        for (index, &param) in (0u32..).zip(&shader.blocks[block].params) {
            if shader.values[param].def != ValueDef::Param(block, index) {
                return Err(invalid(
                    &block.to_string(),
                    None,
                    &format!("parameter {param} records another definition"),
                ));
            }
            defined.insert(param);
        }
        for &inst in &shader.blocks[block].insts {
            if !placed.insert(inst) {
                return Err(invalid(
                    &block.to_string(),
                    Some(inst),
                    "the instruction is in two places",
                ));
            }
            if let Some(result) = shader.insts[inst].result {
                if shader.values[result].def != ValueDef::Inst(inst) {
                    return Err(invalid(
                        &block.to_string(),
                        Some(inst),
                        &format!("result {result} records another definition"),
                    ));
                }
                defined.insert(result);
            }
        }
    }

    for &block in &shader.layout {
        check_block(shader, block, &in_layout, &defined)?;
    }
    let doms = Dominators::compute(shader);
    dominance::check_uses(shader, &doms)?;
    types::check(shader)?;
    structure::check(shader, &doms)?;
    for (gv, data) in &shader.globals {
        if let Some(init) = data.initializer
            && !defined.contains(init)
        {
            return Err(invalid(
                &gv.to_string(),
                None,
                &format!("the initializer {init} is not defined"),
            ));
        }
    }
    Ok(())
}

fn check_block(
    shader: &Shader,
    block: Block,
    in_layout: &EntitySet<Block>,
    defined: &EntitySet<Value>,
) -> Result<(), FrontendError> {
    // Formatted only for an error: this runs for every block.
    let name = || block.to_string();
    let data = &shader.blocks[block];
    let Some(&last) = data.insts.last() else {
        return Err(invalid(&name(), None, "the block is empty"));
    };
    for &inst in &data.insts {
        let op = &shader.insts[inst].op;
        if op.is_terminator() != (inst == last) {
            let what = if inst == last {
                "the block does not end in a terminator"
            } else {
                "a terminator is followed by more instructions"
            };
            return Err(invalid(&name(), Some(inst), what));
        }
        let mut undefined = None;
        op.for_each_arg(|v| {
            if undefined.is_none() && !defined.contains(v) {
                undefined = Some(v);
            }
        });
        if let Some(v) = undefined {
            return Err(invalid(
                &name(),
                Some(inst),
                &format!("{v} is used but not defined"),
            ));
        }
        for call in op.block_calls() {
            check_call(shader, block, inst, call, in_layout)?;
        }
    }
    let merge_targets = match data.merge {
        None => [None, None],
        Some(crate::ir::Merge::Selection { merge }) => [Some(merge), None],
        Some(crate::ir::Merge::Loop {
            merge,
            continue_target,
        }) => [Some(merge), Some(continue_target)],
    };
    if let Some(b) = merge_targets
        .into_iter()
        .flatten()
        .find(|&b| !in_layout.contains(b))
    {
        return Err(invalid(
            &name(),
            None,
            &format!("the merge information names {b}, which is not in the layout"),
        ));
    }
    Ok(())
}

fn check_call(
    shader: &Shader,
    block: Block,
    inst: Inst,
    call: &crate::ir::BlockCall,
    in_layout: &EntitySet<Block>,
) -> Result<(), FrontendError> {
    if !in_layout.contains(call.block) {
        return Err(invalid(
            &block.to_string(),
            Some(inst),
            &format!("the target {} is not in the layout", call.block),
        ));
    }
    let params = &shader.blocks[call.block].params;
    if params.len() != call.args.len() {
        return Err(invalid(
            &block.to_string(),
            Some(inst),
            &format!(
                "{} takes {} arguments, the jump passes {}",
                call.block,
                params.len(),
                call.args.len()
            ),
        ));
    }
    for (&param, &arg) in params.iter().zip(&call.args) {
        if shader.values[param].ty != shader.values[arg].ty {
            return Err(invalid(
                &block.to_string(),
                Some(inst),
                &format!(
                    "argument {arg} of type {} is passed to {param} of type {}",
                    shader.type_name(shader.values[arg].ty),
                    shader.type_name(shader.values[param].ty)
                ),
            ));
        }
    }
    Ok(())
}

pub(super) fn invalid(block: &str, inst: Option<Inst>, what: &str) -> FrontendError {
    FrontendError::InvalidIr {
        block: block.to_string(),
        inst: inst.map(|i| i.to_string()),
        what: what.to_string(),
    }
}
