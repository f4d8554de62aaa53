//! Large whole-array copies: glslang translates `b = a;` of arrays in
//! memory into an OpLoad of the whole array and an OpStore of it right
//! after. Taken literally that is one value of thousands of components,
//! every one live at once; when the loaded value is used by that store
//! only, the pair becomes one IR `CopyMemory`, which the backend copies
//! piece by piece, in a loop over the elements (ARCHITECTURE.md,
//! "Decisions"). Small copies keep their load and store.

use super::Translator;
use super::operands::result_id;
use crate::ir::{Op, StorageClass, Type, TypeId, Value, ValueDef};
use rspirv::dr::{self, Instruction, Operand};
use rustc_hash::FxHashMap;

/// Arrays of more scalars than this are fused (the backend's loop bound,
/// `from_ir/mem_copy.rs`, is the same size: below it a copy is unrolled
/// either way).
pub(super) const FUSE_WORDS: u64 = 64;

/// How many times each id is an operand in `function` (the load's result
/// must have exactly one use, the store).
pub(super) fn use_counts(function: &dr::Function) -> FxHashMap<u32, u32> {
    let mut uses = FxHashMap::default();
    for inst in function.blocks.iter().flat_map(|b| &b.instructions) {
        for op in &inst.operands {
            if let Operand::IdRef(id) = op {
                *uses.entry(*id).or_insert(0) += 1;
            }
        }
    }
    uses
}

/// The 32-bit scalars of `ty`, saturating; `None` for types with no size.
fn scalar_words(sh: &crate::ir::Shader, ty: TypeId) -> Option<u64> {
    Some(match &sh.types[ty] {
        Type::Scalar(s) => u64::from(s.size().div_ceil(4)),
        Type::Vector { len, scalar } => u64::from(*len) * u64::from(scalar.size().div_ceil(4)),
        Type::Matrix {
            column, columns, ..
        } => scalar_words(sh, *column)?.saturating_mul(u64::from(*columns)),
        Type::Array {
            elem, len: Some(n), ..
        } => scalar_words(sh, *elem)?.saturating_mul(u64::from(*n)),
        Type::Struct { members, .. } => members
            .iter()
            .try_fold(0u64, |s, m| Some(s.saturating_add(scalar_words(sh, m.ty)?)))?,
        _ => return None,
    })
}

/// Skips OpLine/OpNoLine (debug info between the instructions of a copy).
fn code(rest: &[Instruction]) -> impl Iterator<Item = (usize, &Instruction)> + Clone {
    rest.iter()
        .enumerate()
        .filter(|(_, i)| !matches!(i.class.opcode, spirv::Op::Line | spirv::Op::NoLine))
}

