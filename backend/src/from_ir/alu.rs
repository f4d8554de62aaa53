//! Arithmetic, comparisons, conversions and composites: IR ops onto ALU
//! instructions, component by component, folded when every source is
//! constant.

use super::narrow_int;
use super::places::sub_range;
use super::wide_int;
use super::{Comp, Isel};
use crate::error::BackendError;
use crate::fold::{Folded, fold};
use crate::isa::{
    Alu, AluVisitor, AluVisitorMut, ConvKind, Dst, FloatArith, FloatCmp, Instr, IntCmp, Op, OpConv,
    OpFArith, OpFSetP, OpIAdd3, OpIMad, OpISetP, OpLop3, OpSel, OpShf, PredCombine, PredSrc,
    RegFile, Round, Src, SrcRef,
};
use crate::mir::VReg;
use spvsass_frontend::ir::{self, BinaryOp, CmpOp, ConvOp, InstData, Scalar, Type, UnaryOp};

/// Sets the destination of an ALU op.
fn set_alu_dst(op: &mut Op, d: Dst) {
    if let Some(dst) = op.alu_dst_mut() {
        *dst = d;
    } else if let Op::IMadWide(o) = op
        && o.hi
    {
        o.dst = d;
    } else {
        unreachable!("alu() takes ALU ops")
    }
}

fn is_const(s: &Src) -> bool {
    matches!(s.src, SrcRef::Imm(_) | SrcRef::Zero)
}

