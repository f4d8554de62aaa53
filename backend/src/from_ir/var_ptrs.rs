//! Variable pointers (SPIR-V's VariablePointersStorageBuffer and
//! VariablePointers): storage-buffer pointers chosen at run time by OpSelect
//! or OpPhi (a block parameter here), stepped by OpPtrAccessChain, or
//! derived from such a pointer by access chains. Such a pointer may point
//! into any buffer (another binding, set or descriptor-array element), so
//! it cannot resolve to one variable's place as other pointers do
//! (`places.rs`).
//!
//! Representation (docs/ABI.md, "Variable pointers"): a 64-bit global
//! address, the same as a buffer device address (`phys_ptr.rs`), as NVK
//! lowers storage-buffer pointers to global addresses. Before selection,
//! [`lower`] rewrites a copy of the IR: every variable pointer gets the
//! PhysicalStorageBuffer class (same pointee and ArrayStride), and every
//! pointer into a variable that flows into one (an OpSelect or OpPhi
//! operand, the base of an OpPtrAccessChain) is first converted to its
//! address by a `Convert(Bitcast)`, which [`Isel::pointer_address`]
//! computes as a load would address it: the buffer's base (root table or
//! descriptor) plus the access chain's byte offset. Loads, stores, atomics
//! and access chains through the result are then those of buffer device
//! addresses. OpPtrEqual/OpPtrNotEqual/OpPtrDiff come from the frontend as
//! `Convert(PtrToU)` of each pointer, also computed here.
//!
//! Refused, naming the instruction: variable pointers to Workgroup memory
//! (VariablePointers allows them; shared memory has no global address),
//! OpArrayLength and OpCopyMemory through a variable pointer (an address
//! carries no buffer size, and copies resolve places).

use super::memory::Target;
use super::places::resolve;
use super::{Comp, Isel};
use crate::error::{BackendError, spirv_opcode};
use rustc_hash::FxHashSet;
use spvsass_frontend::ir::{
    BinaryOp, Block, ConvOp, InstData, Op, Shader, StorageClass, Type, TypeId, Value, ValueData,
    ValueDef,
};

/// Whether `ty` is a pointer other than a buffer device address: one that
/// resolves to a place.
fn logical_pointer(sh: &Shader, ty: TypeId) -> bool {
    matches!(sh.types[ty], Type::Pointer { class, .. } if class != StorageClass::PhysicalStorageBuffer)
}

/// `ty` as a buffer device address to the same pointee.
fn physical(sh: &mut Shader, ty: TypeId) -> TypeId {
    match sh.types[ty] {
        Type::Pointer {
            pointee,
            array_stride,
            ..
        } => sh.intern_type(Type::Pointer {
            class: StorageClass::PhysicalStorageBuffer,
            pointee,
            array_stride,
        }),
        _ => ty,
    }
}

/// The variable pointers of `sh`: pointer-typed block parameters, selects,
/// undefined values and loads (from a variable holding a pointer),
/// OpPtrAccessChain results, and access chains into any of these, to a fixed point (a chain may precede its base in layout
/// order only through a loop, which the iteration covers).
fn variable_pointers(sh: &Shader) -> FxHashSet<Value> {
    let mut var = FxHashSet::default();
    for &b in &sh.layout {
        for &p in &sh.blocks[b].params {
            if logical_pointer(sh, sh.values[p].ty) {
                var.insert(p);
            }
        }
    }
    loop {
        let before = var.len();
        for &b in &sh.layout {
            for &i in &sh.blocks[b].insts {
                let data = &sh.insts[i];
                let Some(r) = data.result else { continue };
                if !logical_pointer(sh, sh.values[r].ty) {
                    continue;
                }
                let is_var = match &data.op {
                    Op::Select { .. }
                    | Op::Undef
                    | Op::PtrAccessChain { .. }
                    // A pointer kept in a Function or Private variable.
                    | Op::Load { .. } => true,
                    Op::AccessChain { base, .. } => var.contains(base),
                    _ => false,
                };
                if is_var {
                    var.insert(r);
                }
            }
        }
        if var.len() == before {
            return var;
        }
    }
}

