//! Float atomics the memory has no instruction for, emulated with a
//! compare-and-swap loop, as ptxas does (docs/HARDWARE.md,
//! "Instructions"): float min/max on storage buffers and compute shared memory,
//! and float add on shared memory (ATOMG has ADD.F32, mem_atomics.rs).
//!
//! ```text
//!         LD     old0, [a]
//! head(old):
//!         new  = old op v
//!         ATOM.CAS got, [a], old, new
//!         ISETP.EQ P, got, old      ; the word was still `old`: stored
//!     @P  BRA done
//! latch:  BRA head(got)             ; someone wrote in between: retry
//! done:   result = got
//! ```
//!
//! The compare is on the bits, so a NaN or -0.0 in memory cannot make the
//! loop spin. Each lane leaves as soon as its own swap succeeds; lanes on
//! one word succeed one at a time (the swap is atomic per lane, in lane
//! order in the simulator), so every add is applied exactly once and each
//! lane returns the value its swap replaced.

use super::inner_loop::Exit;
use super::memory::AtomicWord;
use super::{Comp, Isel};
use crate::isa::{
    AtomOp, AtomType, Instr, IntCmp, MemSize, Op, OpAtom, OpISetP, OpLd, PredCombine, PredSrc,
    RegFile, Src,
};
use spvsass_frontend::ir::AtomicOp;

impl Isel<'_> {
    /// The CAS loop of `op` (FAdd, FMin or FMax) with operand `v` on
    /// `word`; the old value.
    pub(super) fn float_cas_loop(&mut self, op: AtomicOp, word: &AtomicWord, v: Src) -> Comp {
        let old0 = self.f.new_vreg(RegFile::Gpr);
        self.emit(Instr::new(Op::Ld(OpLd {
            dst: old0.dst(),
            addr: word.addr,
            offset: word.offset,
            space: word.space,
            size: MemSize::B32,
        })));
        let (inner, params) = self.open_inner_loop(vec![old0], Exit::Divergent);
        let old = params[0];
        let o = old.src();
        let new = self.f.new_vreg(RegFile::Gpr);
        let dst = new.dst();
        self.emit(Instr::new(super::atomics::combine_op(op, dst, o, v)));
        let got = self.f.new_vreg(RegFile::Gpr);
        self.emit(Instr::new(Op::Atom(OpAtom {
            dst: got.dst(),
            addr: word.addr,
            offset: word.offset,
            data: new.src(),
            cmp: o,
            op: AtomOp::CmpExch,
            ty: AtomType::U32,
            space: word.space,
        })));
        let stored = self.f.new_pred();
        self.emit(Instr::new(Op::ISetP(OpISetP {
            dst: stored.dst(),
            cmp: IntCmp::Eq,
            signed: false,
            combine: PredCombine::And,
            srcs: [got.src(), o],
            accum: PredSrc::TRUE,
        })));
        self.close_inner_loop(inner, stored, vec![got]);
        Comp::Reg(got)
    }
}
