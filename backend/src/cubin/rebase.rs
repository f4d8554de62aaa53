//! Moves the root table into CUDA's parameter space: every constant-bank-0
//! operand `c[0x0][X]` of a compiled program becomes `c[0x0][base + X]`,
//! where `base` is where the CUDA driver puts kernel parameters
//! (docs/CUBIN.md, "Constant bank 0"). The rewrite is checked against the
//! listing: the only change in each instruction's text must be the offsets
//! of its bank-0 operands, so an op whose bank-0 operand this pass does not
//! reach is refused rather than left pointing at the driver's words.

use super::CubinError;
use crate::abi::ROOT_BANK;
use crate::isa::{Alu, AluVisitorMut, Instr, Op, SrcRef};

struct Rebase {
    base: u16,
}

impl<'a> AluVisitorMut<'a> for Rebase {
    type Out = ();
    fn visit<const N: usize, O: Alu<N>>(self, op: &'a mut O) {
        for s in op.srcs_mut() {
            if let SrcRef::CBuf { bank, offset } = &mut s.src
                && *bank == ROOT_BANK
            {
                *offset += self.base;
            }
        }
    }
}

/// The listing text of `ins` with every `c[0x0][X]` replaced by
/// `c[0x0][X + base]`, and every indexed `c[0x0][Rn+X]` (or `c[0x0][Rn]`)
/// by `c[0x0][Rn+X+base]`: what the rebased instruction must print.
fn expected_text(text: &str, base: u16) -> Option<String> {
    const OPEN: &str = "c[0x0][";
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find(OPEN) {
        out.push_str(&rest[..i]);
        let after = &rest[i + OPEN.len()..];
        let end = after.find(']')?;
        let inner = &after[..end];
        let (index, offset) = match inner.split_once('+') {
            Some((reg, off)) => (Some(reg), off),
            None if inner.starts_with("0x") => (None, inner),
            None => (Some(inner), "0x0"),
        };
        let value = u16::from_str_radix(offset.strip_prefix("0x")?, 16).ok()?;
        let moved = value.checked_add(base)?;
        match index {
            Some(reg) if reg.starts_with('R') => out.push_str(&format!("c[0x0][{reg}+{moved:#x}]")),
            Some(_) => return None,
            None => out.push_str(&format!("c[0x0][{moved:#x}]")),
        }
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Some(out)
}

/// Rebases the bank-0 operands of `instrs` by `base` bytes.
pub fn rebase_root_table(instrs: &mut [Instr], base: u16) -> Result<(), CubinError> {
    for (i, ins) in instrs.iter_mut().enumerate() {
        let pc = i as u32 * crate::program::INSTR_BYTES;
        let before = ins.to_string();
        if let Some(()) = ins.op.alu_mut(Rebase { base }) {
        } else if let Op::Ldc(ldc) = &mut ins.op
            && ldc.bank == ROOT_BANK
        {
            ldc.offset = ldc
                .offset
                .checked_add(base)
                .ok_or(CubinError::RootOperand {
                    pc,
                    text: before.clone(),
                })?;
        }
        let after = ins.to_string();
        if expected_text(&before, base).as_deref() != Some(after.as_str()) {
            return Err(CubinError::RootOperand { pc, text: before });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::expected_text;

    #[test]
    fn expected_text_moves_only_bank_zero() {
        assert_eq!(
            expected_text("IADD3 R0, R8, c[0x0][0xa0], RZ ;", 0x210).as_deref(),
            Some("IADD3 R0, R8, c[0x0][0x2b0], RZ ;")
        );
        assert_eq!(
            expected_text("LDC R0, c[0x1][0x10] ;", 0x160).as_deref(),
            Some("LDC R0, c[0x1][0x10] ;")
        );
    }

    #[test]
    fn expected_text_moves_indexed_bank_zero_reads() {
        assert_eq!(
            expected_text("LDC R1, c[0x0][R1+0xa0] ;", 0x210).as_deref(),
            Some("LDC R1, c[0x0][R1+0x2b0] ;")
        );
        assert_eq!(
            expected_text("LDC R1, c[0x0][R2] ;", 0x210).as_deref(),
            Some("LDC R1, c[0x0][R2+0x210] ;")
        );
        assert_eq!(expected_text("LDC R1, c[0x0][UR2+0x4] ;", 0x210), None);
    }
}
