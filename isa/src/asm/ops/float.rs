//! Mnemonic and operands to op for the ops of `isa/float.rs`: FMNMX,
//! FSEL, MUFU, F2F and FRND (their .F64 forms are read in `float64`).

use super::round;
use crate::asm::{AsmError, Ctx};
use crate::isa::*;

pub(super) fn build(c: &mut Ctx<'_>) -> Result<Option<Op>, AsmError> {
    Ok(Some(match c.base {
        "FMNMX" | "FSEL" => {
            let ftz = c.base == "FMNMX" && c.mods.take("FTZ");
            let a = &c.args;
            a.count(4)?;
            let (dst, srcs, p) = (a.dst(0)?, [a.src(1)?, a.src(2)?], a.pred(3)?);
            if c.base == "FMNMX" {
                Op::FMnMx(OpFMnMx {
                    dst,
                    srcs,
                    ftz,
                    min: p,
                })
            } else {
                Op::FSel(OpFSel { dst, srcs, cond: p })
            }
        }
        "MUFU" => {
            let op = c
                .mods
                .one_of(&MufuOp::ALL.map(|o| o.name()))
                .map(|i| MufuOp::ALL[i])
                .ok_or_else(|| {
                    c.missing(".RCP, .RSQ, .SQRT, .EX2, .LG2, .SIN, .COS, .RCP64H or .RSQ64H")
                })?;
            c.args.count(2)?;
            Op::Mufu(OpMufu {
                dst: c.args.dst(0)?,
                src: c.args.src(1)?,
                op,
            })
        }
        "F2F" => f2f(c)?,
        "FRND" => {
            let ftz = c.mods.take("FTZ");
            let rnd = c
                .mods
                .one_of(&["FLOOR", "CEIL", "TRUNC"])
                .map_or(Round::Rn, |i| Round::ALL[i + 1]);
            c.args.count(2)?;
            Op::Frnd(OpFrnd {
                dst: c.args.dst(0)?,
                src: c.args.src(1)?,
                rnd,
                ftz,
            })
        }
        _ => return Ok(None),
    }))
}

fn f2f(c: &mut Ctx<'_>) -> Result<Op, AsmError> {
    let ftz = c.mods.take("FTZ");
    let rnd = round(c);
    // The two formats, destination first: their order matters.
    let mut fmts = Vec::new();
    for i in 0..c.mods.list.len() {
        let f = match c.mods.list[i].as_str() {
            "F16" => FloatFmt::F16,
            "F32" => FloatFmt::F32,
            _ => continue,
        };
        if !c.mods.used[i] {
            c.mods.used[i] = true;
            fmts.push(f);
        }
    }
    let [dst_fmt, src_fmt] = fmts[..] else {
        return Err(c.missing("a destination and a source format (.F16.F32)"));
    };
    c.args.count(2)?;
    Ok(Op::F2F(OpF2F {
        dst: c.args.dst(0)?,
        src: c.args.src(1)?,
        dst_fmt,
        src_fmt,
        rnd,
        ftz,
    }))
}
