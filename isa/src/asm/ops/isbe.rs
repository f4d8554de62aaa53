//! Mnemonic and operands to op for ISBEWR and ISBERD (`isa/isbe.rs`).

use crate::asm::{AsmError, AsmErrorKind, Ctx};
use crate::isa::*;

pub(super) fn build(c: &mut Ctx<'_>) -> Result<Option<Op>, AsmError> {
    Ok(Some(match c.base {
        "ISBEWR" | "ISBERD" => isbe(c)?,
        _ => return Ok(None),
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