/// The SPIR-V instruction that made `v`, for messages: a block parameter
/// is an OpPhi, named by its block's label.
fn made_by(sh: &Shader, v: Value) -> (String, Option<u32>) {
    match sh.values[v].def {
        ValueDef::Inst(i) => (spirv_opcode(&sh.insts[i].op), sh.insts[i].spirv_id),
        ValueDef::Param(b, _) => ("OpPhi".into(), sh.blocks[b].spirv_label),
    }
}

/// Refuses what a 64-bit address cannot stand for.
fn check(sh: &Shader, var: &FxHashSet<Value>) -> Result<(), BackendError> {
    for &v in var {
        let Type::Pointer { class, .. } = *sh.value_type(v) else {
            continue;
        };
        // An undefined pointer is refused, if at all, where a defined one
        // of its kind meets it.
        let undef = sh.def_inst(v).is_some_and(|d| d.op == Op::Undef);
        if class != StorageClass::StorageBuffer && !undef {
            let (opcode, spirv_id) = made_by(sh, v);
            return Err(BackendError::Unsupported {
                what: format!(
                    "a variable pointer to {class:?} memory (storage-buffer pointers only: \
                     they are global addresses)"
                ),
                opcode,
                spirv_id,
            });
        }
    }
    for &b in &sh.layout {
        for &i in &sh.blocks[b].insts {
            let data = &sh.insts[i];
            let what = match &data.op {
                Op::ArrayLength { ptr, .. } if var.contains(ptr) => {
                    "the length of a runtime array through a variable pointer \
                     (an address carries no buffer size)"
                }
                Op::CopyMemory { dst, src } if var.contains(dst) || var.contains(src) => {
                    "a copy through a variable pointer"
                }
                Op::Convert(ConvOp::PtrToU, a)
                    if logical_pointer(sh, sh.values[*a].ty)
                        && !matches!(
                            sh.value_type(*a),
                            Type::Pointer {
                                class: StorageClass::StorageBuffer,
                                ..
                            }
                        ) =>
                {
                    "the address of a pointer outside storage buffers"
                }
                _ => continue,
            };
            return Err(BackendError::Unsupported {
                what: what.into(),
                opcode: spirv_opcode(&data.op),
                spirv_id: data.spirv_id,
            });
        }
    }
    Ok(())
}

/// The operands of `op` that must be addresses: a variable select's
/// choices, the base of a variable access chain, an address conversion's
/// pointer, a stored pointer, and block arguments to variable parameters.
fn address_operands<'o>(
    op: &'o mut Op,
    result_var: bool,
    param_var: &dyn Fn(Block, usize) -> bool,
) -> Vec<&'o mut Value> {
    if op.is_terminator() {
        return op
            .block_calls_mut()
            .into_iter()
            .flat_map(|call| {
                let target = call.block;
                call.args
                    .iter_mut()
                    .enumerate()
                    .filter(move |(k, _)| param_var(target, *k))
                    .map(|(_, a)| a)
            })
            .collect();
    }
    match op {
        Op::Select {
            if_true, if_false, ..
        } if result_var => vec![if_true, if_false],
        Op::AccessChain { base, .. } | Op::PtrAccessChain { base, .. } if result_var => {
            vec![base]
        }
        Op::Convert(ConvOp::PtrToU, a) => vec![a],
        // Into a variable holding a pointer (retyped to hold an address).
        Op::Store { value, .. } => vec![value],
        _ => Vec::new(),
    }
}

