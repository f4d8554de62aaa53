//! Mnemonic and operands to op for the ALU ops of `isa/alu.rs`: MOV,
//! IADD3 (and IADD3.X), IMAD (and IMAD.WIDE/HI), ISETP, SEL, LOP3, SHF,
//! I2F and F2I.

use super::{byte, combine};
use crate::asm::{AsmError, Ctx};
use crate::isa::*;

pub(super) fn build(c: &mut Ctx<'_>) -> Result<Option<Op>, AsmError> {
    let a = &c.args;
    Ok(Some(match c.base {
        "MOV" => {
            a.count(2)?;
            Op::Mov(OpMov {
                dst: a.dst(0)?,
                src: a.src(1)?,
            })
        }
        "IADD3" => iadd3(c)?,
        "IMAD" => imad(c)?,
        "ISETP" => isetp(c)?,
        "SEL" => {
            a.count(4)?;
            Op::Sel(OpSel {
                dst: a.dst(0)?,
                srcs: [a.src(1)?, a.src(2)?],
                cond: a.pred(3)?,
            })
        }
        "LOP3" => {
            if !c.mods.take("LUT") {
                return Err(c.missing(".LUT"));
            }
            a.count(6)?;
            a.pt(5, true)?;
            Op::Lop3(OpLop3 {
                dst: a.dst(0)?,
                srcs: [a.src(1)?, a.src(2)?, a.src(3)?],
                lut: byte(c, 4)?,
            })
        }
        "SHF" => {
            let right = match c.mods.one_of(&["L", "R"]) {
                Some(i) => i == 1,
                None => return Err(c.missing(".L or .R")),
            };
            let wrap = c.mods.take("W");
            if !c.mods.take("U32") {
                return Err(c.missing(".U32"));
            }
            let high = c.mods.take("HI");
            a.count(4)?;
            Op::Shf(OpShf {
                dst: a.dst(0)?,
                srcs: [a.src(1)?, a.src(2)?, a.src(3)?],
                right,
                wrap,
                high,
            })
        }
        "I2F" | "F2I" => {
            let signed = match c.mods.one_of(&["U32", "S32"]) {
                Some(i) => i == 1,
                None => return Err(c.missing(".U32 or .S32")),
            };
            let kind = if c.base == "I2F" {
                ConvKind::IntToFloat
            } else {
                if !c.mods.take("TRUNC") {
                    return Err(c.missing(".TRUNC"));
                }
                ConvKind::FloatToInt
            };
            a.count(2)?;
            Op::Conv(OpConv {
                kind,
                dst: a.dst(0)?,
                src: a.src(1)?,
                signed,
            })
        }
        _ => return Ok(None),
    }))
}

fn iadd3(c: &mut Ctx<'_>) -> Result<Op, AsmError> {
    let x = c.mods.take("X");
    let a = &c.args;
    if !x && a.len() == 4 {
        return Ok(Op::IAdd3(OpIAdd3 {
            dst: a.dst(0)?,
            srcs: [a.src(1)?, a.src(2)?, a.src(3)?],
        }));
    }
    a.count(if x { 8 } else { 6 })?;
    a.pt(2, false)?;
    let carry_in = if x {
        a.pt(7, true)?;
        a.pred(6)?
    } else {
        FALSE
    };
    Ok(Op::IAdd3X(OpIAdd3X {
        dst: a.dst(0)?,
        carry_out: a.pdst(1)?,
        srcs: [a.src(3)?, a.src(4)?, a.src(5)?],
        x,
        carry_in,
    }))
}

fn imad(c: &mut Ctx<'_>) -> Result<Op, AsmError> {
    let mode = c.mods.one_of(&["WIDE", "HI"]);
    let signed = !c.mods.take("U32");
    let a = &c.args;
    a.count(4)?;
    let (dst, srcs) = (a.dst(0)?, [a.src(1)?, a.src(2)?, a.src(3)?]);
    Ok(match mode {
        None => Op::IMad(OpIMad { dst, srcs, signed }),
        Some(m) => Op::IMadWide(OpIMadWide {
            dst,
            srcs,
            signed,
            hi: m == 1,
        }),
    })
}

fn isetp(c: &mut Ctx<'_>) -> Result<Op, AsmError> {
    let cmp = c
        .mods
        .one_of(&IntCmp::ALL.map(|p| p.name()))
        .map(|i| IntCmp::ALL[i])
        .ok_or_else(|| c.missing("a comparison (.EQ, .LT, ...)"))?;
    let signed = !c.mods.take("U32");
    let combine = combine(c)?;
    let a = &c.args;
    a.count(5)?;
    a.pt(1, false)?;
    Ok(Op::ISetP(OpISetP {
        dst: a.pdst(0)?,
        cmp,
        signed,
        combine,
        srcs: [a.src(2)?, a.src(3)?],
        accum: a.pred(4)?,
    }))
}
