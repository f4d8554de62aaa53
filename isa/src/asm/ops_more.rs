//! Mnemonic and operands to op for memory, sync, bit, float and warp-wide
//! ops (the rest are in `ops`).

use super::ops::{byte, round};
use super::{AsmError, AsmErrorKind, Ctx};
use crate::isa::*;

pub(crate) fn build(c: &mut Ctx<'_>) -> Result<Op, AsmError> {
    Ok(match c.base {
        "LDG" | "LDS" | "LDL" | "STG" | "STS" | "STL" => ld_st(c)?,
        "ATOMG" | "ATOMS" | "RED" => atom(c)?,
        "LDC" => {
            let size = mem_size(c);
            let a = &c.args;
            a.count(2)?;
            let (bank, addr, offset) = a.cmem(1)?;
            let offset =
                u16::try_from(offset).map_err(|_| expected(c, 1, "an offset below 0x10000"))?;
            Op::Ldc(OpLdc {
                dst: a.dst(0)?,
                bank,
                addr,
                offset,
                size,
            })
        }
        "CS2R" => {
            let wide = !c.mods.take("32");
            let a = &c.args;
            a.count(2)?;
            Op::Cs2r(OpCs2r {
                dst: a.dst(0)?,
                sr: a.special(1)?,
                wide,
            })
        }
        "BAR" => {
            if !(c.mods.take("SYNC") && c.mods.take("DEFER_BLOCKING")) {
                return Err(c.missing(".SYNC.DEFER_BLOCKING"));
            }
            c.args.count(1)?;
            if c.args.imm(0)? != 0 {
                return Err(expected(c, 0, "barrier 0x0"));
            }
            Op::Bar(OpBar)
        }
        "MEMBAR" => {
            if !c.mods.take("SC") {
                return Err(c.missing(".SC"));
            }
            let scope = c
                .mods
                .one_of(&MemScope::ALL.map(|s| s.name()))
                .map(|i| MemScope::ALL[i])
                .ok_or_else(|| c.missing(".CTA, .GPU or .SYS"))?;
            c.args.count(0)?;
            Op::Membar(OpMembar { scope })
        }
        "IMNMX" | "FMNMX" | "FSEL" => select(c)?,
        "POPC" | "FLO" | "BREV" => {
            let op = match c.base {
                "POPC" => BitOp::Popc,
                "BREV" => BitOp::Brev,
                _ => {
                    let signed = !c.mods.take("U32");
                    BitOp::Flo {
                        signed,
                        shift: c.mods.take("SH"),
                    }
                }
            };
            c.args.count(2)?;
            Op::Bit(OpBit {
                dst: c.args.dst(0)?,
                src: c.args.src(1)?,
                op,
            })
        }
        "BMSK" | "SGXT" => {
            let flag = c.mods.take(if c.base == "BMSK" { "W" } else { "U32" });
            let a = &c.args;
            a.count(3)?;
            let (dst, srcs) = (a.dst(0)?, [a.src(1)?, a.src(2)?]);
            if c.base == "BMSK" {
                Op::Bmsk(OpBmsk {
                    dst,
                    srcs,
                    wrap: flag,
                })
            } else {
                Op::Sgxt(OpSgxt {
                    dst,
                    srcs,
                    signed: !flag,
                })
            }
        }
        "IABS" => {
            let a = &c.args;
            a.count(2)?;
            Op::IAbs(OpIAbs {
                dst: a.dst(0)?,
                src: a.src(1)?,
            })
        }
        "PRMT" => {
            c.args.count(4)?;
            let a = &c.args;
            Op::Prmt(OpPrmt {
                dst: a.dst(0)?,
                srcs: [a.src(1)?, a.src(2)?, a.src(3)?],
            })
        }
        "LEA" => {
            let hi = c.mods.take("HI");
            let a = &c.args;
            let n = if hi { 5 } else { 4 };
            a.count(n)?;
            let shift = byte(c, n - 1)?;
            let third = if hi { a.src(3)? } else { Src::ZERO };
            Op::Lea(OpLea {
                dst: a.dst(0)?,
                srcs: [a.src(1)?, a.src(2)?, third],
                shift,
                hi,
            })
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
        "PLOP3" => {
            if !c.mods.take("LUT") {
                return Err(c.missing(".LUT"));
            }
            let a = &c.args;
            a.count(7)?;
            a.pt(1, false)?;
            if a.imm(6)? != 0 {
                return Err(expected(c, 6, "0x0 (the second table)"));
            }
            Op::PLop3(OpPLop3 {
                dst: a.pdst(0)?,
                srcs: [a.pred(2)?, a.pred(3)?, a.pred(4)?],
                lut: byte(c, 5)?,
            })
        }
        "SHFL" | "VOTE" | "MATCH" | "REDUX" | "WARPSYNC" => warp(c)?,
        _ => {
            return Err(c.err(AsmErrorKind::UnknownOp(c.args.mnemonic.clone())));
        }
    })
}

fn expected(c: &Ctx<'_>, i: usize, what: &'static str) -> AsmError {
    let (column, found) = c
        .args
        .ops
        .get(i)
        .map_or((c.args.column, String::new()), |(_, col, t)| {
            (*col, t.clone())
        });
    AsmError {
        line: c.args.line,
        column,
        kind: AsmErrorKind::Expected { what, found },
    }
}

/// A size suffix; none is 32 bits.
fn mem_size(c: &mut Ctx<'_>) -> MemSize {
    const NAMES: [&str; 6] = ["U8", "S8", "U16", "S16", "64", "128"];
    const SIZES: [MemSize; 6] = [
        MemSize::U8,
        MemSize::S8,
        MemSize::U16,
        MemSize::S16,
        MemSize::B64,
        MemSize::B128,
    ];
    c.mods.one_of(&NAMES).map_or(MemSize::B32, |i| SIZES[i])
}

fn ld_st(c: &mut Ctx<'_>) -> Result<Op, AsmError> {
    let space = match &c.base[2..] {
        "G" => MemSpace::Global,
        "S" => MemSpace::Shared,
        _ => MemSpace::Local,
    };
    let global = space == MemSpace::Global;
    if global && !c.mods.take("E") {
        return Err(c.missing(".E"));
    }
    let size = mem_size(c);
    let a = &c.args;
    a.count(2)?;
    Ok(if c.base.starts_with("LD") {
        let (addr, offset) = a.mem(1, global)?;
        Op::Ld(OpLd {
            dst: a.dst(0)?,
            addr,
            offset,
            space,
            size,
        })
    } else {
        let (addr, offset) = a.mem(0, global)?;
        Op::St(OpSt {
            addr,
            offset,
            data: a.reg(1)?,
            space,
            size,
        })
    })
}

fn atom(c: &mut Ctx<'_>) -> Result<Op, AsmError> {
    let global = c.base != "ATOMS";
    if global && !c.mods.take("E") {
        return Err(c.missing(".E"));
    }
    let op = c
        .mods
        .one_of(&AtomOp::ALL.map(|o| o.name()))
        .map(|i| AtomOp::ALL[i])
        .ok_or_else(|| c.missing("an atomic op (.ADD, .CAS, ...)"))?;
    let ty = if c.mods.take("F32") {
        if !(c.mods.take("FTZ") && c.mods.take("RN")) {
            return Err(c.missing(".F32.FTZ.RN"));
        }
        AtomType::F32
    } else {
        c.mods
            .one_of(&["S32", "64", "S64"])
            .map_or(AtomType::U32, |i| {
                [AtomType::S32, AtomType::U64, AtomType::S64][i]
            })
    };
    let a = &c.args;
    if c.base == "RED" {
        a.count(2)?;
        let (addr, offset) = a.mem(0, true)?;
        return Ok(Op::Red(OpRed {
            addr,
            offset,
            data: a.reg(1)?,
            op,
            ty,
        }));
    }
    let cas = op == AtomOp::CmpExch;
    a.count(if cas { 4 } else { 3 })?;
    let (addr, offset) = a.mem(1, global)?;
    Ok(Op::Atom(OpAtom {
        dst: a.dst(0)?,
        addr,
        offset,
        data: a.reg(if cas { 3 } else { 2 })?,
        cmp: if cas { a.reg(2)? } else { Src::ZERO },
        op,
        ty,
        space: if global {
            MemSpace::Global
        } else {
            MemSpace::Shared
        },
    }))
}

/// IMNMX, FMNMX and FSEL: `Rd, a, b, P`.
fn select(c: &mut Ctx<'_>) -> Result<Op, AsmError> {
    let flag = match c.base {
        "IMNMX" => c.mods.take("U32"),
        "FMNMX" => c.mods.take("FTZ"),
        _ => false,
    };
    let a = &c.args;
    a.count(4)?;
    let (dst, srcs, p) = (a.dst(0)?, [a.src(1)?, a.src(2)?], a.pred(3)?);
    Ok(match c.base {
        "IMNMX" => Op::IMnMx(OpIMnMx {
            dst,
            srcs,
            signed: !flag,
            min: p,
        }),
        "FMNMX" => Op::FMnMx(OpFMnMx {
            dst,
            srcs,
            ftz: flag,
            min: p,
        }),
        _ => Op::FSel(OpFSel { dst, srcs, cond: p }),
    })
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

fn warp(c: &mut Ctx<'_>) -> Result<Op, AsmError> {
    Ok(match c.base {
        "SHFL" => {
            let mode = c
                .mods
                .one_of(&ShflMode::ALL.map(|m| m.name()))
                .map(|i| ShflMode::ALL[i])
                .ok_or_else(|| c.missing(".IDX, .UP, .DOWN or .BFLY"))?;
            let a = &c.args;
            a.count(5)?;
            Op::Shfl(OpShfl {
                in_bounds: a.pdst(0)?,
                dst: a.dst(1)?,
                src: a.reg(2)?,
                lane: a.src(3)?,
                c: a.src(4)?,
                mode,
            })
        }
        "VOTE" => {
            let mode = c
                .mods
                .one_of(&VoteMode::ALL.map(|m| m.name()))
                .map(|i| VoteMode::ALL[i])
                .ok_or_else(|| c.missing(".ALL, .ANY or .EQ"))?;
            let a = &c.args;
            a.count(3)?;
            Op::Vote(OpVote {
                dst: a.dst(0)?,
                pdst: a.pdst(1)?,
                src: a.pred(2)?,
                mode,
            })
        }
        "MATCH" => {
            let all = match c.mods.one_of(&["ANY", "ALL"]) {
                Some(i) => i == 1,
                None => return Err(c.missing(".ANY or .ALL")),
            };
            let a = &c.args;
            a.count(if all { 3 } else { 2 })?;
            let k = usize::from(all);
            Op::Match(OpMatch {
                dst: a.dst(k)?,
                pdst: if all { a.pdst(0)? } else { Dst::None },
                src: a.reg(k + 1)?,
                all,
            })
        }
        "REDUX" => {
            let op = c
                .mods
                .one_of(&ReduxOp::ALL.map(|o| o.name()))
                .map(|i| ReduxOp::ALL[i])
                .ok_or_else(|| c.missing(".SUM, .MIN, .MAX, .AND, .OR or .XOR"))?;
            let signed = c.mods.take("S32");
            c.args.count(2)?;
            Op::Redux(OpRedux {
                dst: c.args.dst(0)?,
                src: c.args.reg(1)?,
                op,
                signed,
            })
        }
        _ => {
            c.args.count(1)?;
            Op::WarpSync(OpWarpSync {
                mask: c.args.src(0)?,
            })
        }
    })
}
