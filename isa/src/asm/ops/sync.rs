//! Mnemonic and operands to op for BAR and MEMBAR (`isa/sync.rs`).

use super::expected;
use crate::asm::{AsmError, Ctx};
use crate::isa::*;

pub(super) fn build(c: &mut Ctx<'_>) -> Result<Option<Op>, AsmError> {
    Ok(Some(match c.base {
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
        _ => return Ok(None),
    }))
}
