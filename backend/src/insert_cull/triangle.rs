//! The culling test of one triangle (`insert_cull.rs`), in plain FMUL / FFMA /
//! FSETP arithmetic, and the small emitters the culling code is built
//! from.
//!
//! The test must never cull a triangle the rasterizer would draw, so the
//! images with and without culling are identical:
//! - frustum: all three vertices beyond one clip plane (x > w, x < -w,
//!   y > w, y < -w, z < 0, z > w). Exact: the comparisons are on the same
//!   f32 values the rasterizer clips, and the half-spaces are convex.
//! - facing and small primitives only for triangles the rasterizer takes
//!   unclipped (w > 0, 0 <= z <= w) and well inside its guard band
//!   (|x|, |y| <= 2w). Screen positions are computed in f32 and may lie up
//!   to `e` pixels (root table, `abi::CullControl::snap_error`: half a
//!   1/256-pixel step plus the f32 error) from the rasterizer's snapped
//!   ones. Facing: twice the signed area A (y down, clockwise positive, as
//!   `sim/src/raster/edge.rs`) decides only beyond the margin
//!   4e·(|ax|+|ay|+|bx|+|by|) + 8e² + 2^-20·(|ax·by| + |ay·bx|), which
//!   bounds what moving each vertex by e and the f32 rounding can change.
//!   Small: the bounding box grown by e holds no pixel centre (k + 0.5) in
//!   x or in y: floor(max - 0.5) < ceil(min - 0.5).

use super::Code;
use crate::abi::{self, cull};
use crate::isa::{
    Dst, FloatArith, FloatCmp, Instr, IntCmp, IsbeAccess, IsbeSize, MufuOp, Op, OpFArith, OpFMnMx,
    OpFSetP, OpFrnd, OpIAdd3, OpIMad, OpISetP, OpIsbeRd, OpIsbeWr, OpLop3, OpMufu, OpPLop3, OpSel,
    OpShf, PredCombine, PredSrc, RegFile, Round, Src,
};
use crate::isa::{OpMov, SrcRef};

pub(super) const LUT_AND: u8 = 0xc0;
pub(super) const LUT_OR: u8 = 0xfc;
/// PLOP3 truth tables over (a, b) with c = PT: lut[a<<2 | b<<1 | c].
pub(super) const PLUT_AND: u8 = 0xc0;
pub(super) const PLUT_OR: u8 = 0xfc;
pub(super) const PLUT_AND_NOT: u8 = 0x30;

/// The draw's culling parameters, loaded from the root table.
pub(super) struct CullParams {
    pub control: Src,
    pub half_width: Src,
    pub half_height: Src,
    pub error: Src,
}

fn f(v: f32) -> Src {
    Src::imm(v.to_bits())
}

fn abs(s: Src) -> Src {
    Src { abs: true, ..s }
}

