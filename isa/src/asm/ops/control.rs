//! Mnemonic and operands to op for the ops of `isa/control.rs`: S2R,
//! CS2R, BRA, BSSY, BSYNC, EXIT and NOP.

use crate::asm::{AsmError, Ctx};
use crate::isa::*;

pub(super) fn build(c: &mut Ctx<'_>) -> Result<Option<Op>, AsmError> {
    let a = &c.args;
    Ok(Some(match c.base {
        "S2R" => {
            a.count(2)?;
            Op::S2R(OpS2R {
                dst: a.dst(0)?,
                sr: a.special(1)?,
            })
        }
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
        _ => return Ok(None),
    }))
}
