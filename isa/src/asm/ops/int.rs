//! Mnemonic and operands to op for the integer ops of `isa/int.rs` (the
//! wide forms of IADD3 and IMAD are read with theirs in `alu`): IMNMX,
//! POPC, FLO, BREV, BMSK, SGXT, IABS, PRMT and LEA.

use super::byte;
use crate::asm::{AsmError, Ctx};
use crate::isa::*;

pub(super) fn build(c: &mut Ctx<'_>) -> Result<Option<Op>, AsmError> {
    Ok(Some(match c.base {
        "IMNMX" => {
            let signed = !c.mods.take("U32");
            let a = &c.args;
            a.count(4)?;
            Op::IMnMx(OpIMnMx {
                dst: a.dst(0)?,
                srcs: [a.src(1)?, a.src(2)?],
                signed,
                min: a.pred(3)?,
            })
        }
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
        _ => return Ok(None),
    }))
}
