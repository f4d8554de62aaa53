//! OpGroupNonUniform* (subgroup scope) onto the warp instructions: votes
//! (VOTE), elect, ballots and their bit queries (VOTE, POPC, FLO, BREV and
//! the SR_*MASK registers), broadcasts, shuffles and quad ops (SHFL). A
//! subgroup is the warp (32 lanes, docs/HARDWARE.md); the reductions and scans are
//! in subgroup_scan.rs.
//!
//! Inactive lanes: VOTE and REDUX see only the executing lanes, which is
//! what SPIR-V asks of votes, ballots and elect. A shuffle or broadcast
//! from an inactive invocation is undefined in SPIR-V; the simulator
//! reports it (`ShuffleFromInactive`) rather than inventing a value.
//!
//! Workgroups of more than 32 task/mesh invocations run as logical
//! subgroups of the one warp (`subgroups.rs`): each copy is a full warp,
//! so the same code is right for it, except where the last copy has lanes
//! that are not invocations (N not a multiple of 32). There every ballot
//! is masked to the invocations' lanes, votes are computed from ballots,
//! and reductions take the loop over the ballot's lanes instead of REDUX
//! (subgroup_scan.rs), so those lanes never contribute.

use super::{Comp, Isel};
use crate::error::BackendError;
use crate::isa::{
    BitOp, Dst, FloatCmp, Instr, IntCmp, Op, OpBit, OpFSetP, OpISetP, OpLop3, OpShfl, OpVote,
    PredCombine, PredSrc, Reg, RegFile, ShflMode, SpecialReg, Src, VoteMode,
};
use crate::mir::VReg;
use spvsass_frontend::ir::{GroupOperation, InstData, Scalar, SubgroupOp, Type, Value};

/// SHFL's c operand: clamp 31, no segment (the whole warp).
pub(super) const WHOLE_WARP: u32 = 0x1f;
/// SHFL.IDX's c for quads: segment mask 0x1c (bits 8..13), clamp 3.
const QUAD: u32 = 0x1c << 8 | 3;

