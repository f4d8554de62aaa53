//! Whole-value copies in memory: OpCopyMemory, and the initial values of
//! Function and Private variables that live in local memory.
//!
//! A copy loads and stores at most `PIECE_WORDS` scalars at a time: a
//! large array is never held in registers at once, and an aligned piece is
//! one 128-bit load whose register group is stored as it is (a larger
//! piece would make register allocation shuffle the groups with MOVs).
//!
//! A copy of more than `LOOP_WORDS` scalars whose type is an array is a
//! loop over the array's elements (each element copied piece by piece as
//! above), so the code and its compile time grow with the element, not the
//! array: unrolled, a 100,000-element copy was 25,000 load/store pairs in
//! one block, and register allocation over them was quadratic.

use super::inner_loop::Exit;
use super::mem_layout::scalars;
use super::memory::{Addressed, Target};
use super::places::{Place, Step, resolve};
use super::{Comp, Isel, mem_layout::child};
use crate::error::BackendError;
use crate::isa::{Instr, IntCmp, Op, OpISetP, PredCombine, PredSrc, Src};
use crate::mir::VReg;
use spvsass_frontend::ir::{self, InstData, Stage, StorageClass, Type, TypeId, Value};

/// Scalars copied per load/store pair: one 128-bit access.
const PIECE_WORDS: usize = 4;

/// Copies of more scalars than this loop over the array's elements.
const LOOP_WORDS: usize = 64;

