//! Mnemonic and operands to op, for the ALU, ISBE and control-flow ops;
//! `ops_more` has memory, sync, bit, float and warp-wide ops. Each builder
//! reads exactly the text form the op's `fmt_op` prints.

use super::{AsmError, AsmErrorKind, Ctx, ops_more};
use crate::isa::*;

pub(crate) fn build(c: &mut Ctx<'_>) -> Result<Op, AsmError> {
    let a = &c.args;
    Ok(match c.base {
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
        "FSETP" => fsetp(c)?,
        "FADD" | "FMUL" | "FFMA" => farith(c)?,
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
        "S2R" => {
            a.count(2)?;
            Op::S2R(OpS2R {
                dst: a.dst(0)?,
                sr: a.special(1)?,
            })
        }
        "ISBEWR" | "ISBERD" => isbe(c)?,
        "BRA" => {
            a.count(1)?;
            Op::Bra(OpBra {
                target: Target::Addr(a.target(0, c.labels)?),
            })
        }
        "BSSY" => {
            a.count(2)?;
            Op::Bssy(OpBssy {
                bar: a.barrier(0)?,
                target: Target::Addr(a.target(1, c.labels)?),
            })
        }
        "BSYNC" => {
            a.count(1)?;
            Op::Bsync(OpBsync { bar: a.barrier(0)? })
        }
        "EXIT" => {
            a.count(0)?;
            Op::Exit
        }
        "NOP" => {
            a.count(0)?;
            Op::Nop
        }
        _ => return ops_more::build(c),
    })
}

/// An immediate that fits a byte (LUTs).
pub(crate) fn byte(c: &Ctx<'_>, i: usize) -> Result<u8, AsmError> {
    let v = c.args.imm(i)?;
    u8::try_from(v).map_err(|_| AsmError {
        line: c.args.line,
        column: c.args.ops[i].1,
        kind: AsmErrorKind::Expected {
            what: "a value below 0x100",
            found: c.args.ops[i].2.clone(),
        },
    })
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

pub(crate) fn combine(c: &mut Ctx<'_>) -> Result<PredCombine, AsmError> {
    let names = PredCombine::ALL.map(|p| p.name());
    c.mods
        .one_of(&names)
        .map(|i| PredCombine::ALL[i])
        .ok_or_else(|| c.missing(".AND, .OR or .XOR"))
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

/// `.RM`, `.RP`, `.RZ` or none.
pub(crate) fn round(c: &mut Ctx<'_>) -> Round {
    c.mods
        .one_of(&["RM", "RP", "RZ"])
        .map_or(Round::Rn, |i| Round::ALL[i + 1])
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

fn isbe(c: &mut Ctx<'_>) -> Result<Op, AsmError> {
    let write = c.base == "ISBEWR";
    let output = c.mods.take("O");
    if write && !output {
        return Err(c.missing(".O"));
    }
    let access = c
        .mods
        .one_of(&["PATCH", "PRIM", "ATTR"])
        .map_or(IsbeAccess::Map, |i| IsbeAccess::ALL[i + 1]);
    let skew = c.mods.take("SKEW");
    let size = c
        .mods
        .one_of(&["U16", "32"])
        .map_or(IsbeSize::U8, |i| IsbeSize::ALL[i + 1]);
    let a = &c.args;
    a.count(2)?;
    let (mem_i, other) = if write { (0, 1) } else { (1, 0) };
    let (addr, offset) = a.mem(mem_i, false)?;
    let imm = u32::try_from(offset).map_err(|_| AsmError {
        line: a.line,
        column: a.ops[mem_i].1,
        kind: AsmErrorKind::Expected {
            what: "a non-negative ISBE offset",
            found: a.ops[mem_i].2.clone(),
        },
    })?;
    Ok(if write {
        Op::IsbeWr(OpIsbeWr {
            addr,
            imm,
            data: a.reg(other)?,
            access,
            size,
            skew,
        })
    } else {
        Op::IsbeRd(OpIsbeRd {
            dst: a.dst(other)?,
            addr,
            imm,
            output,
            access,
            size,
            skew,
        })
    })
}
