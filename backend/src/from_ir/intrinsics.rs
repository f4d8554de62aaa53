//! Instruction selection of the backend intrinsics (`crate::intrinsics`)
//! that the lowerings before selection attach to the IR: each maps to its
//! machine instructions, whatever feature asked for it.

use super::{Comp, Isel};
use crate::abi;
use crate::error::BackendError;
use crate::intrinsics::{Intrinsic, Operand};
use crate::isa::{AtomOp, AtomType, Instr, Op, OpMov, OpRed, RegFile, Src, SrcRef};
use crate::mir::VReg;

impl Isel<'_> {
    /// The prologue's intrinsics; called once, at the top of the entry
    /// block.
    pub(super) fn prologue_intrinsics(&mut self) -> Result<(), BackendError> {
        let intrinsics = self.intrinsics;
        for i in &intrinsics.prologue {
            self.intrinsic(i)?;
        }
        Ok(())
    }

    pub(super) fn intrinsic(&mut self, i: &Intrinsic) -> Result<(), BackendError> {
        match *i {
            Intrinsic::AddToQuery { offset, value } => {
                let value = match value {
                    Operand::Const(k) => Comp::Const(k),
                    Operand::Value(v) => self.value_comp(v)?,
                };
                self.add_to_query(offset, value);
            }
        }
        Ok(())
    }

    /// Adds `value` to the counter at `offset` of the query block, from
    /// lane 0 only.
    fn add_to_query(&mut self, offset: u32, value: Comp) {
        let pair = self.query_address();
        let data = self.pair_group([value, Comp::Const(0)]);
        let guard = self.lane0_guard();
        self.emit(Instr::guarded(
            guard,
            Op::Red(OpRed {
                addr: pair.src(),
                offset: offset as i32,
                data,
                op: AtomOp::Add,
                ty: AtomType::U64,
            }),
        ));
    }

    /// The query address in a register pair, loaded once per MIR block.
    fn query_address(&mut self) -> VReg {
        if let Some(&pair) = self.cache.query_address.get(&self.cur) {
            return pair;
        }
        let pair = self.f.new_vreg(RegFile::Gpr);
        let high = self.f.new_vreg(RegFile::Gpr);
        debug_assert_eq!(high, pair.offset(1), "a register group is consecutive");
        for (r, at) in [(pair, abi::QUERY_ADDRESS), (high, abi::QUERY_ADDRESS + 4)] {
            self.emit(Instr::new(Op::Mov(OpMov {
                dst: r.dst(),
                src: Src {
                    src: SrcRef::CBuf {
                        bank: abi::ROOT_BANK,
                        offset: at,
                    },
                    neg: false,
                    abs: false,
                },
            })));
        }
        self.cache.query_address.insert(self.cur, pair);
        pair
    }
}
