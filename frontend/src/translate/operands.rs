//! Checked access to the operands of an rspirv instruction. rspirv does not
//! validate modules and `dr::Operand::unwrap_*` panics on a mismatch, so
//! every read here matches the variant and reports a malformed instruction
//! instead.

use crate::FrontendError;
use rspirv::dr::{Instruction, Operand};

/// "OpFoo" for an instruction (rspirv's names lack the "Op").
pub(super) fn opcode_name(inst: &Instruction) -> String {
    format!("Op{}", inst.class.opname)
}

/// The most characters of disassembly an error quotes.
const MAX_TEXT: usize = 160;

/// The instruction as `spirv-dis` would print it (ids as numbers),
/// shortened when it is very long.
pub(super) fn disassembly(inst: &Instruction) -> String {
    let mut text = String::new();
    if let Some(id) = inst.result_id {
        text.push_str(&format!("%{id} = "));
    }
    text.push_str(&opcode_name(inst));
    if let Some(ty) = inst.result_type {
        text.push_str(&format!(" %{ty}"));
    }
    for operand in &inst.operands {
        match operand {
            Operand::LiteralString(s) => text.push_str(&format!(" {s:?}")),
            other => text.push_str(&format!(" {other}")),
        }
    }
    match text.char_indices().nth(MAX_TEXT) {
        Some((cut, _)) => format!("{} ...", &text[..cut]),
        None => text,
    }
}

pub(super) fn malformed(inst: &Instruction, what: impl Into<String>) -> FrontendError {
    FrontendError::Malformed {
        opcode: opcode_name(inst),
        result_id: inst.result_id,
        what: what.into(),
        text: disassembly(inst),
    }
}

pub(super) fn unsupported(inst: &Instruction, what: impl Into<String>) -> FrontendError {
    FrontendError::Unsupported {
        opcode: opcode_name(inst),
        result_id: inst.result_id,
        what: what.into(),
        text: disassembly(inst),
    }
}

pub(super) fn undefined_id(inst: &Instruction, id: u32) -> FrontendError {
    FrontendError::UndefinedId {
        opcode: opcode_name(inst),
        result_id: inst.result_id,
        id,
        text: disassembly(inst),
    }
}

/// A cursor over an instruction's operands.
pub(super) struct Operands<'a> {
    inst: &'a Instruction,
    next: usize,
}

impl<'a> Operands<'a> {
    pub(super) fn new(inst: &'a Instruction) -> Self {
        Operands { inst, next: 0 }
    }

    /// The next operand, whatever its kind; `what` names it in the error.
    pub(super) fn any(&mut self, what: &str) -> Result<&'a Operand, FrontendError> {
        let op = self
            .inst
            .operands
            .get(self.next)
            .ok_or_else(|| malformed(self.inst, format!("missing operand: {what}")))?;
        self.next += 1;
        Ok(op)
    }

    pub(super) fn id(&mut self, what: &str) -> Result<u32, FrontendError> {
        match self.any(what)? {
            Operand::IdRef(id) => Ok(*id),
            other => Err(self.wrong_kind(what, other)),
        }
    }

    pub(super) fn literal(&mut self, what: &str) -> Result<u32, FrontendError> {
        match self.any(what)? {
            Operand::LiteralBit32(v) => Ok(*v),
            other => Err(self.wrong_kind(what, other)),
        }
    }

    pub(super) fn string(&mut self, what: &str) -> Result<&'a str, FrontendError> {
        match self.any(what)? {
            Operand::LiteralString(s) => Ok(s),
            other => Err(self.wrong_kind(what, other)),
        }
    }

    /// How many operands are left.
    pub(super) fn remaining(&self) -> usize {
        self.inst.operands.len().saturating_sub(self.next)
    }

    /// The next operand if it is an id, else nothing (and no progress).
    pub(super) fn optional_id(&mut self) -> Option<u32> {
        match self.inst.operands.get(self.next) {
            Some(Operand::IdRef(id)) => {
                self.next += 1;
                Some(*id)
            }
            _ => None,
        }
    }

    /// All remaining operands, which must be ids.
    pub(super) fn rest_ids(&mut self, what: &str) -> Result<Vec<u32>, FrontendError> {
        let mut ids = Vec::new();
        while self.next < self.inst.operands.len() {
            ids.push(self.id(what)?);
        }
        Ok(ids)
    }

    /// All remaining operands, which must be 32-bit literals.
    pub(super) fn rest_literals(&mut self, what: &str) -> Result<Vec<u32>, FrontendError> {
        let mut lits = Vec::new();
        while self.next < self.inst.operands.len() {
            lits.push(self.literal(what)?);
        }
        Ok(lits)
    }

    pub(super) fn wrong_kind(&self, what: &str, found: &Operand) -> FrontendError {
        malformed(
            self.inst,
            format!("operand {what} is {found:?}, of the wrong kind"),
        )
    }
}

/// The result id of an instruction that must have one.
pub(super) fn result_id(inst: &Instruction) -> Result<u32, FrontendError> {
    inst.result_id
        .ok_or_else(|| malformed(inst, "missing result id"))
}

/// The result type id of an instruction that must have one.
pub(super) fn result_type(inst: &Instruction) -> Result<u32, FrontendError> {
    inst.result_type
        .ok_or_else(|| malformed(inst, "missing result type"))
}
