//! The entry point's instructions → IR instructions, block by block in
//! SPIR-V order (which puts every definition before its uses, OpPhi
//! operands aside).
//!
//! Each instruction records a SPIR-V id for messages: its result id; for
//! result-less ones the first id operand (a store's pointer, a branch's
//! condition or target, ...), or the block's label when there is none.

use super::Translator;
use super::arith;
use super::atomics::atomic_op;
use super::fuse_copy::use_counts;
use super::memory::check_memory_operands;
use super::operands::{Operands, malformed, opcode_name, result_id, result_type, unsupported};
use super::promote::promotable_variables;
use super::subgroup::subgroup_op;
use crate::FrontendError;
use crate::ir::Scalar;
use crate::ir::{BinaryOp, Block, BlockCall, Merge, Op, StorageClass, Type, TypeId, Value};
use rspirv::dr::{self, Instruction, Operand};
use rustc_hash::{FxHashMap, FxHashSet};

impl Translator<'_> {
    pub(super) fn translate_function(
        &mut self,
        function: &dr::Function,
    ) -> Result<(), FrontendError> {
        let promotable = promotable_variables(function);
        // For fusing large array copies (fuse_copy.rs).
        let uses = use_counts(function);
        for (index, spv_block) in function.blocks.iter().enumerate() {
            let block = self.shader.layout[index];
            self.begin_block(block);
            self.translate_block(block, spv_block, index == 0, &promotable, &uses)?;
            self.end_block(block);
        }
        Ok(())
    }

    fn translate_block(
        &mut self,
        block: Block,
        spv_block: &dr::Block,
        first: bool,
        promotable: &FxHashSet<u32>,
        uses: &FxHashMap<u32, u32>,
    ) -> Result<(), FrontendError> {
        let mut phis_allowed = true;
        let all = &spv_block.instructions;
        let mut at = 0;
        while let Some(inst) = all.get(at) {
            at += 1;
            match inst.class.opcode {
                spirv::Op::Phi if !phis_allowed => {
                    return Err(malformed(
                        inst,
                        "OpPhi must come before the other instructions of its block",
                    ));
                }
                spirv::Op::Phi if first => {
                    return Err(malformed(
                        inst,
                        "the first block has no predecessors to choose from",
                    ));
                }
                spirv::Op::Phi => self.phi(block, inst)?,
                spirv::Op::Line | spirv::Op::NoLine => {}
                spirv::Op::Variable if !first => {
                    return Err(malformed(
                        inst,
                        "a function variable must be in the function's first block",
                    ));
                }
                spirv::Op::Variable => {
                    phis_allowed = false;
                    self.local_variable(inst, promotable)?;
                }
                spirv::Op::Load if let Some(n) = self.fuse_copy(block, &all[at - 1..], uses) => {
                    // The instructions after the load that the copy took.
                    phis_allowed = false;
                    at += n;
                }
                _ => {
                    phis_allowed = false;
                    self.instruction(block, inst)?;
                }
            }
        }
        Ok(())
    }

    /// A function-local variable: promoted to SSA values when it can be,
    /// else kept in memory as a global of class Function.
    fn local_variable(
        &mut self,
        inst: &Instruction,
        promotable: &FxHashSet<u32>,
    ) -> Result<(), FrontendError> {
        let id = result_id(inst)?;
        if promotable.contains(&id) {
            let (_, ty) = self.variable_type(inst)?;
            let mut ops = Operands::new(inst);
            ops.any("storage class")?;
            let initializer = match ops.optional_id() {
                Some(init) => Some(self.value(inst, init)?),
                None => None,
            };
            self.declare_var(id, ty, initializer);
        } else {
            let gv = self.local_global(inst)?;
            let addr = self.var_addr(gv);
            self.define(inst, id, addr)?;
        }
        Ok(())
    }

    pub(super) fn instruction(
        &mut self,
        block: Block,
        inst: &Instruction,
    ) -> Result<(), FrontendError> {
        use spirv::Op as O;
        let mut ops = Operands::new(inst);
        let opcode = inst.class.opcode;
        match opcode {
            O::Nop => {}
            O::Load => {
                let ptr = ops.id("pointer")?;
                check_memory_operands(inst, &mut ops)?;
                match self.promoted_var(ptr) {
                    Some(var) => {
                        let ty = self.ty(inst, result_type(inst)?)?;
                        self.check_var_type(inst, var, ty)?;
                        let value = self.read_var(var, block);
                        self.define(inst, result_id(inst)?, value)?;
                    }
                    None => {
                        let ptr = self.value(inst, ptr)?;
                        self.emit(block, inst, Op::Load { ptr })?;
                    }
                }
            }
            O::Store => {
                let ptr_id = ops.id("pointer")?;
                let value = ops.id("object")?;
                check_memory_operands(inst, &mut ops)?;
                let value = self.value(inst, value)?;
                match self.promoted_var(ptr_id) {
                    Some(var) => {
                        self.check_var_type(inst, var, self.shader.values[value].ty)?;
                        self.write_var(var, block, value);
                    }
                    None => {
                        let ptr = self.value(inst, ptr_id)?;
                        self.effect(block, Op::Store { ptr, value }, Some(ptr_id));
                    }
                }
            }
            O::AccessChain | O::InBoundsAccessChain => {
                let base = self.operand(inst, &mut ops, "base")?;
                let indices = self.rest_values(inst, &mut ops, "index")?;
                let ty = self.chain_type(inst, base)?;
                self.emit_typed(block, inst, ty, Op::AccessChain { base, indices })?;
            }
            O::CompositeConstruct => {
                let values = self.rest_values(inst, &mut ops, "constituent")?;
                self.emit_composite(block, inst, Op::CompositeConstruct(values))?;
            }
            O::CompositeExtract => {
                let composite = self.operand(inst, &mut ops, "composite")?;
                let indices = ops.rest_literals("index")?;
                self.emit_composite(block, inst, Op::CompositeExtract { composite, indices })?;
            }
            O::CompositeInsert => {
                let object = self.operand(inst, &mut ops, "object")?;
                let composite = self.operand(inst, &mut ops, "composite")?;
                let indices = ops.rest_literals("index")?;
                self.emit_composite(
                    block,
                    inst,
                    Op::CompositeInsert {
                        object,
                        composite,
                        indices,
                    },
                )?;
            }
            O::VectorShuffle => {
                let a = self.operand(inst, &mut ops, "vector 1")?;
                let b = self.operand(inst, &mut ops, "vector 2")?;
                let components = ops.rest_literals("component")?;
                self.emit_composite(block, inst, Op::VectorShuffle { a, b, components })?;
            }
            // A copy is the same value under a new id.
            O::CopyObject => {
                let value = self.operand(inst, &mut ops, "operand")?;
                self.define(inst, result_id(inst)?, value)?;
            }
            O::Select => {
                let cond = self.operand(inst, &mut ops, "condition")?;
                let if_true = self.operand(inst, &mut ops, "object 1")?;
                let if_false = self.operand(inst, &mut ops, "object 2")?;
                self.emit(
                    block,
                    inst,
                    Op::Select {
                        cond,
                        if_true,
                        if_false,
                    },
                )?;
            }
            O::Undef => self.emit(block, inst, Op::Undef)?,
            O::VectorTimesScalar => self.vector_times_scalar(block, inst)?,
            O::ControlBarrier | O::MemoryBarrier => self.barrier(block, inst)?,
            O::ExtInst => self.ext_inst(block, inst)?,
            O::SetMeshOutputsEXT => {
                let vertex_id = ops.id("vertex count")?;
                let vertex_count = self.value(inst, vertex_id)?;
                let primitive_count = self.operand(inst, &mut ops, "primitive count")?;
                self.effect(
                    block,
                    Op::SetMeshOutputs {
                        vertex_count,
                        primitive_count,
                    },
                    Some(vertex_id),
                );
            }
            O::SelectionMerge => {
                let merge = self.cfg.block(inst, ops.id("merge block")?)?;
                self.shader.blocks[block].merge = Some(Merge::Selection { merge });
            }
            O::LoopMerge => {
                let merge = self.cfg.block(inst, ops.id("merge block")?)?;
                let continue_target = self.cfg.block(inst, ops.id("continue target")?)?;
                self.shader.blocks[block].merge = Some(Merge::Loop {
                    merge,
                    continue_target,
                });
            }
            O::Branch => {
                let target = ops.id("target label")?;
                let call = self.block_call(inst, target)?;
                self.effect(block, Op::Jump(call), Some(target));
            }
            O::BranchConditional => {
                let cond_id = ops.id("condition")?;
                let cond = self.value(inst, cond_id)?;
                let then_dest = self.block_call(inst, ops.id("true label")?)?;
                let else_dest = self.block_call(inst, ops.id("false label")?)?;
                self.effect(
                    block,
                    Op::Branch {
                        cond,
                        then_dest,
                        else_dest,
                    },
                    Some(cond_id),
                );
            }
            O::Return => {
                let label = self.shader.blocks[block].spirv_label;
                self.effect(block, Op::Return, label);
            }
            O::Unreachable => {
                let label = self.shader.blocks[block].spirv_label;
                self.effect(block, Op::Unreachable, label);
            }
            // The optional payload operand can only be the entry point's one
            // TaskPayloadWorkgroupEXT variable, which is among the globals.
            O::EmitMeshTasksEXT => {
                let x_id = ops.id("group count x")?;
                let x = self.value(inst, x_id)?;
                let y = self.operand(inst, &mut ops, "group count y")?;
                let z = self.operand(inst, &mut ops, "group count z")?;
                if let Some(payload) = ops.optional_id() {
                    self.global(inst, payload)?;
                }
                self.effect(block, Op::EmitMeshTasks { x, y, z }, Some(x_id));
            }
            O::Switch => self.switch(block, inst)?,
            O::Kill | O::TerminateInvocation | O::DemoteToHelperInvocation => {
                return Err(malformed(
                    inst,
                    "only fragment shaders may end an invocation",
                ));
            }
            // The inliner replaces every call; one left over is a bug.
            O::FunctionCall => return Err(malformed(inst, "a call survived inlining")),
            O::PtrAccessChain | O::InBoundsPtrAccessChain => self.ptr_access_chain(block, inst)?,
            O::CopyMemory | O::CopyMemorySized => self.copy_memory(block, inst)?,
            O::PtrEqual | O::PtrNotEqual | O::PtrDiff => self.pointer_compare(block, inst)?,
            O::ArrayLength => self.array_length(block, inst)?,
            O::VectorExtractDynamic => {
                let vector = self.operand(inst, &mut ops, "vector")?;
                let index = self.operand(inst, &mut ops, "index")?;
                self.emit(block, inst, Op::ExtractDynamic { vector, index })?;
            }
            O::VectorInsertDynamic => {
                let vector = self.operand(inst, &mut ops, "vector")?;
                let component = self.operand(inst, &mut ops, "component")?;
                let index = self.operand(inst, &mut ops, "index")?;
                self.emit(
                    block,
                    inst,
                    Op::InsertDynamic {
                        vector,
                        component,
                        index,
                    },
                )?;
            }
            O::CopyLogical => {
                let value = self.operand(inst, &mut ops, "operand")?;
                self.emit(block, inst, Op::CopyLogical(value))?;
            }
            _ if super::images::is_image_op(opcode) => self.image_instruction(block, inst)?,
            O::ReturnValue => {
                return Err(malformed(inst, "an entry point function returns nothing"));
            }
            _ => {
                if let Some(op) = arith::unary(opcode) {
                    let a = self.operand(inst, &mut ops, "operand")?;
                    self.emit(block, inst, Op::Unary(op, a))?;
                } else if let Some(op) = arith::binary(opcode) {
                    let a = self.operand(inst, &mut ops, "operand 1")?;
                    let b = self.operand(inst, &mut ops, "operand 2")?;
                    self.emit(block, inst, Op::Binary(op, a, b))?;
                } else if let Some(op) = arith::compare(opcode) {
                    let a = self.operand(inst, &mut ops, "operand 1")?;
                    let b = self.operand(inst, &mut ops, "operand 2")?;
                    self.emit(block, inst, Op::Cmp(op, a, b))?;
                } else if let Some(op) = arith::convert(opcode) {
                    let a = self.operand(inst, &mut ops, "operand")?;
                    self.emit(block, inst, Op::Convert(op, a))?;
                } else if let Some(op) = arith::math(opcode) {
                    let args = self.rest_values(inst, &mut ops, "operand")?;
                    self.math(block, inst, op, args)?;
                } else if let Some(op) = atomic_op(opcode) {
                    self.atomic(block, inst, op)?;
                } else if let Some(op) = subgroup_op(opcode) {
                    self.subgroup(block, inst, op)?;
                } else {
                    return Err(unsupported(inst, why_unsupported(inst)));
                }
            }
        }
        Ok(())
    }

    /// Appends `op`, the translation of `inst`, and defines `inst`'s result.
    pub(super) fn emit(
        &mut self,
        block: Block,
        inst: &Instruction,
        op: Op,
    ) -> Result<(), FrontendError> {
        let id = result_id(inst)?;
        let ty = self.ty(inst, result_type(inst)?)?;
        let (_, value) = self.shader.append(block, op, Some(ty), Some(id));
        let value = value.expect("append gives a result value when given a result type");
        self.define(inst, id, value)
    }

    /// [`Self::emit`] of a composite op, its shape checked first
    /// (composites.rs).
    fn emit_composite(
        &mut self,
        block: Block,
        inst: &Instruction,
        op: Op,
    ) -> Result<(), FrontendError> {
        let ty = self.ty(inst, result_type(inst)?)?;
        self.check_composite(inst, &op, ty)?;
        self.emit(block, inst, op)
    }

    /// Appends `op` with result type `ty` (not necessarily the SPIR-V
    /// result type's translation).
    pub(super) fn emit_typed(
        &mut self,
        block: Block,
        inst: &Instruction,
        ty: TypeId,
        op: Op,
    ) -> Result<(), FrontendError> {
        let id = result_id(inst)?;
        let (_, value) = self.shader.append(block, op, Some(ty), Some(id));
        let value = value.expect("append gives a result value when given a result type");
        self.define(inst, id, value)
    }

    /// The result type of an access chain into `base`: its SPIR-V type,
    /// except that a chain into a BufferBlock storage buffer (SPIR-V
    /// 1.0-1.2) yields a storage-buffer pointer where SPIR-V says Uniform.
    pub(super) fn chain_type(
        &mut self,
        inst: &Instruction,
        base: Value,
    ) -> Result<TypeId, FrontendError> {
        let ty = self.ty(inst, result_type(inst)?)?;
        let base_class = match self.shader.value_type(base) {
            Type::Pointer { class, .. } => Some(*class),
            _ => None,
        };
        Ok(match self.shader.types[ty] {
            Type::Pointer {
                class: StorageClass::Uniform,
                pointee,
                array_stride,
            } if base_class == Some(StorageClass::StorageBuffer) => self.intern(Type::Pointer {
                class: StorageClass::StorageBuffer,
                pointee,
                array_stride,
            }),
            _ => ty,
        })
    }

    /// Appends a result-less `op`.
    pub(super) fn effect(&mut self, block: Block, op: Op, spirv_id: Option<u32>) {
        self.shader.append(block, op, None, spirv_id);
    }

    pub(super) fn operand(
        &mut self,
        inst: &Instruction,
        ops: &mut Operands,
        what: &str,
    ) -> Result<Value, FrontendError> {
        let id = ops.id(what)?;
        self.value(inst, id)
    }

    pub(super) fn rest_values(
        &mut self,
        inst: &Instruction,
        ops: &mut Operands,
        what: &str,
    ) -> Result<Vec<Value>, FrontendError> {
        ops.rest_ids(what)?
            .into_iter()
            .map(|id| self.value(inst, id))
            .collect()
    }

    /// A jump to `label`; its arguments are filled in once SSA construction
    /// knows the target's parameters.
    pub(super) fn block_call(
        &self,
        inst: &Instruction,
        label: u32,
    ) -> Result<BlockCall, FrontendError> {
        Ok(BlockCall {
            block: self.cfg.block(inst, label)?,
            args: Vec::new(),
        })
    }

    /// OpSwitch: the literals are read at the selector's width.
    fn switch(&mut self, block: Block, inst: &Instruction) -> Result<(), FrontendError> {
        let mut ops = Operands::new(inst);
        let selector_id = ops.id("selector")?;
        let selector = self.value(inst, selector_id)?;
        let bits = match self.shader.value_type(selector) {
            Type::Scalar(Scalar::Int { bits, .. }) => *bits,
            _ => return Err(malformed(inst, "the selector is not an integer scalar")),
        };
        let default = self.block_call(inst, ops.id("default")?)?;
        let mut cases: Vec<(u64, BlockCall)> = Vec::new();
        while ops.remaining() > 0 {
            let literal = match ops.any("case literal")? {
                Operand::LiteralBit32(v) => u64::from(*v),
                Operand::LiteralBit64(v) => *v,
                other => return Err(ops.wrong_kind("case literal", other)),
            };
            let literal = if bits >= 64 {
                literal
            } else {
                literal & ((1u64 << bits) - 1)
            };
            if cases.iter().any(|(l, _)| *l == literal) {
                return Err(malformed(inst, format!("case {literal} appears twice")));
            }
            cases.push((literal, self.block_call(inst, ops.id("case target")?)?));
        }
        self.effect(
            block,
            Op::Switch {
                selector,
                default,
                cases,
            },
            Some(selector_id),
        );
        Ok(())
    }

    /// OpVectorTimesScalar: the scalar is splatted into a vector, then
    /// multiplied component-wise.
    fn vector_times_scalar(
        &mut self,
        block: Block,
        inst: &Instruction,
    ) -> Result<(), FrontendError> {
        let mut ops = Operands::new(inst);
        let vector = self.operand(inst, &mut ops, "vector")?;
        let scalar = self.operand(inst, &mut ops, "scalar")?;
        let ty = self.ty(inst, result_type(inst)?)?;
        let Type::Vector { len, .. } = self.shader.types[ty] else {
            return Err(malformed(inst, "the result type is not a vector"));
        };
        let splat = Op::CompositeConstruct(vec![scalar; usize::from(len)]);
        let (_, splat) = self.shader.append(block, splat, Some(ty), inst.result_id);
        let splat = splat.expect("append gives a result value when given a result type");
        self.emit(block, inst, Op::Binary(BinaryOp::FMul, vector, splat))
    }
}

/// Why an instruction without a translation has none, for the message.
fn why_unsupported(inst: &Instruction) -> String {
    let name = opcode_name(inst);
    let family = |prefixes: &[&str]| prefixes.iter().any(|p| name.starts_with(p));
    if family(&[
        "OpImageSampleImplicit",
        "OpImageSampleDrefImplicit",
        "OpImageSampleProj",
    ]) {
        "implicit-LOD and projective sampling need derivatives, which only fragment shaders have"
            .into()
    } else if family(&["OpImageSparse"]) {
        "sparse image accesses are not supported".into()
    } else if family(&["OpImage", "OpSampled", "OpSampler"]) {
        "this image instruction is not supported".into()
    } else if family(&["OpDPd", "OpFwidth"]) {
        "derivatives exist only in fragment shaders".into()
    } else if family(&["OpSubgroup", "OpGroup"]) {
        "only the GroupNonUniform subgroup operations are supported".into()
    } else {
        "this instruction is not translated yet".into()
    }
}