impl Translator<'_> {
    /// If `insts` (an OpLoad and what follows it in its block) starts with
    /// a large array copy (module docs), emits the copy and returns how
    /// many instructions after the load it took.
    ///
    /// The forms, the loaded value and every intermediate used once; `d`,
    /// an optional OpAccessChain right after the load, is the destination
    /// when the store's pointer is its result:
    /// - `v = OpLoad src; [d]; OpStore dst v` (one array type);
    /// - `v = OpLoad src; [d]; w = OpCopyLogical v; OpStore dst w` (arrays
    ///   whose strides differ, SPIR-V 1.4 and later);
    /// - `v = OpLoad src; e_i = OpCompositeExtract v i` for every element
    ///   in order; `c = OpCompositeConstruct e_0 ..; OpStore dst c`;
    /// - `v = OpLoad src; [d]`, then for every element `i` in order
    ///   `e = OpCompositeExtract v i; p = OpAccessChain dst i; OpStore p e`
    ///   (glslang's for SPIR-V 1.0).
    pub(super) fn fuse_copy(
        &mut self,
        block: crate::ir::Block,
        insts: &[Instruction],
        uses: &FxHashMap<u32, u32>,
    ) -> Option<usize> {
        let (load, rest) = insts.split_first()?;
        let used_once = |id: u32| uses.get(&id) == Some(&1);
        let loaded = result_id(load).ok()?;
        let [Operand::IdRef(src_id)] = load.operands.as_slice() else {
            return None;
        };
        let ty = self.ty(load, load.result_type?).ok()?;
        let n = match self.shader.types[ty] {
            Type::Array { len: Some(n), .. } => n,
            _ => return None,
        };
        if scalar_words(&self.shader, ty).is_none_or(|w| w <= FUSE_WORDS) {
            return None;
        }
        let mut next = code(rest).peekable();
        let prelude = next
            .next_if(|(_, i)| i.class.opcode == spirv::Op::AccessChain)
            .map(|(_, i)| i);
        let (_, mut inst) = next.next()?;
        let elementwise = inst.class.opcode == spirv::Op::CompositeExtract
            && next
                .peek()
                .is_some_and(|(_, i)| i.class.opcode == spirv::Op::AccessChain);
        if elementwise {
            return self.fuse_elementwise(block, (loaded, *src_id, ty, n), prelude, rest, uses);
        }
        let stored = match inst.class.opcode {
            spirv::Op::Store if used_once(loaded) => loaded,
            spirv::Op::CopyLogical if used_once(loaded) => {
                let copied = result_id(inst).ok()?;
                if inst.operands.as_slice() != [Operand::IdRef(loaded)] {
                    return None;
                }
                inst = next.next()?.1;
                copied
            }
            spirv::Op::CompositeExtract if uses.get(&loaded) == Some(&n) => {
                // At most one part per instruction left (n comes from the module).
                let mut parts = Vec::with_capacity((n as usize).min(rest.len()));
                for element in 0..n {
                    if element > 0 {
                        inst = next.next()?.1;
                    }
                    let part = result_id(inst).ok()?;
                    let expected = [Operand::IdRef(loaded), Operand::LiteralBit32(element)];
                    if inst.class.opcode != spirv::Op::CompositeExtract
                        || inst.operands.as_slice() != expected
                        || !used_once(part)
                    {
                        return None;
                    }
                    parts.push(Operand::IdRef(part));
                }
                inst = next.next()?.1;
                if inst.class.opcode != spirv::Op::CompositeConstruct || inst.operands != parts {
                    return None;
                }
                let built = result_id(inst).ok()?;
                inst = next.next()?.1;
                built
            }
            _ => return None,
        };
        let store = inst;
        let [Operand::IdRef(dst_id), Operand::IdRef(object)] = store.operands.as_slice() else {
            return None;
        };
        if store.class.opcode != spirv::Op::Store || *object != stored || !used_once(stored) {
            return None;
        }
        if prelude.is_some_and(|d| result_id(d).ok() != Some(*dst_id) || !used_once(*dst_id)) {
            return None;
        }
        let at = rest.iter().position(|i| std::ptr::eq(i, store))?;
        self.emit_fused(block, (*src_id, ty), *dst_id, prelude)?;
        Some(at + 1)
    }

    /// The elementwise form (`fuse_copy`), after the load and `prelude`.
    fn fuse_elementwise(
        &mut self,
        block: crate::ir::Block,
        (loaded, src_id, ty, n): (u32, u32, TypeId, u32),
        prelude: Option<&Instruction>,
        rest: &[Instruction],
        uses: &FxHashMap<u32, u32>,
    ) -> Option<usize> {
        if uses.get(&loaded) != Some(&n) {
            return None;
        }
        let used_once = |id: u32| uses.get(&id) == Some(&1);
        let mut next = code(rest);
        let mut dst_id = None;
        if let Some(d) = prelude {
            next.next();
            let d = result_id(d).ok()?;
            if uses.get(&d) != Some(&n) {
                return None;
            }
            dst_id = Some(d);
        }
        let mut last = 0;
        for element in 0..n {
            let (_, extract) = next.next()?;
            let (_, chain) = next.next()?;
            let (at, store) = next.next()?;
            let (part, pointer) = (result_id(extract).ok()?, result_id(chain).ok()?);
            let [Operand::IdRef(base), Operand::IdRef(index)] = chain.operands.as_slice() else {
                return None;
            };
            if extract.class.opcode != spirv::Op::CompositeExtract
                || extract.operands.as_slice()
                    != [Operand::IdRef(loaded), Operand::LiteralBit32(element)]
                || chain.class.opcode != spirv::Op::AccessChain
                || self.info.u32_constant(*index) != Some(element)
                || *dst_id.get_or_insert(*base) != *base
                || store.class.opcode != spirv::Op::Store
                || store.operands.as_slice() != [Operand::IdRef(pointer), Operand::IdRef(part)]
                || !used_once(part)
                || !used_once(pointer)
            {
                return None;
            }
            last = at;
        }
        self.emit_fused(block, (src_id, ty), dst_id?, prelude)?;
        Some(last + 1)
    }

    /// Checks the two places of a fused copy of the array type `ty` and
    /// emits it: `prelude`, when given, defines `dst_id` and is translated
    /// first (as usual, so that it is the copy's destination).
    fn emit_fused(
        &mut self,
        block: crate::ir::Block,
        (src_id, ty): (u32, TypeId),
        dst_id: u32,
        prelude: Option<&Instruction>,
    ) -> Option<()> {
        if self.promoted_var(src_id).is_some() || self.promoted_var(dst_id).is_some() {
            return None;
        }
        let src = *self.values.get(&src_id)?;
        // The destination's pointer type and the place it is in: the
        // prelude's type and base (a global is translated where it is
        // first used), or a value translated before the load.
        let (dst_ty, dst_base) = match prelude {
            Some(chain) => {
                let Some(Operand::IdRef(base)) = chain.operands.first() else {
                    return None;
                };
                let pointer = self.ty(chain, chain.result_type?).ok()?;
                (pointer, self.value(chain, *base).ok()?)
            }
            None => {
                let dst = *self.values.get(&dst_id)?;
                (self.shader.values[dst].ty, dst)
            }
        };
        let sh = &self.shader;
        let pointee = |t: TypeId| match sh.types[t] {
            Type::Pointer { pointee, .. } => Some(pointee),
            _ => None,
        };
        if pointee(sh.values[src].ty) != Some(ty)
            || !pointee(dst_ty).is_some_and(|d| crate::ir::copyable(sh, d, ty))
            || !self.plain_place(src, false)
            || !self.plain_place(dst_base, true)
        {
            return None;
        }
        if let Some(chain) = prelude {
            // An error here is the chain's own: returning None translates
            // it again, where the error stops the translation.
            self.instruction(block, chain).ok()?;
        }
        let dst = *self.values.get(&dst_id)?;
        self.effect(block, Op::CopyMemory { dst, src }, Some(dst_id));
        Some(())
    }

    /// Whether `ptr` is a variable or an access chain into one, of a class
    /// the backend copies (not a variable or physical pointer, an input,
    /// an output or a payload, nor ISBE shared memory).
    fn plain_place(&self, ptr: Value, written: bool) -> bool {
        let sh = &self.shader;
        let ValueDef::Inst(def) = sh.values[ptr].def else {
            return false;
        };
        match &sh.insts[def].op {
            Op::AccessChain { base, .. } => self.plain_place(*base, written),
            Op::VarAddr(var) => match sh.globals[*var].class {
                StorageClass::Function | StorageClass::Private | StorageClass::StorageBuffer => {
                    true
                }
                StorageClass::Workgroup => sh.stage == crate::ir::Stage::Compute,
                // A Uniform variable is written only as an old-style
                // storage buffer (BufferBlock).
                StorageClass::Uniform => true,
                StorageClass::PushConstant => !written,
                StorageClass::Input
                | StorageClass::Output
                | StorageClass::TaskPayload
                | StorageClass::PhysicalStorageBuffer
                | StorageClass::UniformConstant
                | StorageClass::Image => false,
            },
            _ => false,
        }
    }
}
