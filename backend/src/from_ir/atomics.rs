//! Atomics on ISBE memory: the shared memory of task and mesh shaders and
//! the task payload. The hardware has none there (docs/HARDWARE.md,
//! "ISBE"), so each is emulated with plain ISBE reads and writes,
//! returning the memory's previous value.
//!
//! General case, the MATCH loop (NAK's scheme, docs/HARDWARE.md,
//! "Workgroups"):
//! the executing lanes group by address with `MATCH.ANY`; in each group the
//! highest lane (`FLO` of the group mask) reads the word, applies the op
//! with its own operand and writes it back, then leaves the loop; the
//! others go round again. Lanes of different groups work on different
//! words, so one iteration's writes never collide, and lanes on one word
//! are serialized. It covers every op, compare-exchange included. Only the
//! write is predicated: reading and computing in every lane is harmless,
//! and the result register holds the leader's read when it leaves.
//!
//! Fast path, warp aggregation (what NVIDIA's compiler does for uniform
//! atomics, docs/HARDWARE.md, "Instructions"): when the address and the operand are uniform
//! (crate::uniformity) and the op is an add, subtract, increment or
//! decrement, the executing lanes are counted with `VOTE.ANY` and `POPC`;
//! the highest lane adds `count * operand` in one read-modify-write, and
//! every lane returns that lane's old value (`SHFL.IDX`) plus its own
//! exclusive prefix `rank * operand`, `rank` being the executing lanes
//! below it (`POPC` of the ballot and `SR_LTMASK`). That is the order of
//! serial atomics by ascending lane, one of the orders the API allows.

use super::inner_loop::Exit;
use super::places::resolve;
use super::{Comp, Isel};
use crate::error::BackendError;
use crate::isa::{
    BitOp, Dst, FloatArith, Instr, IntCmp, IsbeAccess, IsbeSize, Op, OpBit, OpFArith, OpFMnMx,
    OpIAdd3, OpIMad, OpIMnMx, OpISetP, OpIsbeWr, OpLop3, OpMatch, OpShfl, OpVote, PredCombine,
    PredSrc, RegFile, ShflMode, SpecialReg, Src, VoteMode,
};
use crate::mir::{BlockId, MFunc, PReg, VReg};
use rustc_hash::{FxHashMap, FxHashSet};
use spvsass_frontend::ir::{AtomicOp, InstData, Stage, StorageClass, Value};

/// LOP3 truth tables of `a op b` (a = 0xf0, b = 0xcc).
const LUT_AND: u8 = 0xc0;
const LUT_OR: u8 = 0xfc;
const LUT_XOR: u8 = 0x3c;