impl Isel<'_> {
    /// Emits an ALU op whose destination is filled in here, or folds it.
    /// Legalizes sources first: src0 must be a register, and at most one of
    /// src1/src2 may be an immediate.
    pub(super) fn alu(&mut self, mut op: Op) -> Comp {
        if let Some(f) = fold(&op) {
            return match f {
                Folded::Word(w) => Comp::Const(w),
                Folded::Pred(b) => Comp::Bool(b),
            };
        }
        let pred_dst = matches!(op, Op::ISetP(_) | Op::FSetP(_));
        self.legalize(&mut op);
        let file = if pred_dst {
            RegFile::Pred
        } else {
            RegFile::Gpr
        };
        let r = self.f.new_vreg(file);
        set_alu_dst(&mut op, r.dst());
        self.emit(Instr::new(op));
        if pred_dst {
            Comp::Pred(self.f.as_pred(r).expect("a comparison writes a predicate"))
        } else {
            Comp::Reg(r)
        }
    }

    /// Emits a GPR-writing ALU op into the given virtual register (a member
    /// of a register group); a folded result is moved there.
    pub(super) fn alu_to(&mut self, mut op: Op, r: VReg) {
        let d = r.dst();
        if let Some(Folded::Word(w)) = fold(&op) {
            op = Op::Mov(crate::isa::OpMov {
                dst: d,
                src: Src::imm(w),
            });
        } else {
            self.legalize(&mut op);
            set_alu_dst(&mut op, d);
        }
        self.emit(Instr::new(op));
    }

    /// Moves constants out of slots that cannot hold them.
    fn legalize(&mut self, op: &mut Op) {
        let float = op.alu(FloatSrcs).unwrap_or(false);
        let srcs: &mut [Src] = match op {
            Op::IMadWide(o) => &mut o.srcs,
            op => match op.alu_mut(LiveSrcs) {
                // One source sits in the slot that takes any form.
                Some(srcs) if srcs.len() >= 2 => srcs,
                _ => return,
            },
        };
        if let SrcRef::Imm(v) = srcs[0].src {
            let r = self.reg_or_zero(Comp::Const(v));
            srcs[0] = Src {
                src: r.src,
                ..srcs[0]
            };
        }
        if srcs.len() == 3
            && matches!(srcs[1].src, SrcRef::Imm(_))
            && matches!(srcs[2].src, SrcRef::Imm(_))
            && let SrcRef::Imm(v) = srcs[2].src
        {
            let r = self.reg_or_zero(Comp::Const(v));
            srcs[2] = Src {
                src: r.src,
                ..srcs[2]
            };
        }
        // An immediate cannot carry a modifier: fold a negation into it.
        for s in srcs.iter_mut() {
            if let (SrcRef::Imm(v), true) = (s.src, s.neg) {
                *s = Src::imm(if float {
                    v ^ 0x8000_0000
                } else {
                    v.wrapping_neg()
                });
            }
        }
    }

    fn src(&mut self, c: Comp) -> Src {
        self.src_of(c)
    }

    pub(super) fn pred(&self, c: Comp) -> Option<PredSrc> {
        match c {
            Comp::Pred(p) => Some(p.pred()),
            Comp::Bool(true) => Some(PredSrc::TRUE),
            Comp::Bool(false) => Some(PredSrc {
                reg: None,
                neg: true,
            }),
            _ => None,
        }
    }

    /// Puts a constant first operand second when the op allows it.
    fn commute(a: Src, b: Src) -> (Src, Src) {
        if is_const(&a) && !is_const(&b) {
            (b, a)
        } else {
            (a, b)
        }
    }

    fn lop(&mut self, a: Src, b: Src, c: Src, lut: u8) -> Comp {
        self.alu(Op::Lop3(OpLop3 {
            dst: Dst::None,
            srcs: [a, b, c],
            lut,
        }))
    }

    pub(super) fn binary(
        &mut self,
        op: BinaryOp,
        a: Comp,
        b: Comp,
        inst: &InstData,
    ) -> Result<Comp, BackendError> {
        match op {
            BinaryOp::LogicalAnd | BinaryOp::LogicalOr => {
                return Ok(self.logical(op == BinaryOp::LogicalAnd, a, b));
            }
            BinaryOp::UDiv => return Ok(self.udiv_rem(a, b).0),
            BinaryOp::UMod => return Ok(self.udiv_rem(a, b).1),
            BinaryOp::SDiv => return Ok(self.sdiv_rem(a, b, false).0),
            BinaryOp::SRem => return Ok(self.sdiv_rem(a, b, false).1),
            BinaryOp::SMod => return Ok(self.sdiv_rem(a, b, true).1),
            BinaryOp::FDiv
            | BinaryOp::FRem
            | BinaryOp::FMod
            | BinaryOp::FMin
            | BinaryOp::FMax
            | BinaryOp::ShrArithmetic => return self.float_binary(op, a, b, inst),
            _ => {}
        }
        let (a, b) = (self.src(a), self.src(b));
        let iadd = |a: Src, b: Src| {
            Op::IAdd3(OpIAdd3 {
                dst: Dst::None,
                srcs: [a, b, Src::ZERO],
            })
        };
        let farith = |kind, a: Src, b: Src| {
            Op::FArith(OpFArith {
                kind,
                dst: Dst::None,
                srcs: [a, b, Src::ZERO],
                ftz: false,
                rnd: Round::Rn,
            })
        };
        let shf = |a: Src, s: Src, right| {
            Op::Shf(OpShf {
                dst: Dst::None,
                srcs: [a, s, Src::ZERO],
                right,
                wrap: false,
                high: false,
            })
        };
        Ok(match op {
            BinaryOp::IAdd => {
                let (a, b) = Self::commute(a, b);
                self.alu(iadd(a, b))
            }
            BinaryOp::ISub => self.alu(iadd(a, b.negated())),
            BinaryOp::IMul => {
                let (a, b) = Self::commute(a, b);
                self.alu(Op::IMad(OpIMad {
                    dst: Dst::None,
                    srcs: [a, b, Src::ZERO],
                    signed: false,
                }))
            }
            BinaryOp::And | BinaryOp::Or | BinaryOp::Xor => {
                let (a, b) = Self::commute(a, b);
                let lut = match op {
                    BinaryOp::And => OpLop3::A & OpLop3::B,
                    BinaryOp::Or => OpLop3::A | OpLop3::B,
                    _ => OpLop3::A ^ OpLop3::B,
                };
                self.lop(a, b, Src::ZERO, lut)
            }
            BinaryOp::Shl => self.alu(shf(a, b, false)),
            BinaryOp::ShrLogical => self.alu(shf(a, b, true)),
            BinaryOp::FAdd => {
                let (a, b) = Self::commute(a, b);
                self.alu(farith(FloatArith::Add, a, b))
            }
            BinaryOp::FSub => self.alu(farith(FloatArith::Add, a, b.negated())),
            BinaryOp::FMul => {
                let (a, b) = Self::commute(a, b);
                self.alu(farith(FloatArith::Mul, a, b))
            }
            BinaryOp::UMin | BinaryOp::UMax | BinaryOp::SMin | BinaryOp::SMax => {
                let signed = matches!(op, BinaryOp::SMin | BinaryOp::SMax);
                let cmp = if matches!(op, BinaryOp::UMin | BinaryOp::SMin) {
                    IntCmp::Lt
                } else {
                    IntCmp::Gt
                };
                let p = self.int_cmp(cmp, signed, a, b);
                self.select(p, a, b)
            }
            _ => return Err(self.unsupported("this arithmetic operation", inst)),
        })
    }

    /// `a && b` or `a || b` on booleans: `a` as 0 or 1 in a register, then
    /// ISETP.NE combined with `b`. (PLOP3 would take one instruction; the
    /// selector does not emit it yet.)
    fn logical(&mut self, and: bool, a: Comp, b: Comp) -> Comp {
        match (a, b) {
            (Comp::Bool(x), other) | (other, Comp::Bool(x)) => {
                return match (and, x) {
                    (true, true) | (false, false) => other,
                    (true, false) => Comp::Bool(false),
                    (false, true) => Comp::Bool(true),
                };
            }
            _ => {}
        }
        let a = self.select(a, Src::imm(1), Src::ZERO);
        let a = self.src(a);
        let accum = self.pred(b).unwrap_or(PredSrc::TRUE);
        self.alu(Op::ISetP(OpISetP {
            dst: Dst::None,
            cmp: IntCmp::Ne,
            signed: false,
            combine: if and {
                PredCombine::And
            } else {
                PredCombine::Or
            },
            srcs: [a, Src::ZERO],
            accum,
        }))
    }

    /// `a == b` (or `!=`) on booleans: `a` as 0 or 1, then ISETP.EQ (NE)
    /// against zero, XOR-combined with `b`: (a == 0) ^ b is a == b.
    fn logical_eq(&mut self, eq: bool, a: Comp, b: Comp) -> Comp {
        if let (Comp::Bool(x), Comp::Bool(y)) = (a, b) {
            return Comp::Bool((x == y) == eq);
        }
        let (a, b) = if matches!(a, Comp::Bool(_)) {
            (b, a)
        } else {
            (a, b)
        };
        let a = self.select(a, Src::imm(1), Src::ZERO);
        let a = self.src(a);
        let accum = self.pred(b).unwrap_or(PredSrc::TRUE);
        self.alu(Op::ISetP(OpISetP {
            dst: Dst::None,
            cmp: if eq { IntCmp::Eq } else { IntCmp::Ne },
            signed: false,
            combine: PredCombine::Xor,
            srcs: [a, Src::ZERO],
            accum,
        }))
    }

    pub(super) fn int_cmp(&mut self, cmp: IntCmp, signed: bool, a: Src, b: Src) -> Comp {
        let (a, b, cmp) = if is_const(&a) && !is_const(&b) {
            (b, a, flip_int(cmp))
        } else {
            (a, b, cmp)
        };
        self.alu(Op::ISetP(OpISetP {
            dst: Dst::None,
            cmp,
            signed,
            combine: PredCombine::And,
            srcs: [a, b],
            accum: PredSrc::TRUE,
        }))
    }

    fn float_cmp(&mut self, cmp: FloatCmp, a: Src, b: Src) -> Comp {
        let (a, b, cmp) = if is_const(&a) && !is_const(&b) {
            (b, a, flip_float(cmp))
        } else {
            (a, b, cmp)
        };
        self.alu(Op::FSetP(OpFSetP {
            dst: Dst::None,
            cmp,
            combine: PredCombine::And,
            ftz: false,
            srcs: [a, b],
            accum: PredSrc::TRUE,
        }))
    }

    /// `cond ? a : b` on 32-bit components.
    pub(super) fn select(&mut self, cond: Comp, a: Src, b: Src) -> Comp {
        let Some(mut p) = self.pred(cond) else {
            return Comp::Const(0);
        };
        let (a, b) = if is_const(&a) && !is_const(&b) {
            p.neg = !p.neg;
            (b, a)
        } else {
            (a, b)
        };
        self.alu(Op::Sel(OpSel {
            dst: Dst::None,
            srcs: [a, b],
            cond: p,
        }))
    }

    pub(super) fn compare(&mut self, op: CmpOp, a: Comp, b: Comp) -> Comp {
        use CmpOp as C;
        // Booleans compare as predicates: no word operands for them (a
        // predicate read as a word is a selection bug, `src_of`).
        if let C::LogicalEq | C::LogicalNe = op {
            return self.logical_eq(op == C::LogicalEq, a, b);
        }
        let (a, b) = (self.src(a), self.src(b));
        match op {
            C::IEq => self.int_cmp(IntCmp::Eq, false, a, b),
            C::INe => self.int_cmp(IntCmp::Ne, false, a, b),
            C::ULt => self.int_cmp(IntCmp::Lt, false, a, b),
            C::ULe => self.int_cmp(IntCmp::Le, false, a, b),
            C::UGt => self.int_cmp(IntCmp::Gt, false, a, b),
            C::UGe => self.int_cmp(IntCmp::Ge, false, a, b),
            C::SLt => self.int_cmp(IntCmp::Lt, true, a, b),
            C::SLe => self.int_cmp(IntCmp::Le, true, a, b),
            C::SGt => self.int_cmp(IntCmp::Gt, true, a, b),
            C::SGe => self.int_cmp(IntCmp::Ge, true, a, b),
            C::FOrdEq => self.float_cmp(FloatCmp::OrdEq, a, b),
            C::FOrdNe => self.float_cmp(FloatCmp::OrdNe, a, b),
            C::FOrdLt => self.float_cmp(FloatCmp::OrdLt, a, b),
            C::FOrdLe => self.float_cmp(FloatCmp::OrdLe, a, b),
            C::FOrdGt => self.float_cmp(FloatCmp::OrdGt, a, b),
            C::FOrdGe => self.float_cmp(FloatCmp::OrdGe, a, b),
            C::FUnordEq => self.float_cmp(FloatCmp::UnordEq, a, b),
            C::FUnordNe => self.float_cmp(FloatCmp::UnordNe, a, b),
            C::FUnordLt => self.float_cmp(FloatCmp::UnordLt, a, b),
            C::FUnordLe => self.float_cmp(FloatCmp::UnordLe, a, b),
            C::FUnordGt => self.float_cmp(FloatCmp::UnordGt, a, b),
            C::FUnordGe => self.float_cmp(FloatCmp::UnordGe, a, b),
            C::LogicalEq | C::LogicalNe => unreachable!("handled above"),
        }
    }

    pub(super) fn unary(
        &mut self,
        op: UnaryOp,
        a: Comp,
        inst: &InstData,
    ) -> Result<Comp, BackendError> {
        if let UnaryOp::LogicalNot = op {
            return Ok(match a {
                Comp::Bool(b) => Comp::Bool(!b),
                // (0 == 0) XOR p is !p.
                _ => {
                    let p = self.pred(a).unwrap_or(PredSrc::TRUE);
                    self.alu(Op::ISetP(OpISetP {
                        dst: Dst::None,
                        cmp: IntCmp::Eq,
                        signed: false,
                        combine: PredCombine::Xor,
                        srcs: [Src::ZERO, Src::ZERO],
                        accum: p,
                    }))
                }
            });
        }
        let s = self.src(a);
        Ok(match op {
            UnaryOp::INeg => self.alu(Op::IAdd3(OpIAdd3 {
                dst: Dst::None,
                srcs: [Src::ZERO, s.negated(), Src::ZERO],
            })),
            UnaryOp::Not => self.lop(s, Src::ZERO, Src::ZERO, !OpLop3::A),
            // Sign-bit operations are exact bit manipulations.
            UnaryOp::FNeg => self.lop(s, Src::imm(0x8000_0000), Src::ZERO, OpLop3::A ^ OpLop3::B),
            UnaryOp::FAbs => self.lop(s, Src::imm(0x7fff_ffff), Src::ZERO, OpLop3::A & OpLop3::B),
            _ => return self.float_unary(op, a, inst),
        })
    }

    pub(super) fn convert(
        &mut self,
        op: ConvOp,
        a: Comp,
        from: Scalar,
        to: Scalar,
        inst: &InstData,
    ) -> Result<Comp, BackendError> {
        let int = |s: Scalar| matches!(s, Scalar::Int { .. });
        if matches!(op, ConvOp::UConvert | ConvOp::SConvert) && int(from) && int(to) {
            return Ok(self.narrow_int(a, from, op == ConvOp::SConvert && to.size() > from.size()));
        }
        // A bitcast keeps the bits (and a narrow value its junk high bits).
        if op == ConvOp::Bitcast && from.size() == to.size() {
            return Ok(a);
        }
        // An 8- or 16-bit integer converts from its extended word; a
        // float converts to a narrow integer through 32 bits (out-of-range
        // values are undefined in SPIR-V), keeping the low bits.
        let a = match (op, from) {
            (ConvOp::UToF | ConvOp::SToF, Scalar::Int { bits, .. }) if bits < 32 => {
                self.sgxt(a, Comp::Const(u32::from(bits)), op == ConvOp::SToF)
            }
            _ => a,
        };
        let word = |s: Scalar| match s {
            Scalar::Int { bits, signed } if bits < 32 => Scalar::Int { bits: 32, signed },
            s => s,
        };
        let (from, to) = match op {
            ConvOp::UToF | ConvOp::SToF => (word(from), to),
            ConvOp::FToU | ConvOp::FToS => (from, word(to)),
            _ => (from, to),
        };
        let is32 = |s: Scalar| s.size() == 4 && s != Scalar::Bool;
        if !is32(from) || !is32(to) {
            return Err(self.unsupported(format!("conversions from {from} to {to}"), inst));
        }
        let s = self.src(a);
        let conv = |kind, signed| {
            Op::Conv(OpConv {
                kind,
                dst: Dst::None,
                src: s,
                signed,
            })
        };
        Ok(match op {
            ConvOp::UToF => self.alu(conv(ConvKind::IntToFloat, false)),
            ConvOp::SToF => self.alu(conv(ConvKind::IntToFloat, true)),
            ConvOp::FToU => self.alu(conv(ConvKind::FloatToInt, false)),
            ConvOp::FToS => self.alu(conv(ConvKind::FloatToInt, true)),
            // Same-width integer conversions and bitcasts keep the bits.
            ConvOp::Bitcast | ConvOp::UConvert | ConvOp::SConvert => a,
            ConvOp::FToF => return Err(self.unsupported("float width conversions", inst)),
            ConvOp::UToPtr | ConvOp::PtrToU => {
                return Err(self.unsupported("pointer conversions", inst));
            }
        })
    }

    /// A 64-bit value, integer or not (64-bit floats are refused where
    /// their arithmetic is selected).
    pub(super) fn wide_int(&self, v: ir::Value) -> bool {
        self.scalar_of(v).is_some_and(wide_int::is_wide)
    }

    /// 64 or 16 when the instruction computes on doubles or halves (an
    /// operand or the result of that float width); bitcasts keep the bits
    /// and are not theirs.
    fn narrow_or_double_float(&self, inst: &InstData) -> Option<u8> {
        use ir::Op as I;
        let operands: Vec<ir::Value> = match &inst.op {
            I::Binary(_, a, _) | I::Cmp(_, a, _) | I::Unary(_, a) => vec![*a],
            I::Convert(
                ConvOp::FToF | ConvOp::SToF | ConvOp::UToF | ConvOp::FToS | ConvOp::FToU,
                a,
            ) => {
                vec![*a]
            }
            I::Math(_, args) => args.clone(),
            _ => return None,
        };
        let with_result = !matches!(inst.op, I::Binary(..) | I::Cmp(..) | I::Unary(..));
        let result = inst.result.filter(|_| with_result);
        operands
            .iter()
            .chain(result.iter())
            .filter_map(|&v| match self.scalar_of(v) {
                Some(Scalar::Float { bits }) if bits != 32 => Some(bits),
                _ => None,
            })
            .max()
    }

    /// An instruction on doubles (float64.rs) or halves (float16.rs).
    fn float_width_inst(&mut self, bits: u8, inst: &InstData) -> Result<Vec<Comp>, BackendError> {
        use ir::Op as I;
        let per_comp = |this: &Self, v: ir::Value| this.value(v).cloned();
        let double = bits == 64;
        match &inst.op {
            I::Binary(op, a, b) => {
                let (x, y) = (per_comp(self, *a)?, per_comp(self, *b)?);
                if double {
                    self.f64_binary(*op, &x, &y, inst)
                } else {
                    self.f16_binary(*op, &x, &y, inst)
                }
            }
            I::Cmp(op, a, b) => {
                let (x, y) = (per_comp(self, *a)?, per_comp(self, *b)?);
                if double {
                    self.f64_compare(*op, &x, &y, inst)
                } else {
                    Ok(self.f16_compare(*op, &x, &y))
                }
            }
            I::Unary(op, a) => {
                let x = per_comp(self, *a)?;
                if double {
                    self.f64_unary(*op, &x, inst)
                } else {
                    self.f16_unary(*op, &x, inst)
                }
            }
            I::Convert(op, a) => {
                let from = self.scalar_of(*a);
                let to = inst.result.and_then(|r| self.scalar_of(r));
                let (Some(from), Some(to)) = (from, to) else {
                    return Err(self.unsupported("conversions of non-numeric values", inst));
                };
                let x = per_comp(self, *a)?;
                if double {
                    self.f64_convert(*op, &x, from, to, inst)
                } else {
                    self.f16_convert(*op, &x, from, to, inst)
                }
            }
            I::Math(op, args) => {
                let mut vals = Vec::with_capacity(args.len());
                for &a in args {
                    vals.push(per_comp(self, a)?);
                }
                if vals.len() != op.arity() {
                    return Err(BackendError::Invalid {
                        what: format!("{op:?} takes {} operands", op.arity()),
                        spirv_id: inst.spirv_id,
                    });
                }
                if double {
                    self.f64_math(*op, &vals, inst)
                } else {
                    self.f16_math(*op, &vals, inst)
                }
            }
            _ => unreachable!("narrow_or_double_float picks these ops"),
        }
    }

    fn scalar_of(&self, v: ir::Value) -> Option<Scalar> {
        match self.sh.value_type(v) {
            Type::Scalar(s) | Type::Vector { scalar: s, .. } => Some(*s),
            _ => None,
        }
    }

    /// The components of a composite member reached by `indices`.
    fn extract_range(&self, ty: ir::TypeId, indices: &[u32]) -> Option<(usize, usize)> {
        let mut ty = ty;
        let mut start = 0;
        for &i in indices {
            let (sub, off) = sub_range(self.sh, ty, i)?;
            ty = sub;
            start += off;
        }
        Some((
            start as usize,
            super::places::comp_count(self.sh, ty)? as usize,
        ))
    }

    pub(super) fn alu_inst(&mut self, inst: &InstData) -> Result<Vec<Comp>, BackendError> {
        use ir::Op as I;
        let per_comp = |this: &Self, v: ir::Value| this.value(v).cloned();
        // A bitcast between component widths regroups the bits
        // (bit_casts.rs).
        if let I::Convert(ConvOp::Bitcast, a) = &inst.op {
            let widths = (
                self.scalar_of(*a),
                inst.result.and_then(|r| self.scalar_of(r)),
            );
            if let (Some(from), Some(to)) = widths
                && from.size() != to.size()
                && from != Scalar::Bool
                && to != Scalar::Bool
            {
                let x = per_comp(self, *a)?;
                return Ok(self.regroup_bits(&x, from.size() * 8, to.size() * 8));
            }
        }
        if let Some(bits) = self.narrow_or_double_float(inst) {
            return self.float_width_inst(bits, inst);
        }
        Ok(match &inst.op {
            I::Binary(op, a, b) if self.wide_int(*a) => {
                // A narrow shift amount is zero-extended.
                let (ea, eb) = narrow_int::binary_ext(*op);
                let (x, y) = (self.operand(*a, ea)?, self.operand(*b, eb)?);
                self.wide_binary(*op, &x, &y, inst)?
            }
            I::Cmp(op, a, b) if self.wide_int(*a) => {
                let (x, y) = (per_comp(self, *a)?, per_comp(self, *b)?);
                self.wide_compare(*op, &x, &y, inst)?
            }
            I::Unary(op, a) if self.wide_int(*a) => {
                let x = per_comp(self, *a)?;
                self.wide_unary(*op, &x, inst)?
            }
            // 8- and 16-bit operands are extended as the op reads them
            // (narrow_int.rs); other values come as they are.
            I::Binary(op, a, b) => {
                let (ea, eb) = narrow_int::binary_ext(*op);
                let (x, y) = (self.operand(*a, ea)?, self.operand(*b, eb)?);
                let mut out = Vec::new();
                for (p, q) in x.into_iter().zip(y) {
                    out.push(self.binary(*op, p, q, inst)?);
                }
                out
            }
            I::Cmp(op, a, b) => {
                let e = narrow_int::cmp_ext(*op);
                let (x, y) = (self.operand(*a, e)?, self.operand(*b, e)?);
                let mut out = Vec::new();
                for (p, q) in x.into_iter().zip(y) {
                    out.push(self.compare(*op, p, q));
                }
                out
            }
            I::Unary(op @ (UnaryOp::BitCount | UnaryOp::BitReverse), a)
                if self.narrow_bits(*a).is_some() =>
            {
                self.narrow_bit_unary(*op, *a)?
            }
            I::Unary(op, a) => {
                let mut out = Vec::new();
                for p in per_comp(self, *a)? {
                    out.push(self.unary(*op, p, inst)?);
                }
                out
            }
            // A physical pointer is its 64-bit address (phys_ptr.rs).
            I::Convert(ConvOp::UToPtr | ConvOp::PtrToU, a) => per_comp(self, *a)?,
            I::Convert(ConvOp::Bitcast, a)
                if self.physical_pointee(*a).is_some()
                    || inst
                        .result
                        .is_some_and(|r| self.physical_pointee(r).is_some()) =>
            {
                per_comp(self, *a)?
            }
            I::Convert(op, a) => {
                let from = self.scalar_of(*a);
                let to = inst.result.and_then(|r| self.scalar_of(r));
                let (Some(from), Some(to)) = (from, to) else {
                    return Err(self.unsupported("conversions of non-numeric values", inst));
                };
                if wide_int::is_wide(from) || wide_int::is_wide(to) {
                    let x = per_comp(self, *a)?;
                    return self.wide_convert(*op, &x, from, to, inst);
                }
                let mut out = Vec::new();
                for p in per_comp(self, *a)? {
                    out.push(self.convert(*op, p, from, to, inst)?);
                }
                out
            }
            I::Select {
                cond,
                if_true,
                if_false,
            } => {
                let conds = per_comp(self, *cond)?;
                let (t, f) = (per_comp(self, *if_true)?, per_comp(self, *if_false)?);
                if t.iter()
                    .chain(&f)
                    .any(|c| matches!(c, Comp::Pred(_) | Comp::Bool(_)))
                {
                    return Err(self.unsupported("selects between booleans", inst));
                }
                // A scalar condition selects whole composites; a vector one
                // each element, of one or two words.
                let per_cond = (t.len() / conds.len().max(1)).max(1);
                let mut out = Vec::new();
                for (i, (a, b)) in t.into_iter().zip(f).enumerate() {
                    let c = conds[(i / per_cond).min(conds.len() - 1)];
                    let (a, b) = (self.src(a), self.src(b));
                    out.push(match c {
                        Comp::Bool(true) => self.alu(Op::Mov(crate::isa::OpMov {
                            dst: Dst::None,
                            src: a,
                        })),
                        Comp::Bool(false) => self.alu(Op::Mov(crate::isa::OpMov {
                            dst: Dst::None,
                            src: b,
                        })),
                        _ => self.select(c, a, b),
                    });
                }
                out
            }
            I::CompositeConstruct(parts) => {
                let mut out = Vec::new();
                for p in parts {
                    out.extend(per_comp(self, *p)?);
                }
                out
            }
            I::CompositeExtract { composite, indices } => {
                let all = per_comp(self, *composite)?;
                let (start, n) = self
                    .extract_range(self.sh.values[*composite].ty, indices)
                    .ok_or_else(|| self.unsupported("this composite extraction", inst))?;
                all[start..start + n].to_vec()
            }
            I::CompositeInsert {
                object,
                composite,
                indices,
            } => {
                let mut all = per_comp(self, *composite)?;
                let obj = per_comp(self, *object)?;
                let (start, n) = self
                    .extract_range(self.sh.values[*composite].ty, indices)
                    .ok_or_else(|| self.unsupported("this composite insertion", inst))?;
                all[start..start + n].copy_from_slice(&obj);
                all
            }
            I::VectorShuffle { a, b, components } => {
                let mut both = per_comp(self, *a)?;
                both.extend(per_comp(self, *b)?);
                // A 64-bit element is two words.
                let w = if self.wide_int(*a) { 2 } else { 1 };
                let mut out = Vec::new();
                for &c in components {
                    // 0xFFFFFFFF selects an undefined component.
                    for k in 0..w {
                        let at = (c as usize).checked_mul(w).and_then(|i| i.checked_add(k));
                        out.push(
                            at.and_then(|i| both.get(i))
                                .copied()
                                .unwrap_or(Comp::Const(0)),
                        );
                    }
                }
                out
            }
            I::Math(op, args) if inst.result.is_some_and(|r| self.wide_int(r)) => {
                let mut words = Vec::with_capacity(args.len());
                for &a in args {
                    words.push(per_comp(self, a)?);
                }
                return self.wide_math(*op, &words, inst);
            }
            I::Math(op, args) if args.iter().any(|a| self.narrow_bits(*a).is_some()) => {
                return self.narrow_math(*op, args, inst);
            }
            I::Math(op, args) => return self.math_inst(*op, args, inst),
            _ => return Err(self.unsupported("this instruction", inst)),
        })
    }
}

