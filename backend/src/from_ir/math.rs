//! GLSL.std.450 float functions and the float arithmetic without a single
//! instruction (division, remainders, rounding, transcendental functions),
//! built from FADD/FMUL/FFMA, FMNMX, FRND and MUFU. Every helper goes
//! through `alu`, so constant operands fold through the ops' own `eval`.
//! Error bounds per function: docs/ISA.md, "Float functions".

use super::{Comp, Isel};
use crate::error::BackendError;
use crate::isa::{
    Dst, FloatArith, FloatCmp, MufuOp, Op, OpFArith, OpFMnMx, OpFSel, OpFSetP, OpFrnd, OpLop3,
    OpMufu, PredCombine, PredSrc, Round, Src, SrcRef,
};
use spvsass_frontend::ir::{BinaryOp, InstData, MathOp, UnaryOp, Value};

/// A float constant as a component.
pub(super) fn fconst(x: f32) -> Comp {
    Comp::Const(x.to_bits())
}

const LOG2_E: f32 = std::f32::consts::LOG2_E;
const LN_2: f32 = std::f32::consts::LN_2;
const FRAC_PI_2: f32 = std::f32::consts::FRAC_PI_2;
const PI: f32 = std::f32::consts::PI;
/// 1/2π: MUFU.SIN/COS take turns.
const INV_TAU: f32 = 1.0 / std::f32::consts::TAU;

/// atan(t)/t ≈ P(t²) on [0, 1]: a degree-8 Chebyshev interpolant of
/// atan(√u)/√u on u ∈ [0, 1], rounded to f32 (project fit; maximum
/// absolute error of t·P(t²) about 3e-8, below f32 resolution near 1).
const ATAN_POLY: [f32; 9] = [
    1.0,
    -0.333_330_36,
    0.199_918_72,
    -0.141_977_98,
    0.106_183_71,
    -0.074_568_55,
    0.042_137_623,
    -0.015_731_249,
    0.002_766_283_5,
];

fn is_const(s: &Src) -> bool {
    matches!(s.src, SrcRef::Imm(_) | SrcRef::Zero)
}

/// Puts a register first when one operand is a constant (src0 must be a
/// register; the op is commutative).
fn reg_first(a: Src, b: Src) -> (Src, Src) {
    if is_const(&a) && !is_const(&b) {
        (b, a)
    } else {
        (a, b)
    }
}

pub(super) const NOT_PT: PredSrc = PredSrc {
    reg: None,
    neg: true,
};

