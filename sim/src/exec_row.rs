//! ALU ops over whole rows of 32 lanes, for instructions every lane runs.
//! Each lane's value is the ISA's own `eval` (inlined), so the semantics
//! stay those the constant folder uses; the loops are fixed-size and
//! branch-free so the compiler vectorises them.
//!
//! The loops are compiled twice: portably, and with AVX2 and FMA enabled
//! for CPUs that have them (chosen once, when the program is decoded).
//! With FMA, `f32::mul_add` in FFMA's `eval` is one `vfmadd` instead of a
//! call to the `fmaf` library function per lane; both compute the IEEE-754
//! fused multiply-add, so results are identical (tested below).

use crate::row_setp::{fsetp, isetp};
use crate::warp::{Row, WARP_LANES};
use spvsass_isa::isa::{Alu, AluVisitor, FloatArith, Op, OpFArith, RegFile, Round};

const WARP: usize = WARP_LANES as usize;

/// Which build of the row loops runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RowIsa {
    Portable,
    /// x86-64 with AVX2 and FMA.
    #[cfg(target_arch = "x86_64")]
    Avx2Fma,
}

impl RowIsa {
    /// The fastest build this CPU runs.
    pub(crate) fn detect() -> RowIsa {
        #[cfg(target_arch = "x86_64")]
        if is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma") {
            return RowIsa::Avx2Fma;
        }
        RowIsa::Portable
    }
}

/// What a row op produces.
pub(crate) enum RowValue {
    /// A register row (ALU ops).
    Row(Row),
    /// A predicate, bit l for lane l (ISETP, FSETP).
    Mask(u32),
}

/// `op` over all 32 lanes of the source rows `x`, with `held` the lanes
/// where its predicate source holds; `None` for an op without a row form.
/// Always inlined into the caller, which is compiled once per [`RowIsa`].
#[inline(always)]
pub(crate) fn eval_row_any(op: &Op, x: [&Row; 3], held: u32) -> Option<RowValue> {
    match op {
        // Enum fields fixed per loop, so that no lane loop matches on them.
        Op::FArith(o) => Some(RowValue::Row(farith(o, x))),
        Op::ISetP(o) => Some(RowValue::Mask(isetp(*o, x, held))),
        Op::FSetP(o) => Some(RowValue::Mask(fsetp(*o, x, held))),
        // Every other ALU op: its `lane` in a loop compiled for its type.
        op => op.alu(Rows { x, held }),
    }
}

/// An ALU op over whole rows.
struct Rows<'r> {
    x: [&'r Row; 3],
    held: u32,
}

impl AluVisitor<'_> for Rows<'_> {
    type Out = RowValue;
    #[inline(always)]
    fn visit<const N: usize, O: Alu<N>>(self, o: &O) -> RowValue {
        let row = map(self.x, self.held, |v, p| {
            o.lane(std::array::from_fn(|i| v[i]), p)
        });
        match O::DST {
            RegFile::Gpr => RowValue::Row(row),
            RegFile::Pred => RowValue::Mask(
                row.iter()
                    .enumerate()
                    .fold(0, |m, (l, &v)| m | u32::from(v != 0) << l),
            ),
        }
    }
}

/// FADD / FMUL / FFMA: the kind and rounding mode fixed per loop (a copy
/// of the op with the same fields, so `eval`, always inlined, folds its
/// mode match and the loop has no branch left). The loops call `eval`
/// directly rather than through a closure, which the compiler may keep
/// out of line, compiled without FMA.
#[inline(always)]
fn farith(o: &OpFArith, x: [&Row; 3]) -> Row {
    use FloatArith::{Add, Fma, Mul};
    let mut out = [0; WARP];
    macro_rules! each_lane {
        ($o:expr) => {{
            let o = $o;
            for (l, v) in out.iter_mut().enumerate() {
                *v = o.eval([x[0][l], x[1][l], x[2][l]]);
            }
        }};
    }
    let rn = |kind| OpFArith {
        kind,
        rnd: Round::Rn,
        ..*o
    };
    match (o.kind, o.rnd) {
        (Fma, Round::Rn) => each_lane!(rn(Fma)),
        (Add, Round::Rn) => each_lane!(rn(Add)),
        (Mul, Round::Rn) => each_lane!(rn(Mul)),
        _ => each_lane!(*o),
    }
    out
}

