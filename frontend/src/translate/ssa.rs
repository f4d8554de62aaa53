//! SSA construction for promoted function-local variables, after Braun et
//! al., "Simple and Efficient Construction of Static Single Assignment
//! Form" (CC 2013), with block parameters in place of phis.
//!
//! A load reads the variable's current value in its block; in a block with
//! several predecessors that value is a new block parameter, whose incoming
//! value from each predecessor is read recursively. A block is *sealed*
//! once all its predecessors have been translated; reads in a block not yet
//! sealed (a loop header before its latch) create a parameter whose
//! incoming values are filled in when it is sealed.
//!
//! Incoming values are kept aside ([`Ssa::incoming`]) and only written onto
//! the terminators' `BlockCall::args` at the end ([`Translator::finish_ssa`]),
//! after trivial parameters — those whose incoming values are all one value
//! or the parameter itself — have been removed. OpPhi instructions become
//! block parameters too, and go through the same end.
//!
//! A removed parameter stays in `Shader::values` (an arena cannot shrink),
//! used nowhere and listed in no block.

use super::Translator;
use super::operands::{Operands, malformed, result_id, result_type};
use crate::FrontendError;
use crate::ir::{Block, Op, TypeId, Value, ValueDef};
use cranelift_entity::{PrimaryMap, entity_impl};
use rspirv::dr::Instruction;
use rustc_hash::{FxHashMap, FxHashSet};

/// A promoted variable.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(super) struct Var(u32);
entity_impl!(Var, "var");

struct VarData {
    ty: TypeId,
    spirv_id: u32,
    /// What a load reads before any store: the initializer, or an `Undef`
    /// emitted in the prologue on first need.
    initial: Option<Value>,
}

#[derive(Default)]
pub(super) struct Ssa {
    vars: PrimaryMap<Var, VarData>,
    by_spirv_id: FxHashMap<u32, Var>,
    current_def: FxHashMap<(Var, Block), Value>,
    sealed: FxHashSet<Block>,
    filled: FxHashSet<Block>,
    /// Parameters of unsealed blocks, completed when the block is sealed.
    incomplete: FxHashMap<Block, Vec<(Var, Value)>>,
    /// For each block parameter, the value each predecessor passes to it.
    incoming: FxHashMap<Value, Vec<(Block, Value)>>,
    /// OpPhi parameters with their instruction: their operands may name
    /// values defined later, so they are resolved at the end.
    phis: Vec<(Value, Instruction)>,
}