impl Isel<'_> {
    /// OpCopyMemory between buffers, shared, local and private memory.
    pub(super) fn copy_memory(
        &mut self,
        dst: Value,
        src: Value,
        inst: &InstData,
    ) -> Result<(), BackendError> {
        let from = resolve(self.sh, src, inst.spirv_id)?;
        let to = resolve(self.sh, dst, inst.spirv_id)?;
        for place in [&from, &to] {
            // Built-ins, outputs, payloads and task/mesh shared memory have
            // their own accesses (mod.rs), not these.
            let class = self.sh.globals[place.var].class;
            let isbe_shared = class == StorageClass::Workgroup && self.sh.stage != Stage::Compute;
            if isbe_shared
                || matches!(
                    class,
                    StorageClass::Input | StorageClass::Output | StorageClass::TaskPayload
                )
            {
                return Err(self.mem_error(format!("copies of {class:?} memory"), inst));
            }
        }
        // The number of scalars of the copied type (both sides have it).
        let sh = self.sh;
        let ty = self.place_type(&from);
        let mut parts = Vec::new();
        if scalars(sh, ty, 0, &mut parts).is_none() {
            return Err(self.mem_error(format!("copies of {}", sh.type_name(ty)), inst));
        }
        if let Type::Array { len: Some(n), .. } = sh.types[ty]
            && n > 1
            && parts.len() > LOOP_WORDS
        {
            let dst_ty = self.place_type(&to);
            return self.copy_loop(&from, &to, [ty, dst_ty], n, inst);
        }
        let src = self.resolve_address(&from, inst)?;
        let dst = self.resolve_address(&to, inst)?;
        self.copy_pieces(&src, &dst, parts.len(), inst)
    }

    /// The memory and address of a place, resolved once for all the
    /// pieces of a copy.
    fn resolve_address(
        &mut self,
        place: &Place,
        inst: &InstData,
    ) -> Result<(Target, Addressed), BackendError> {
        let (target, ty, skip) = self.target(place, inst)?;
        let a = self.address(place, (ty, skip), inst)?;
        Ok((target, a))
    }

    /// Copies the first `count` scalars of the value at `src` to `dst`,
    /// `PIECE_WORDS` at a time: the unrolled copy and the body of the
    /// copy loop.
    fn copy_pieces(
        &mut self,
        src: &(Target, Addressed),
        dst: &(Target, Addressed),
        count: usize,
        inst: &InstData,
    ) -> Result<(), BackendError> {
        let mut start = 0;
        while start < count {
            let range = start..(start + PIECE_WORDS).min(count);
            let comps = self.load_at(src.0, &src.1, Some(range.clone()), inst)?;
            self.store_at(dst.0, &dst.1, &comps, Some(range.clone()), inst)?;
            start = range.end;
        }
        Ok(())
    }

    /// The type a place points to.
    fn place_type(&self, place: &Place) -> TypeId {
        let sh = self.sh;
        let mut ty = sh.globals[place.var].ty;
        for step in &place.path {
            let i = match step {
                Step::Const(i) => *i,
                Step::Dyn(_) => 0,
            };
            ty = child(sh, ty, i).map_or(ty, |c| c.ty);
        }
        ty
    }

    /// Copies the `n` elements of the arrays `tys` (source, destination:
    /// one element type, their strides may differ) from `from` to `to` in
    /// a loop whose counters are the byte offsets of the element in each.
    fn copy_loop(
        &mut self,
        from: &Place,
        to: &Place,
        tys: [TypeId; 2],
        n: u32,
        inst: &InstData,
    ) -> Result<(), BackendError> {
        let sh = self.sh;
        let [src_elem, dst_elem] = tys.map(|t| child(sh, t, 0));
        let (Some(src_elem), Some(dst_elem)) = (src_elem, dst_elem) else {
            return Err(self.mem_error(format!("copies of {}", sh.type_name(tys[0])), inst));
        };
        let end = src_elem.stride.checked_mul(n).ok_or_else(|| {
            self.mem_error(
                format!("a copy of {} past 4 GiB", sh.type_name(tys[0])),
                inst,
            )
        })?;
        let mut elem_parts = Vec::new();
        if scalars(sh, src_elem.ty, 0, &mut elem_parts).is_none() {
            return Err(self.mem_error(format!("copies of {}", sh.type_name(tys[0])), inst));
        }
        let (src_target, src) = self.resolve_address(from, inst)?;
        let (dst_target, dst) = self.resolve_address(to, inst)?;
        // One counter when the strides agree, else one per side.
        let same = src_elem.stride == dst_elem.stride;
        let zero = self.materialize(Comp::Const(0));
        let init = if same { vec![zero] } else { vec![zero, zero] };
        let (inner, params) = self.open_inner_loop(init, Exit::Uniform);
        let (src_off, dst_off) = (params[0], params[params.len() - 1]);
        // An element's address: the array's plus the counter, aligned to
        // the largest power of two dividing the stride (a zero stride
        // cannot reach here: n > 1 elements of a non-empty type).
        let at = |isel: &mut Self, a: &Addressed, offset: VReg, stride: u32, leaf: TypeId| {
            let dynamic = match a.dynamic {
                None => offset.src(),
                Some(d) => {
                    let sum = isel.iadd_src(d, offset.src());
                    isel.materialize(sum).src()
                }
            };
            Addressed {
                leaf,
                konst: a.konst,
                dynamic: Some(dynamic),
                dyn_align: a.dyn_align.min(1 << stride.trailing_zeros().min(31)),
                row_stride: None,
            }
        };
        let src_at = at(self, &src, src_off, src_elem.stride, src_elem.ty);
        let dst_at = at(self, &dst, dst_off, dst_elem.stride, dst_elem.ty);
        self.copy_pieces(
            &(src_target, src_at),
            &(dst_target, dst_at),
            elem_parts.len(),
            inst,
        )?;
        let step = |isel: &mut Self, offset: VReg, stride: u32| {
            let next = isel.iadd_src(offset.src(), Src::imm(stride));
            isel.materialize(next)
        };
        let src_next = step(self, src_off, src_elem.stride);
        let mut back = vec![src_next];
        if !same {
            back.push(step(self, dst_off, dst_elem.stride));
        }
        let done = self.f.new_pred();
        self.emit(Instr::new(Op::ISetP(OpISetP {
            dst: done.dst(),
            cmp: IntCmp::Ge,
            signed: false,
            combine: PredCombine::And,
            srcs: [src_next.src(), Src::imm(end)],
            accum: PredSrc::TRUE,
        })));
        self.close_inner_loop(inner, done, back);
        Ok(())
    }

    /// Stores the initial value of the variables in memory that `v`
    /// initializes, right after `v` is defined (in the entry block, before
    /// any access to them); a compute shader's shared variables then wait
    /// at a workgroup barrier.
    pub(super) fn store_initializers(&mut self, v: Value) -> Result<(), BackendError> {
        let vars = self.mem.initializers[v].clone();
        if vars.is_empty() {
            return Ok(());
        }
        let comps = self.value(v)?.clone();
        let mut shared = false;
        for var in vars {
            shared |= self.sh.globals[var].class == StorageClass::Workgroup;
            let decl = InstData {
                op: ir::Op::VarAddr(var),
                result: None,
                spirv_id: Some(self.sh.globals[var].spirv_id),
            };
            let place = Place {
                var,
                path: Vec::new(),
            };
            self.store_memory(&place, &comps, &decl)?;
        }
        // Every invocation of a compute workgroup stored the same value
        // into shared memory: none may touch it before all have (the
        // initial value is in the entry block, which every invocation
        // runs).
        if shared {
            self.barrier(true);
        }
        Ok(())
    }
}
