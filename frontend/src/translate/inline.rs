//! Function calls are inlined at the SPIR-V level, before translation, so
//! that everything after works on one call-free function (as spirv-opt's
//! inline pass does).
//!
//! At each OpFunctionCall the calling block is split: its first part
//! branches to a copy of the callee's blocks (every id the callee defines
//! renamed to a fresh one, its parameters replaced by the arguments —
//! pointer arguments included, which then become plain loads and stores
//! of the caller's variables and can be promoted), each OpReturn /
//! OpReturnValue becomes a branch to the continuation block holding the
//! rest of the caller's block, and the call's result is an OpPhi there.
//! A callee with several returns is wrapped in a one-trip loop whose merge
//! is the continuation, so that the early returns are structured breaks.
//! The callee's variables move to the caller's first block; their
//! initializers become stores at the start of each copy.

use super::operands::{Operands, malformed, result_id, unsupported};
use crate::FrontendError;
use rspirv::dr::{self, Block, Function, Instruction, Operand};
use rustc_hash::{FxHashMap, FxHashSet};
use spirv::Op;
use std::borrow::Cow;

/// More instructions than this after inlining is taken as a call tree
/// built to exhaust memory.
const MAX_INSTRUCTIONS: usize = 1 << 20;

/// Inlining recurses once per level of nested calls: real shaders nest a
/// few levels, the bound keeps adversarial call chains off the end of the
/// stack.
const MAX_CALL_DEPTH: usize = 64;

/// `entry` with every call inlined, recursively; `entry` itself, not a
/// copy, when it makes no calls (most shaders).
pub(super) fn inline_calls<'m>(
    module: &'m dr::Module,
    entry: &'m Function,
) -> Result<Cow<'m, Function>, FrontendError> {
    let has_calls = entry
        .blocks
        .iter()
        .flat_map(|b| &b.instructions)
        .any(|i| i.class.opcode == Op::FunctionCall);
    if !has_calls {
        return Ok(Cow::Borrowed(entry));
    }
    let functions = module
        .functions
        .iter()
        .filter_map(|f| Some((f.def.as_ref()?.result_id?, f)))
        .collect();
    let voids = module
        .types_global_values
        .iter()
        .filter(|i| i.class.opcode == Op::TypeVoid)
        .filter_map(|i| i.result_id)
        .collect();
    let mut inliner = Inliner {
        functions,
        voids,
        next_id: module.header.as_ref().map_or(1, |h| h.bound),
        done: FxHashMap::default(),
        stack: Vec::new(),
        size: 0,
    };
    inliner.inline_body(entry).map(Cow::Owned)
}

struct Inliner<'m> {
    functions: FxHashMap<u32, &'m Function>,
    /// The OpTypeVoid ids: a call of that type has no result value.
    voids: FxHashSet<u32>,
    next_id: u32,
    /// Callees already made call-free.
    done: FxHashMap<u32, Function>,
    /// The functions being inlined, to catch recursion.
    stack: Vec<u32>,
    /// Instructions produced so far.
    size: usize,
}

