//! OpGroupNonUniform arithmetic: reductions, inclusive and exclusive
//! scans and clustered reductions of add, multiply, min, max and the
//! bitwise and logical ops, on 32-bit integers, floats and booleans.
//!
//! - Integer add/min/max/and/or/xor reductions of the whole subgroup are
//!   one `REDUX` where the target has it (SM80 on; PTX's redux.sync needs
//!   sm_80, and ptxas emits REDUX.SUM/MAX on sm_90, docs/HARDWARE.md).
//!   REDUX reduces over the executing lanes, so inactive lanes need
//!   nothing more.
//! - Everything else runs a SHFL ladder when all 32 lanes execute:
//!   butterflies (`SHFL.BFLY` by 16, 8, .. 1, or from half the cluster
//!   size) for reductions, so every lane combines the same values in the
//!   same order and gets the same bits; `SHFL.UP` by 1, 2, .. 16 with the
//!   in-range predicate for scans (Kogge-Stone), an exclusive scan being
//!   the inclusive one moved up a lane.
//! - When some lanes do not execute (divergent control flow, a partial
//!   last warp), a ladder would read their registers, which hold no
//!   invocation's value. Then a loop walks the executing lanes in
//!   ascending order (the ballot, lowest bit first): each round every lane
//!   reads that lane's value (`SHFL.IDX` from an executing lane) and
//!   combines it when the lane counts for it (all lanes for a reduction,
//!   those below or at it for a scan, its own cluster for a clustered
//!   reduction). The branch between the two is uniform over the executing
//!   lanes (it tests their ballot), so it needs no convergence barrier.

use super::subgroup_ops::WHOLE_WARP;
use super::{Comp, Isel};
use crate::error::BackendError;
use crate::isa::{
    Dst, FloatArith, Instr, IntCmp, Op, OpBra, OpFArith, OpFMnMx, OpIAdd3, OpIMad, OpIMnMx,
    OpISetP, OpLop3, OpRedux, OpShfl, PredCombine, PredSrc, ReduxOp, Reg, RegFile, Round, ShflMode,
    SpecialReg, Src, Target,
};
use spvsass_frontend::ir::{GroupOperation, InstData, ReduceOp, Scalar, Type, Value};

/// The combining operation on 32-bit words.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Combine {
    IAdd,
    IMul,
    FAdd,
    FMul,
    IMin { signed: bool },
    IMax { signed: bool },
    FMin,
    FMax,
    And,
    Or,
    Xor,
}

impl Combine {
    fn of(op: ReduceOp) -> Combine {
        match op {
            ReduceOp::IAdd => Combine::IAdd,
            ReduceOp::IMul => Combine::IMul,
            ReduceOp::FAdd => Combine::FAdd,
            ReduceOp::FMul => Combine::FMul,
            ReduceOp::SMin => Combine::IMin { signed: true },
            ReduceOp::UMin => Combine::IMin { signed: false },
            ReduceOp::SMax => Combine::IMax { signed: true },
            ReduceOp::UMax => Combine::IMax { signed: false },
            ReduceOp::FMin => Combine::FMin,
            ReduceOp::FMax => Combine::FMax,
            ReduceOp::And | ReduceOp::LogicalAnd => Combine::And,
            ReduceOp::Or | ReduceOp::LogicalOr => Combine::Or,
            ReduceOp::Xor | ReduceOp::LogicalXor => Combine::Xor,
        }
    }

    /// The identity SPIR-V gives each operation (0.0 for a float add).
    fn identity(self) -> u32 {
        match self {
            Combine::IAdd | Combine::Or | Combine::Xor | Combine::FAdd => 0,
            Combine::IMax { signed: false } => 0,
            Combine::IMul => 1,
            Combine::FMul => 1.0f32.to_bits(),
            Combine::IMin { signed: true } => i32::MAX as u32,
            Combine::IMin { signed: false } | Combine::And => u32::MAX,
            Combine::IMax { signed: true } => i32::MIN as u32,
            Combine::FMin => f32::INFINITY.to_bits(),
            Combine::FMax => f32::NEG_INFINITY.to_bits(),
        }
    }

