//! Atomics on storage buffers (ATOMG at the 64-bit address loads and
//! stores use) and on the shared memory of compute shaders (ATOMS), one
//! instruction per atomic: the hardware has both (docs/HARDWARE.md), unlike the
//! ISBE memory of task and mesh shaders (atomics.rs).
//!
//! SPIR-V's ops map onto the instruction's: signed and unsigned min/max by
//! the type (.S32 or none), subtract, increment and decrement as an add of
//! the negated operand, +1 or -1 (the ISA's INC/DEC wrap at an operand,
//! which is CUDA's atomicInc, not SPIR-V's). An atomic load or store is a
//! plain load or store of the word. Float min/max, and float add on shared
//! memory, have no instruction: a CAS loop (cas_loop.rs). ATOMG whose old value nobody reads
//! becomes RED in dead-code elimination (dce.rs). 64-bit integer atomics
//! take the .64 (.S64 for signed min/max) forms on register pairs, as
//! nvcc's do (k_atom64 in tests/data/real_sass/ops64_sm86.nvdisasm.txt).
//! Atomics through a buffer device address (PhysicalStorageBuffer) are the
//! same ATOMG at the pointer's 64-bit address (`physical_atomic_word`).

use super::memory::AtomicWord;
use super::places::resolve;
use super::{Comp, Isel};
use crate::error::BackendError;
use crate::isa::{
    AtomOp, AtomType, Dst, Instr, MemSpace, Op, OpAtom, OpIAdd3, OpMov, RegFile, Src,
};
use spvsass_frontend::ir::{AtomicOp, BinaryOp, InstData, Value};

