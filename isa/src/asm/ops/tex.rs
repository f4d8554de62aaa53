//! Mnemonic and operands to op for the texture and surface ops (TEX, TLD,
//! TLD4, TXD, TXQ, SULD, SUST, SUATOM, SURED): the text forms of
//! `isa/tex.rs` and `isa/surface.rs` read back.

use crate::asm::{AsmError, AsmErrorKind, Ctx};
use crate::isa::*;

pub(super) fn build(c: &mut Ctx<'_>) -> Result<Option<Op>, AsmError> {
    Ok(Some(match c.base {
        "TEX" | "TLD" | "TLD4" | "TXD" => tex(c)?,
        "TXQ" => {
            bindless(c)?;
            let query = c
                .mods
                .one_of(&TxqQuery::ALL.map(|q| q.name()))
                .map(|i| TxqQuery::ALL[i])
                .ok_or_else(|| c.missing(".DIMENSION, .TEXTURE_TYPE or .SAMPLER_POS"))?;
            let a = &c.args;
            a.count(4)?;
            Op::Txq(OpTxq {
                dst: [a.dst(0)?, a.dst(1)?],
                src: a.reg(2)?,
                query,
                mask: mask(c, 3)?,
            })
        }
        "SULD" | "SUST" => surface(c)?,
        "SUATOM" | "SURED" => suatom(c)?,
        _ => return Ok(None),
    }))
}

fn bindless(c: &mut Ctx<'_>) -> Result<(), AsmError> {
    if c.mods.take("B") {
        Ok(())
    } else {
        Err(c.missing(".B"))
    }
}

fn mask(c: &Ctx<'_>, i: usize) -> Result<u8, AsmError> {
    let m = c.args.imm(i)?;
    u8::try_from(m).map_err(|_| {
        c.err(AsmErrorKind::Expected {
            what: "a component mask 0x1..0xf",
            found: format!("{m:#x}"),
        })
    })
}

fn tex(c: &mut Ctx<'_>) -> Result<Op, AsmError> {
    bindless(c)?;
    let kind = match c.base {
        "TEX" => TexKind::Tex,
        "TLD" => TexKind::Tld,
        "TXD" => TexKind::Txd,
        _ => TexKind::Tld4 {
            comp: c
                .mods
                .one_of(&["R", "G", "B", "A"])
                .ok_or_else(|| c.missing(".R, .G, .B or .A"))? as u8,
        },
    };
    let lod = match c.mods.one_of(&["LZ", "LB", "LL"]) {
        Some(0) => LodMode::Zero,
        Some(1) => LodMode::Bias,
        Some(_) => LodMode::Lod,
        None => LodMode::Auto,
    };
    let offset = c.mods.take("AOFFI");
    let dc = c.mods.take("DC");
    let ms = c.mods.take("MS");
    let dim = c
        .mods
        .one_of(&TexDim::ALL.map(|d| d.name()))
        .map(|i| TexDim::ALL[i])
        .ok_or_else(|| c.missing(".1D, .2D, .3D, .CUBE, .ARRAY_1D, .ARRAY_2D or .ARRAY_CUBE"))?;
    let a = &c.args;
    a.count(5)?;
    Ok(Op::Tex(OpTex {
        kind,
        dst: [a.dst(0)?, a.dst(1)?],
        src: [a.reg(2)?, a.reg(3)?],
        dim,
        mask: mask(c, 4)?,
        lod,
        offset,
        dc,
        ms,
    }))
}

fn su_common(c: &mut Ctx<'_>) -> Result<(SuDim, SuOrder, bool), AsmError> {
    let dim = c
        .mods
        .one_of(&SuDim::ALL.map(|d| d.name()))
        .map(|i| SuDim::ALL[i])
        .ok_or_else(|| c.missing(".1D, .1D_BUFFER, .1D_ARRAY, .2D, .2D_ARRAY or .3D"))?;
    if !c.mods.take("STRONG") {
        return Err(c.missing(".STRONG"));
    }
    let order = match c.mods.one_of(&["SM", "CTA", "SYS"]) {
        Some(0) => SuOrder::StrongSm,
        Some(1) => SuOrder::StrongCta,
        Some(_) => SuOrder::StrongSys,
        None => return Err(c.missing(".SM, .CTA or .SYS")),
    };
    let trap = match c.mods.one_of(&["TRAP", "IGN"]) {
        Some(i) => i == 0,
        None => return Err(c.missing(".TRAP or .IGN")),
    };
    Ok((dim, order, trap))
}

fn mem_size(c: &mut Ctx<'_>) -> MemSize {
    match c.mods.one_of(&["U8", "S8", "U16", "S16", "64", "128"]) {
        Some(0) => MemSize::U8,
        Some(1) => MemSize::S8,
        Some(2) => MemSize::U16,
        Some(3) => MemSize::S16,
        Some(4) => MemSize::B64,
        Some(5) => MemSize::B128,
        _ => MemSize::B32,
    }
}

fn surface(c: &mut Ctx<'_>) -> Result<Op, AsmError> {
    bindless(c)?;
    let formatted = match c.mods.one_of(&["P", "D"]) {
        Some(i) => i == 0,
        None => return Err(c.missing(".P or .D")),
    };
    let byte_addr = !formatted && c.mods.take("BA");
    let size = mem_size(c);
    let (dim, order, trap) = su_common(c)?;
    let n = if formatted { 4 } else { 3 };
    c.args.count(n)?;
    let access = if formatted {
        SuAccess::Formatted(mask(c, 3)?)
    } else {
        SuAccess::Binary(size)
    };
    let a = &c.args;
    Ok(if c.base == "SULD" {
        Op::SuLd(OpSuLd {
            dst: a.dst(0)?,
            coord: a.mem(1, false)?.0,
            handle: a.reg(2)?,
            dim,
            access,
            byte_addr,
            trap,
            order,
        })
    } else {
        Op::SuSt(OpSuSt {
            coord: a.mem(0, false)?.0,
            data: a.reg(1)?,
            handle: a.reg(2)?,
            dim,
            access,
            byte_addr,
            trap,
            order,
        })
    })
}

fn suatom(c: &mut Ctx<'_>) -> Result<Op, AsmError> {
    bindless(c)?;
    if !c.mods.take("D") {
        return Err(c.missing(".D"));
    }
    let byte_addr = c.mods.take("BA");
    let red = c.base == "SURED";
    let op = c
        .mods
        .one_of(&AtomOp::ALL.map(|o| o.name()))
        .map(|i| AtomOp::ALL[i])
        .ok_or_else(|| c.missing("an atomic operation (.ADD, .MIN, ...)"))?;
    let ty = if c.mods.take("S32") {
        AtomType::S32
    } else if c.mods.take("F32") && c.mods.take("FTZ") && c.mods.take("RN") {
        AtomType::F32
    } else {
        AtomType::U32
    };
    let (dim, order, trap) = su_common(c)?;
    let a = &c.args;
    let first = usize::from(!red);
    a.count(first + 3)?;
    Ok(Op::SuAtom(OpSuAtom {
        dst: if red { Dst::None } else { a.dst(0)? },
        coord: a.mem(first, false)?.0,
        data: a.reg(first + 1)?,
        handle: a.reg(first + 2)?,
        dim,
        op,
        ty,
        byte_addr,
        trap,
        order,
        red,
    }))
}