/// `f` of each lane's sources and predicate bit.
#[inline(always)]
fn map(x: [&Row; 3], held: u32, f: impl Fn([u32; 3], bool) -> u32) -> Row {
    let mut out = [0; WARP];
    for (l, v) in out.iter_mut().enumerate() {
        *v = f([x[0][l], x[1][l], x[2][l]], held >> l & 1 != 0);
    }
    out
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use spvsass_isa::isa::{
        Dst, OpIAdd3, OpIMad, OpIMnMx, OpLop3, OpSel, OpShf, PredSrc, Reg, Src,
    };

    /// `eval_row_any` in the given build.
    pub(crate) fn eval_row(isa: RowIsa, op: &Op, x: [&Row; 3], held: u32) -> Option<RowValue> {
        match isa {
            RowIsa::Portable => eval_row_portable(op, x, held),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `RowIsa::detect` chose this build only after checking
            // that the CPU has AVX2 and FMA.
            #[allow(unsafe_code)]
            RowIsa::Avx2Fma => unsafe { eval_row_avx2_fma(op, x, held) },
        }
    }

    fn eval_row_portable(op: &Op, x: [&Row; 3], held: u32) -> Option<RowValue> {
        eval_row_any(op, x, held)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma")]
    fn eval_row_avx2_fma(op: &Op, x: [&Row; 3], held: u32) -> Option<RowValue> {
        eval_row_any(op, x, held)
    }

    /// The builds this CPU runs.
    pub(crate) fn builds() -> Vec<RowIsa> {
        let mut builds = vec![RowIsa::Portable];
        if RowIsa::detect() != RowIsa::Portable {
            builds.push(RowIsa::detect());
        }
        builds
    }

    /// Integer edges: zero, one, two, shift amounts about 32, the signed
    /// extremes and their neighbours, and all ones.
    pub(crate) const INT_EDGES: [u32; 11] = [
        0,
        1,
        2,
        31,
        32,
        33,
        0x7fff_ffff,
        0x8000_0000,
        0x8000_0001,
        0xffff_fffe,
        0xffff_ffff,
    ];

    /// Predicate sources holding in no lane, every lane, and mixed lanes.
    const HELD: [u32; 4] = [0, u32::MAX, 0xaaaa_aaaa, 0x1234_5678];

    /// Float bit patterns at the edges: signed zeros, denormals (smallest,
    /// largest), the smallest normal, the largest finite, infinities, quiet
    /// and signalling NaNs of both signs, values whose fused and unfused
    /// results differ, and ordinary numbers.
    pub(crate) const EDGES: [u32; 22] = [
        0x0000_0000,
        0x8000_0000,
        0x0000_0001,
        0x8000_0001,
        0x007f_ffff,
        0x807f_ffff,
        0x0080_0000,
        0x8080_0000,
        0x7f7f_ffff,
        0xff7f_ffff,
        0x7f80_0000,
        0xff80_0000,
        0x7fc0_0000,
        0xffc0_0001,
        0x7f80_0001,
        0x3f80_0000,
        0xbf80_0000,
        0x3f80_0001,
        0x3f7f_ffff,
        0x3380_0000,
        0x1e3c_e508,
        0x6258_d727,
    ];

    /// Every (a, b, c) of `EDGES`, 32 lanes to a row.
    fn edge_rows() -> Vec<[Row; 3]> {
        let mut triples = Vec::new();
        for a in EDGES {
            for b in EDGES {
                for c in EDGES {
                    triples.push([a, b, c]);
                }
            }
        }
        triples
            .chunks(WARP)
            .map(|chunk| {
                let mut rows = [[0; WARP]; 3];
                for (l, t) in chunk.iter().enumerate() {
                    for i in 0..3 {
                        rows[i][l] = t[i];
                    }
                }
                rows
            })
            .collect()
    }

    /// Each build's rows equal `eval` lane by lane, bit for bit, with
    /// every combination of source modifiers.
    fn rows_match_eval(kind: FloatArith, rnd: Round, ftz: bool) {
        for modifiers in 0..64u32 {
            let src = |i: u32| Src {
                neg: modifiers >> (2 * i) & 1 != 0,
                abs: modifiers >> (2 * i + 1) & 1 != 0,
                ..Src::reg(Reg::Phys(i as u8))
            };
            let o = OpFArith {
                kind,
                dst: Dst::Reg(Reg::Phys(3)),
                srcs: [src(0), src(1), src(2)],
                ftz,
                rnd,
            };
            for rows in edge_rows() {
                let x = [&rows[0], &rows[1], &rows[2]];
                for isa in builds() {
                    let Some(RowValue::Row(out)) = eval_row(isa, &Op::FArith(o), x, 0) else {
                        panic!("{isa:?}: FArith has a row form");
                    };
                    for l in 0..WARP {
                        let lane = [rows[0][l], rows[1][l], rows[2][l]];
                        assert_eq!(out[l], o.eval(lane), "{isa:?} {o:?} on {lane:#010x?}");
                    }
                }
            }
        }
    }

    macro_rules! rows_match_eval {
        ($($name:ident: $kind:ident, $rnd:ident, $ftz:expr;)*) => {$(
            #[test]
            fn $name() {
                rows_match_eval(FloatArith::$kind, Round::$rnd, $ftz);
            }
        )*};
    }

    rows_match_eval! {
        ffma_rows_match_eval: Fma, Rn, false;
        ffma_ftz_rows_match_eval: Fma, Rn, true;
        ffma_rz_rows_match_eval: Fma, Rz, false;
        ffma_rm_ftz_rows_match_eval: Fma, Rm, true;
        ffma_rp_rows_match_eval: Fma, Rp, false;
        fadd_rows_match_eval: Add, Rn, false;
        fadd_ftz_rows_match_eval: Add, Rn, true;
        fadd_rp_rows_match_eval: Add, Rp, false;
        fmul_rows_match_eval: Mul, Rn, false;
        fmul_ftz_rows_match_eval: Mul, Rn, true;
        fmul_rz_ftz_rows_match_eval: Mul, Rz, true;
    }

    /// An integer op with a row form, and its `eval` for one lane.
    trait IntLane: Copy + std::fmt::Debug {
        fn op(self) -> Op;
        fn lane(self, x: [u32; 3], p: bool) -> u32;
    }

    impl IntLane for OpIAdd3 {
        fn op(self) -> Op {
            Op::IAdd3(self)
        }
        fn lane(self, x: [u32; 3], _: bool) -> u32 {
            self.eval(x)
        }
    }

    impl IntLane for OpIMad {
        fn op(self) -> Op {
            Op::IMad(self)
        }
        fn lane(self, x: [u32; 3], _: bool) -> u32 {
            self.eval(x)
        }
    }

    impl IntLane for OpLop3 {
        fn op(self) -> Op {
            Op::Lop3(self)
        }
        fn lane(self, x: [u32; 3], _: bool) -> u32 {
            self.eval(x)
        }
    }

    impl IntLane for OpShf {
        fn op(self) -> Op {
            Op::Shf(self)
        }
        fn lane(self, x: [u32; 3], _: bool) -> u32 {
            self.eval(x)
        }
    }

    impl IntLane for OpSel {
        fn op(self) -> Op {
            Op::Sel(self)
        }
        fn lane(self, [a, b, _]: [u32; 3], p: bool) -> u32 {
            self.eval(a, b, p)
        }
    }

    impl IntLane for OpIMnMx {
        fn op(self) -> Op {
            Op::IMnMx(self)
        }
        fn lane(self, [a, b, _]: [u32; 3], p: bool) -> u32 {
            self.eval(a, b, p)
        }
    }

    /// Each build's row equals `eval` lane by lane on every triple of
    /// `INT_EDGES`, under each of `HELD`.
    fn int_rows_match_eval(o: impl IntLane) {
        let triples: Vec<[u32; 3]> = INT_EDGES
            .iter()
            .flat_map(|&a| {
                INT_EDGES
                    .iter()
                    .flat_map(move |&b| INT_EDGES.map(|c| [a, b, c]))
            })
            .collect();
        for chunk in triples.chunks(WARP) {
            let mut rows = [[0; WARP]; 3];
            for (l, t) in chunk.iter().enumerate() {
                for (row, &v) in rows.iter_mut().zip(t) {
                    row[l] = v;
                }
            }
            let x = [&rows[0], &rows[1], &rows[2]];
            for held in HELD {
                for isa in builds() {
                    let Some(RowValue::Row(out)) = eval_row(isa, &o.op(), x, held) else {
                        panic!("{isa:?}: {o:?} has a row form");
                    };
                    for (l, &v) in out.iter().enumerate() {
                        let lane = [rows[0][l], rows[1][l], rows[2][l]];
                        let p = held >> l & 1 != 0;
                        assert_eq!(v, o.lane(lane, p), "{isa:?} {o:?} on {lane:#x?}, {p}");
                    }
                }
            }
        }
    }

    const D: Dst = Dst::Reg(Reg::Phys(3));

    /// Sources R0, R1, R2, negated where `neg` says.
    fn srcs(neg: [bool; 3]) -> [Src; 3] {
        [0, 1, 2].map(|i| Src {
            neg: neg[i],
            ..Src::reg(Reg::Phys(i as u8))
        })
    }

    fn shf(right: bool, wrap: bool, high: bool) -> OpShf {
        OpShf {
            dst: D,
            srcs: srcs([false; 3]),
            right,
            wrap,
            high,
        }
    }

    fn lop3(lut: u8) -> OpLop3 {
        OpLop3 {
            dst: D,
            srcs: srcs([false; 3]),
            lut,
        }
    }

    macro_rules! int_rows_match_eval {
        ($($name:ident: $op:expr;)*) => {$(
            #[test]
            fn $name() {
                int_rows_match_eval($op);
            }
        )*};
    }

    int_rows_match_eval! {
        iadd3_rows_match_eval: OpIAdd3 { dst: D, srcs: srcs([false; 3]) };
        iadd3_neg_rows_match_eval: OpIAdd3 { dst: D, srcs: srcs([true, false, true]) };
        imad_rows_match_eval: OpIMad { dst: D, srcs: srcs([false; 3]), signed: true };
        imad_u32_rows_match_eval: OpIMad { dst: D, srcs: srcs([false; 3]), signed: false };
        lop3_xor3_rows_match_eval: lop3(0x96);
        lop3_and_rows_match_eval: lop3(0xc0);
        lop3_xor_rows_match_eval: lop3(0x3c);
        lop3_mux_rows_match_eval: lop3(0xca);
        lop3_zero_rows_match_eval: lop3(0x00);
        lop3_ones_rows_match_eval: lop3(0xff);
        shf_l_rows_match_eval: shf(false, false, false);
        shf_l_hi_rows_match_eval: shf(false, false, true);
        shf_l_w_rows_match_eval: shf(false, true, false);
        shf_l_w_hi_rows_match_eval: shf(false, true, true);
        shf_r_rows_match_eval: shf(true, false, false);
        shf_r_hi_rows_match_eval: shf(true, false, true);
        shf_r_w_rows_match_eval: shf(true, true, false);
        shf_r_w_hi_rows_match_eval: shf(true, true, true);
        sel_rows_match_eval: OpSel {
            dst: D,
            srcs: [Src::reg(Reg::Phys(0)), Src::reg(Reg::Phys(1))],
            cond: PredSrc::reg(Reg::Phys(0)),
        };
        imnmx_s32_rows_match_eval: OpIMnMx {
            dst: D,
            srcs: [Src::reg(Reg::Phys(0)), Src::reg(Reg::Phys(1))],
            signed: true,
            min: PredSrc::reg(Reg::Phys(0)),
        };
        imnmx_u32_rows_match_eval: OpIMnMx {
            dst: D,
            srcs: [Src::reg(Reg::Phys(0)), Src::reg(Reg::Phys(1))],
            signed: false,
            min: PredSrc::reg(Reg::Phys(0)),
        };
    }
}
