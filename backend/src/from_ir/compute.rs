//! Compute-stage inputs and synchronisation: the invocation built-ins from
//! special registers (S2R SR_TID.*, SR_CTAID.*, SR_LANEID) and the root
//! table (NumWorkgroups), and workgroup barriers (BAR.SYNC, MEMBAR).

use super::{Comp, Isel};
use crate::abi;
use crate::error::BackendError;
use crate::isa::{
    Dst, Instr, MemScope, Op, OpBar, OpIMad, OpMembar, OpShf, RegFile, SpecialReg, Src,
};
use spvsass_frontend::ir::{BuiltIn, InstData};

/// Lanes per warp: a workgroup of more invocations runs on several warps.
const WARP: u32 = 32;

impl Isel<'_> {
    fn sreg(&mut self, sr: SpecialReg) -> Comp {
        Comp::Reg(self.special_reg(sr))
    }

    /// `a * b + c` (folded when constant; `c` alone when `a` is zero, as
    /// for the z axis of a 2D workgroup, and `a` alone for `a * 1 + 0`).
    pub(super) fn mad(&mut self, a: Comp, b: u32, c: Comp) -> Comp {
        if a == Comp::Const(0) {
            return c;
        }
        if b == 1 && c == Comp::Const(0) {
            return a;
        }
        let (a, c) = (self.src_of(a), self.src_of(c));
        self.alu(Op::IMad(OpIMad {
            dst: Dst::None,
            srcs: [a, Src::imm(b), c],
            signed: false,
        }))
    }

    /// gl_LocalInvocationID: an axis of size 1 is the constant 0.
    fn local_id(&mut self) -> Vec<Comp> {
        let size = self.sh.workgroup_size;
        [SpecialReg::TidX, SpecialReg::TidY, SpecialReg::TidZ]
            .into_iter()
            .zip(size)
            .map(|(sr, n)| {
                if n == 1 {
                    Comp::Const(0)
                } else {
                    self.sreg(sr)
                }
            })
            .collect()
    }

    fn local_index(&mut self) -> Comp {
        let [sx, sy, _] = self.sh.workgroup_size;
        let [x, y, z] = self.local_id()[..] else {
            unreachable!("three axes")
        };
        let yz = self.mad(z, sy, y);
        self.mad(yz, sx, x)
    }

    /// The value of a compute input built-in.
    pub(super) fn compute_builtin(
        &mut self,
        b: BuiltIn,
        inst: &InstData,
    ) -> Result<Vec<Comp>, BackendError> {
        let size = self.sh.workgroup_size;
        let invocations = self.sh.invocations();
        Ok(match b {
            BuiltIn::LocalInvocationId => self.local_id(),
            BuiltIn::LocalInvocationIndex => vec![self.local_index()],
            BuiltIn::WorkgroupId => [SpecialReg::CtaIdX, SpecialReg::CtaIdY, SpecialReg::CtaIdZ]
                .into_iter()
                .map(|sr| self.sreg(sr))
                .collect(),
            BuiltIn::NumWorkgroups => (0..3u16)
                .map(|i| self.root_word(abi::NUM_WORKGROUPS + 4 * i))
                .collect(),
            BuiltIn::GlobalInvocationId => {
                let local = self.local_id();
                [SpecialReg::CtaIdX, SpecialReg::CtaIdY, SpecialReg::CtaIdZ]
                    .into_iter()
                    .zip(size)
                    .zip(local)
                    .map(|((sr, n), l)| {
                        let group = self.sreg(sr);
                        self.mad(group, n, l)
                    })
                    .collect()
            }
            BuiltIn::WorkgroupSize => size.map(Comp::Const).to_vec(),
            BuiltIn::SubgroupLocalInvocationId => vec![self.sreg(SpecialReg::LaneId)],
            BuiltIn::SubgroupSize => vec![Comp::Const(WARP)],
            BuiltIn::SubgroupId if invocations <= WARP => vec![Comp::Const(0)],
            BuiltIn::SubgroupId => {
                let index = self.local_index();
                let index = self.src_of(index);
                vec![self.alu(Op::Shf(OpShf {
                    dst: Dst::None,
                    srcs: [index, Src::imm(5), Src::ZERO],
                    right: true,
                    wrap: false,
                    high: false,
                }))]
            }
            BuiltIn::NumSubgroups => vec![Comp::Const(invocations.div_ceil(WARP))],
            other => {
                return Err(self.unsupported(
                    format!("the input built-in {other:?} in a compute shader"),
                    inst,
                ));
            }
        })
    }

    /// A word of the root table (constant bank 0), loaded where it is used.
    pub(super) fn root_word(&mut self, offset: u16) -> Comp {
        let r = self.f.new_vreg(RegFile::Gpr);
        self.emit(abi::root_word_load(r.dst(), offset));
        Comp::Reg(r)
    }

    /// OpControlBarrier waits for the whole workgroup (BAR.SYNC, which also
    /// orders shared-memory accesses within it); OpMemoryBarrier orders
    /// this invocation's accesses device-wide, since the IR does not keep
    /// the barrier's scope (MEMBAR.SC.GPU covers every narrower one).
    pub(super) fn barrier(&mut self, control: bool) {
        let op = if control {
            Op::Bar(OpBar)
        } else {
            Op::Membar(OpMembar {
                scope: MemScope::Gpu,
            })
        };
        self.emit(Instr::new(op));
    }
}