/// `sh` with its variable pointers as 64-bit addresses (module docs), or
/// `None` when it has none and takes or stores no pointer's address.
pub fn lower(sh: &Shader) -> Result<Option<Shader>, BackendError> {
    let var = variable_pointers(sh);
    let takes_address = sh.insts.values().any(|d| match d.op {
        Op::Convert(ConvOp::PtrToU, a) | Op::Store { value: a, .. } => {
            logical_pointer(sh, sh.values[a].ty)
        }
        _ => false,
    });
    if var.is_empty() && !takes_address {
        return Ok(None);
    }
    check(sh, &var)?;
    let mut out = sh.clone();
    for &v in &var {
        out.values[v].ty = physical(&mut out, sh.values[v].ty);
    }
    // Function and Private variables holding a pointer hold its address:
    // the variables and every pointer to them are retyped.
    for g in sh.globals.keys() {
        if logical_pointer(sh, sh.globals[g].ty) {
            out.globals[g].ty = physical(&mut out, sh.globals[g].ty);
        }
    }
    for (v, data) in sh.values.iter() {
        if let Type::Pointer {
            class,
            pointee,
            array_stride,
        } = sh.types[data.ty]
            && logical_pointer(sh, pointee)
        {
            let pointee = physical(&mut out, pointee);
            out.values[v].ty = out.intern_type(Type::Pointer {
                class,
                pointee,
                array_stride,
            });
        }
    }
    let param_var =
        |b: Block, k: usize| sh.blocks[b].params.get(k).is_some_and(|p| var.contains(p));
    for &b in &sh.layout {
        let old = std::mem::take(&mut out.blocks[b].insts);
        let mut new = Vec::with_capacity(old.len());
        for i in old {
            let mut op = out.insts[i].op.clone();
            let result_var = out.insts[i].result.is_some_and(|r| var.contains(&r));
            let spirv_id = out.insts[i].spirv_id;
            for slot in address_operands(&mut op, result_var, &param_var) {
                let ty = out.values[*slot].ty;
                if !logical_pointer(&out, ty) {
                    continue;
                }
                let to = physical(&mut out, ty);
                let conv = out.insts.push(InstData {
                    op: Op::Convert(ConvOp::Bitcast, *slot),
                    result: None,
                    spirv_id,
                });
                let addr = out.values.push(ValueData {
                    ty: to,
                    def: ValueDef::Inst(conv),
                });
                out.insts[conv].result = Some(addr);
                new.push(conv);
                *slot = addr;
            }
            out.insts[i].op = op;
            new.push(i);
        }
        out.blocks[b].insts = new;
    }
    Ok(Some(out))
}

/// Whether `v` is a pointer into a variable (not an address).
pub(super) fn is_logical_pointer(sh: &Shader, v: Value) -> bool {
    logical_pointer(sh, sh.values[v].ty)
}

/// An error about the address of `ptr`, naming the SPIR-V instruction
/// that made the pointer (the conversion itself is no SPIR-V instruction).
fn operand_error(sh: &Shader, ptr: Value, what: impl Into<String>) -> BackendError {
    let (opcode, spirv_id) = made_by(sh, ptr);
    BackendError::Unsupported {
        what: what.into(),
        opcode,
        spirv_id,
    }
}

impl Isel<'_> {
    /// The 64-bit address (two components, low word first) of the
    /// storage-buffer location `ptr` designates: the buffer's base plus
    /// the access chain's dynamic and constant byte offsets, as a load
    /// through `ptr` would address it (`memory.rs`).
    pub(super) fn pointer_address(
        &mut self,
        ptr: Value,
        inst: &InstData,
    ) -> Result<Vec<Comp>, BackendError> {
        let place = resolve(self.sh, ptr, inst.spirv_id)?;
        let (target, ty, skip) = self.target(&place, inst)?;
        let Target::Global { buffer } = target else {
            let class = self.sh.globals[place.var].class;
            return Err(operand_error(
                self.sh,
                ptr,
                format!(
                    "the address of a pointer into {class:?} memory \
                     (variable pointers and pointer comparisons take storage buffers)"
                ),
            ));
        };
        let a = self.address(&place, (ty, skip), inst)?;
        if a.row_stride.is_some() {
            return Err(operand_error(
                self.sh,
                ptr,
                "the address of a column of a row-major matrix (its components are not contiguous)",
            ));
        }
        let base = self.buffer_address(buffer, a.dynamic, inst)?;
        let Some(crate::isa::Reg::Virt(pair)) = base.as_reg() else {
            return Err(BackendError::Invalid {
                what: "a buffer address that is not a register pair".into(),
                spirv_id: inst.spirv_id,
            });
        };
        let addr = [Comp::Reg(pair), Comp::Reg(pair + 1)];
        if a.konst == 0 {
            return Ok(addr.to_vec());
        }
        self.wide_binary(
            BinaryOp::IAdd,
            &addr,
            &[Comp::Const(a.konst), Comp::Const(0)],
            inst,
        )
    }
}