impl Inliner<'_> {
    fn fresh(&mut self, user: &Instruction) -> Result<u32, FrontendError> {
        let id = self.next_id;
        self.next_id = id
            .checked_add(1)
            .ok_or_else(|| unsupported(user, "inlining runs out of ids"))?;
        Ok(id)
    }

    /// The call-free body of the function `id`, called by `call`.
    fn callee(&mut self, call: &Instruction, id: u32) -> Result<Function, FrontendError> {
        if let Some(f) = self.done.get(&id) {
            return Ok(f.clone());
        }
        if self.stack.contains(&id) {
            return Err(unsupported(call, "recursive calls cannot be inlined"));
        }
        if self.stack.len() >= MAX_CALL_DEPTH {
            return Err(unsupported(
                call,
                format!("calls nested deeper than {MAX_CALL_DEPTH}"),
            ));
        }
        let Some(&function) = self.functions.get(&id) else {
            return Err(malformed(call, format!("%{id} is not a function")));
        };
        if function.blocks.is_empty() {
            return Err(unsupported(
                call,
                format!("%{id} is declared but has no body"),
            ));
        }
        self.stack.push(id);
        let body = self.inline_body(function)?;
        self.stack.pop();
        self.done.insert(id, body.clone());
        Ok(body)
    }

    fn inline_body(&mut self, function: &Function) -> Result<Function, FrontendError> {
        let mut blocks: Vec<Block> = Vec::new();
        let mut hoisted: Vec<Instruction> = Vec::new();
        // Labels of split blocks → the label of their last part, which
        // their successors' OpPhis must name.
        let mut last_part: FxHashMap<u32, u32> = FxHashMap::default();
        for block in &function.blocks {
            let mut current = Block {
                label: block.label.clone(),
                instructions: Vec::new(),
            };
            let loop_merge = block
                .instructions
                .iter()
                .find(|i| i.class.opcode == Op::LoopMerge);
            let mut first_part = true;
            for inst in &block.instructions {
                if inst.class.opcode == Op::LoopMerge && !first_part {
                    continue; // moved to the first part, which stays the header
                }
                if inst.class.opcode != Op::FunctionCall {
                    current.instructions.push(inst.clone());
                    continue;
                }
                if first_part && let Some(merge) = loop_merge {
                    current.instructions.push(merge.clone());
                }
                first_part = false;
                let continuation = self.fresh(inst)?;
                let (entry_label, mut callee_blocks, vars, returns) =
                    self.instantiate(inst, continuation)?;
                hoisted.extend(vars);
                current.instructions.push(branch(entry_label));
                blocks.push(current);
                let mut result_pairs = returns;
                if result_pairs.len() > 1 {
                    // The one-trip loop (see the module docs).
                    let header = self.fresh(inst)?;
                    let latch = self.fresh(inst)?;
                    let last = blocks.last_mut().expect("pushed above");
                    *last.instructions.last_mut().expect("pushed above") = branch(header);
                    blocks.push(Block {
                        label: Some(label(header)),
                        instructions: vec![
                            Instruction::new(
                                Op::LoopMerge,
                                None,
                                None,
                                vec![
                                    Operand::IdRef(continuation),
                                    Operand::IdRef(latch),
                                    Operand::LoopControl(spirv::LoopControl::NONE),
                                ],
                            ),
                            branch(entry_label),
                        ],
                    });
                    callee_blocks.push(Block {
                        label: Some(label(latch)),
                        instructions: vec![branch(header)],
                    });
                }
                blocks.append(&mut callee_blocks);
                current = Block {
                    label: Some(label(continuation)),
                    instructions: Vec::new(),
                };
                if let (Some(ty), Some(id)) = (inst.result_type, inst.result_id)
                    && !self.voids.contains(&ty)
                {
                    result_pairs.retain(|(v, _)| v.is_some());
                    let result = if result_pairs.is_empty() {
                        Instruction::new(Op::Undef, Some(ty), Some(id), vec![])
                    } else {
                        let operands = result_pairs
                            .iter()
                            .flat_map(|&(v, l)| {
                                [Operand::IdRef(v.unwrap_or_default()), Operand::IdRef(l)]
                            })
                            .collect();
                        Instruction::new(Op::Phi, Some(ty), Some(id), operands)
                    };
                    current.instructions.push(result);
                }
                if let Some(l) = block.label.as_ref().and_then(|l| l.result_id) {
                    last_part.insert(l, continuation);
                }
            }
            self.size += current.instructions.len();
            blocks.push(current);
            if self.size > MAX_INSTRUCTIONS {
                let def = function.def.as_ref().or(block.label.as_ref());
                return Err(match def {
                    Some(d) => unsupported(d, "inlining makes the function too large"),
                    None => FrontendError::InvalidBinary {
                        reason: "inlining makes the function too large".into(),
                    },
                });
            }
        }
        fix_phi_parents(&mut blocks, &last_part);
        if let Some(first) = blocks.first_mut() {
            let at = first
                .instructions
                .iter()
                .take_while(|i| matches!(i.class.opcode, Op::Variable | Op::Line | Op::NoLine))
                .count();
            first.instructions.splice(at..at, hoisted);
        }
        Ok(Function {
            def: function.def.clone(),
            end: function.end.clone(),
            parameters: function.parameters.clone(),
            blocks,
        })
    }

    /// A renamed copy of the callee of `call`: its entry label, its blocks
    /// (returns turned into branches to `continuation`), its variables,
    /// and each return's value (if any) with the label of its block.
    #[allow(clippy::type_complexity)]
    fn instantiate(
        &mut self,
        call: &Instruction,
        continuation: u32,
    ) -> Result<(u32, Vec<Block>, Vec<Instruction>, Vec<(Option<u32>, u32)>), FrontendError> {
        let mut ops = Operands::new(call);
        let callee_id = ops.id("function")?;
        let args = ops.rest_ids("argument")?;
        let callee = self.callee(call, callee_id)?;
        if callee.parameters.len() != args.len() {
            return Err(malformed(
                call,
                format!(
                    "passes {} arguments to a function of {} parameters",
                    args.len(),
                    callee.parameters.len()
                ),
            ));
        }
        let mut rename: FxHashMap<u32, u32> = FxHashMap::default();
        for (param, &arg) in callee.parameters.iter().zip(&args) {
            rename.insert(result_id(param)?, arg);
        }
        for block in &callee.blocks {
            for inst in block.label.iter().chain(&block.instructions) {
                if let Some(id) = inst.result_id {
                    let fresh = self.fresh(call)?;
                    rename.insert(id, fresh);
                }
            }
        }
        let mut blocks = Vec::with_capacity(callee.blocks.len());
        let mut vars = Vec::new();
        let mut returns = Vec::new();
        for block in &callee.blocks {
            let label = block
                .label
                .as_ref()
                .map(|l| renamed(l, &rename))
                .ok_or_else(|| malformed(call, "a block of the callee has no label"))?;
            let label_id = label.result_id.unwrap_or_default();
            let mut instructions = Vec::with_capacity(block.instructions.len());
            for inst in &block.instructions {
                let inst = renamed(inst, &rename);
                match inst.class.opcode {
                    // An initializer applies at every call, so it becomes a
                    // store at the start of the copy; the variable itself
                    // moves to the caller's first block.
                    Op::Variable => {
                        let mut var = inst;
                        if let (Some(id), Some(Operand::IdRef(init))) =
                            (var.result_id, var.operands.get(1).cloned())
                        {
                            var.operands.truncate(1);
                            instructions.push(Instruction::new(
                                Op::Store,
                                None,
                                None,
                                vec![Operand::IdRef(id), Operand::IdRef(init)],
                            ));
                        }
                        vars.push(var);
                    }
                    Op::Return => {
                        returns.push((None, label_id));
                        instructions.push(branch(continuation));
                    }
                    Op::ReturnValue => {
                        let value = Operands::new(&inst).id("value")?;
                        returns.push((Some(value), label_id));
                        instructions.push(branch(continuation));
                    }
                    _ => instructions.push(inst),
                }
            }
            blocks.push(Block {
                label: Some(label),
                instructions,
            });
        }
        let entry = blocks
            .first()
            .and_then(|b| b.label.as_ref()?.result_id)
            .ok_or_else(|| malformed(call, "the callee has no blocks"))?;
        Ok((entry, blocks, vars, returns))
    }
}

