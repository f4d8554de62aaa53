//! Mnemonic and operands to op for the ops of `isa/float_arith.rs`: FADD,
//! FMUL, FFMA and FSETP.

use super::{combine, round};
use crate::asm::{AsmError, Ctx};
use crate::isa::*;

pub(super) fn build(c: &mut Ctx<'_>) -> Result<Option<Op>, AsmError> {
    Ok(Some(match c.base {
        "FSETP" => fsetp(c)?,
        "FADD" | "FMUL" | "FFMA" => farith(c)?,
        _ => return Ok(None),
    }))
}

fn fsetp(c: &mut Ctx<'_>) -> Result<Op, AsmError> {
    let cmp = c
        .mods
        .one_of(&FloatCmp::ALL.map(|p| p.name()))
        .map(|i| FloatCmp::ALL[i])
        .ok_or_else(|| c.missing("a comparison (.LT, .GEU, ...)"))?;
    let ftz = c.mods.take("FTZ");
    let combine = combine(c)?;
    let a = &c.args;
    a.count(5)?;
    a.pt(1, false)?;
    Ok(Op::FSetP(OpFSetP {
        dst: a.pdst(0)?,
        cmp,
        combine,
        ftz,
        srcs: [a.src(2)?, a.src(3)?],
        accum: a.pred(4)?,
    }))
}

fn farith(c: &mut Ctx<'_>) -> Result<Op, AsmError> {
    let kind = match c.base {
        "FADD" => FloatArith::Add,
        "FMUL" => FloatArith::Mul,
        _ => FloatArith::Fma,
    };
    let ftz = c.mods.take("FTZ");
    let rnd = round(c);
    let a = &c.args;
    let fma = kind == FloatArith::Fma;
    a.count(if fma { 4 } else { 3 })?;
    let s2 = if fma { a.src(3)? } else { Src::ZERO };
    Ok(Op::FArith(OpFArith {
        kind,
        dst: a.dst(0)?,
        srcs: [a.src(1)?, a.src(2)?, s2],
        ftz,
        rnd,
    }))
}