impl Isel<'_> {
    fn farith(&mut self, kind: FloatArith, srcs: [Src; 3]) -> Comp {
        self.alu(Op::FArith(OpFArith {
            kind,
            dst: Dst::None,
            srcs,
            ftz: false,
            rnd: Round::Rn,
        }))
    }

    /// The source of a component negated (constants as negated immediates).
    pub(super) fn fneg_src(&mut self, c: Comp) -> Src {
        match c {
            Comp::Const(v) => Src::imm(v ^ 0x8000_0000),
            _ => self.src_of(c).negated(),
        }
    }

    /// |c| as a component (the sign bit cleared).
    pub(super) fn fabs(&mut self, c: Comp) -> Comp {
        let s = self.src_of(c);
        self.lop3(s, Src::imm(0x7fff_ffff), Src::ZERO, OpLop3::A & OpLop3::B)
    }

    pub(super) fn lop3(&mut self, a: Src, b: Src, c: Src, lut: u8) -> Comp {
        self.alu(Op::Lop3(OpLop3 {
            dst: Dst::None,
            srcs: [a, b, c],
            lut,
        }))
    }

    /// The source of |c| (constants as immediates).
    pub(super) fn fabs_src(&mut self, c: Comp) -> Src {
        match c {
            Comp::Const(v) => Src::imm(v & 0x7fff_ffff),
            _ => Src {
                abs: true,
                ..self.src_of(c)
            },
        }
    }

    pub(super) fn fadd(&mut self, a: Comp, b: Comp) -> Comp {
        let (a, b) = reg_first(self.src_of(a), self.src_of(b));
        self.farith(FloatArith::Add, [a, b, Src::ZERO])
    }

    /// `a - b`.
    pub(super) fn fsub(&mut self, a: Comp, b: Comp) -> Comp {
        let (a, b) = reg_first(self.src_of(a), self.fneg_src(b));
        self.farith(FloatArith::Add, [a, b, Src::ZERO])
    }

    pub(super) fn fmul(&mut self, a: Comp, b: Comp) -> Comp {
        let (a, b) = reg_first(self.src_of(a), self.src_of(b));
        self.farith(FloatArith::Mul, [a, b, Src::ZERO])
    }

    /// `-(a * b)`.
    pub(super) fn fmul_neg(&mut self, a: Comp, b: Comp) -> Comp {
        let (a, b) = reg_first(self.src_of(a), self.src_of(b));
        self.farith(FloatArith::Mul, [a.negated(), b, Src::ZERO])
    }

    /// `a * b + c`, fused.
    pub(super) fn ffma(&mut self, a: Comp, b: Comp, c: Comp) -> Comp {
        let (a, b) = reg_first(self.src_of(a), self.src_of(b));
        let c = self.src_of(c);
        self.farith(FloatArith::Fma, [a, b, c])
    }

    /// `c - a * b`, fused.
    pub(super) fn ffma_neg(&mut self, a: Comp, b: Comp, c: Comp) -> Comp {
        let (a, b) = reg_first(self.src_of(a), self.src_of(b));
        let c = self.src_of(c);
        self.farith(FloatArith::Fma, [a.negated(), b, c])
    }

    /// `a * b - c`, fused.
    pub(super) fn ffma_sub(&mut self, a: Comp, b: Comp, c: Comp) -> Comp {
        let (a, b) = reg_first(self.src_of(a), self.src_of(b));
        let c = self.fneg_src(c);
        self.farith(FloatArith::Fma, [a, b, c])
    }

    pub(super) fn mufu(&mut self, op: MufuOp, a: Comp) -> Comp {
        let src = self.src_of(a);
        self.alu(Op::Mufu(OpMufu {
            dst: Dst::None,
            src,
            op,
        }))
    }

    pub(super) fn frnd(&mut self, rnd: Round, a: Comp) -> Comp {
        let src = self.src_of(a);
        self.alu(Op::Frnd(OpFrnd {
            dst: Dst::None,
            src,
            rnd,
            ftz: false,
        }))
    }

    /// IEEE minNum / maxNum (FMNMX).
    pub(super) fn fminmax(&mut self, a: Comp, b: Comp, min: bool) -> Comp {
        let (a, b) = reg_first(self.src_of(a), self.src_of(b));
        self.alu(Op::FMnMx(OpFMnMx {
            dst: Dst::None,
            srcs: [a, b],
            ftz: false,
            min: if min { PredSrc::TRUE } else { NOT_PT },
        }))
    }

    /// A predicate `a cmp b` on floats (sources with their modifiers).
    pub(super) fn fsetp(&mut self, cmp: FloatCmp, a: Src, b: Src) -> Comp {
        self.alu(Op::FSetP(OpFSetP {
            dst: Dst::None,
            cmp,
            combine: PredCombine::And,
            ftz: false,
            srcs: [a, b],
            accum: PredSrc::TRUE,
        }))
    }

    /// `cond ? a : b` with float modifiers on the sources (FSEL).
    pub(super) fn fsel(&mut self, cond: Comp, a: Src, b: Src) -> Comp {
        let Some(p) = self.pred(cond) else {
            return Comp::Const(0);
        };
        self.alu(Op::FSel(OpFSel {
            dst: Dst::None,
            srcs: [a, b],
            cond: p,
        }))
    }

    /// `cond ? a : b` on components.
    pub(super) fn csel(&mut self, cond: Comp, a: Comp, b: Comp) -> Comp {
        match cond {
            Comp::Bool(true) => a,
            Comp::Bool(false) => b,
            _ => {
                let (a, b) = (self.src_of(a), self.src_of(b));
                self.select(cond, a, b)
            }
        }
    }

    /// |a| with the sign of `s` (LOP3 on the bits).
    fn copysign(&mut self, a: Comp, s: Comp) -> Comp {
        let (a, s) = (self.src_of(a), self.src_of(s));
        // (a & ~c) | (s & c) with c the sign bit.
        self.alu(Op::Lop3(OpLop3 {
            dst: Dst::None,
            srcs: [a, s, Src::imm(0x8000_0000)],
            lut: (OpLop3::A & !OpLop3::C) | (OpLop3::B & OpLop3::C),
        }))
    }

    /// `a / b`: MUFU.RCP, one Newton step on the reciprocal and one on the
    /// quotient (with the FFMA remainder). Where the refinement overflows
    /// to NaN (b = ±0 or ±inf, or a quotient beyond f32) the plain
    /// `a * rcp(b)` is the answer (±inf, ±0 or NaN as IEEE says). Bounds in
    /// docs/ISA.md.
    pub(super) fn fdiv(&mut self, a: Comp, b: Comp) -> Comp {
        let one = fconst(1.0);
        let r = self.mufu(MufuOp::Rcp, b);
        let q0 = self.fmul(a, r);
        let e = self.ffma_neg(b, r, one);
        let r1 = self.ffma(r, e, r);
        let q = self.fmul(a, r1);
        let rem = self.ffma_neg(b, q, a);
        let q1 = self.ffma(rem, r1, q);
        let q1s = self.src_of(q1);
        let bad = self.fsetp(FloatCmp::UnordNe, q1s, q1s);
        self.csel(bad, q0, q1)
    }

    /// e^x as 2^(x·log2 e).
    fn fexp(&mut self, x: Comp) -> Comp {
        let t = self.fmul(x, fconst(LOG2_E));
        self.mufu(MufuOp::Ex2, t)
    }

    /// ln x as log2(x)·ln 2.
    fn flog(&mut self, x: Comp) -> Comp {
        let l = self.mufu(MufuOp::Lg2, x);
        self.fmul(l, fconst(LN_2))
    }

    /// sin / cos of radians: MUFU takes turns.
    fn fsincos(&mut self, x: Comp, op: MufuOp) -> Comp {
        let t = self.fmul(x, fconst(INV_TAU));
        self.mufu(op, t)
    }

    fn fsqrt(&mut self, x: Comp) -> Comp {
        self.mufu(MufuOp::Sqrt, x)
    }

    /// atan(t)·sign for t ∈ [0, 1]: t·P(t²).
    fn atan_unit(&mut self, t: Comp) -> Comp {
        let u = self.fmul(t, t);
        let mut p = fconst(ATAN_POLY[8]);
        for &c in ATAN_POLY[..8].iter().rev() {
            p = self.ffma(p, u, fconst(c));
        }
        self.fmul(p, t)
    }

    fn fatan(&mut self, x: Comp) -> Comp {
        let ax = self.fabs_src(x);
        let big = self.fsetp(FloatCmp::OrdGt, ax, Src::imm(1.0f32.to_bits()));
        let axc = self.fabs(x);
        let inv = self.mufu(MufuOp::Rcp, axc);
        let t = self.csel(big, inv, axc);
        let a = self.atan_unit(t);
        let flipped = self.fsub(fconst(FRAC_PI_2), a);
        let r = self.csel(big, flipped, a);
        self.copysign(r, x)
    }

    fn fatan2(&mut self, y: Comp, x: Comp) -> Comp {
        let (ax, ay) = (self.fabs_src(x), self.fabs_src(y));
        let mx = self.alu(Op::FMnMx(OpFMnMx {
            dst: Dst::None,
            srcs: reg_first(ax, ay).into(),
            ftz: false,
            min: NOT_PT,
        }));
        let mn = self.alu(Op::FMnMx(OpFMnMx {
            dst: Dst::None,
            srcs: reg_first(ax, ay).into(),
            ftz: false,
            min: PredSrc::TRUE,
        }));
        let t = self.fdiv(mn, mx);
        let a = self.atan_unit(t);
        let steep = self.fsetp(FloatCmp::OrdGt, ay, ax);
        let flipped = self.fsub(fconst(FRAC_PI_2), a);
        let r = self.csel(steep, flipped, a);
        let xs = self.src_of(x);
        let left = self.fsetp(FloatCmp::OrdLt, xs, Src::ZERO);
        let mirrored = self.fsub(fconst(PI), r);
        let r = self.csel(left, mirrored, r);
        self.copysign(r, y)
    }

    /// √(1 - x²).
    fn one_minus_sq_root(&mut self, x: Comp) -> Comp {
        let k = self.ffma_neg(x, x, fconst(1.0));
        self.fsqrt(k)
    }

    /// Float UnaryOps beyond the sign-bit ones (`alu.rs` lowers those).
    pub(super) fn float_unary(
        &mut self,
        op: UnaryOp,
        a: Comp,
        inst: &InstData,
    ) -> Result<Comp, BackendError> {
        Ok(match op {
            UnaryOp::FFloor => self.frnd(Round::Rm, a),
            UnaryOp::FCeil => self.frnd(Round::Rp, a),
            UnaryOp::FTrunc => self.frnd(Round::Rz, a),
            // Round and RoundEven both become FRound: to nearest even.
            UnaryOp::FRound => self.frnd(Round::Rn, a),
            UnaryOp::FFract => {
                let f = self.frnd(Round::Rm, a);
                self.fsub(a, f)
            }
            UnaryOp::FSqrt => self.fsqrt(a),
            UnaryOp::FRsqrt => self.mufu(MufuOp::Rsq, a),
            UnaryOp::FExp2 => self.mufu(MufuOp::Ex2, a),
            UnaryOp::FLog2 => self.mufu(MufuOp::Lg2, a),
            UnaryOp::FSin => self.fsincos(a, MufuOp::Sin),
            UnaryOp::FCos => self.fsincos(a, MufuOp::Cos),
            UnaryOp::BitCount | UnaryOp::BitReverse => self.bit_unary(op, a),
            _ => return Err(self.unsupported("this operation", inst)),
        })
    }

    /// Float BinaryOps without one instruction, and the arithmetic shift.
    pub(super) fn float_binary(
        &mut self,
        op: BinaryOp,
        a: Comp,
        b: Comp,
        inst: &InstData,
    ) -> Result<Comp, BackendError> {
        Ok(match op {
            BinaryOp::FDiv => self.fdiv(a, b),
            // x - y·floor(x/y) (FMod) or x - y·trunc(x/y) (FRem), as the
            // SPIR-V and GLSL definitions write them.
            BinaryOp::FMod | BinaryOp::FRem => {
                let q = self.fdiv(a, b);
                let rnd = if op == BinaryOp::FMod {
                    Round::Rm
                } else {
                    Round::Rz
                };
                let w = self.frnd(rnd, q);
                self.ffma_neg(b, w, a)
            }
            BinaryOp::FMin => self.fminmax(a, b, true),
            BinaryOp::FMax => self.fminmax(a, b, false),
            BinaryOp::ShrArithmetic => self.shr_arithmetic(a, b),
            _ => return Err(self.unsupported("this arithmetic operation", inst)),
        })
    }

    /// OpExtInst / core ops of the Math family: by component, or by the
    /// whole vector or matrix (geometric.rs, matrix.rs, pack.rs).
    pub(super) fn math_inst(
        &mut self,
        op: MathOp,
        args: &[Value],
        inst: &InstData,
    ) -> Result<Vec<Comp>, BackendError> {
        use MathOp as M;
        let mut vals = Vec::with_capacity(args.len());
        for &a in args {
            vals.push(self.value(a)?.clone());
        }
        if vals.len() != op.arity() {
            return Err(BackendError::Invalid {
                what: format!("{op:?} takes {} operands", op.arity()),
                spirv_id: inst.spirv_id,
            });
        }
        match op {
            M::Dot
            | M::Length
            | M::Distance
            | M::Normalize
            | M::Cross
            | M::Reflect
            | M::Refract
            | M::FaceForward
            | M::Any
            | M::All => return self.geometric(op, &vals, inst),
            M::Transpose
            | M::OuterProduct
            | M::MatrixTimesScalar
            | M::MatrixTimesVector
            | M::VectorTimesMatrix
            | M::MatrixTimesMatrix
            | M::Determinant
            | M::MatrixInverse => return self.matrix(op, args, &vals, inst),
            M::PackSnorm4x8
            | M::PackUnorm4x8
            | M::PackSnorm2x16
            | M::PackUnorm2x16
            | M::PackHalf2x16
            | M::UnpackSnorm2x16
            | M::UnpackUnorm2x16
            | M::UnpackHalf2x16
            | M::UnpackSnorm4x8
            | M::UnpackUnorm4x8 => {
                // The operand's component count is fixed by the
                // instruction (a malformed module can give another: the
                // mutation long run gave PackSnorm4x8 a vec3, a shift of 32).
                let want = match op {
                    M::PackSnorm4x8 | M::PackUnorm4x8 => 4,
                    M::PackSnorm2x16 | M::PackUnorm2x16 | M::PackHalf2x16 => 2,
                    _ => 1,
                };
                if vals.first().map(Vec::len) != Some(want) {
                    return Err(self.unsupported(
                        format!("{op:?} on an operand without {want} components"),
                        inst,
                    ));
                }
                return Ok(self.pack(op, &vals));
            }
            M::PackDouble2x32 | M::UnpackDouble2x32 => {
                return Err(self.unsupported("64-bit values (doubles)", inst));
            }
            _ => {}
        }
        // Component-wise: a scalar operand applies to every component.
        let n = vals.iter().map(Vec::len).max().unwrap_or(0);
        let pair = matches!(
            op,
            M::ModfStruct
                | M::FrexpStruct
                | M::IAddCarry
                | M::ISubBorrow
                | M::UMulExtended
                | M::SMulExtended
        );
        // A struct result of two members: the components are the first
        // member's, then the second's.
        let n = if pair { n } else { n.max(1) };
        // Operands of another size than the result's components (a
        // malformed module: the mutation long run turned an
        // OpMatrixTimesVector into an OpIAddCarry of a matrix and a vector).
        if vals.iter().any(|v| v.len() != 1 && v.len() != n) {
            return Err(self.unsupported(format!("{op:?} on operands of different sizes"), inst));
        }
        let (mut first, mut second) = (Vec::with_capacity(n), Vec::new());
        for i in 0..n {
            let x: Vec<Comp> = vals
                .iter()
                .map(|v| v[if v.len() == 1 { 0 } else { i }])
                .collect();
            match op {
                M::ModfStruct | M::FrexpStruct => {
                    let (f, w) = if op == M::ModfStruct {
                        // Both parts carry the sign of x (-2.0 gives -0.0
                        // and -2.0).
                        let w = self.frnd(Round::Rz, x[0]);
                        let f = self.fsub(x[0], w);
                        (self.copysign(f, x[0]), w)
                    } else {
                        self.frexp(x[0])
                    };
                    first.push(f);
                    second.push(w);
                }
                M::IAddCarry | M::ISubBorrow | M::UMulExtended | M::SMulExtended => {
                    let (lo, hi) = self.extended(op, x[0], x[1]);
                    first.push(lo);
                    second.push(hi);
                }
                _ => first.push(self.math_scalar(op, &x, inst)?),
            }
        }
        first.extend(second);
        Ok(first)
    }

    /// One component of a component-wise Math op.
    pub(super) fn math_scalar(
        &mut self,
        op: MathOp,
        x: &[Comp],
        inst: &InstData,
    ) -> Result<Comp, BackendError> {
        use MathOp as M;
        Ok(match op {
            M::FSign => {
                let s = self.src_of(x[0]);
                let pos = self.fsetp(FloatCmp::OrdGt, s, Src::ZERO);
                let neg = self.fsetp(FloatCmp::OrdLt, s, Src::ZERO);
                let t = self.csel(pos, fconst(1.0), x[0]);
                self.csel(neg, fconst(-1.0), t)
            }
            M::Radians => self.fmul(x[0], fconst(PI / 180.0)),
            M::Degrees => self.fmul(x[0], fconst(180.0 / PI)),
            M::Tan => {
                let s = self.fsincos(x[0], MufuOp::Sin);
                let c = self.fsincos(x[0], MufuOp::Cos);
                self.fdiv(s, c)
            }
            M::Asin => {
                let c = self.one_minus_sq_root(x[0]);
                self.fatan2(x[0], c)
            }
            M::Acos => {
                let s = self.one_minus_sq_root(x[0]);
                self.fatan2(s, x[0])
            }
            M::Atan => self.fatan(x[0]),
            M::Atan2 => self.fatan2(x[0], x[1]),
            M::Sinh | M::Cosh => {
                // (e^x ∓ e^-x) / 2, e^-x as the reciprocal of e^x.
                let e = self.fexp(x[0]);
                let inv = self.mufu(MufuOp::Rcp, e);
                let half = fconst(0.5);
                let e_half = self.fmul(e, half);
                if op == M::Sinh {
                    self.ffma_neg(inv, half, e_half)
                } else {
                    self.ffma(inv, half, e_half)
                }
            }
            M::Tanh => {
                // (e^2x - 1) / (e^2x + 1); |x| ≤ 9 keeps e^2x finite and
                // tanh(9) rounds to 1 in f32.
                let lo = self.fminmax(x[0], fconst(9.0), true);
                let c = self.fminmax(lo, fconst(-9.0), false);
                let c2 = self.fadd(c, c);
                let e = self.fexp(c2);
                let num = self.fsub(e, fconst(1.0));
                let den = self.fadd(e, fconst(1.0));
                self.fdiv(num, den)
            }
            M::Asinh => {
                // sign(x)·ln(|x| + √(x² + 1)).
                let axc = self.fabs(x[0]);
                let k = self.ffma(x[0], x[0], fconst(1.0));
                let r = self.fsqrt(k);
                let s = self.fadd(axc, r);
                let l = self.flog(s);
                self.copysign(l, x[0])
            }
            M::Acosh => {
                let k = self.ffma(x[0], x[0], fconst(-1.0));
                let r = self.fsqrt(k);
                let s = self.fadd(x[0], r);
                self.flog(s)
            }
            M::Atanh => {
                let num = self.fadd(fconst(1.0), x[0]);
                let den = self.fsub(fconst(1.0), x[0]);
                let q = self.fdiv(num, den);
                let l = self.flog(q);
                self.fmul(l, fconst(0.5))
            }
            M::Pow => {
                let l = self.mufu(MufuOp::Lg2, x[0]);
                let t = self.fmul(x[1], l);
                self.mufu(MufuOp::Ex2, t)
            }
            M::Exp => self.fexp(x[0]),
            M::Log => self.flog(x[0]),
            M::Ldexp => self.ldexp(x[0], x[1]),
            M::FClamp | M::NClamp => {
                let lo = self.fminmax(x[0], x[1], false);
                self.fminmax(lo, x[2], true)
            }
            M::NMin => self.fminmax(x[0], x[1], true),
            M::NMax => self.fminmax(x[0], x[1], false),
            M::FMix => {
                // x·(1 - a) + y·a: exact at a = 0 and a = 1.
                let t = self.fsub(fconst(1.0), x[2]);
                let u = self.fmul(x[0], t);
                self.ffma(x[1], x[2], u)
            }
            M::Step => {
                let (e, v) = (self.src_of(x[0]), self.src_of(x[1]));
                let below = self.fsetp(FloatCmp::OrdLt, v, e);
                self.csel(below, fconst(0.0), fconst(1.0))
            }
            M::SmoothStep => {
                let num = self.fsub(x[2], x[0]);
                let den = self.fsub(x[1], x[0]);
                let q = self.fdiv(num, den);
                let lo = self.fminmax(q, fconst(0.0), false);
                let t = self.fminmax(lo, fconst(1.0), true);
                let u = self.ffma(fconst(-2.0), t, fconst(3.0));
                let t2 = self.fmul(t, t);
                self.fmul(t2, u)
            }
            M::Fma => self.ffma(x[0], x[1], x[2]),
            M::IsNan => {
                let s = self.src_of(x[0]);
                self.fsetp(FloatCmp::UnordNe, s, s)
            }
            M::IsInf => {
                let a = self.fabs_src(x[0]);
                self.fsetp(FloatCmp::OrdEq, a, Src::imm(f32::INFINITY.to_bits()))
            }
            M::QuantizeToF16 => self.quantize_f16(x[0]),
            M::SAbs
            | M::SSign
            | M::UClamp
            | M::SClamp
            | M::FindILsb
            | M::FindSMsb
            | M::FindUMsb
            | M::BitFieldInsert
            | M::BitFieldSExtract
            | M::BitFieldUExtract => self.int_math(op, x),
            _ => return Err(self.unsupported(format!("the operation {op:?}"), inst)),
        })
    }

    /// frexp: (significand in [0.5, 1), exponent); zero gives (x, 0).
    /// Denormals are scaled by 2^32 first. Infinities and NaN are undefined
    /// in GLSL; here they give a significand with their sign and exponent
    /// 129.
    fn frexp(&mut self, x: Comp) -> (Comp, Comp) {
        let xs = self.src_of(x);
        let exp_bits = self.lop3(xs, Src::imm(0x7f80_0000), Src::ZERO, OpLop3::A & OpLop3::B);
        let eb = self.src_of(exp_bits);
        let den = self.int_cmp(crate::isa::IntCmp::Eq, false, eb, Src::ZERO);
        let scaled = self.fmul(x, fconst(2f32.powi(32)));
        let y = self.csel(den, scaled, x);
        let ys = self.src_of(y);
        let field = self.alu(Op::Shf(crate::isa::OpShf {
            dst: Dst::None,
            srcs: [ys, Src::imm(23), Src::ZERO],
            right: true,
            wrap: false,
            high: false,
        }));
        let fs = self.src_of(field);
        let field = self.lop3(fs, Src::imm(0xff), Src::ZERO, OpLop3::A & OpLop3::B);
        let adjust = self.csel(
            den,
            Comp::Const((-158i32) as u32),
            Comp::Const((-126i32) as u32),
        );
        let exp = self.iadd(field, adjust);
        let mag = self.lop3(xs, Src::imm(0x7fff_ffff), Src::ZERO, OpLop3::A & OpLop3::B);
        let ms = self.src_of(mag);
        let zero = self.int_cmp(crate::isa::IntCmp::Eq, false, ms, Src::ZERO);
        let exp = self.csel(zero, Comp::Const(0), exp);
        // (y & 0x807fffff) | 0x3f000000: the exponent of 0.5.
        let sig = self.lop3(
            ys,
            Src::imm(0x807f_ffff),
            Src::imm(0x3f00_0000),
            (OpLop3::A & OpLop3::B) | OpLop3::C,
        );
        let sig = self.csel(zero, x, sig);
        (sig, exp)
    }

    /// x·2^e in three exact steps of at most 2^±127 (e clamped to ±381),
    /// each factor built as bits: (k + 127) << 23 = k·2^23 + 127·2^23.
    fn ldexp(&mut self, x: Comp, e: Comp) -> Comp {
        let mut rest = e;
        let mut r = x;
        for _ in 0..3 {
            let k = self.iclamp(rest, -126, 127);
            let ks = self.src_of(k);
            let f = self.alu(Op::IMad(crate::isa::OpIMad {
                dst: Dst::None,
                srcs: [ks, Src::imm(1 << 23), Src::imm(127 << 23)],
                signed: false,
            }));
            r = self.fmul(r, f);
            let (rs, kn) = (self.src_of(rest), ks.negated());
            rest = self.alu(Op::IAdd3(crate::isa::OpIAdd3 {
                dst: Dst::None,
                srcs: [rs, kn, Src::ZERO],
            }));
        }
        r
    }

    /// QuantizeToF16: through F2F.F16.F32 and back.
    fn quantize_f16(&mut self, x: Comp) -> Comp {
        let h = self.f2f(x, crate::isa::FloatFmt::F16, crate::isa::FloatFmt::F32);
        self.f2f(h, crate::isa::FloatFmt::F32, crate::isa::FloatFmt::F16)
    }

    pub(super) fn f2f(
        &mut self,
        x: Comp,
        dst_fmt: crate::isa::FloatFmt,
        src_fmt: crate::isa::FloatFmt,
    ) -> Comp {
        let src = self.src_of(x);
        self.alu(Op::F2F(crate::isa::OpF2F {
            dst: Dst::None,
            src,
            dst_fmt,
            src_fmt,
            rnd: Round::Rn,
            ftz: false,
        }))
    }
}