impl Translator<'_> {
    /// Declares the promoted variable of the OpVariable `spirv_id`.
    pub(super) fn declare_var(&mut self, spirv_id: u32, ty: TypeId, initializer: Option<Value>) {
        let var = self.ssa.vars.push(VarData {
            ty,
            spirv_id,
            initial: initializer,
        });
        self.ssa.by_spirv_id.insert(spirv_id, var);
    }

    /// The promoted variable a pointer id stands for, if it is one.
    pub(super) fn promoted_var(&self, pointer: u32) -> Option<Var> {
        self.ssa.by_spirv_id.get(&pointer).copied()
    }

    /// Checks that `inst` loads or stores a value of the variable's type.
    pub(super) fn check_var_type(
        &self,
        inst: &Instruction,
        var: Var,
        ty: TypeId,
    ) -> Result<(), FrontendError> {
        let var_ty = self.ssa.vars[var].ty;
        if ty != var_ty {
            return Err(malformed(
                inst,
                format!(
                    "accesses a variable of type {} as {}",
                    self.shader.type_name(var_ty),
                    self.shader.type_name(ty)
                ),
            ));
        }
        Ok(())
    }

    pub(super) fn write_var(&mut self, var: Var, block: Block, value: Value) {
        self.ssa.current_def.insert((var, block), value);
    }

    pub(super) fn read_var(&mut self, var: Var, block: Block) -> Value {
        match self.ssa.current_def.get(&(var, block)) {
            Some(&v) => v,
            None => self.read_var_recursive(var, block),
        }
    }

    /// Walks up single-predecessor chains in a loop rather than by
    /// recursion: a long chain (adversarial, or unrolled code) would
    /// otherwise recurse once per block and overflow the stack. Recursion
    /// remains only through blocks with several predecessors, whose
    /// number the CFG bounds ([`super::cfg::MAX_BLOCKS`]).
    fn read_var_recursive(&mut self, var: Var, block: Block) -> Value {
        let mut chain = Vec::new();
        let mut b = block;
        let value = loop {
            let preds = self.cfg.preds(b).to_vec();
            if preds.is_empty() || !self.cfg.is_reachable(b) {
                // The entry block, or dead code, where any value will do.
                // (Only reachable blocks are walked, so a cycle of
                // single-predecessor dead blocks cannot loop forever.)
                let v = self.initial_value(var);
                self.write_var(var, b, v);
                break v;
            } else if !self.ssa.sealed.contains(&b) {
                let param = self.shader.add_block_param(b, self.ssa.vars[var].ty);
                self.ssa.incomplete.entry(b).or_default().push((var, param));
                self.write_var(var, b, param);
                break param;
            } else if let [pred] = preds[..] {
                chain.push(b);
                b = pred;
                if let Some(&v) = self.ssa.current_def.get(&(var, b)) {
                    break v;
                }
            } else {
                let param = self.shader.add_block_param(b, self.ssa.vars[var].ty);
                // Written before the operands are read, so that a read
                // around a loop finds the parameter and stops.
                self.write_var(var, b, param);
                self.add_param_operands(var, param, b);
                break param;
            }
        };
        for c in chain {
            self.write_var(var, c, value);
        }
        value
    }

    fn add_param_operands(&mut self, var: Var, param: Value, block: Block) {
        for pred in self.cfg.preds(block).to_vec() {
            let value = self.read_var(var, pred);
            self.ssa
                .incoming
                .entry(param)
                .or_default()
                .push((pred, value));
        }
    }

    fn initial_value(&mut self, var: Var) -> Value {
        if let Some(v) = self.ssa.vars[var].initial {
            return v;
        }
        let VarData { ty, spirv_id, .. } = self.ssa.vars[var];
        let undef = self.emit_in_prologue(Op::Undef, ty, Some(spirv_id));
        self.ssa.vars[var].initial = Some(undef);
        undef
    }

    fn seal(&mut self, block: Block) {
        for (var, param) in self.ssa.incomplete.remove(&block).unwrap_or_default() {
            self.add_param_operands(var, param, block);
        }
        self.ssa.sealed.insert(block);
    }

    fn try_seal(&mut self, block: Block) {
        if !self.ssa.sealed.contains(&block)
            && self
                .cfg
                .preds(block)
                .iter()
                .all(|p| self.ssa.filled.contains(p))
        {
            self.seal(block);
        }
    }

    /// Called before the instructions of `block` are translated.
    pub(super) fn begin_block(&mut self, block: Block) {
        self.try_seal(block);
    }

    /// Called after the instructions of `block` are translated.
    pub(super) fn end_block(&mut self, block: Block) {
        self.ssa.filled.insert(block);
        for succ in self.cfg.succs(block).to_vec() {
            self.try_seal(succ);
        }
    }

    /// Makes the OpPhi `inst` a parameter of `block`.
    pub(super) fn phi(&mut self, block: Block, inst: &Instruction) -> Result<(), FrontendError> {
        let id = result_id(inst)?;
        let ty = self.ty(inst, result_type(inst)?)?;
        let param = self.shader.add_block_param(block, ty);
        self.define(inst, id, param)?;
        self.ssa.phis.push((param, inst.clone()));
        Ok(())
    }

    /// Completes SSA construction once every block is translated: resolves
    /// OpPhi operands, removes trivial parameters and writes the incoming
    /// values onto the terminators as block arguments.
    pub(super) fn finish_ssa(&mut self) -> Result<(), FrontendError> {
        for block in self.shader.layout.clone() {
            if !self.ssa.sealed.contains(&block) {
                self.seal(block);
            }
        }
        for index in 0..self.ssa.phis.len() {
            let (param, inst) = self.ssa.phis[index].clone();
            let ids = Operands::new(&inst).rest_ids("value or parent block")?;
            if !ids.len().is_multiple_of(2) {
                return Err(malformed(
                    &inst,
                    "the operands are not (value, parent block) pairs",
                ));
            }
            let mut incoming = Vec::with_capacity(ids.len() / 2);
            for pair in ids.chunks_exact(2) {
                let value = self.value(&inst, pair[0])?;
                if self.shader.values[value].ty != self.shader.values[param].ty {
                    return Err(malformed(
                        &inst,
                        format!("%{} has another type than the result", pair[0]),
                    ));
                }
                incoming.push((self.cfg.block(&inst, pair[1])?, value));
            }
            let ValueDef::Param(block, _) = self.shader.values[param].def else {
                unreachable!("OpPhi results are block parameters");
            };
            for &pred in self.cfg.preds(block) {
                if !incoming.iter().any(|&(b, _)| b == pred) {
                    let label = self.shader.blocks[pred].spirv_label.unwrap_or_default();
                    return Err(malformed(
                        &inst,
                        format!("no incoming value for predecessor %{label}"),
                    ));
                }
            }
            self.ssa.incoming.insert(param, incoming);
        }
        let aliases = self.remove_trivial_params();
        self.write_block_args(&aliases)?;
        let resolve = |v: Value| resolve(&aliases, v);
        for &block in &self.shader.layout {
            for &inst in &self.shader.blocks[block].insts {
                self.shader.insts[inst]
                    .op
                    .for_each_arg_mut(|v| *v = resolve(*v));
            }
        }
        Ok(())
    }

    /// Removes parameters whose incoming values are all one value (or the
    /// parameter itself) until none is left, and returns what each removed
    /// parameter stands for.
    fn remove_trivial_params(&mut self) -> FxHashMap<Value, Value> {
        let mut aliases = FxHashMap::default();
        loop {
            let mut changed = false;
            for &block in &self.shader.layout {
                for &param in &self.shader.blocks[block].params {
                    if aliases.contains_key(&param) {
                        continue;
                    }
                    let incoming = self.ssa.incoming.get(&param).map_or(&[][..], Vec::as_slice);
                    if let Some(same) = trivial_value(&aliases, param, incoming) {
                        aliases.insert(param, same);
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        for block in self.shader.layout.clone() {
            let params = &mut self.shader.blocks[block].params;
            params.retain(|p| !aliases.contains_key(p));
            for (index, &param) in (0u32..).zip(params.iter()) {
                self.shader.values[param].def = ValueDef::Param(block, index);
            }
        }
        aliases
    }

    /// Fills every terminator's block arguments from the incoming values.
    fn write_block_args(&mut self, aliases: &FxHashMap<Value, Value>) -> Result<(), FrontendError> {
        for block in self.shader.layout.clone() {
            let Some(&last) = self.shader.blocks[block].insts.last() else {
                continue;
            };
            let mut op = std::mem::replace(&mut self.shader.insts[last].op, Op::Unreachable);
            for call in op.block_calls_mut() {
                call.args = self.shader.blocks[call.block]
                    .params
                    .iter()
                    .map(|&param| self.incoming_value(aliases, param, block))
                    .collect::<Result<_, _>>()?;
            }
            self.shader.insts[last].op = op;
        }
        Ok(())
    }

    /// The value `pred` passes to `param`.
    fn incoming_value(
        &self,
        aliases: &FxHashMap<Value, Value>,
        param: Value,
        pred: Block,
    ) -> Result<Value, FrontendError> {
        let found = self
            .ssa
            .incoming
            .get(&param)
            .and_then(|inc| inc.iter().find(|(b, _)| *b == pred));
        if let Some(&(_, value)) = found {
            return Ok(resolve(aliases, value));
        }
        // Every parameter gets a value from every predecessor: from
        // add_param_operands, or checked for OpPhi in finish_ssa.
        Err(FrontendError::InvalidIr {
            block: pred.to_string(),
            inst: None,
            what: format!("no argument for parameter {param}"),
        })
    }
}

/// `v`, or what it stands for if it is a removed parameter.
fn resolve(aliases: &FxHashMap<Value, Value>, mut v: Value) -> Value {
    while let Some(&next) = aliases.get(&v) {
        v = next;
    }
    v
}

/// The one value a parameter always receives (apart from itself), if so.
fn trivial_value(
    aliases: &FxHashMap<Value, Value>,
    param: Value,
    incoming: &[(Block, Value)],
) -> Option<Value> {
    let mut same = None;
    for &(_, v) in incoming {
        let v = resolve(aliases, v);
        if v == param || Some(v) == same {
            continue;
        }
        if same.is_some() {
            return None;
        }
        same = Some(v);
    }
    same
}