impl Isel<'_> {
    /// Whether an atomic's pointer is ISBE memory (task/mesh shared memory
    /// or the task payload), which this module lowers.
    pub(super) fn isbe_atomic(
        &self,
        ptr: Value,
        spirv_id: Option<u32>,
    ) -> Result<bool, BackendError> {
        if self.sh.stage == Stage::Compute {
            return Ok(false);
        }
        let place = resolve(self.sh, ptr, spirv_id)?;
        Ok(matches!(
            self.sh.globals[place.var].class,
            StorageClass::Workgroup | StorageClass::TaskPayload
        ))
    }

    /// A GPR-defining op whose destination is filled in here.
    fn def(&mut self, guard: PredSrc, make: impl FnOnce(Dst) -> Op) -> VReg {
        let r = self.f.new_vreg(RegFile::Gpr);
        self.emit(Instr::guarded(guard, make(r.dst())));
        r
    }

    fn bit(&mut self, op: BitOp, src: Src) -> Src {
        let r = self.def(PredSrc::TRUE, |dst| Op::Bit(OpBit { dst, src, op }));
        r.src()
    }

    /// A predicate `a == b`.
    fn pred_eq(&mut self, a: Src, b: Src) -> PReg {
        let p = self.f.new_pred();
        self.emit(Instr::new(Op::ISetP(OpISetP {
            dst: p.dst(),
            cmp: IntCmp::Eq,
            signed: false,
            combine: PredCombine::And,
            srcs: [a, b],
            accum: PredSrc::TRUE,
        })));
        p
    }

    pub(super) fn atomic(
        &mut self,
        op: AtomicOp,
        ptr: Value,
        args: &[Value],
        inst: &InstData,
    ) -> Result<Vec<Comp>, BackendError> {
        let id = inst.spirv_id;
        let place = resolve(self.sh, ptr, id)?;
        let payload = self.sh.globals[place.var].class == StorageClass::TaskPayload;
        let output = !(payload && self.sh.stage == Stage::Mesh);
        if !output && op != AtomicOp::Load {
            return Err(BackendError::Invalid {
                what: "an atomic write to the task payload in a mesh shader (read-only there)"
                    .into(),
                spirv_id: id,
            });
        }
        let (base, imm) = if payload {
            self.payload_offset(&place, id)?
        } else {
            self.shared_offset(&place, inst)?
        };
        let mut comps = Vec::new();
        for &a in args {
            comps.push(self.value_comp(a)?);
        }
        match op {
            AtomicOp::Load => return Ok(vec![Comp::Reg(self.isbe_read(base, imm, output, false))]),
            AtomicOp::Store => {
                let data = self.reg_or_zero(comps[0]);
                self.isbe_write(
                    OpIsbeWr {
                        addr: base,
                        imm,
                        data,
                        access: IsbeAccess::Attr,
                        size: IsbeSize::B32,
                        skew: false,
                    },
                    PredSrc::TRUE,
                );
                return Ok(Vec::new());
            }
            _ => {}
        }
        let aggregated = self.divergence.is_uniform(ptr)
            && match op {
                AtomicOp::IIncrement | AtomicOp::IDecrement => true,
                AtomicOp::IAdd | AtomicOp::ISub => self.divergence.is_uniform(args[0]),
                _ => false,
            };
        if aggregated {
            let (amount, negate) = match op {
                AtomicOp::IIncrement => (Comp::Const(1), false),
                AtomicOp::IDecrement => (Comp::Const(1), true),
                AtomicOp::ISub => (comps[0], true),
                _ => (comps[0], false),
            };
            return Ok(vec![self.aggregated_add(base, imm, amount, negate)]);
        }
        // One register holding the whole address (MATCH compares it).
        let addr = self.add_imm(base, imm);
        // Adds take an immediate; the other ops' operands go in registers.
        let vals: Vec<Src> = comps
            .iter()
            .map(|&c| match op {
                AtomicOp::IAdd | AtomicOp::ISub => self.src_of(c),
                _ => self.reg_or_zero(c),
            })
            .collect();
        Ok(vec![self.match_loop(op, addr, &vals)])
    }

    /// The warp-aggregated add of a uniform `amount` (subtracted with
    /// `negate`) at the uniform address `addr` (module comment).
    fn aggregated_add(&mut self, base: Src, imm: u32, amount: Comp, negate: bool) -> Comp {
        let lane = self.special_reg(SpecialReg::LaneId).src();
        let lt = self.special_reg(SpecialReg::LtMask).src();
        let active = self.def(PredSrc::TRUE, |dst| {
            Op::Vote(OpVote {
                dst,
                pdst: Dst::None,
                src: PredSrc::TRUE,
                mode: VoteMode::Any,
            })
        });
        let active = active.src();
        let below = self.def(PredSrc::TRUE, |dst| {
            Op::Lop3(OpLop3 {
                dst,
                srcs: [active, lt, Src::ZERO],
                lut: LUT_AND,
            })
        });
        let rank = self.bit(BitOp::Popc, below.src());
        let count = self.bit(BitOp::Popc, active);
        let leader = self.bit(
            BitOp::Flo {
                signed: false,
                shift: false,
            },
            active,
        );
        let p = self.pred_eq(lane, leader);
        let amount = self.src_of(amount);
        // `n * amount`; no multiply for an amount of 1 (increments).
        let times_amount = |isel: &mut Self, n: Src| {
            if amount == Src::imm(1) {
                return n;
            }
            let r = isel.def(PredSrc::TRUE, |dst| {
                Op::IMad(OpIMad {
                    dst,
                    srcs: [n, amount, Src::ZERO],
                    signed: false,
                })
            });
            r.src()
        };
        let total = times_amount(self, count);
        let guard = p.pred();
        let old = self.isbe_read(base, imm, true, false);
        let old = old.src();
        let delta = if negate { total.negated() } else { total };
        let new = self.def(PredSrc::TRUE, |dst| {
            Op::IAdd3(OpIAdd3 {
                dst,
                srcs: [old, delta, Src::ZERO],
            })
        });
        self.isbe_write(
            OpIsbeWr {
                addr: base,
                imm,
                data: new.src(),
                access: IsbeAccess::Attr,
                size: IsbeSize::B32,
                skew: false,
            },
            guard,
        );
        let base = self.def(PredSrc::TRUE, |dst| {
            Op::Shfl(OpShfl {
                dst,
                in_bounds: Dst::None,
                src: old,
                lane: leader,
                c: Src::imm(0x1f),
                mode: ShflMode::Idx,
            })
        });
        let prefix = times_amount(self, rank);
        let prefix = if negate { prefix.negated() } else { prefix };
        let r = self.def(PredSrc::TRUE, |dst| {
            Op::IAdd3(OpIAdd3 {
                dst,
                srcs: [base.src(), prefix, Src::ZERO],
            })
        });
        Comp::Reg(r)
    }

    /// The MATCH.ANY loop (module comment). Splits the current block: the
    /// loop gets a block of its own, and the IR block's remaining
    /// instructions go to the block after it.
    fn match_loop(&mut self, op: AtomicOp, addr: Src, vals: &[Src]) -> Comp {
        let lane = self.special_reg(SpecialReg::LaneId).src();
        let (inner, _) = self.open_inner_loop(Vec::new(), Exit::Divergent);
        let group = self.def(PredSrc::TRUE, |dst| {
            Op::Match(OpMatch {
                dst,
                pdst: Dst::None,
                src: addr,
                all: false,
            })
        });
        let leader = self.bit(
            BitOp::Flo {
                signed: false,
                shift: false,
            },
            group.src(),
        );
        let p = self.pred_eq(lane, leader);
        let old = self.isbe_read(addr, 0, true, false);
        let o = old.src();
        let v = vals.first().copied().unwrap_or(Src::ZERO);
        let new = match op {
            AtomicOp::Exchange => v,
            AtomicOp::CompareExchange => {
                let eq = self.pred_eq(o, vals[1]);
                let c = self.select(Comp::Pred(eq), v, o);
                self.src_of(c)
            }
            _ => {
                let r = self.def(PredSrc::TRUE, |dst| combine_op(op, dst, o, v));
                r.src()
            }
        };
        let new = if new == Src::ZERO || matches!(new.src, crate::isa::SrcRef::Reg(_)) {
            new
        } else {
            self.reg_or_zero(Comp::Const(match new.src {
                crate::isa::SrcRef::Imm(v) => v,
                _ => 0,
            }))
        };
        self.isbe_write(
            OpIsbeWr {
                addr,
                imm: 0,
                data: new,
                access: IsbeAccess::Attr,
                size: IsbeSize::B32,
                skew: false,
            },
            p.pred(),
        );
        // The leaders leave; the others go round again through the latch
        // (a block of its own: no critical edge to split).
        self.close_inner_loop(inner, p, Vec::new());
        Comp::Reg(old)
    }
}

