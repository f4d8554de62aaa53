//! Mnemonic and operands to op, one file per op class as in `isa/`. Each
//! class's `build` reads exactly the text form its ops' `fmt_op` prints,
//! and answers `None` for a mnemonic of another class.

mod alu;
mod control;
mod float;
mod float64;
mod float_arith;
mod int;
mod isbe;
mod mem;
mod pred;
mod subgroup;
mod sync;
mod tex;

use super::{AsmError, AsmErrorKind, Ctx};
use crate::isa::*;

/// One class's reader: the op, or `None` for another class's mnemonic.
type ClassBuild = fn(&mut Ctx<'_>) -> Result<Option<Op>, AsmError>;

/// The op of one instruction's mnemonic, modifiers and operands.
pub(super) fn build(c: &mut Ctx<'_>) -> Result<Op, AsmError> {
    // The .F64 forms of F2F, I2F, F2I and FRND share their mnemonics with
    // the 32-bit ones: the double class claims them first.
    if float64::claims(c) {
        return float64::build(c);
    }
    let classes: [ClassBuild; 11] = [
        alu::build,
        int::build,
        float_arith::build,
        float::build,
        pred::build,
        mem::build,
        isbe::build,
        subgroup::build,
        sync::build,
        control::build,
        tex::build,
    ];
    for build in classes {
        if let Some(op) = build(c)? {
            return Ok(op);
        }
    }
    Err(c.err(AsmErrorKind::UnknownOp(c.args.mnemonic.clone())))
}

/// An immediate that fits a byte (LUTs).
pub(super) fn byte(c: &Ctx<'_>, i: usize) -> Result<u8, AsmError> {
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

pub(super) fn combine(c: &mut Ctx<'_>) -> Result<PredCombine, AsmError> {
    let names = PredCombine::ALL.map(|p| p.name());
    c.mods
        .one_of(&names)
        .map(|i| PredCombine::ALL[i])
        .ok_or_else(|| c.missing(".AND, .OR or .XOR"))
}

/// `.RM`, `.RP`, `.RZ` or none.
pub(super) fn round(c: &mut Ctx<'_>) -> Round {
    c.mods
        .one_of(&["RM", "RP", "RZ"])
        .map_or(Round::Rn, |i| Round::ALL[i + 1])
}

pub(super) fn expected(c: &Ctx<'_>, i: usize, what: &'static str) -> AsmError {
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
