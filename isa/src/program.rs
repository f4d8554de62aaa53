//! Whole programs: encoding a laid-out instruction list, decoding code
//! words back, and the nvdisasm-style listing.

use crate::isa::{DecodeError, EncodeError, InstWord, Instr, arch_form};
use crate::target::Arch;
use std::fmt::Write;

/// Bytes per instruction.
pub const INSTR_BYTES: u32 = 16;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("instruction at {pc:#06x}: {error}")]
pub struct ProgramDecodeError {
    pub pc: u32,
    pub error: DecodeError,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("instruction at {pc:#06x} ({text}): {error}")]
pub struct ProgramEncodeError {
    pub pc: u32,
    pub text: String,
    pub error: EncodeError,
}

/// Encodes `instrs` laid out from address 0, in `arch`'s form of each
/// word ([`arch_form`]).
pub fn encode(instrs: &[Instr], arch: Arch) -> Result<Vec<u32>, ProgramEncodeError> {
    let mut out = Vec::with_capacity(instrs.len() * 4);
    for (i, ins) in instrs.iter().enumerate() {
        let pc = i as u32 * INSTR_BYTES;
        let w = ins.encode(pc).map_err(|error| ProgramEncodeError {
            pc,
            text: ins.to_string(),
            error,
        })?;
        out.extend(arch_form::to_arch(w, arch).words());
    }
    Ok(out)
}

/// Decodes code words; the length must be whole instructions (the binary
/// container checks it).
pub fn decode(code: &[u32], arch: Arch) -> Result<Vec<Instr>, ProgramDecodeError> {
    code.chunks_exact(4)
        .enumerate()
        .map(|(i, c)| {
            let pc = i as u32 * INSTR_BYTES;
            let w = arch_form::from_arch(InstWord::from_words([c[0], c[1], c[2], c[3]]), arch);
            Instr::decode(&w, pc).map_err(|error| ProgramDecodeError { pc, error })
        })
        .collect()
}

/// The listing, one instruction a line: `/*0000*/ S2R R0, SR_LANEID ;`,
/// with the control bits after it when `ctrl` is set.
pub fn listing(instrs: &[Instr], ctrl: bool) -> String {
    let mut s = String::new();
    for (i, ins) in instrs.iter().enumerate() {
        let text = ins.to_string();
        // Writing into a String cannot fail.
        if ctrl {
            let _ = writeln!(
                s,
                "        /*{:04x}*/ {text:<56} {}",
                i as u32 * INSTR_BYTES,
                ins.ctrl
            );
        } else {
            let _ = writeln!(s, "        /*{:04x}*/ {text}", i as u32 * INSTR_BYTES);
        }
    }
    s
}