/// Lays out the blocks the MATCH loops split off right after the block
/// they came from (regalloc2 and the simulator's lowest-pc-first
/// scheduling both want a block's code after the code that dominates it).
pub(super) fn place_split_blocks(f: &mut MFunc, split_off: &FxHashMap<BlockId, Vec<BlockId>>) {
    if split_off.is_empty() {
        return;
    }
    fn visit(b: BlockId, split_off: &FxHashMap<BlockId, Vec<BlockId>>, order: &mut Vec<BlockId>) {
        order.push(b);
        for &c in split_off.get(&b).into_iter().flatten() {
            visit(c, split_off, order);
        }
    }
    let split: FxHashSet<BlockId> = split_off.values().flatten().copied().collect();
    let mut order = Vec::with_capacity(f.blocks.len());
    for b in f.blocks.keys() {
        if !split.contains(&b) {
            visit(b, split_off, &mut order);
        }
    }
    f.reorder(&order);
}

/// IMNMX/FMNMX's selector: PT picks the minimum, !PT the maximum.
/// The instruction computing an atomic's new word from the old word `o` and
/// the operand `v` (not Exchange or CompareExchange, which select).
pub(super) fn combine_op(op: AtomicOp, dst: Dst, o: Src, v: Src) -> Op {
    match op {
        AtomicOp::IIncrement => Op::IAdd3(OpIAdd3 {
            dst,
            srcs: [o, Src::imm(1), Src::ZERO],
        }),
        AtomicOp::IDecrement => Op::IAdd3(OpIAdd3 {
            dst,
            srcs: [o, Src::imm(u32::MAX), Src::ZERO],
        }),
        AtomicOp::IAdd => Op::IAdd3(OpIAdd3 {
            dst,
            srcs: [o, v, Src::ZERO],
        }),
        AtomicOp::ISub => Op::IAdd3(OpIAdd3 {
            dst,
            srcs: [o, v.negated(), Src::ZERO],
        }),
        AtomicOp::SMin | AtomicOp::UMin | AtomicOp::SMax | AtomicOp::UMax => Op::IMnMx(OpIMnMx {
            dst,
            srcs: [o, v],
            signed: matches!(op, AtomicOp::SMin | AtomicOp::SMax),
            min: min_flag(matches!(op, AtomicOp::SMin | AtomicOp::UMin)),
        }),
        AtomicOp::And | AtomicOp::Or | AtomicOp::Xor => Op::Lop3(OpLop3 {
            dst,
            srcs: [o, v, Src::ZERO],
            lut: match op {
                AtomicOp::And => LUT_AND,
                AtomicOp::Or => LUT_OR,
                _ => LUT_XOR,
            },
        }),
        AtomicOp::FAdd => Op::FArith(OpFArith {
            kind: FloatArith::Add,
            dst,
            srcs: [o, v, Src::ZERO],
            ftz: false,
            rnd: Default::default(),
        }),
        _ => Op::FMnMx(OpFMnMx {
            dst,
            srcs: [o, v],
            ftz: false,
            min: min_flag(op == AtomicOp::FMin),
        }),
    }
}

pub(super) fn min_flag(min: bool) -> PredSrc {
    PredSrc {
        reg: None,
        neg: !min,
    }
}
