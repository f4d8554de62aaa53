//! Mnemonic and operands to op for the memory ops of `isa/mem.rs`: LDG,
//! LDS, LDL, STG, STS, STL, ATOMG, ATOMS, RED and LDC.

use super::expected;
use crate::asm::{AsmError, Ctx};
use crate::isa::*;

pub(super) fn build(c: &mut Ctx<'_>) -> Result<Option<Op>, AsmError> {
    Ok(Some(match c.base {
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
        _ => return Ok(None),
    }))
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
