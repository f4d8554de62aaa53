//! GLSL.std.450 geometric functions and OpDot / OpAny / OpAll: whole
//! vectors in, written as the GLSL specification defines them (dot
//! products as an FMUL and an FFMA chain, lengths through MUFU.SQRT,
//! normalisation through MUFU.RSQ).

use super::math::fconst;
use super::{Comp, Isel};
use crate::error::BackendError;
use crate::isa::{FloatCmp, Op, OpLop3, OpPLop3, PredSrc, Src};
use crate::isa::{Instr, MufuOp};
use spvsass_frontend::ir::{InstData, MathOp};

impl Isel<'_> {
    /// a · b, left to right with fused steps.
    pub(super) fn dot(&mut self, a: &[Comp], b: &[Comp]) -> Comp {
        let mut acc = self.fmul(a[0], b[0]);
        for (&x, &y) in a.iter().zip(b).skip(1) {
            acc = self.ffma(x, y, acc);
        }
        acc
    }

    fn length(&mut self, x: &[Comp]) -> Comp {
        if let [c] = x {
            return self.fabs(*c);
        }
        let d = self.dot(x, x);
        self.mufu(MufuOp::Sqrt, d)
    }

    fn vsub(&mut self, a: &[Comp], b: &[Comp]) -> Vec<Comp> {
        a.iter().zip(b).map(|(&x, &y)| self.fsub(x, y)).collect()
    }

    pub(super) fn cross(&mut self, a: &[Comp], b: &[Comp]) -> Vec<Comp> {
        (0..3)
            .map(|i| {
                let (j, k) = ((i + 1) % 3, (i + 2) % 3);
                let t = self.fmul(a[k], b[j]);
                self.ffma_sub(a[j], b[k], t)
            })
            .collect()
    }

    /// Predicates combined (PLOP3): all true (`and`) or any true.
    fn reduce_bools(&mut self, x: &[Comp], and: bool) -> Comp {
        let mut acc = x[0];
        for &c in &x[1..] {
            acc = match (acc, c, and) {
                (Comp::Bool(b), other, _) | (other, Comp::Bool(b), _) if b == and => other,
                (Comp::Bool(b), _, _) | (_, Comp::Bool(b), _) => Comp::Bool(b),
                _ => {
                    let (Some(p), Some(q)) = (self.pred(acc), self.pred(c)) else {
                        return Comp::Bool(false);
                    };
                    let d = self.f.new_pred();
                    let lut = if and {
                        OpLop3::A & OpLop3::B
                    } else {
                        OpLop3::A | OpLop3::B
                    };
                    self.emit(Instr::new(Op::PLop3(OpPLop3 {
                        dst: d.dst(),
                        srcs: [p, q, PredSrc::TRUE],
                        lut,
                    })));
                    Comp::Pred(d)
                }
            };
        }
        acc
    }

    pub(super) fn geometric(
        &mut self,
        op: MathOp,
        v: &[Vec<Comp>],
        inst: &InstData,
    ) -> Result<Vec<Comp>, BackendError> {
        use MathOp as M;
        if v.iter().any(|x| x.is_empty()) || (op == M::Cross && v.iter().any(|x| x.len() != 3)) {
            return Err(self.unsupported(format!("{op:?} on these operand types"), inst));
        }
        Ok(match op {
            M::Dot => vec![self.dot(&v[0], &v[1])],
            M::Length => vec![self.length(&v[0])],
            M::Distance => {
                let d = self.vsub(&v[0], &v[1]);
                vec![self.length(&d)]
            }
            M::Normalize => {
                let d = self.dot(&v[0], &v[0]);
                let r = self.mufu(MufuOp::Rsq, d);
                v[0].iter().map(|&c| self.fmul(c, r)).collect()
            }
            M::Cross => self.cross(&v[0], &v[1]),
            // I - 2·dot(N, I)·N.
            M::Reflect => {
                let d = self.dot(&v[1], &v[0]);
                let d2 = self.fadd(d, d);
                (0..v[0].len())
                    .map(|i| self.ffma_neg(d2, v[1][i], v[0][i]))
                    .collect()
            }
            // k = 1 - eta²·(1 - dot(N, I)²); k < 0 gives 0, else
            // eta·I - (eta·dot(N, I) + √k)·N.
            M::Refract => {
                let (i_, n_, eta) = (&v[0], &v[1], v[2][0]);
                let d = self.dot(n_, i_);
                let t = self.ffma_neg(d, d, fconst(1.0));
                let e2 = self.fmul(eta, eta);
                let k = self.ffma_neg(e2, t, fconst(1.0));
                let ks = self.src_of(k);
                let total = self.fsetp(FloatCmp::OrdLt, ks, Src::ZERO);
                let s = self.mufu(MufuOp::Sqrt, k);
                let m = self.ffma(eta, d, s);
                (0..i_.len())
                    .map(|j| {
                        let u = self.fmul(m, n_[j]);
                        let r = self.ffma_sub(eta, i_[j], u);
                        self.csel(total, fconst(0.0), r)
                    })
                    .collect()
            }
            // dot(Nref, I) < 0 ? N : -N.
            M::FaceForward => {
                let d = self.dot(&v[2], &v[1]);
                let ds = self.src_of(d);
                let front = self.fsetp(FloatCmp::OrdLt, ds, Src::ZERO);
                v[0].iter()
                    .map(|&c| {
                        let s = self.src_of(c);
                        let n = self.fneg_src(c);
                        self.fsel(front, s, n)
                    })
                    .collect()
            }
            M::Any => vec![self.reduce_bools(&v[0], false)],
            _ => vec![self.reduce_bools(&v[0], true)],
        })
    }
}