fn renamed(inst: &Instruction, rename: &FxHashMap<u32, u32>) -> Instruction {
    let mut inst = inst.clone();
    let map = |id: &mut u32| {
        if let Some(&new) = rename.get(id) {
            *id = new;
        }
    };
    if let Some(id) = inst.result_id.as_mut() {
        map(id);
    }
    for operand in &mut inst.operands {
        if let Operand::IdRef(id) | Operand::IdScope(id) | Operand::IdMemorySemantics(id) = operand
        {
            map(id);
        }
    }
    inst
}

/// After splits, OpPhi parents that name a split block name its last part.
fn fix_phi_parents(blocks: &mut [Block], last_part: &FxHashMap<u32, u32>) {
    if last_part.is_empty() {
        return;
    }
    for block in blocks {
        for inst in &mut block.instructions {
            if inst.class.opcode != Op::Phi {
                continue;
            }
            for operand in inst.operands.iter_mut().skip(1).step_by(2) {
                if let Operand::IdRef(parent) = operand
                    && let Some(&last) = last_part.get(parent)
                {
                    *parent = last;
                }
            }
        }
    }
}

fn branch(target: u32) -> Instruction {
    Instruction::new(Op::Branch, None, None, vec![Operand::IdRef(target)])
}

fn label(id: u32) -> Instruction {
    Instruction::new(Op::Label, None, Some(id), vec![])
}