    fn redux(self) -> Option<(ReduxOp, bool)> {
        Some(match self {
            Combine::IAdd => (ReduxOp::Sum, false),
            Combine::IMin { signed } => (ReduxOp::Min, signed),
            Combine::IMax { signed } => (ReduxOp::Max, signed),
            Combine::And => (ReduxOp::And, false),
            Combine::Or => (ReduxOp::Or, false),
            Combine::Xor => (ReduxOp::Xor, false),
            _ => return None,
        })
    }
}

impl Isel<'_> {
    /// `a op b`; `a` a register.
    fn combine(&mut self, op: Combine, a: Src, b: Src) -> Src {
        let farith = |kind| {
            Op::FArith(OpFArith {
                kind,
                dst: Dst::None,
                srcs: [a, b, Src::ZERO],
                ftz: false,
                rnd: Round::Rn,
            })
        };
        let lop = |lut| {
            Op::Lop3(OpLop3 {
                dst: Dst::None,
                srcs: [a, b, Src::ZERO],
                lut,
            })
        };
        let c = match op {
            Combine::IAdd => self.alu(Op::IAdd3(OpIAdd3 {
                dst: Dst::None,
                srcs: [a, b, Src::ZERO],
            })),
            Combine::IMul => self.alu(Op::IMad(OpIMad {
                dst: Dst::None,
                srcs: [a, b, Src::ZERO],
                signed: false,
            })),
            Combine::FAdd => self.alu(farith(FloatArith::Add)),
            Combine::FMul => self.alu(farith(FloatArith::Mul)),
            Combine::And => self.alu(lop(OpLop3::A & OpLop3::B)),
            Combine::Or => self.alu(lop(OpLop3::A | OpLop3::B)),
            Combine::Xor => self.alu(lop(OpLop3::A ^ OpLop3::B)),
            Combine::IMin { signed } | Combine::IMax { signed } => {
                let min = matches!(op, Combine::IMin { .. });
                let a = self.reg_src(a);
                return self.warp_def(|dst| {
                    Op::IMnMx(OpIMnMx {
                        dst,
                        srcs: [a, b],
                        signed,
                        min: super::atomics::min_flag(min),
                    })
                });
            }
            Combine::FMin | Combine::FMax => {
                let a = self.reg_src(a);
                return self.warp_def(|dst| {
                    Op::FMnMx(OpFMnMx {
                        dst,
                        srcs: [a, b],
                        ftz: false,
                        min: super::atomics::min_flag(op == Combine::FMin),
                    })
                });
            }
        };
        let c = self.src_of(c);
        self.reg_src(c)
    }

    /// `s` in a register (RZ for zero).
    fn reg_src(&mut self, s: Src) -> Src {
        match s.src {
            crate::isa::SrcRef::Imm(v) => self.reg_or_zero(Comp::Const(v)),
            _ => s,
        }
    }

    /// `SHFL` that also returns the in-range predicate.
    fn shfl_checked(&mut self, mode: ShflMode, src: Src, lane: u32, c: u32) -> (Src, PredSrc) {
        let p = self.f.new_vreg(RegFile::Pred);
        let v = self.warp_def(|dst| {
            Op::Shfl(OpShfl {
                dst,
                in_bounds: Dst::Reg(Reg::Virt(p)),
                src,
                lane: Src::imm(lane),
                c: Src::imm(c),
                mode,
            })
        });
        (v, PredSrc::reg(Reg::Virt(p)))
    }

    fn sel(&mut self, cond: PredSrc, a: Src, b: Src) -> Src {
        let a = self.reg_src(a);
        let r = self.alu(Op::Sel(crate::isa::OpSel {
            dst: Dst::None,
            srcs: [a, b],
            cond,
        }));
        self.src_of(r)
    }

    /// The ladder over a full warp (module comment).
    fn ladder(&mut self, op: Combine, group: GroupOperation, cluster: u32, x: Src) -> Src {
        let mut x = x;
        match group {
            GroupOperation::Reduce | GroupOperation::ClusteredReduce => {
                let mut d = cluster / 2;
                while d > 0 {
                    let t = self.shfl(ShflMode::Bfly, x, Src::imm(d), WHOLE_WARP);
                    x = self.combine(op, x, t);
                    d /= 2;
                }
            }
            GroupOperation::InclusiveScan | GroupOperation::ExclusiveScan => {
                let mut d = 1;
                while d < 32 {
                    let (t, ok) = self.shfl_checked(ShflMode::Up, x, d, 0);
                    let y = self.combine(op, x, t);
                    x = self.sel(ok, y, x);
                    d *= 2;
                }
                if group == GroupOperation::ExclusiveScan {
                    let (t, ok) = self.shfl_checked(ShflMode::Up, x, 1, 0);
                    x = self.sel(ok, t, Src::imm(op.identity()));
                }
            }
        }
        x
    }

    /// The loop over the executing lanes (module comment); `head` holds
    /// it, leaving through `exit`. Returns the combined values.
    fn lane_loop(
        &mut self,
        op: Combine,
        group: GroupOperation,
        cluster: u32,
        xs: &[Src],
        active: Src,
        [head, latch, exit]: [usize; 3],
    ) -> Vec<u32> {
        let mut init = Vec::new();
        for _ in xs {
            init.push(self.materialize(Comp::Const(op.identity())));
        }
        let rem0 = self.materialize(self.comp_of(active));
        init.push(rem0);
        self.bra_to(head, init);
        self.cur = head;
        let accs: Vec<u32> = xs.iter().map(|_| self.f.new_vreg(RegFile::Gpr)).collect();
        let rem = self.f.new_vreg(RegFile::Gpr);
        let mut params = accs.clone();
        params.push(rem);
        self.f.blocks[head].params = params;
        let rem_src = Src::reg(Reg::Virt(rem));
        let j = self.lowest_lane(rem_src);
        let lane = self.sr_src(SpecialReg::LaneId);
        let cmp = |isel: &mut Self, cmp, a: Src, b: Src| {
            let c = isel.alu(Op::ISetP(OpISetP {
                dst: Dst::None,
                cmp,
                signed: false,
                combine: PredCombine::And,
                srcs: [a, b],
                accum: PredSrc::TRUE,
            }));
            isel.pred(c).unwrap_or(PredSrc::TRUE)
        };
        let counts = match group {
            GroupOperation::Reduce => None,
            GroupOperation::InclusiveScan => Some(cmp(self, IntCmp::Le, j, lane)),
            GroupOperation::ExclusiveScan => Some(cmp(self, IntCmp::Lt, j, lane)),
            GroupOperation::ClusteredReduce => {
                let diff = self.alu(Op::Lop3(OpLop3 {
                    dst: Dst::None,
                    srcs: [j, lane, Src::ZERO],
                    lut: OpLop3::A ^ OpLop3::B,
                }));
                let diff = self.src_of(diff);
                Some(cmp(self, IntCmp::Lt, diff, Src::imm(cluster)))
            }
        };
        let mut next = Vec::new();
        for (&x, &acc) in xs.iter().zip(&accs) {
            let acc = Src::reg(Reg::Virt(acc));
            let v = self.shfl(ShflMode::Idx, x, j, WHOLE_WARP);
            let c = self.combine(op, acc, v);
            let c = match counts {
                Some(p) => self.sel(p, c, acc),
                None => c,
            };
            next.push(self.materialize(self.comp_of(c)));
        }
        let less = self.alu(Op::IAdd3(OpIAdd3 {
            dst: Dst::None,
            srcs: [rem_src, Src::imm(u32::MAX), Src::ZERO],
        }));
        let less = self.src_of(less);
        let rest = self.alu(Op::Lop3(OpLop3 {
            dst: Dst::None,
            srcs: [rem_src, less, Src::ZERO],
            lut: OpLop3::A & OpLop3::B,
        }));
        let rest_src = self.src_of(rest);
        let done = cmp(self, IntCmp::Eq, rest_src, Src::ZERO);
        self.emit(Instr::guarded(
            done,
            Op::Bra(OpBra {
                target: Target::Block(exit as u32),
            }),
        ));
        self.f.add_edge(head, exit, Vec::new());
        self.f.add_edge(head, latch, Vec::new());
        self.cur = latch;
        let mut back = next.clone();
        back.push(self.materialize(rest));
        self.bra_to(head, back);
        self.cur = exit;
        next
    }

    fn bra_to(&mut self, to: usize, args: Vec<u32>) {
        self.emit(Instr::new(Op::Bra(OpBra {
            target: Target::Block(to as u32),
        })));
        self.f.add_edge(self.cur, to, args);
    }

    /// A subgroup reduction or scan of `v` (components `comps`).
    pub(super) fn subgroup_arithmetic(
        &mut self,
        rop: ReduceOp,
        group: GroupOperation,
        cluster: Option<u32>,
        v: Value,
        comps: &[Comp],
        inst: &InstData,
    ) -> Result<Vec<Comp>, BackendError> {
        let wide = match self.sh.value_type(v) {
            Type::Scalar(s) | Type::Vector { scalar: s, .. } => s.size() > 4,
            _ => true,
        };
        if wide
            || matches!(
                self.sh.value_type(v),
                Type::Scalar(Scalar::Int { bits: 8 | 16, .. })
            )
        {
            return Err(self.unsupported(
                format!(
                    "subgroup arithmetic on {} (32-bit scalars and vectors only)",
                    self.sh.type_name(self.sh.values[v].ty)
                ),
                inst,
            ));
        }
        let op = Combine::of(rop);
        let boolean = matches!(
            rop,
            ReduceOp::LogicalAnd | ReduceOp::LogicalOr | ReduceOp::LogicalXor
        );
        let cluster = cluster.unwrap_or(32);
        let group = if group == GroupOperation::ClusteredReduce && cluster == 32 {
            GroupOperation::Reduce
        } else {
            group
        };
        if cluster == 1 {
            // A cluster of one invocation: the value itself.
            return Ok(comps.to_vec());
        }
        let xs: Vec<Src> = comps.iter().map(|&c| self.word_reg(c)).collect();
        let words: Vec<Src> = match op.redux() {
            Some((rop, signed))
                if group == GroupOperation::Reduce
                    && self.target.has_redux()
                    && self.invocation_lanes().is_none() =>
            {
                xs.iter()
                    .map(|&src| {
                        self.warp_def(|dst| {
                            Op::Redux(OpRedux {
                                dst,
                                src,
                                op: rop,
                                signed,
                            })
                        })
                    })
                    .collect()
            }
            _ => self.ladder_or_loop(op, group, cluster, &xs),
        };
        Ok(words
            .into_iter()
            .map(|w| {
                if boolean {
                    self.nonzero(w)
                } else {
                    self.comp_of(w)
                }
            })
            .collect())
    }

    /// The ladder when every lane executes, else the loop; the results
    /// join in a block of their own, where selection goes on.
    fn ladder_or_loop(
        &mut self,
        op: Combine,
        group: GroupOperation,
        cluster: u32,
        xs: &[Src],
    ) -> Vec<Src> {
        let active = self.ballot(PredSrc::TRUE);
        let full = self.alu(Op::ISetP(OpISetP {
            dst: Dst::None,
            cmp: IntCmp::Eq,
            signed: false,
            combine: PredCombine::And,
            srcs: [active, Src::imm(u32::MAX)],
            accum: PredSrc::TRUE,
        }));
        let mut partial = self.pred(full).unwrap_or(PredSrc::TRUE);
        partial.neg = !partial.neg;
        let blocks: [usize; 6] = std::array::from_fn(|_| self.f.new_block());
        let [fast, slow, head, latch, exit, join] = blocks;
        self.split_off.entry(self.cur).or_default().extend(blocks);
        self.emit(Instr::guarded(
            partial,
            Op::Bra(OpBra {
                target: Target::Block(slow as u32),
            }),
        ));
        self.f.add_edge(self.cur, slow, Vec::new());
        self.f.add_edge(self.cur, fast, Vec::new());
        self.cur = fast;
        let mut fast_out = Vec::new();
        for &x in xs {
            let r = self.ladder(op, group, cluster, x);
            fast_out.push(self.materialize(self.comp_of(r)));
        }
        self.bra_to(join, fast_out);
        self.cur = slow;
        let slow_out = self.lane_loop(op, group, cluster, xs, active, [head, latch, exit]);
        self.bra_to(join, slow_out);
        self.cur = join;
        let results: Vec<u32> = xs.iter().map(|_| self.f.new_vreg(RegFile::Gpr)).collect();
        self.f.blocks[join].params = results.clone();
        results
            .into_iter()
            .map(|r| Src::reg(Reg::Virt(r)))
            .collect()
    }
}
