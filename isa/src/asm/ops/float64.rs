//! Mnemonic and operands to op for the double-precision ops (DADD, DMUL,
//! DFMA, DSETP, and F2F / I2F / F2I / FRND with an .F64 modifier), reading
//! the text forms their `fmt_op` prints.

use super::{combine, round};
use crate::asm::{AsmError, Ctx};
use crate::isa::*;

/// Whether the instruction is a double op this module builds.
pub(super) fn claims(c: &Ctx<'_>) -> bool {
    matches!(c.base, "DADD" | "DMUL" | "DFMA" | "DSETP")
        || (matches!(c.base, "F2F" | "I2F" | "F2I" | "FRND")
            && c.mods.list.iter().any(|m| m == "F64"))
}

pub(super) fn build(c: &mut Ctx<'_>) -> Result<Op, AsmError> {
    Ok(match c.base {
        "DADD" | "DMUL" | "DFMA" => {
            let kind = match c.base {
                "DADD" => FloatArith::Add,
                "DMUL" => FloatArith::Mul,
                _ => FloatArith::Fma,
            };
            let rnd = round(c);
            let a = &c.args;
            let fma = kind == FloatArith::Fma;
            a.count(if fma { 4 } else { 3 })?;
            let s2 = if fma { a.src(3)? } else { Src::ZERO };
            Op::DArith(OpDArith {
                kind,
                dst: a.dst(0)?,
                srcs: [a.src(1)?, a.src(2)?, s2],
                rnd,
            })
        }
        "DSETP" => {
            let cmp = c
                .mods
                .one_of(&FloatCmp::ALL.map(|p| p.name()))
                .map(|i| FloatCmp::ALL[i])
                .ok_or_else(|| c.missing("a comparison (.LT, .GEU, ...)"))?;
            let combine = combine(c)?;
            let a = &c.args;
            a.count(5)?;
            a.pt(1, false)?;
            Op::DSetP(OpDSetP {
                dst: a.pdst(0)?,
                cmp,
                combine,
                srcs: [a.src(2)?, a.src(3)?],
                accum: a.pred(4)?,
            })
        }
        "F2F" => {
            let rnd = round(c);
            // The two formats, destination first.
            let widen = match (
                c.mods.list.iter().position(|m| m == "F64"),
                c.mods.list.iter().position(|m| m == "F32"),
            ) {
                (Some(d), Some(s)) => d < s,
                _ => return Err(c.missing("the formats .F64.F32 or .F32.F64")),
            };
            c.mods.take("F64");
            c.mods.take("F32");
            c.args.count(2)?;
            Op::F2F64(OpF2F64 {
                dst: c.args.dst(0)?,
                src: c.args.src(1)?,
                widen,
                rnd,
            })
        }
        "I2F" | "F2I" => {
            c.mods.take("F64");
            const INTS: [&str; 4] = ["U32", "S32", "U64", "S64"];
            let i = c
                .mods
                .one_of(&INTS)
                .ok_or_else(|| c.missing(".U32, .S32, .U64 or .S64"))?;
            let (kind, rnd) = if c.base == "I2F" {
                (ConvKind::IntToFloat, round(c))
            } else {
                if !c.mods.take("TRUNC") {
                    return Err(c.missing(".TRUNC"));
                }
                (ConvKind::FloatToInt, Round::Rz)
            };
            c.args.count(2)?;
            Op::Conv64(OpConv64 {
                kind,
                dst: c.args.dst(0)?,
                src: c.args.src(1)?,
                signed: i % 2 == 1,
                int64: i >= 2,
                rnd,
            })
        }
        _ => {
            c.mods.take("F64");
            let rnd = c
                .mods
                .one_of(&["FLOOR", "CEIL", "TRUNC"])
                .map_or(Round::Rn, |i| Round::ALL[i + 1]);
            c.args.count(2)?;
            Op::Frnd64(OpFrnd64 {
                dst: c.args.dst(0)?,
                src: c.args.src(1)?,
                rnd,
            })
        }
    })
}
