//! Instruction selection of the backend intrinsics (`crate::intrinsics`)
//! that the lowerings before selection attach to the IR: each maps to its
//! machine instructions, whatever feature asked for it. The intrinsics of
//! one site that add to the statistics query go behind one test of the
//! query address and a branch over them (docs/ABI.md, "Pipeline
//! statistics"): two issued instructions when no query is active.

use super::{Comp, Isel};
use crate::abi;
use crate::error::BackendError;
use crate::intrinsics::{Intrinsic, Operand};
use crate::isa::{
    AtomOp, AtomType, Instr, IntCmp, Op, OpBra, OpISetP, OpMov, OpRed, PredCombine, PredSrc,
    RegFile, Src, SrcRef,
};
use crate::mir::{BlockId, VReg};

impl Isel<'_> {
    /// The prologue's intrinsics; called once, at the top of the entry
    /// block.
    pub(super) fn prologue_intrinsics(&mut self) -> Result<(), BackendError> {
        let intrinsics = self.intrinsics;
        self.intrinsics_at(&intrinsics.prologue)
    }

    /// The intrinsics of one site, in order; those adding to the query
    /// share one guard.
    pub(super) fn intrinsics_at(&mut self, list: &[Intrinsic]) -> Result<(), BackendError> {
        let mut guard = None;
        for i in list {
            match *i {
                Intrinsic::AddToQuery { offset, value } => {
                    // Operands are selected before the branch: the value
                    // of an IR instruction may be needed after the join.
                    let value = match value {
                        Operand::Const(k) => Comp::Const(k),
                        Operand::Value(v) => self.value_comp(v)?,
                    };
                    if guard.is_none() {
                        guard = Some(self.open_query_guard());
                    }
                    self.add_to_query(offset, value);
                }
            }
        }
        if let Some(join) = guard {
            self.close_query_guard(join);
        }
        Ok(())
    }

    /// `@inactive BRA join`, where no query is active (the high word of
    /// the query address is zero: docs/ABI.md), and continues in the
    /// counting block; returns the join block.
    fn open_query_guard(&mut self) -> BlockId {
        let high = Src {
            src: SrcRef::CBuf {
                bank: abi::ROOT_BANK,
                offset: abi::QUERY_ADDRESS + 4,
            },
            neg: false,
            abs: false,
        };
        let p = self.f.new_vreg(RegFile::Pred);
        self.emit(Instr::new(Op::ISetP(OpISetP {
            dst: p.dst(),
            cmp: IntCmp::Eq,
            signed: false,
            combine: PredCombine::And,
            srcs: [Src::ZERO, high],
            accum: PredSrc::TRUE,
        })));
        let inactive = p.pred();
        let (count, join) = (self.f.new_block(), self.f.new_block());
        self.split_off
            .entry(self.cur)
            .or_default()
            .extend([count, join]);
        self.emit(Instr::guarded(
            inactive,
            Op::Bra(OpBra {
                target: join.target(),
            }),
        ));
        self.f.add_edge(self.cur, join, Vec::new());
        self.f.add_edge(self.cur, count, Vec::new());
        self.cur = count;
        join
    }

    /// Ends the counting block and continues at `join`.
    fn close_query_guard(&mut self, join: BlockId) {
        self.emit(Instr::new(Op::Bra(OpBra {
            target: join.target(),
        })));
        self.f.add_edge(self.cur, join, Vec::new());
        self.cur = join;
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
