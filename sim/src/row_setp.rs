//! Set-predicate ops (ISETP, FSETP) over whole rows: the lanes' results
//! packed into a predicate mask. Each lane's bit is the ISA's own `eval`;
//! the comparison and combination are enums, and a match on one inside
//! the lane loop would keep it scalar (a jump per lane), so each is fixed
//! per loop in a copy of the op, as `exec_row::farith` does for FFMA's
//! kind and rounding.

use crate::warp::Row;
use spvsass_isa::isa::{FloatCmp, IntCmp, OpFSetP, OpISetP, PredCombine};

/// ISETP: one loop per comparison, signedness and combination.
#[inline(always)]
pub(crate) fn isetp(o: OpISetP, x: [&Row; 3], held: u32) -> u32 {
    use IntCmp::{Eq, Ge, Gt, Le, Lt, Ne};
    let cmp = |cmp| OpISetP { cmp, ..o };
    match o.cmp {
        Eq => isetp_signed(cmp(Eq), x, held),
        Ne => isetp_signed(cmp(Ne), x, held),
        Lt => isetp_signed(cmp(Lt), x, held),
        Le => isetp_signed(cmp(Le), x, held),
        Gt => isetp_signed(cmp(Gt), x, held),
        Ge => isetp_signed(cmp(Ge), x, held),
    }
}

#[inline(always)]
fn isetp_signed(o: OpISetP, x: [&Row; 3], held: u32) -> u32 {
    let signed = |signed| OpISetP { signed, ..o };
    if o.signed {
        isetp_combine(signed(true), x, held)
    } else {
        isetp_combine(signed(false), x, held)
    }
}

#[inline(always)]
fn isetp_combine(o: OpISetP, x: [&Row; 3], held: u32) -> u32 {
    use PredCombine::{And, Or, Xor};
    macro_rules! each_lane {
        ($combine:expr) => {{
            let o = OpISetP {
                combine: $combine,
                ..o
            };
            mask(x, held, |[a, b, _], p| o.eval(a, b, p))
        }};
    }
    match o.combine {
        And => each_lane!(And),
        Or => each_lane!(Or),
        Xor => each_lane!(Xor),
    }
}

/// FSETP: one loop per comparison and combination, fixed the same way
/// (FTZ and the source modifiers are flags, which the loop selects on
/// without branching).
#[inline(always)]
pub(crate) fn fsetp(o: OpFSetP, x: [&Row; 3], held: u32) -> u32 {
    use FloatCmp::{
        OrdEq, OrdGe, OrdGt, OrdLe, OrdLt, OrdNe, UnordEq, UnordGe, UnordGt, UnordLe, UnordLt,
        UnordNe,
    };
    let cmp = |cmp| OpFSetP { cmp, ..o };
    match o.cmp {
        OrdLt => fsetp_combine(cmp(OrdLt), x, held),
        OrdEq => fsetp_combine(cmp(OrdEq), x, held),
        OrdLe => fsetp_combine(cmp(OrdLe), x, held),
        OrdGt => fsetp_combine(cmp(OrdGt), x, held),
        OrdNe => fsetp_combine(cmp(OrdNe), x, held),
        OrdGe => fsetp_combine(cmp(OrdGe), x, held),
        UnordLt => fsetp_combine(cmp(UnordLt), x, held),
        UnordEq => fsetp_combine(cmp(UnordEq), x, held),
        UnordLe => fsetp_combine(cmp(UnordLe), x, held),
        UnordGt => fsetp_combine(cmp(UnordGt), x, held),
        UnordNe => fsetp_combine(cmp(UnordNe), x, held),
        UnordGe => fsetp_combine(cmp(UnordGe), x, held),
    }
}

#[inline(always)]
fn fsetp_combine(o: OpFSetP, x: [&Row; 3], held: u32) -> u32 {
    use PredCombine::{And, Or, Xor};
    macro_rules! each_lane {
        ($combine:expr) => {{
            let o = OpFSetP {
                combine: $combine,
                ..o
            };
            mask(x, held, |[a, b, _], p| o.eval(a, b, p))
        }};
    }
    match o.combine {
        And => each_lane!(And),
        Or => each_lane!(Or),
        Xor => each_lane!(Xor),
    }
}

