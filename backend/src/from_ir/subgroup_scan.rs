//! OpGroupNonUniform arithmetic: reductions, inclusive and exclusive
//! scans and clustered reductions of add, multiply, min, max and the
//! bitwise and logical ops, on 32-bit integers, floats and booleans, and
//! on 64-bit integers, doubles and halves.
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
//! - 64-bit integers, doubles and halves ([`Width`]) always take the loop:
//!   each round shuffles every word of the chosen lane's element and
//!   combines whole elements (IADD3 with carry, the 64-bit multiply,
//!   64-bit compares and SELs, DADD/DMUL, the doubles' minNum/maxNum; a
//!   half widened to f32, combined and rounded back to f16 each step, as
//!   f16 arithmetic is elsewhere). One loop of at most 32 rounds rather
//!   than a ladder per word: the project's choice of less code over speed
//!   for these rarer types.

use super::subgroup_ops::WHOLE_WARP;
use super::{Comp, Isel};
use crate::error::BackendError;
use crate::isa::{
    Dst, FloatArith, Instr, IntCmp, Op, OpBra, OpFArith, OpFMnMx, OpIAdd3, OpIMad, OpIMnMx,
    OpISetP, OpLop3, OpRedux, OpShfl, PredCombine, PredSrc, ReduxOp, RegFile, Round, ShflMode,
    SpecialReg, Src,
};
use crate::mir::{BlockId, VReg};
use spvsass_frontend::ir::{CmpOp, GroupOperation, InstData, ReduceOp, Scalar, Type, Value};

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

/// The element a subgroup operation combines.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Width {
    /// A 32-bit integer, float or boolean: one word.
    Word,
    /// An f16 in the low half of a word.
    Half,
    /// A 64-bit integer: two words, low first.
    Long,
    /// A double: two words, low first.
    Double,
}

impl Width {
    fn words(self) -> usize {
        match self {
            Width::Word | Width::Half => 1,
            Width::Long | Width::Double => 2,
        }
    }

    /// The identity SPIR-V gives `op` on this element, as its words.
    fn identity(self, op: Combine) -> Vec<u32> {
        match self {
            Width::Word => vec![op.identity()],
            Width::Half => vec![match op {
                Combine::FMul => 0x3c00,
                Combine::FMin => 0x7c00,
                Combine::FMax => 0xfc00,
                Combine::IAdd
                | Combine::IMul
                | Combine::FAdd
                | Combine::IMin { .. }
                | Combine::IMax { .. }
                | Combine::And
                | Combine::Or
                | Combine::Xor => 0,
            }],
            Width::Long | Width::Double => {
                let v: u64 = match op {
                    Combine::IAdd
                    | Combine::Or
                    | Combine::Xor
                    | Combine::FAdd
                    | Combine::IMax { signed: false } => 0,
                    Combine::IMul => 1,
                    Combine::FMul => 1.0f64.to_bits(),
                    Combine::IMin { signed: true } => i64::MAX as u64,
                    Combine::IMin { signed: false } | Combine::And => u64::MAX,
                    Combine::IMax { signed: true } => i64::MIN as u64,
                    Combine::FMin => f64::INFINITY.to_bits(),
                    Combine::FMax => f64::NEG_INFINITY.to_bits(),
                };
                vec![v as u32, (v >> 32) as u32]
            }
        }
    }
}