impl Isel<'_> {
    pub(super) fn memory_atomic(
        &mut self,
        op: AtomicOp,
        ptr: Value,
        args: &[Value],
        inst: &InstData,
    ) -> Result<Vec<Comp>, BackendError> {
        let word = if self.physical_pointee(ptr).is_some() {
            // A buffer device address (phys_ptr.rs): ATOMG at it.
            match op {
                AtomicOp::Load => return self.load_physical(ptr, inst),
                AtomicOp::Store => {
                    let &[value] = args else {
                        return Err(self.unsupported("an atomic store of several values", inst));
                    };
                    self.store_physical(ptr, value, inst)?;
                    return Ok(Vec::new());
                }
                _ => self.physical_atomic_word(ptr, inst)?,
            }
        } else {
            let place = resolve(self.sh, ptr, inst.spirv_id)?;
            match op {
                AtomicOp::Load => return self.load_memory(&place, inst),
                AtomicOp::Store => {
                    let mut comps = Vec::new();
                    for &a in args {
                        comps.extend(self.value(a)?.iter().copied());
                    }
                    self.store_memory(&place, &comps, inst)?;
                    return Ok(Vec::new());
                }
                _ => {}
            }
            self.atomic_word(&place, inst)?
        };
        if word.wide {
            return self.memory_atomic64(op, &word, args, inst);
        }
        let mut comps = Vec::with_capacity(args.len());
        for &a in args {
            comps.push(self.value_comp(a)?);
        }
        let operand = comps.first().copied().unwrap_or(Comp::Const(0));
        let (aop, ty, data) = match op {
            AtomicOp::IIncrement => (AtomOp::Add, AtomType::U32, Comp::Const(1)),
            AtomicOp::IDecrement => (AtomOp::Add, AtomType::U32, Comp::Const(u32::MAX)),
            AtomicOp::ISub => (AtomOp::Add, AtomType::U32, self.negate(operand)),
            AtomicOp::IAdd => (AtomOp::Add, AtomType::U32, operand),
            AtomicOp::FAdd if word.space == MemSpace::Global => {
                (AtomOp::Add, AtomType::F32, operand)
            }
            AtomicOp::SMin => (AtomOp::Min, AtomType::S32, operand),
            AtomicOp::UMin => (AtomOp::Min, AtomType::U32, operand),
            AtomicOp::SMax => (AtomOp::Max, AtomType::S32, operand),
            AtomicOp::UMax => (AtomOp::Max, AtomType::U32, operand),
            AtomicOp::And => (AtomOp::And, AtomType::U32, operand),
            AtomicOp::Or => (AtomOp::Or, AtomType::U32, operand),
            AtomicOp::Xor => (AtomOp::Xor, AtomType::U32, operand),
            AtomicOp::Exchange => (AtomOp::Exch, AtomType::U32, operand),
            AtomicOp::CompareExchange => (AtomOp::CmpExch, AtomType::U32, operand),
            // No instruction for these: a CAS loop (cas_loop.rs).
            AtomicOp::FAdd | AtomicOp::FMin | AtomicOp::FMax => {
                let v = self.reg_or_zero(operand);
                return Ok(vec![self.float_cas_loop(op, &word, v)]);
            }
            AtomicOp::Load | AtomicOp::Store => unreachable!("returned above"),
        };
        let data = self.reg_or_zero(data);
        let cmp = match comps.get(1) {
            Some(&c) if op == AtomicOp::CompareExchange => self.reg_or_zero(c),
            _ => Src::ZERO,
        };
        let dst = self.f.new_vreg(RegFile::Gpr);
        self.emit(Instr::new(Op::Atom(OpAtom {
            dst: dst.dst(),
            addr: word.addr,
            offset: word.offset,
            data,
            cmp,
            op: aop,
            ty,
            space: word.space,
        })));
        Ok(vec![Comp::Reg(dst)])
    }

    /// A 64-bit atomic (Int64Atomics): the .64 or .S64 form of the same
    /// instructions, operands and result in aligned register pairs.
    fn memory_atomic64(
        &mut self,
        op: AtomicOp,
        word: &AtomicWord,
        args: &[Value],
        inst: &InstData,
    ) -> Result<Vec<Comp>, BackendError> {
        let mut comps = Vec::with_capacity(args.len());
        for &a in args {
            match self.value(a)?.as_slice() {
                &[lo, hi] => comps.push([lo, hi]),
                _ => return Err(self.unsupported("64-bit float atomics", inst)),
            }
        }
        let operand = comps.first().copied().unwrap_or([Comp::Const(0); 2]);
        let (aop, ty, data) = match op {
            AtomicOp::IIncrement => (AtomOp::Add, AtomType::U64, [Comp::Const(1), Comp::Const(0)]),
            AtomicOp::IDecrement => (AtomOp::Add, AtomType::U64, [Comp::Const(u32::MAX); 2]),
            AtomicOp::ISub => {
                let neg = self.wide_binary(BinaryOp::ISub, &[Comp::Const(0); 2], &operand, inst)?;
                (AtomOp::Add, AtomType::U64, [neg[0], neg[1]])
            }
            AtomicOp::IAdd => (AtomOp::Add, AtomType::U64, operand),
            AtomicOp::SMin => (AtomOp::Min, AtomType::S64, operand),
            AtomicOp::UMin => (AtomOp::Min, AtomType::U64, operand),
            AtomicOp::SMax => (AtomOp::Max, AtomType::S64, operand),
            AtomicOp::UMax => (AtomOp::Max, AtomType::U64, operand),
            AtomicOp::And => (AtomOp::And, AtomType::U64, operand),
            AtomicOp::Or => (AtomOp::Or, AtomType::U64, operand),
            AtomicOp::Xor => (AtomOp::Xor, AtomType::U64, operand),
            AtomicOp::Exchange => (AtomOp::Exch, AtomType::U64, operand),
            AtomicOp::CompareExchange => (AtomOp::CmpExch, AtomType::U64, operand),
            AtomicOp::FAdd | AtomicOp::FMin | AtomicOp::FMax => {
                return Err(self.unsupported("64-bit float atomics", inst));
            }
            AtomicOp::Load | AtomicOp::Store => unreachable!("returned by the caller"),
        };
        let data = self.pair_group(data);
        let cmp = match comps.get(1) {
            Some(&c) if op == AtomicOp::CompareExchange => self.pair_group(c),
            _ => Src::ZERO,
        };
        let dst = self.new_group(2);
        self.emit(Instr::new(Op::Atom(OpAtom {
            dst: dst.dst(),
            addr: word.addr,
            offset: word.offset,
            data,
            cmp,
            op: aop,
            ty,
            space: word.space,
        })));
        Ok(vec![Comp::Reg(dst), Comp::Reg(dst.offset(1))])
    }

    /// A 64-bit value in an aligned register pair (RZ for zero; a constant
    /// pair is moved once per block).
    pub(super) fn pair_group(&mut self, c: [Comp; 2]) -> Src {
        let konst = match c {
            [Comp::Const(lo), Comp::Const(hi)] => Some(u64::from(lo) | u64::from(hi) << 32),
            _ => None,
        };
        match konst {
            Some(0) => return Src::ZERO,
            Some(v) => {
                if let Some(&g) = self.cache.const_pairs.get(&(self.cur, v)) {
                    return g.src();
                }
            }
            None => {}
        }
        let g = self.new_group(2);
        if let Some(v) = konst {
            self.cache.const_pairs.insert((self.cur, v), g);
        }
        for (k, w) in c.into_iter().enumerate() {
            let src = self.src_of(w);
            self.emit(Instr::new(Op::Mov(OpMov {
                dst: g.offset(k as u32).dst(),
                src,
            })));
        }
        g.src()
    }

    /// `-c` (two's complement).
    fn negate(&mut self, c: Comp) -> Comp {
        match c {
            Comp::Const(v) => Comp::Const(v.wrapping_neg()),
            other => {
                let s = self.src_of(other);
                self.alu(Op::IAdd3(OpIAdd3 {
                    dst: Dst::None,
                    srcs: [Src::ZERO, s.negated(), Src::ZERO],
                }))
            }
        }
    }
}