/// The lanes for which `f` of their sources and predicate bit holds.
#[inline(always)]
fn mask(x: [&Row; 3], held: u32, f: impl Fn([u32; 3], bool) -> bool) -> u32 {
    let mut m = 0;
    for (l, &a) in x[0].iter().enumerate() {
        m |= u32::from(f([a, x[1][l], x[2][l]], held >> l & 1 != 0)) << l;
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec_row::RowValue;
    use crate::exec_row::tests::{EDGES, INT_EDGES, builds, eval_row};
    use crate::warp::WARP_LANES;
    use spvsass_isa::isa::{Dst, Op, PredSrc, Reg, Src};

    const WARP: usize = WARP_LANES as usize;
    /// Each build's ISETP mask equals `eval` lane by lane, on every pair
    /// of `INT_EDGES` under accumulators that hold in no lane,
    /// every lane, and mixed lanes.
    fn isetp_masks_match_eval(cmp: IntCmp, signed: bool, combine: PredCombine) {
        let pairs: Vec<[u32; 2]> = INT_EDGES
            .iter()
            .flat_map(|&a| INT_EDGES.iter().map(move |&b| [a, b]))
            .collect();
        let o = OpISetP {
            dst: Dst::Reg(Reg::Phys(0)),
            cmp,
            signed,
            combine,
            srcs: [Src::reg(Reg::Phys(0)), Src::reg(Reg::Phys(1))],
            accum: PredSrc::TRUE,
        };
        for chunk in pairs.chunks(WARP) {
            let mut rows = [[0; WARP]; 3];
            for (l, [a, b]) in chunk.iter().enumerate() {
                rows[0][l] = *a;
                rows[1][l] = *b;
            }
            let x = [&rows[0], &rows[1], &rows[2]];
            for held in [0, u32::MAX, 0xaaaa_aaaa, 0x1234_5678] {
                for isa in builds() {
                    let Some(RowValue::Mask(m)) = eval_row(isa, &Op::ISetP(o), x, held) else {
                        panic!("{isa:?}: ISETP has a row form");
                    };
                    for (l, (&a, &b)) in rows[0].iter().zip(&rows[1]).enumerate() {
                        let p = held >> l & 1 != 0;
                        assert_eq!(
                            m >> l & 1 != 0,
                            o.eval(a, b, p),
                            "{isa:?} {o:?} on {a:#x}, {b:#x}, {p}"
                        );
                    }
                }
            }
        }
    }

    macro_rules! isetp_masks_match_eval {
        ($($name:ident: $cmp:ident, $signed:expr, $combine:ident;)*) => {$(
            #[test]
            fn $name() {
                isetp_masks_match_eval(IntCmp::$cmp, $signed, PredCombine::$combine);
            }
        )*};
    }

    isetp_masks_match_eval! {
        isetp_eq_u32_and_masks_match_eval: Eq, false, And;
        isetp_eq_u32_or_masks_match_eval: Eq, false, Or;
        isetp_eq_u32_xor_masks_match_eval: Eq, false, Xor;
        isetp_eq_s32_and_masks_match_eval: Eq, true, And;
        isetp_eq_s32_or_masks_match_eval: Eq, true, Or;
        isetp_eq_s32_xor_masks_match_eval: Eq, true, Xor;
        isetp_ne_u32_and_masks_match_eval: Ne, false, And;
        isetp_ne_u32_or_masks_match_eval: Ne, false, Or;
        isetp_ne_u32_xor_masks_match_eval: Ne, false, Xor;
        isetp_ne_s32_and_masks_match_eval: Ne, true, And;
        isetp_ne_s32_or_masks_match_eval: Ne, true, Or;
        isetp_ne_s32_xor_masks_match_eval: Ne, true, Xor;
        isetp_lt_u32_and_masks_match_eval: Lt, false, And;
        isetp_lt_u32_or_masks_match_eval: Lt, false, Or;
        isetp_lt_u32_xor_masks_match_eval: Lt, false, Xor;
        isetp_lt_s32_and_masks_match_eval: Lt, true, And;
        isetp_lt_s32_or_masks_match_eval: Lt, true, Or;
        isetp_lt_s32_xor_masks_match_eval: Lt, true, Xor;
        isetp_le_u32_and_masks_match_eval: Le, false, And;
        isetp_le_u32_or_masks_match_eval: Le, false, Or;
        isetp_le_u32_xor_masks_match_eval: Le, false, Xor;
        isetp_le_s32_and_masks_match_eval: Le, true, And;
        isetp_le_s32_or_masks_match_eval: Le, true, Or;
        isetp_le_s32_xor_masks_match_eval: Le, true, Xor;
        isetp_gt_u32_and_masks_match_eval: Gt, false, And;
        isetp_gt_u32_or_masks_match_eval: Gt, false, Or;
        isetp_gt_u32_xor_masks_match_eval: Gt, false, Xor;
        isetp_gt_s32_and_masks_match_eval: Gt, true, And;
        isetp_gt_s32_or_masks_match_eval: Gt, true, Or;
        isetp_gt_s32_xor_masks_match_eval: Gt, true, Xor;
        isetp_ge_u32_and_masks_match_eval: Ge, false, And;
        isetp_ge_u32_or_masks_match_eval: Ge, false, Or;
        isetp_ge_u32_xor_masks_match_eval: Ge, false, Xor;
        isetp_ge_s32_and_masks_match_eval: Ge, true, And;
        isetp_ge_s32_or_masks_match_eval: Ge, true, Or;
        isetp_ge_s32_xor_masks_match_eval: Ge, true, Xor;
    }

    /// Each build's FSETP mask equals `eval` lane by lane, on every pair of
    /// the float edges (with and without FTZ, and with source modifiers)
    /// under mixed accumulators.
    fn fsetp_masks_match_eval(cmp: FloatCmp, combine: PredCombine) {
        let pairs: Vec<[u32; 2]> = EDGES
            .iter()
            .flat_map(|&a| EDGES.iter().map(move |&b| [a, b]))
            .collect();
        for (ftz, neg, abs) in [
            (false, false, false),
            (true, false, false),
            (false, true, true),
        ] {
            let o = OpFSetP {
                dst: Dst::Reg(Reg::Phys(0)),
                cmp,
                combine,
                ftz,
                srcs: [
                    Src {
                        neg,
                        ..Src::reg(Reg::Phys(0))
                    },
                    Src {
                        abs,
                        ..Src::reg(Reg::Phys(1))
                    },
                ],
                accum: PredSrc::TRUE,
            };
            for chunk in pairs.chunks(WARP) {
                let mut rows = [[0; WARP]; 3];
                for (l, [a, b]) in chunk.iter().enumerate() {
                    rows[0][l] = *a;
                    rows[1][l] = *b;
                }
                let x = [&rows[0], &rows[1], &rows[2]];
                for held in [0, u32::MAX, 0x1234_5678] {
                    for isa in builds() {
                        let Some(RowValue::Mask(m)) = eval_row(isa, &Op::FSetP(o), x, held) else {
                            panic!("{isa:?}: FSETP has a row form");
                        };
                        for (l, (&a, &b)) in rows[0].iter().zip(&rows[1]).enumerate() {
                            let p = held >> l & 1 != 0;
                            assert_eq!(
                                m >> l & 1 != 0,
                                o.eval(a, b, p),
                                "{isa:?} {o:?} on {a:#x}, {b:#x}, {p}"
                            );
                        }
                    }
                }
            }
        }
    }

    macro_rules! fsetp_masks_match_eval {
        ($($name:ident: $cmp:ident, $combine:ident;)*) => {$(
            #[test]
            fn $name() {
                fsetp_masks_match_eval(FloatCmp::$cmp, PredCombine::$combine);
            }
        )*};
    }

    fsetp_masks_match_eval! {
        fsetp_ordlt_and_masks_match_eval: OrdLt, And;
        fsetp_ordlt_or_masks_match_eval: OrdLt, Or;
        fsetp_ordlt_xor_masks_match_eval: OrdLt, Xor;
        fsetp_ordeq_and_masks_match_eval: OrdEq, And;
        fsetp_ordeq_or_masks_match_eval: OrdEq, Or;
        fsetp_ordeq_xor_masks_match_eval: OrdEq, Xor;
        fsetp_ordle_and_masks_match_eval: OrdLe, And;
        fsetp_ordle_or_masks_match_eval: OrdLe, Or;
        fsetp_ordle_xor_masks_match_eval: OrdLe, Xor;
        fsetp_ordgt_and_masks_match_eval: OrdGt, And;
        fsetp_ordgt_or_masks_match_eval: OrdGt, Or;
        fsetp_ordgt_xor_masks_match_eval: OrdGt, Xor;
        fsetp_ordne_and_masks_match_eval: OrdNe, And;
        fsetp_ordne_or_masks_match_eval: OrdNe, Or;
        fsetp_ordne_xor_masks_match_eval: OrdNe, Xor;
        fsetp_ordge_and_masks_match_eval: OrdGe, And;
        fsetp_ordge_or_masks_match_eval: OrdGe, Or;
        fsetp_ordge_xor_masks_match_eval: OrdGe, Xor;
        fsetp_unordlt_and_masks_match_eval: UnordLt, And;
        fsetp_unordlt_or_masks_match_eval: UnordLt, Or;
        fsetp_unordlt_xor_masks_match_eval: UnordLt, Xor;
        fsetp_unordeq_and_masks_match_eval: UnordEq, And;
        fsetp_unordeq_or_masks_match_eval: UnordEq, Or;
        fsetp_unordeq_xor_masks_match_eval: UnordEq, Xor;
        fsetp_unordle_and_masks_match_eval: UnordLe, And;
        fsetp_unordle_or_masks_match_eval: UnordLe, Or;
        fsetp_unordle_xor_masks_match_eval: UnordLe, Xor;
        fsetp_unordgt_and_masks_match_eval: UnordGt, And;
        fsetp_unordgt_or_masks_match_eval: UnordGt, Or;
        fsetp_unordgt_xor_masks_match_eval: UnordGt, Xor;
        fsetp_unordne_and_masks_match_eval: UnordNe, And;
        fsetp_unordne_or_masks_match_eval: UnordNe, Or;
        fsetp_unordne_xor_masks_match_eval: UnordNe, Xor;
        fsetp_unordge_and_masks_match_eval: UnordGe, And;
        fsetp_unordge_or_masks_match_eval: UnordGe, Or;
        fsetp_unordge_xor_masks_match_eval: UnordGe, Xor;
    }
}