fn flip_int(c: IntCmp) -> IntCmp {
    match c {
        IntCmp::Lt => IntCmp::Gt,
        IntCmp::Gt => IntCmp::Lt,
        IntCmp::Le => IntCmp::Ge,
        IntCmp::Ge => IntCmp::Le,
        other => other,
    }
}

fn flip_float(c: FloatCmp) -> FloatCmp {
    use FloatCmp as F;
    match c {
        F::OrdLt => F::OrdGt,
        F::OrdGt => F::OrdLt,
        F::OrdLe => F::OrdGe,
        F::OrdGe => F::OrdLe,
        F::UnordLt => F::UnordGt,
        F::UnordGt => F::UnordLt,
        F::UnordLe => F::UnordGe,
        F::UnordGe => F::UnordLe,
        other => other,
    }
}

/// Whether an ALU op's sources are floats.
struct FloatSrcs;

impl AluVisitor<'_> for FloatSrcs {
    type Out = bool;
    fn visit<const N: usize, O: Alu<N>>(self, o: &O) -> bool {
        o.float_srcs()
    }
}

/// The sources an ALU op reads.
struct LiveSrcs;

impl<'a> AluVisitorMut<'a> for LiveSrcs {
    type Out = &'a mut [Src];
    fn visit<const N: usize, O: Alu<N>>(self, o: &'a mut O) -> &'a mut [Src] {
        let live = o.live_srcs();
        &mut o.srcs_mut()[..live]
    }
}