impl Isel<'_> {
    /// A GPR-writing op with its destination filled in (warp ops do not
    /// fold, so they bypass `alu`).
    pub(super) fn warp_def(&mut self, make: impl FnOnce(Dst) -> Op) -> Src {
        let r = self.f.new_vreg(RegFile::Gpr);
        self.emit(Instr::new(make(r.dst())));
        r.src()
    }

    /// A register (or RZ) holding `c`; a boolean as 0 or 1.
    pub(super) fn word_reg(&mut self, c: Comp) -> Src {
        match c {
            Comp::Pred(_) => {
                let w = self.select(c, Src::imm(1), Src::ZERO);
                self.reg_or_zero(w)
            }
            Comp::Bool(b) => self.reg_or_zero(Comp::Const(u32::from(b))),
            other => self.reg_or_zero(other),
        }
    }

    /// A predicate `a != 0`.
    pub(super) fn nonzero(&mut self, a: Src) -> Comp {
        self.alu(Op::ISetP(OpISetP {
            dst: Dst::None,
            cmp: IntCmp::Ne,
            signed: false,
            combine: PredCombine::And,
            srcs: [a, Src::ZERO],
            accum: PredSrc::TRUE,
        }))
    }

    /// In the last logical subgroup of a task/mesh workgroup whose size is
    /// not a multiple of 32, the lanes that are invocations (0..N % 32);
    /// `None` where every lane of the warp is one.
    pub(super) fn invocation_lanes(&self) -> Option<u32> {
        if self.wide.partial.is_none() || self.wide.copy + 1 != self.wide.copies {
            return None;
        }
        Some((1u32 << (self.sh.invocations() % 32)) - 1)
    }

    /// The ballot of `p` over the executing lanes (`VOTE.ANY Rd, PT, p`),
    /// lanes that are no invocations left out.
    pub(super) fn ballot(&mut self, p: PredSrc) -> Src {
        let b = self.warp_def(|dst| {
            Op::Vote(OpVote {
                dst,
                pdst: Dst::None,
                src: p,
                mode: VoteMode::Any,
            })
        });
        match self.invocation_lanes() {
            Some(mask) => {
                let r = self.alu(Op::Lop3(OpLop3 {
                    dst: Dst::None,
                    srcs: [b, Src::imm(mask), Src::ZERO],
                    lut: OpLop3::A & OpLop3::B,
                }));
                self.src_of(r)
            }
            None => b,
        }
    }

    /// The lowest set bit's index of `mask` (FLO.SH of the reversed mask).
    pub(super) fn lowest_lane(&mut self, mask: Src) -> Src {
        let rev = self.bit_op(BitOp::Brev, mask);
        self.bit_op(
            BitOp::Flo {
                signed: false,
                shift: true,
            },
            rev,
        )
    }

    pub(super) fn bit_op(&mut self, op: BitOp, src: Src) -> Src {
        self.warp_def(|dst| Op::Bit(OpBit { dst, src, op }))
    }

    pub(super) fn sr_src(&mut self, sr: SpecialReg) -> Src {
        self.special_reg(sr).src()
    }

    pub(super) fn shfl(&mut self, mode: ShflMode, src: Src, lane: Src, c: u32) -> Src {
        self.warp_def(|dst| {
            Op::Shfl(OpShfl {
                dst,
                in_bounds: Dst::None,
                src,
                lane,
                c: Src::imm(c),
                mode,
            })
        })
    }

    /// `v` (every component) as lane `lane` holds it; booleans go through
    /// a 0/1 word.
    fn shfl_value(&mut self, mode: ShflMode, v: &[Comp], lane: Src, c: u32) -> Vec<Comp> {
        let mut out = Vec::with_capacity(v.len());
        for &x in v {
            let boolean = matches!(x, Comp::Pred(_) | Comp::Bool(_));
            let src = self.word_reg(x);
            let r = self.shfl(mode, src, lane, c);
            out.push(if boolean {
                self.nonzero(r)
            } else {
                self.comp_of(r)
            });
        }
        out
    }

    /// VOTE's predicate result; where some lanes are no invocations, from
    /// ballots that leave them out (all: the ballot is every executing
    /// invocation; any: it is not empty; eq: either).
    fn vote(&mut self, mode: VoteMode, p: PredSrc) -> Comp {
        if self.invocation_lanes().is_some() {
            let yes = self.ballot(p);
            let all = self.ballot(PredSrc::TRUE);
            let cmp = |isel: &mut Self, a: Src, b: Src| {
                isel.alu(Op::ISetP(OpISetP {
                    dst: Dst::None,
                    cmp: IntCmp::Eq,
                    signed: false,
                    combine: PredCombine::And,
                    srcs: [a, b],
                    accum: PredSrc::TRUE,
                }))
            };
            return match mode {
                VoteMode::All => cmp(self, yes, all),
                VoteMode::Any => self.nonzero(yes),
                VoteMode::Eq => {
                    let none = cmp(self, yes, Src::ZERO);
                    let none = self.pred(none).unwrap_or(PredSrc::TRUE);
                    self.alu(Op::ISetP(OpISetP {
                        dst: Dst::None,
                        cmp: IntCmp::Eq,
                        signed: false,
                        combine: PredCombine::Or,
                        srcs: [yes, all],
                        accum: none,
                    }))
                }
            };
        }
        let r = self.f.new_pred();
        self.emit(Instr::new(Op::Vote(OpVote {
            dst: Dst::None,
            pdst: r.dst(),
            src: p,
            mode,
        })));
        Comp::Pred(r)
    }

    /// One OpGroupNonUniform* instruction.
    pub(super) fn subgroup_op(
        &mut self,
        op: SubgroupOp,
        args: &[Value],
        inst: &InstData,
    ) -> Result<Vec<Comp>, BackendError> {
        let mut vals = Vec::with_capacity(args.len());
        for &a in args {
            vals.push(self.value(a)?.clone());
        }
        let scalar = |isel: &Self, k: usize| -> Result<Comp, BackendError> {
            match vals.get(k).map(Vec::as_slice) {
                Some([c]) => Ok(*c),
                _ => Err(isel.unsupported("a non-scalar operand where a scalar is expected", inst)),
            }
        };
        use SubgroupOp as S;
        Ok(match op {
            S::Elect => {
                // The lowest executing lane: no executing lane below it.
                let active = self.ballot(PredSrc::TRUE);
                let lt = self.sr_src(SpecialReg::LtMask);
                let below = self.alu(Op::Lop3(OpLop3 {
                    dst: Dst::None,
                    srcs: [active, lt, Src::ZERO],
                    lut: OpLop3::A & OpLop3::B,
                }));
                let below = self.src_of(below);
                vec![self.alu(Op::ISetP(OpISetP {
                    dst: Dst::None,
                    cmp: IntCmp::Eq,
                    signed: false,
                    combine: PredCombine::And,
                    srcs: [below, Src::ZERO],
                    accum: PredSrc::TRUE,
                }))]
            }
            S::All | S::Any => {
                let c = scalar(self, 0)?;
                if let Comp::Bool(b) = c {
                    // A constant is the same in every lane.
                    return Ok(vec![Comp::Bool(b)]);
                }
                let p = self
                    .pred(c)
                    .ok_or_else(|| self.unsupported("a non-boolean vote", inst))?;
                let mode = if op == S::All {
                    VoteMode::All
                } else {
                    VoteMode::Any
                };
                vec![self.vote(mode, p)]
            }
            S::AllEqual => vec![self.all_equal(args[0], &vals[0])],
            S::Ballot => {
                let c = scalar(self, 0)?;
                let p = self
                    .pred(c)
                    .ok_or_else(|| self.unsupported("a ballot of a non-boolean", inst))?;
                let b = self.ballot(p);
                vec![
                    self.comp_of(b),
                    Comp::Const(0),
                    Comp::Const(0),
                    Comp::Const(0),
                ]
            }
            S::InverseBallot => {
                // Bits past 31 name no invocation of a 32-wide subgroup.
                let word = self.word_reg(vals[0][0]);
                let eq = self.sr_src(SpecialReg::EqMask);
                let mine = self.alu(Op::Lop3(OpLop3 {
                    dst: Dst::None,
                    srcs: [word, eq, Src::ZERO],
                    lut: OpLop3::A & OpLop3::B,
                }));
                let mine = self.src_of(mine);
                vec![self.nonzero(mine)]
            }
            S::BallotBitExtract => {
                let index = scalar(self, 1)?;
                vec![self.ballot_bit(&vals[0], index)]
            }
            S::BallotBitCount(group) => {
                let word = self.word_reg(vals[0][0]);
                let masked = match group {
                    GroupOperation::Reduce | GroupOperation::ClusteredReduce => word,
                    GroupOperation::InclusiveScan | GroupOperation::ExclusiveScan => {
                        let sr = if group == GroupOperation::InclusiveScan {
                            SpecialReg::LeMask
                        } else {
                            SpecialReg::LtMask
                        };
                        let m = self.sr_src(sr);
                        let r = self.alu(Op::Lop3(OpLop3 {
                            dst: Dst::None,
                            srcs: [word, m, Src::ZERO],
                            lut: OpLop3::A & OpLop3::B,
                        }));
                        self.src_of(r)
                    }
                };
                let n = self.bit_op(BitOp::Popc, masked);
                vec![self.comp_of(n)]
            }
            S::BallotFindLsb => {
                let word = self.word_reg(vals[0][0]);
                let r = self.lowest_lane(word);
                vec![self.comp_of(r)]
            }
            S::BallotFindMsb => {
                let word = self.word_reg(vals[0][0]);
                let r = self.bit_op(
                    BitOp::Flo {
                        signed: false,
                        shift: false,
                    },
                    word,
                );
                vec![self.comp_of(r)]
            }
            S::Broadcast | S::Shuffle => {
                let lane = self.word_reg(scalar(self, 1)?);
                self.shfl_value(ShflMode::Idx, &vals[0], lane, WHOLE_WARP)
            }
            S::BroadcastFirst => {
                let active = self.ballot(PredSrc::TRUE);
                let first = self.lowest_lane(active);
                self.shfl_value(ShflMode::Idx, &vals[0], first, WHOLE_WARP)
            }
            S::ShuffleXor => {
                let mask = self.shfl_lane(scalar(self, 1)?);
                self.shfl_value(ShflMode::Bfly, &vals[0], mask, WHOLE_WARP)
            }
            // Up: a lane below 0 is out of range (clamp 0); down: above 31.
            S::ShuffleUp => {
                let delta = self.shfl_lane(scalar(self, 1)?);
                self.shfl_value(ShflMode::Up, &vals[0], delta, 0)
            }
            S::ShuffleDown => {
                let delta = self.shfl_lane(scalar(self, 1)?);
                self.shfl_value(ShflMode::Down, &vals[0], delta, WHOLE_WARP)
            }
            S::QuadBroadcast => {
                let index = self.shfl_lane(scalar(self, 1)?);
                self.shfl_value(ShflMode::Idx, &vals[0], index, QUAD)
            }
            S::QuadSwap => {
                // Direction 0 swaps horizontally (lane ^ 1), 1 vertically
                // (^ 2), 2 diagonally (^ 3).
                let Comp::Const(dir @ 0..=2) = scalar(self, 1)? else {
                    return Err(self.unsupported(
                        "a quad swap direction that is not the constant 0, 1 or 2",
                        inst,
                    ));
                };
                self.shfl_value(ShflMode::Bfly, &vals[0], Src::imm(dir + 1), WHOLE_WARP)
            }
            S::Arithmetic(rop, group) => {
                let cluster = match group {
                    GroupOperation::ClusteredReduce => match scalar(self, 1)? {
                        Comp::Const(n) if n.is_power_of_two() => Some(n.min(32)),
                        _ => {
                            return Err(self.unsupported(
                                "a cluster size that is not a constant power of two",
                                inst,
                            ));
                        }
                    },
                    _ => None,
                };
                self.subgroup_arithmetic(rop, group, cluster, args[0], &vals[0], inst)?
            }
        })
    }

    /// A SHFL lane/mask/delta operand: an immediate below 32 or a register.
    fn shfl_lane(&mut self, c: Comp) -> Src {
        match c {
            Comp::Const(v) if v < 32 => Src::imm(v),
            other => self.word_reg(other),
        }
    }

    /// The component naming a register source.
    pub(super) fn comp_of(&self, s: Src) -> Comp {
        match s.src {
            crate::isa::SrcRef::Reg(Reg::Virt(r)) => Comp::Reg(VReg::from_u32(r)),
            crate::isa::SrcRef::Imm(v) => Comp::Const(v),
            _ => Comp::Const(0),
        }
    }

    /// Whether every executing lane holds the same `v` (every component):
    /// booleans by VOTE.EQ; numbers compared, as their type compares, with
    /// the lowest executing lane's value, then VOTE.ALL.
    fn all_equal(&mut self, v: Value, comps: &[Comp]) -> Comp {
        let float = matches!(
            self.sh.value_type(v),
            Type::Scalar(Scalar::Float { .. })
                | Type::Vector {
                    scalar: Scalar::Float { .. },
                    ..
                }
        );
        let active = self.ballot(PredSrc::TRUE);
        let first = self.lowest_lane(active);
        let mut same = PredSrc::TRUE;
        for &c in comps {
            let p = match c {
                Comp::Bool(_) => continue,
                Comp::Pred(p) => {
                    // VOTE.EQ: all true or all false.
                    let r = self.vote(VoteMode::Eq, p.pred());
                    self.pred(r).unwrap_or(PredSrc::TRUE)
                }
                _ => {
                    let x = self.word_reg(c);
                    let f = self.shfl(ShflMode::Idx, x, first, WHOLE_WARP);
                    let eq = if float {
                        self.alu(Op::FSetP(OpFSetP {
                            dst: Dst::None,
                            cmp: FloatCmp::OrdEq,
                            combine: PredCombine::And,
                            ftz: false,
                            srcs: [x, f],
                            accum: PredSrc::TRUE,
                        }))
                    } else {
                        self.alu(Op::ISetP(OpISetP {
                            dst: Dst::None,
                            cmp: IntCmp::Eq,
                            signed: false,
                            combine: PredCombine::And,
                            srcs: [x, f],
                            accum: PredSrc::TRUE,
                        }))
                    };
                    let eq = self.pred(eq).unwrap_or(PredSrc::TRUE);
                    let all = self.vote(VoteMode::All, eq);
                    self.pred(all).unwrap_or(PredSrc::TRUE)
                }
            };
            same = if same == PredSrc::TRUE {
                p
            } else {
                let r = self.f.new_vreg(RegFile::Pred);
                self.emit(Instr::new(Op::PLop3(crate::isa::OpPLop3 {
                    dst: r.dst(),
                    srcs: [same, p, PredSrc::TRUE],
                    lut: 0xc0,
                })));
                r.pred()
            };
        }
        match same.reg {
            Some(r) if !same.neg => VReg::from_reg(r)
                .and_then(|v| self.f.as_pred(v))
                .map_or(Comp::Bool(true), Comp::Pred),
            _ => Comp::Bool(true),
        }
    }

    /// Bit `index` of a ballot (`u32x4`): the word `index / 32`, shifted.
    fn ballot_bit(&mut self, ballot: &[Comp], index: Comp) -> Comp {
        let (word, shift) = match index {
            Comp::Const(i) => {
                let w = ballot
                    .get((i / 32) as usize)
                    .copied()
                    .unwrap_or(Comp::Const(0));
                (self.word_reg(w), Src::imm(i % 32))
            }
            _ => {
                let i = self.word_reg(index);
                // Pick the word by the index's bits 5 and 6.
                let mut word = self.word_reg(ballot[0]);
                for (k, &w) in ballot.iter().enumerate().skip(1) {
                    let hi = self.alu(Op::Shf(crate::isa::OpShf {
                        dst: Dst::None,
                        srcs: [i, Src::imm(5), Src::ZERO],
                        right: true,
                        wrap: false,
                        high: false,
                    }));
                    let hi = self.src_of(hi);
                    let is_k = self.alu(Op::ISetP(OpISetP {
                        dst: Dst::None,
                        cmp: IntCmp::Eq,
                        signed: false,
                        combine: PredCombine::And,
                        srcs: [hi, Src::imm(k as u32)],
                        accum: PredSrc::TRUE,
                    }));
                    let wk = self.word_reg(w);
                    let sel = self.select(is_k, wk, word);
                    word = self.src_of(sel);
                }
                let low = self.alu(Op::Lop3(OpLop3 {
                    dst: Dst::None,
                    srcs: [i, Src::imm(31), Src::ZERO],
                    lut: OpLop3::A & OpLop3::B,
                }));
                (word, self.src_of(low))
            }
        };
        let shifted = self.alu(Op::Shf(crate::isa::OpShf {
            dst: Dst::None,
            srcs: [word, shift, Src::ZERO],
            right: true,
            wrap: false,
            high: false,
        }));
        let shifted = self.src_of(shifted);
        let bit = self.alu(Op::Lop3(OpLop3 {
            dst: Dst::None,
            srcs: [shifted, Src::imm(1), Src::ZERO],
            lut: OpLop3::A & OpLop3::B,
        }));
        let bit = self.src_of(bit);
        self.nonzero(bit)
    }
}
