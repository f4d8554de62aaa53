//! 64-bit floats: a double is two 32-bit components, low word first, like
//! a 64-bit integer (wide_int.rs); an op reads and writes them as aligned
//! register pairs (DADD, DMUL, DFMA, DSETP, F2F / I2F / F2I / FRND .F64).
//! Sign operations touch the high word only. Constant operands fold through
//! the ops' own `eval`. Division and square roots are in float64_div.rs;
//! transcendental functions of doubles are refused with their SPIR-V
//! opcode and result id.

use super::{Comp, Isel};
use crate::error::BackendError;
use crate::isa::{
    ConvKind, Dst, FloatArith, FloatCmp, Instr, Op, OpConv64, OpDArith, OpDSetP, OpF2F64, OpFrnd64,
    OpLop3, OpSel, PredCombine, PredSrc, Reg, RegFile, Round, Src, SrcRef,
};
use spvsass_frontend::ir::{BinaryOp, CmpOp, ConvOp, InstData, MathOp, Scalar, UnaryOp};

pub(super) const F64: Scalar = Scalar::Float { bits: 64 };

/// A double as its two components.
pub(super) type D = [Comp; 2];

/// The constant value of a double, when both words are constants.
pub(super) fn dconst(d: D) -> Option<u64> {
    match d {
        [Comp::Const(lo), Comp::Const(hi)] => Some(u64::from(lo) | u64::from(hi) << 32),
        _ => None,
    }
}

pub(super) fn dconst_comps(v: u64) -> D {
    [Comp::Const(v as u32), Comp::Const((v >> 32) as u32)]
}

/// A placeholder register source for evaluating an op on constants.
const PLACEHOLDER: Src = Src {
    src: SrcRef::Reg(Reg::Virt(0)),
    neg: false,
    abs: false,
};