impl Isel<'_> {
    /// `a op b` on whole elements of `width` (words low first).
    fn combine_elem(
        &mut self,
        op: Combine,
        width: Width,
        a: &[Src],
        b: &[Src],
        inst: &InstData,
    ) -> Result<Vec<Src>, BackendError> {
        let pair = |isel: &Self, x: &[Src]| [isel.comp_of(x[0]), isel.comp_of(x[1])];
        let comps: Vec<Comp> = match (width, op) {
            (Width::Word, _) => return Ok(vec![self.combine(op, a[0], b[0])]),
            (Width::Half, Combine::FAdd | Combine::FMul | Combine::FMin | Combine::FMax) => {
                let x = self.convert_f16_f32(self.comp_of(a[0]));
                let y = self.convert_f16_f32(self.comp_of(b[0]));
                let (x, y) = (self.word_reg(x), self.word_reg(y));
                let r = self.combine(op, x, y);
                let h = self.round_f16(self.comp_of(r));
                vec![h]
            }
            (Width::Long, Combine::IAdd) => {
                let (x, y) = (pair(self, a), pair(self, b));
                self.add64(x, y, false).to_vec()
            }
            (Width::Long, Combine::IMul) => {
                let (x, y) = (pair(self, a), pair(self, b));
                self.mul64(x, y).to_vec()
            }
            (Width::Long, Combine::And | Combine::Or | Combine::Xor) => {
                let lo = self.combine(op, a[0], b[0]);
                let hi = self.combine(op, a[1], b[1]);
                return Ok(vec![lo, hi]);
            }
            (Width::Long, Combine::IMin { signed } | Combine::IMax { signed }) => {
                let (x, y) = (pair(self, a), pair(self, b));
                let cmp = match (matches!(op, Combine::IMin { .. }), signed) {
                    (true, true) => CmpOp::SLt,
                    (true, false) => CmpOp::ULt,
                    (false, true) => CmpOp::SGt,
                    (false, false) => CmpOp::UGt,
                };
                let take_a = self.wide_compare(cmp, &x, &y, inst)?[0];
                self.dselect(take_a, x, y).to_vec()
            }
            (Width::Double, Combine::FAdd | Combine::FMul) => {
                let kind = if op == Combine::FAdd {
                    FloatArith::Add
                } else {
                    FloatArith::Mul
                };
                let (x, y) = (pair(self, a), pair(self, b));
                let zero = [Comp::Const(0); 2];
                self.darith(kind, [x, y, zero], false, Round::Rn).to_vec()
            }
            (Width::Double, Combine::FMin | Combine::FMax) => {
                let (x, y) = (pair(self, a), pair(self, b));
                self.dminmax(op == Combine::FMax, x, y).to_vec()
            }
            (Width::Half | Width::Long | Width::Double, _) => {
                return Err(self.unsupported(
                    "a subgroup operation that does not fit its operand type",
                    inst,
                ));
            }
        };
        Ok(comps.into_iter().map(|c| self.word_reg(c)).collect())
    }

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
                in_bounds: p.dst(),
                src,
                lane: Src::imm(lane),
                c: Src::imm(c),
                mode,
            })
        });
        (v, p.pred())
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
    /// it, leaving through `exit`. `elems` are the operand's elements, each
    /// its words. Returns the combined words, element by element.
    #[allow(clippy::too_many_arguments)]
    fn lane_loop(
        &mut self,
        op: Combine,
        width: Width,
        group: GroupOperation,
        cluster: u32,
        elems: &[Vec<Src>],
        active: Src,
        [head, latch, exit]: [BlockId; 3],
        inst: &InstData,
    ) -> Result<Vec<VReg>, BackendError> {
        let identity = width.identity(op);
        let mut init = Vec::new();
        for _ in elems {
            for &w in &identity {
                init.push(self.materialize(Comp::Const(w)));
            }
        }
        let rem0 = self.materialize(self.comp_of(active));
        init.push(rem0);
        self.bra_to(head, init);
        self.cur = head;
        let accs: Vec<Vec<VReg>> = elems
            .iter()
            .map(|e| e.iter().map(|_| self.f.new_vreg(RegFile::Gpr)).collect())
            .collect();
        let rem = self.f.new_vreg(RegFile::Gpr);
        let mut params: Vec<VReg> = accs.iter().flatten().copied().collect();
        params.push(rem);
        self.f.blocks[head].params = params;
        let rem_src = rem.src();
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
        for (x, acc) in elems.iter().zip(&accs) {
            let acc: Vec<Src> = acc.iter().map(|&r| r.src()).collect();
            let v: Vec<Src> = x
                .iter()
                .map(|&w| self.shfl(ShflMode::Idx, w, j, WHOLE_WARP))
                .collect();
            let c = self.combine_elem(op, width, &acc, &v, inst)?;
            for (&c, &a) in c.iter().zip(&acc) {
                let c = match counts {
                    Some(p) => self.sel(p, c, a),
                    None => c,
                };
                next.push(self.materialize(self.comp_of(c)));
            }
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
                target: exit.target(),
            }),
        ));
        self.f.add_edge(head, exit, Vec::new());
        self.f.add_edge(head, latch, Vec::new());
        self.cur = latch;
        let mut back = next.clone();
        back.push(self.materialize(rest));
        self.bra_to(head, back);
        self.cur = exit;
        Ok(next)
    }

    /// The loop alone, for 64-bit and 16-bit elements: its results are
    /// the exit block's values, where selection goes on.
    fn loop_only(
        &mut self,
        op: Combine,
        width: Width,
        group: GroupOperation,
        cluster: u32,
        elems: &[Vec<Src>],
        inst: &InstData,
    ) -> Result<Vec<Src>, BackendError> {
        let active = self.ballot(PredSrc::TRUE);
        let blocks: [BlockId; 3] = std::array::from_fn(|_| self.f.new_block());
        self.split_off.entry(self.cur).or_default().extend(blocks);
        let out = self.lane_loop(op, width, group, cluster, elems, active, blocks, inst)?;
        Ok(out.into_iter().map(|r| r.src()).collect())
    }

    fn bra_to(&mut self, to: BlockId, args: Vec<VReg>) {
        self.emit(Instr::new(Op::Bra(OpBra {
            target: to.target(),
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
        let width = match self.sh.value_type(v) {
            Type::Scalar(s) | Type::Vector { scalar: s, .. } => match s {
                Scalar::Float { bits: 16 } => Some(Width::Half),
                Scalar::Float { bits: 64 } => Some(Width::Double),
                Scalar::Int { bits: 64, .. } => Some(Width::Long),
                Scalar::Int { bits: 8 | 16, .. } => None,
                _ if s.size() == 4 || *s == Scalar::Bool => Some(Width::Word),
                _ => None,
            },
            _ => None,
        };
        let Some(width) = width else {
            return Err(self.unsupported(
                format!(
                    "subgroup arithmetic on {} (32- and 64-bit integers, floats of 16, 32 \
                     and 64 bits and booleans only)",
                    self.sh.type_name(self.sh.values[v].ty)
                ),
                inst,
            ));
        };
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
        if width != Width::Word {
            let elems: Vec<Vec<Src>> = xs.chunks(width.words()).map(<[Src]>::to_vec).collect();
            let words = self.loop_only(op, width, group, cluster, &elems, inst)?;
            return Ok(words.into_iter().map(|w| self.comp_of(w)).collect());
        }
        let words: Vec<Src> = match op.redux() {
            Some((rop, signed))
                if group == GroupOperation::Reduce
                    && self.redux
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
            _ => self.ladder_or_loop(op, group, cluster, &xs, inst)?,
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
        inst: &InstData,
    ) -> Result<Vec<Src>, BackendError> {
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
        let blocks: [BlockId; 6] = std::array::from_fn(|_| self.f.new_block());
        let [fast, slow, head, latch, exit, join] = blocks;
        self.split_off.entry(self.cur).or_default().extend(blocks);
        self.emit(Instr::guarded(
            partial,
            Op::Bra(OpBra {
                target: slow.target(),
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
        let elems: Vec<Vec<Src>> = xs.iter().map(|&x| vec![x]).collect();
        let slow_out = self.lane_loop(
            op,
            Width::Word,
            group,
            cluster,
            &elems,
            active,
            [head, latch, exit],
            inst,
        )?;
        self.bra_to(join, slow_out);
        self.cur = join;
        let results: Vec<VReg> = xs.iter().map(|_| self.f.new_vreg(RegFile::Gpr)).collect();
        self.f.blocks[join].params = results.clone();
        Ok(results.into_iter().map(|r| r.src()).collect())
    }
}
