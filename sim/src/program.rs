//! The program, decoded once: the warp loop indexes instructions by
//! `pc / 16` and never looks at bit fields again.

use crate::error::SimError;
use spvsass_backend::isa::{Instr, Op, Target};
use spvsass_backend::program::{INSTR_BYTES, decode};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    instrs: Vec<Instr>,
}

impl Program {
    /// Decodes code words (whole instructions) and checks that every branch
    /// and BSSY target is an instruction of the program, so a bad word is
    /// reported here and not in the middle of a run.
    pub fn decode(code: &[u32]) -> Result<Program, SimError> {
        let instrs = decode(code).map_err(|e| SimError::Decode {
            pc: e.pc,
            error: e.error,
        })?;
        let end = instrs.len() as u32 * INSTR_BYTES;
        for (i, ins) in instrs.iter().enumerate() {
            let pc = i as u32 * INSTR_BYTES;
            let target = match ins.op {
                Op::Bra(b) => b.target,
                Op::Bssy(b) => b.target,
                _ => continue,
            };
            let Target::Addr(target) = target else {
                return Err(SimError::UnresolvedTarget { pc });
            };
            if target % INSTR_BYTES != 0 {
                return Err(SimError::TargetUnaligned { pc, target });
            }
            if target >= end {
                return Err(SimError::TargetOutside { pc, target, end });
            }
        }
        Ok(Program { instrs })
    }

    pub fn instrs(&self) -> &[Instr] {
        &self.instrs
    }

    /// The instruction at byte address `pc`, if the program has one.
    pub fn at(&self, pc: u32) -> Option<&Instr> {
        self.instrs.get((pc / INSTR_BYTES) as usize)
    }
}