impl Isel<'_> {
    /// A double source operand: RZ for +0, the high word as an immediate
    /// where `imm_ok` and the low word is zero, else a register pair.
    pub(super) fn dsrc(&mut self, d: D, neg: bool, imm_ok: bool) -> Src {
        let mut s = match d {
            [Comp::Const(0), Comp::Const(0)] => Src::ZERO,
            [Comp::Const(0), Comp::Const(hi)] if imm_ok => {
                // An immediate takes no modifier: the sign goes into it.
                let hi = if neg { hi ^ 0x8000_0000 } else { hi };
                return Src::imm(hi);
            }
            _ => {
                let members = vec![self.materialize(d[0]), self.materialize(d[1])];
                let key = self.f.new_vreg(RegFile::Gpr);
                self.f.groups.insert(key, members);
                key.src()
            }
        };
        s.neg = neg;
        s
    }

    /// Emits a double op writing a fresh register pair.
    fn dpair(&mut self, mut op: Op) -> D {
        let first = self.f.new_vreg(RegFile::Gpr);
        let second = self.f.new_vreg(RegFile::Gpr);
        let dst = first.dst();
        match &mut op {
            Op::DArith(o) => o.dst = dst,
            Op::F2F64(o) => o.dst = dst,
            Op::Conv64(o) => o.dst = dst,
            Op::Frnd64(o) => o.dst = dst,
            _ => unreachable!("dpair takes double ops with a pair result"),
        }
        self.emit(Instr::new(op));
        [Comp::Reg(first), Comp::Reg(second)]
    }

    /// `a*b + c` (kind Fma), `a*b` (Mul) or `a + b` (Add), with `neg_b`
    /// negating b (a subtraction), in `rnd`.
    pub(super) fn darith(&mut self, kind: FloatArith, x: [D; 3], neg_b: bool, rnd: Round) -> D {
        let mut op = OpDArith {
            kind,
            dst: Dst::None,
            srcs: [PLACEHOLDER; 3],
            rnd,
        };
        let n = if kind == FloatArith::Fma { 3 } else { 2 };
        if let (Some(a), Some(b), Some(c)) = (dconst(x[0]), dconst(x[1]), dconst(x[2])) {
            op.srcs[1].neg = neg_b;
            return dconst_comps(op.eval([a, b, c]));
        }
        // Source 0 must be a register; the last source may be an immediate.
        op.srcs[0] = self.dsrc(x[0], false, false);
        op.srcs[1] = self.dsrc(x[1], neg_b, n == 2);
        if n == 3 {
            op.srcs[2] = self.dsrc(x[2], false, true);
        }
        self.dpair(Op::DArith(op))
    }

    /// `a cmp b` as a predicate, combined into `accum` with `combine`.
    pub(super) fn dsetp(
        &mut self,
        cmp: FloatCmp,
        a: D,
        b: D,
        combine: PredCombine,
        accum: Comp,
    ) -> Comp {
        let accum_src = self.pred(accum).unwrap_or(PredSrc::TRUE);
        let mut op = OpDSetP {
            dst: Dst::None,
            cmp,
            combine,
            srcs: [PLACEHOLDER; 2],
            accum: accum_src,
        };
        if let (Some(x), Some(y), Comp::Bool(acc)) = (dconst(a), dconst(b), accum) {
            return Comp::Bool(op.eval(x, y, acc));
        }
        // DSETP has no immediate form (nvdisasm refuses one, docs/CUBIN.md).
        op.srcs = [self.dsrc(a, false, false), self.dsrc(b, false, false)];
        let p = self.f.new_pred();
        op.dst = p.dst();
        self.emit(Instr::new(Op::DSetP(op)));
        Comp::Pred(p)
    }

    /// `cond ? a : b` on doubles: one SEL per word.
    pub(super) fn dselect(&mut self, cond: Comp, a: D, b: D) -> D {
        match cond {
            Comp::Bool(true) => return a,
            Comp::Bool(false) => return b,
            _ => {}
        }
        [0, 1].map(|k| {
            let (x, y) = (self.reg_or_zero(a[k]), self.src_of(b[k]));
            let p = self.pred(cond).unwrap_or(PredSrc::TRUE);
            self.alu(Op::Sel(OpSel {
                dst: Dst::None,
                srcs: [x, y],
                cond: p,
            }))
        })
    }

    /// IEEE minNum / maxNum: the other operand when one is NaN.
    pub(super) fn dminmax(&mut self, max: bool, a: D, b: D) -> D {
        let b_nan = self.dsetp(FloatCmp::UnordNe, b, b, PredCombine::And, Comp::Bool(true));
        let cmp = if max {
            FloatCmp::OrdGt
        } else {
            FloatCmp::OrdLt
        };
        let take_a = self.dsetp(cmp, a, b, PredCombine::Or, b_nan);
        let [lo, hi] = self.dselect(take_a, a, b);
        // Equal operands are bit-identical except -0 and +0; order -0 below
        // +0 as FMNMX does for f32 (docs/ISA.md): the high words' AND (max)
        // or OR (min) picks the zero of the right sign and keeps any other
        // equal value as it is.
        let yes = Comp::Bool(true);
        let equal = self.dsetp(FloatCmp::OrdEq, a, b, PredCombine::And, yes);
        if equal == Comp::Bool(false) {
            return [lo, hi];
        }
        let (ah, bh) = (self.src_of(a[1]), self.src_of(b[1]));
        let lut = if max {
            OpLop3::A & OpLop3::B
        } else {
            OpLop3::A | OpLop3::B
        };
        let tie = self.lop3(ah, bh, Src::ZERO, lut);
        let Some(p) = self.pred(equal) else {
            return [lo, tie];
        };
        let (tie, hi) = (self.reg_or_zero(tie), self.src_of(hi));
        let hi = self.alu(Op::Sel(OpSel {
            dst: Dst::None,
            srcs: [tie, hi],
            cond: p,
        }));
        [lo, hi]
    }

    /// A one-source double op (FRND.F64, F2F, I2F, F2I) with a pair or a
    /// word as its source.
    fn dunary_op(&mut self, op: Op, src: &[Comp]) -> Vec<Comp> {
        let raw = match src {
            [Comp::Const(w)] => Some(u64::from(*w)),
            [lo, hi] => dconst([*lo, *hi]),
            _ => None,
        };
        let eval = |op: &Op, raw: u64| match op {
            Op::Frnd64(o) => o.eval(raw),
            Op::F2F64(o) => o.eval(raw),
            Op::Conv64(o) => o.eval(raw),
            _ => unreachable!("one-source double ops"),
        };
        let wide_result = match &op {
            Op::F2F64(o) => o.widen,
            Op::Conv64(o) => o.kind == ConvKind::IntToFloat || o.int64,
            _ => true,
        };
        if let Some(raw) = raw {
            let mut placeholder = op;
            set_src(&mut placeholder, PLACEHOLDER);
            let r = eval(&placeholder, raw);
            let c = dconst_comps(r);
            return if wide_result { c.to_vec() } else { vec![c[0]] };
        }
        let s = match src {
            [lo, hi] => self.dsrc([*lo, *hi], false, false),
            [w] => self.reg_or_zero(*w),
            _ => unreachable!("a word or a pair"),
        };
        let mut op = op;
        set_src(&mut op, s);
        if wide_result {
            self.dpair(op).to_vec()
        } else {
            let r = self.f.new_vreg(RegFile::Gpr);
            let dst = r.dst();
            match &mut op {
                Op::F2F64(o) => o.dst = dst,
                Op::Conv64(o) => o.dst = dst,
                _ => unreachable!("word results come from F2F and F2I"),
            }
            self.emit(Instr::new(op));
            vec![Comp::Reg(r)]
        }
    }

    fn frnd64(&mut self, rnd: Round, x: D) -> D {
        let op = Op::Frnd64(OpFrnd64 {
            dst: Dst::None,
            src: PLACEHOLDER,
            rnd,
        });
        let r = self.dunary_op(op, &x);
        [r[0], r[1]]
    }

    /// A binary op on double vectors (pairs of components).
    pub(super) fn f64_binary(
        &mut self,
        op: BinaryOp,
        x: &[Comp],
        y: &[Comp],
        inst: &InstData,
    ) -> Result<Vec<Comp>, BackendError> {
        let mut out = Vec::with_capacity(x.len());
        for (a, b) in x.chunks_exact(2).zip(y.chunks_exact(2)) {
            let (a, b) = ([a[0], a[1]], [b[0], b[1]]);
            let zero = [Comp::Const(0); 2];
            out.extend(match op {
                BinaryOp::FAdd => self.darith(FloatArith::Add, [a, b, zero], false, Round::Rn),
                BinaryOp::FSub => self.darith(FloatArith::Add, [a, b, zero], true, Round::Rn),
                BinaryOp::FMul => self.darith(FloatArith::Mul, [a, b, zero], false, Round::Rn),
                BinaryOp::FDiv => self.ddiv(a, b),
                BinaryOp::FMin => self.dminmax(false, a, b),
                BinaryOp::FMax => self.dminmax(true, a, b),
                _ => return Err(self.unsupported(format!("64-bit float {op:?}"), inst)),
            });
        }
        Ok(out)
    }

    /// A comparison of double vectors: one predicate per pair.
    pub(super) fn f64_compare(
        &mut self,
        op: CmpOp,
        x: &[Comp],
        y: &[Comp],
        inst: &InstData,
    ) -> Result<Vec<Comp>, BackendError> {
        use CmpOp as C;
        let cmp = match op {
            C::FOrdEq => FloatCmp::OrdEq,
            C::FOrdNe => FloatCmp::OrdNe,
            C::FOrdLt => FloatCmp::OrdLt,
            C::FOrdLe => FloatCmp::OrdLe,
            C::FOrdGt => FloatCmp::OrdGt,
            C::FOrdGe => FloatCmp::OrdGe,
            C::FUnordEq => FloatCmp::UnordEq,
            C::FUnordNe => FloatCmp::UnordNe,
            C::FUnordLt => FloatCmp::UnordLt,
            C::FUnordLe => FloatCmp::UnordLe,
            C::FUnordGt => FloatCmp::UnordGt,
            C::FUnordGe => FloatCmp::UnordGe,
            _ => return Err(self.unsupported(format!("64-bit float {op:?}"), inst)),
        };
        let yes = Comp::Bool(true);
        Ok(x.chunks_exact(2)
            .zip(y.chunks_exact(2))
            .map(|(a, b)| self.dsetp(cmp, [a[0], a[1]], [b[0], b[1]], PredCombine::And, yes))
            .collect())
    }

    /// A unary op on double vectors.
    pub(super) fn f64_unary(
        &mut self,
        op: UnaryOp,
        x: &[Comp],
        inst: &InstData,
    ) -> Result<Vec<Comp>, BackendError> {
        let mut out = Vec::with_capacity(x.len());
        for a in x.chunks_exact(2) {
            let a = [a[0], a[1]];
            out.extend(match op {
                // Sign operations act on the high word's sign bit.
                UnaryOp::FNeg | UnaryOp::FAbs => [a[0], self.unary(op, a[1], inst)?],
                UnaryOp::FFloor => self.frnd64(Round::Rm, a),
                UnaryOp::FCeil => self.frnd64(Round::Rp, a),
                UnaryOp::FTrunc => self.frnd64(Round::Rz, a),
                UnaryOp::FRound => self.frnd64(Round::Rn, a),
                UnaryOp::FFract => {
                    let fl = self.frnd64(Round::Rm, a);
                    let zero = [Comp::Const(0); 2];
                    self.darith(FloatArith::Add, [a, fl, zero], true, Round::Rn)
                }
                UnaryOp::FSqrt => self.dsqrt(a),
                UnaryOp::FRsqrt => {
                    let s = self.dsqrt(a);
                    self.ddiv(dconst_comps(1f64.to_bits()), s)
                }
                _ => return Err(self.unsupported(format!("64-bit float {op:?}"), inst)),
            });
        }
        Ok(out)
    }

    /// An f32 truncated to a 64-bit integer: widened to a double exactly
    /// (F2F.F64.F32), then F2I.S64/U64.F64.TRUNC (wide_math.rs).
    pub(super) fn f32_to_int64(&mut self, f: Comp, signed: bool) -> [Comp; 2] {
        let widen = Op::F2F64(OpF2F64 {
            dst: Dst::None,
            src: PLACEHOLDER,
            widen: true,
            rnd: Round::Rn,
        });
        let d = self.dunary_op(widen, &[f]);
        let to_int = Op::Conv64(OpConv64 {
            kind: ConvKind::FloatToInt,
            dst: Dst::None,
            src: PLACEHOLDER,
            signed,
            int64: true,
            rnd: Round::Rn,
        });
        let r = self.dunary_op(to_int, &d);
        [r[0], r[1]]
    }

    /// Conversions with a double on either side (f16 goes through f32,
    /// exactly; f64 to f16 would round twice and is refused).
    pub(super) fn f64_convert(
        &mut self,
        op: ConvOp,
        x: &[Comp],
        from: Scalar,
        to: Scalar,
        inst: &InstData,
    ) -> Result<Vec<Comp>, BackendError> {
        let refuse =
            |this: &Self| this.unsupported(format!("conversions from {from} to {to}"), inst);
        let int_bits = |s: Scalar| match s {
            Scalar::Int { bits: 32, .. } => Some(false),
            Scalar::Int { bits: 64, .. } => Some(true),
            _ => None,
        };
        let conv = |kind, signed, int64| {
            Op::Conv64(OpConv64 {
                kind,
                dst: Dst::None,
                src: PLACEHOLDER,
                signed,
                int64,
                rnd: Round::Rn,
            })
        };
        let f2f = |widen| {
            Op::F2F64(OpF2F64 {
                dst: Dst::None,
                src: PLACEHOLDER,
                widen,
                rnd: Round::Rn,
            })
        };
        let (step, in_width) = match op {
            ConvOp::FToF if to == F64 && from == Scalar::Float { bits: 32 } => (f2f(true), 1),
            ConvOp::FToF if to == F64 && from == Scalar::Float { bits: 16 } => {
                let mut out = Vec::new();
                for &h in x {
                    let f = self.convert_f16_f32(h);
                    out.extend(self.dunary_op(f2f(true), &[f]));
                }
                return Ok(out);
            }
            ConvOp::FToF if from == F64 && to == Scalar::Float { bits: 32 } => (f2f(false), 2),
            // 8- and 16-bit integers: extended to a word (exact), then
            // I2F.F64.S32/U32.
            ConvOp::SToF | ConvOp::UToF
                if to == F64 && matches!(from, Scalar::Int { bits: 8 | 16, .. }) =>
            {
                let signed = op == ConvOp::SToF;
                let step = conv(ConvKind::IntToFloat, signed, false);
                let mut out = Vec::new();
                for &c in x {
                    let w = self.narrow_int(c, from, signed);
                    out.extend(self.dunary_op(step, &[w]));
                }
                return Ok(out);
            }
            // To 8 or 16 bits: F2I.S32/U32 and the word's low bits (in
            // range the word is the value; out of range is undefined).
            ConvOp::FToS | ConvOp::FToU
                if from == F64 && matches!(to, Scalar::Int { bits: 8 | 16, .. }) =>
            {
                (conv(ConvKind::FloatToInt, op == ConvOp::FToS, false), 2)
            }
            ConvOp::SToF | ConvOp::UToF if to == F64 => {
                let int64 = int_bits(from).ok_or_else(|| refuse(self))?;
                let w = if int64 { 2 } else { 1 };
                (conv(ConvKind::IntToFloat, op == ConvOp::SToF, int64), w)
            }
            ConvOp::FToS | ConvOp::FToU if from == F64 => {
                let int64 = int_bits(to).ok_or_else(|| refuse(self))?;
                (conv(ConvKind::FloatToInt, op == ConvOp::FToS, int64), 2)
            }
            _ => return Err(refuse(self)),
        };
        let mut out = Vec::new();
        for c in x.chunks_exact(in_width) {
            out.extend(self.dunary_op(step, c));
        }
        Ok(out)
    }

    /// GLSL.std.450 and core functions with a double argument or result.
    pub(super) fn f64_math(
        &mut self,
        op: MathOp,
        args: &[Vec<Comp>],
        inst: &InstData,
    ) -> Result<Vec<Comp>, BackendError> {
        let pairs = |v: &Vec<Comp>| -> Vec<D> { v.chunks_exact(2).map(|p| [p[0], p[1]]).collect() };
        let mut out = Vec::new();
        match op {
            // The words stay as they are.
            MathOp::PackDouble2x32 | MathOp::UnpackDouble2x32 => return Ok(args[0].clone()),
            MathOp::Fma => {
                let (a, b, c) = (pairs(&args[0]), pairs(&args[1]), pairs(&args[2]));
                for i in 0..a.len() {
                    let r = self.darith(FloatArith::Fma, [a[i], b[i], c[i]], false, Round::Rn);
                    out.extend(r);
                }
            }
            MathOp::NMin | MathOp::NMax => {
                let (a, b) = (pairs(&args[0]), pairs(&args[1]));
                for i in 0..a.len() {
                    out.extend(self.dminmax(op == MathOp::NMax, a[i], b[i]));
                }
            }
            MathOp::FClamp | MathOp::NClamp => {
                let (x, lo, hi) = (pairs(&args[0]), pairs(&args[1]), pairs(&args[2]));
                for i in 0..x.len() {
                    let m = self.dminmax(true, x[i], lo[i]);
                    out.extend(self.dminmax(false, m, hi[i]));
                }
            }
            MathOp::IsNan | MathOp::IsInf => {
                for a in pairs(&args[0]) {
                    let yes = Comp::Bool(true);
                    out.push(if op == MathOp::IsNan {
                        self.dsetp(FloatCmp::UnordNe, a, a, PredCombine::And, yes)
                    } else {
                        let abs = [a[0], self.unary(UnaryOp::FAbs, a[1], inst)?];
                        let inf = dconst_comps(f64::INFINITY.to_bits());
                        self.dsetp(FloatCmp::OrdEq, abs, inf, PredCombine::And, yes)
                    });
                }
            }
            // As the 32-bit forms (math.rs): NaN and zeros give themselves.
            MathOp::FSign => {
                let zero = [Comp::Const(0); 2];
                for a in pairs(&args[0]) {
                    let t = PredCombine::And;
                    let pos = self.dsetp(FloatCmp::OrdGt, a, zero, t, Comp::Bool(true));
                    let neg = self.dsetp(FloatCmp::OrdLt, a, zero, t, Comp::Bool(true));
                    let r = self.dselect(pos, dconst_comps(1f64.to_bits()), a);
                    out.extend(self.dselect(neg, dconst_comps((-1f64).to_bits()), r));
                }
            }
            MathOp::Step => {
                let (edge, x) = (pairs(&args[0]), pairs(&args[1]));
                for (i, &v) in x.iter().enumerate() {
                    let e = edge[i % edge.len().max(1)];
                    let below =
                        self.dsetp(FloatCmp::OrdLt, v, e, PredCombine::And, Comp::Bool(true));
                    let (zero, one) = (dconst_comps(0), dconst_comps(1f64.to_bits()));
                    out.extend(self.dselect(below, zero, one));
                }
            }
            _ => return Err(self.unsupported(format!("64-bit float {op:?}"), inst)),
        }
        Ok(out)
    }
}

/// Sets the one source of a one-source double op.
fn set_src(op: &mut Op, s: Src) {
    match op {
        Op::Frnd64(o) => o.src = s,
        Op::F2F64(o) => o.src = s,
        Op::Conv64(o) => o.src = s,
        _ => unreachable!("one-source double ops"),
    }
}
