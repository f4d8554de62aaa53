//! Mnemonic and operands to op for PLOP3 (`isa/pred.rs`).

use super::{byte, expected};
use crate::asm::{AsmError, Ctx};
use crate::isa::*;

pub(super) fn build(c: &mut Ctx<'_>) -> Result<Option<Op>, AsmError> {
    Ok(Some(match c.base {
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
        _ => return Ok(None),
    }))
}