impl Code<'_> {
    pub(super) fn c_gpr(&mut self, guard: PredSrc, make: impl FnOnce(Dst) -> Op) -> Src {
        let r = self.f.new_vreg(RegFile::Gpr);
        self.emit(Instr::guarded(guard, make(r.dst())));
        r.src()
    }

    fn c_pred(&mut self, make: impl FnOnce(Dst) -> Op) -> PredSrc {
        let p = self.f.new_vreg(RegFile::Pred);
        self.emit(Instr::new(make(p.dst())));
        p.pred()
    }

    fn c_farith(&mut self, kind: FloatArith, srcs: [Src; 3]) -> Src {
        self.c_farith_rnd(kind, srcs, Round::Rn)
    }

    fn cull_fadd(&mut self, a: Src, b: Src) -> Src {
        self.c_farith(FloatArith::Add, [a, b, Src::ZERO])
    }

    fn cull_fmul(&mut self, a: Src, b: Src) -> Src {
        self.c_farith(FloatArith::Mul, [a, b, Src::ZERO])
    }

    fn cull_ffma(&mut self, a: Src, b: Src, c: Src) -> Src {
        self.c_farith(FloatArith::Fma, [a, b, c])
    }

    fn fmnmx(&mut self, a: Src, b: Src, min: bool) -> Src {
        let min = if min {
            PredSrc::TRUE
        } else {
            PredSrc {
                reg: None,
                neg: true,
            }
        };
        self.c_gpr(PredSrc::TRUE, |dst| {
            Op::FMnMx(OpFMnMx {
                dst,
                srcs: [a, b],
                ftz: false,
                min,
            })
        })
    }

    /// `(a cmp b) combine accum`.
    fn cull_fsetp(
        &mut self,
        cmp: FloatCmp,
        a: Src,
        b: Src,
        combine: PredCombine,
        accum: PredSrc,
    ) -> PredSrc {
        self.c_pred(|dst| {
            Op::FSetP(OpFSetP {
                dst,
                cmp,
                combine,
                ftz: false,
                srcs: [a, b],
                accum,
            })
        })
    }

    /// Unsigned `a cmp b`.
    pub(super) fn c_isetp(&mut self, cmp: IntCmp, a: Src, b: Src) -> PredSrc {
        self.c_pred(|dst| {
            Op::ISetP(OpISetP {
                dst,
                cmp,
                signed: false,
                combine: PredCombine::And,
                srcs: [a, b],
                accum: PredSrc::TRUE,
            })
        })
    }

    pub(super) fn c_plop(&mut self, a: PredSrc, b: PredSrc, lut: u8) -> PredSrc {
        self.c_pred(|dst| {
            Op::PLop3(OpPLop3 {
                dst,
                srcs: [a, b, PredSrc::TRUE],
                lut,
            })
        })
    }

    pub(super) fn c_lop(&mut self, a: Src, b: Src, lut: u8) -> Src {
        self.c_gpr(PredSrc::TRUE, |dst| {
            Op::Lop3(OpLop3 {
                dst,
                srcs: [a, b, Src::ZERO],
                lut,
            })
        })
    }

    pub(super) fn c_iadd(&mut self, a: Src, b: Src) -> Src {
        self.c_gpr(PredSrc::TRUE, |dst| {
            Op::IAdd3(OpIAdd3 {
                dst,
                srcs: [a, b, Src::ZERO],
            })
        })
    }

    pub(super) fn c_imad(&mut self, a: Src, b: Src, c: Src) -> Src {
        self.c_gpr(PredSrc::TRUE, |dst| {
            Op::IMad(OpIMad {
                dst,
                srcs: [a, b, c],
                signed: false,
            })
        })
    }

    pub(super) fn c_popc(&mut self, a: Src) -> Src {
        self.c_gpr(PredSrc::TRUE, |dst| {
            Op::Bit(crate::isa::OpBit {
                dst,
                src: a,
                op: crate::isa::BitOp::Popc,
            })
        })
    }

    /// `a << s` (s taken mod 32) or `a >> s`.
    pub(super) fn c_shift(&mut self, a: Src, s: Src, right: bool) -> Src {
        self.c_gpr(PredSrc::TRUE, |dst| {
            Op::Shf(OpShf {
                dst,
                srcs: [a, s, Src::ZERO],
                right,
                wrap: true,
                high: false,
            })
        })
    }

    pub(super) fn c_sel(&mut self, a: Src, b: Src, p: PredSrc) -> Src {
        self.c_gpr(PredSrc::TRUE, |dst| {
            Op::Sel(OpSel {
                dst,
                srcs: [a, b],
                cond: p,
            })
        })
    }

    /// A register holding constant `v` (RZ for 0; sources 0 of most ops
    /// must be registers), moved once per block.
    pub(super) fn c_reg(&mut self, v: u32) -> Src {
        if v == 0 {
            return Src::ZERO;
        }
        if let Some(&r) = self.const_regs.get(&(self.cur, v)) {
            return r.src();
        }
        let r = self.f.new_vreg(RegFile::Gpr);
        self.emit(Instr::new(Op::Mov(OpMov {
            dst: r.dst(),
            src: Src::imm(v),
        })));
        self.const_regs.insert((self.cur, v), r);
        r.src()
    }

    /// A word of the root table (constant bank 0), loaded here.
    pub(super) fn root_word(&mut self, offset: u16) -> Src {
        let r = self.f.new_vreg(RegFile::Gpr);
        self.emit(abi::root_word_load(r.dst(), offset));
        r.src()
    }

    /// `base + imm` as an ISBE address: the immediate offset from SM86
    /// on, added into a register before.
    fn isbe_addr(&mut self, base: Src, imm: u32) -> (Src, u32) {
        if self.arch.has_isbe_imm_offset() || imm == 0 {
            return (base, imm);
        }
        match const_src(base) {
            // A constant base (RZ): the sum is a constant register.
            Some(k) => (self.c_reg(k.wrapping_add(imm)), 0),
            None => {
                let sum = self.c_iadd(base, Src::imm(imm));
                (sum, 0)
            }
        }
    }

    /// Reads the output ISBE.
    pub(super) fn c_isbe_rd(
        &mut self,
        base: Src,
        imm: u32,
        access: IsbeAccess,
        size: IsbeSize,
        skew: bool,
    ) -> Src {
        let (addr, imm) = self.isbe_addr(base, imm);
        self.c_gpr(PredSrc::TRUE, |dst| {
            Op::IsbeRd(OpIsbeRd {
                dst,
                addr,
                imm,
                output: true,
                access,
                size,
                skew,
            })
        })
    }

    /// Writes the output ISBE where `guard` holds.
    pub(super) fn c_isbe_wr(
        &mut self,
        at: (Src, u32),
        data: Src,
        access: IsbeAccess,
        size: IsbeSize,
        guard: PredSrc,
    ) {
        let (addr, imm) = self.isbe_addr(at.0, at.1);
        self.emit(Instr::guarded(
            guard,
            Op::IsbeWr(OpIsbeWr {
                addr,
                imm,
                data,
                access,
                size,
                skew: false,
            }),
        ));
    }

    /// The draw's culling words.
    pub(super) fn cull_params(&mut self, control: Src) -> CullParams {
        CullParams {
            control,
            half_width: self.root_word(abi::CULL_VIEWPORT),
            half_height: self.root_word(abi::CULL_VIEWPORT + 4),
            error: self.root_word(abi::CULL_SNAP_ERROR),
        }
    }

    /// Whether the control word has `bit`.
    fn mode_on(&mut self, control: Src, bit: u32) -> PredSrc {
        let m = self.c_lop(control, Src::imm(bit), LUT_AND);
        self.c_isetp(IntCmp::Ne, m, Src::ZERO)
    }

    /// Whether the triangle with clip positions `pos[vertex][x, y, z, w]`
    /// is culled under the modes of `params.control`.
    pub(super) fn triangle_culled(&mut self, pos: &[[Src; 4]; 3], params: &CullParams) -> PredSrc {
        let frustum = self.outside_frustum(pos);
        let on = self.mode_on(params.control, cull::FRUSTUM);
        let mut culled = self.c_plop(frustum, on, PLUT_AND);

        let inner = self.inner(pos);
        let screen = pos.map(|[x, y, _, w]| (x, y, w));
        let mut s = Vec::new();
        for (x, y, w) in screen {
            let rw = self.c_gpr(PredSrc::TRUE, |dst| {
                Op::Mufu(OpMufu {
                    dst,
                    src: w,
                    op: MufuOp::Rcp,
                })
            });
            let nx = self.cull_fmul(x, rw);
            let ny = self.cull_fmul(y, rw);
            let sx = self.cull_ffma(nx, params.half_width, params.half_width);
            let sy = self.cull_ffma(ny, params.half_height, params.half_height);
            s.push((sx, sy));
        }
        let facing = self.facing(&s, params);
        let facing = self.c_plop(facing, inner, PLUT_AND);
        culled = self.c_plop(culled, facing, PLUT_OR);

        let small = self.no_pixel_centre(&s, params.error);
        let on = self.mode_on(params.control, cull::SMALL);
        let small = self.c_plop(small, on, PLUT_AND);
        let small = self.c_plop(small, inner, PLUT_AND);
        self.c_plop(culled, small, PLUT_OR)
    }

    /// All three vertices beyond one clip plane.
    fn outside_frustum(&mut self, pos: &[[Src; 4]; 3]) -> PredSrc {
        let planes: [(usize, bool, FloatCmp); 6] = [
            (0, false, FloatCmp::OrdGt),
            (0, true, FloatCmp::OrdLt),
            (1, false, FloatCmp::OrdGt),
            (1, true, FloatCmp::OrdLt),
            (2, false, FloatCmp::OrdGt),
            (2, false, FloatCmp::OrdLt),
        ];
        let mut outside = PredSrc {
            reg: None,
            neg: true,
        };
        for (k, (c, neg_w, cmp)) in planes.into_iter().enumerate() {
            let mut all = PredSrc::TRUE;
            for v in pos {
                // z < 0 is against zero; the others against ±w.
                let bound = if k == 5 {
                    Src::ZERO
                } else if neg_w {
                    v[3].negated()
                } else {
                    v[3]
                };
                all = self.cull_fsetp(cmp, v[c], bound, PredCombine::And, all);
            }
            outside = self.c_plop(outside, all, PLUT_OR);
        }
        outside
    }

    /// The triangle is taken unclipped and well inside the guard band:
    /// w > 2^-20, 0 <= z <= w, |x| <= 2w and |y| <= 2w at every vertex.
    fn inner(&mut self, pos: &[[Src; 4]; 3]) -> PredSrc {
        let mut ok = PredSrc::TRUE;
        for [x, y, z, w] in pos {
            ok = self.cull_fsetp(
                FloatCmp::OrdGt,
                *w,
                f(1.0 / 1048576.0),
                PredCombine::And,
                ok,
            );
            ok = self.cull_fsetp(FloatCmp::OrdGe, *z, Src::ZERO, PredCombine::And, ok);
            ok = self.cull_fsetp(FloatCmp::OrdLe, *z, *w, PredCombine::And, ok);
            let half_x = self.cull_fmul(abs(*x), f(0.5));
            ok = self.cull_fsetp(FloatCmp::OrdLe, half_x, *w, PredCombine::And, ok);
            let half_y = self.cull_fmul(abs(*y), f(0.5));
            ok = self.cull_fsetp(FloatCmp::OrdLe, half_y, *w, PredCombine::And, ok);
        }
        ok
    }

    /// Culled by facing (module comment): the area is beyond the margin
    /// on a side whose winding the control word culls.
    fn facing(&mut self, s: &[(Src, Src)], params: &CullParams) -> PredSrc {
        let (ax, ay) = (
            self.cull_fadd(s[1].0, s[0].0.negated()),
            self.cull_fadd(s[1].1, s[0].1.negated()),
        );
        let (bx, by) = (
            self.cull_fadd(s[2].0, s[0].0.negated()),
            self.cull_fadd(s[2].1, s[0].1.negated()),
        );
        let p1 = self.cull_fmul(ax, by);
        let p2 = self.cull_fmul(ay, bx);
        let area = self.cull_fadd(p1, p2.negated());
        let l1 = self.cull_fadd(abs(ax), abs(ay));
        let l1 = self.cull_fadd(l1, abs(bx));
        let l1 = self.cull_fadd(l1, abs(by));
        let e4 = self.cull_fmul(params.error, f(4.0));
        let e2 = self.cull_fadd(params.error, params.error);
        let e_sq = self.cull_fmul(e2, e2);
        let e_sq2 = self.cull_fadd(e_sq, e_sq);
        let margin = self.cull_ffma(l1, e4, e_sq2);
        let margin = self.cull_ffma(abs(p1), f(1.0 / 1048576.0), margin);
        let margin = self.cull_ffma(abs(p2), f(1.0 / 1048576.0), margin);
        // Clockwise (positive) beyond the margin, and culled clockwise.
        let cw = self.cull_fsetp(
            FloatCmp::OrdGt,
            area,
            margin,
            PredCombine::And,
            PredSrc::TRUE,
        );
        let cull_cw = self.mode_on(params.control, cull::CW);
        let cw = self.c_plop(cw, cull_cw, PLUT_AND);
        let ccw = self.cull_fsetp(
            FloatCmp::OrdLt,
            area,
            margin.negated(),
            PredCombine::And,
            PredSrc::TRUE,
        );
        let cull_ccw = self.mode_on(params.control, cull::CCW);
        let ccw = self.c_plop(ccw, cull_ccw, PLUT_AND);
        self.c_plop(cw, ccw, PLUT_OR)
    }

    /// No pixel centre in the grown bounding box along x or along y.
    fn no_pixel_centre(&mut self, s: &[(Src, Src)], e: Src) -> PredSrc {
        let mut none = PredSrc {
            reg: None,
            neg: true,
        };
        for axis in 0..2 {
            let c = |i: usize| if axis == 0 { s[i].0 } else { s[i].1 };
            let lo = self.fmnmx(c(0), c(1), true);
            let lo = self.fmnmx(lo, c(2), true);
            let hi = self.fmnmx(c(0), c(1), false);
            let hi = self.fmnmx(hi, c(2), false);
            // lo - e - 0.5 and hi + e - 0.5, rounded outwards.
            let lo = self.cull_ffma(e, f(-1.0), lo);
            let lo = self.c_farith_rnd(FloatArith::Add, [lo, f(-0.5), Src::ZERO], Round::Rm);
            let hi = self.cull_fadd(hi, e);
            let hi = self.c_farith_rnd(FloatArith::Add, [hi, f(-0.5), Src::ZERO], Round::Rp);
            let first = self.cull_frnd(lo, Round::Rp);
            let last = self.cull_frnd(hi, Round::Rm);
            none = self.cull_fsetp(FloatCmp::OrdLt, last, first, PredCombine::Or, none);
        }
        none
    }

    fn c_farith_rnd(&mut self, kind: FloatArith, srcs: [Src; 3], rnd: Round) -> Src {
        self.c_gpr(PredSrc::TRUE, |dst| {
            Op::FArith(OpFArith {
                kind,
                dst,
                srcs,
                ftz: false,
                rnd,
            })
        })
    }

    /// FRND.CEIL (`Rp`) or FRND.FLOOR (`Rm`).
    fn cull_frnd(&mut self, a: Src, rnd: Round) -> Src {
        self.c_gpr(PredSrc::TRUE, |dst| {
            Op::Frnd(OpFrnd {
                dst,
                src: a,
                rnd,
                ftz: false,
            })
        })
    }
}

/// The value of a source that is a plain constant (RZ or an immediate
/// without modifiers).
fn const_src(s: Src) -> Option<u32> {
    match s.src {
        SrcRef::Zero if !s.neg && !s.abs => Some(0),
        SrcRef::Imm(k) if !s.neg && !s.abs => Some(k),
        _ => None,
    }
}
