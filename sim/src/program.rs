//! The program, decoded once: the warp loop indexes instructions by
//! `pc / 16` and never looks at bit fields again.

use crate::error::SimError;
use crate::exec_row::RowIsa;
use crate::native::{Handover, NativeCache, NativeCode, NativeStats, Translation};
use crate::row_form::{RowForm, RowSrc, row_form};
use crate::warp::{RZ, Row};
use spvsass_isa::isa::{Instr, MemSpace, Op, OperandKind, Reg, RegFile, Target};
use spvsass_isa::program::{INSTR_BYTES, decode};
use spvsass_isa::target::Arch;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    instrs: Vec<Instr>,
    /// The architecture the code was decoded for (its latency classes).
    arch: Arch,
    /// Per instruction: whether it only moves the lanes that run it to the
    /// next instruction (no branch, barrier, convergence or exit), so the
    /// scheduler knows the next group without scanning the lanes.
    falls_through: Vec<bool>,
    /// Per instruction: its operands as rows, for ALU ops the converged
    /// path runs over whole rows.
    row_forms: Vec<Option<RowForm>>,
    /// The rows of 32 copies of each immediate the row forms read.
    splats: Vec<Row>,
    /// Which build of the whole-row loops this CPU runs.
    pub(crate) row_isa: RowIsa,
    /// The native tier's translation, made when a run first asks for it.
    native: NativeCache,
    /// Registers R0 up to (not including) this one hold every register an
    /// instruction names (groups included): the rows a new warp must find
    /// zeroed.
    gpr_rows: usize,
}

impl Program {
    /// Decodes code words (whole instructions) and checks that every branch
    /// and BSSY target is an instruction of the program, so a bad word is
    /// reported here and not in the middle of a run.
    pub fn decode(code: &[u32], arch: Arch) -> Result<Program, SimError> {
        let instrs = decode(code, arch).map_err(|e| SimError::Decode {
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
        let falls_through = instrs
            .iter()
            .map(|ins| {
                !matches!(
                    ins.op,
                    Op::Bra(_)
                        | Op::Bssy(_)
                        | Op::Bsync(_)
                        | Op::Bar(_)
                        | Op::Exit
                        | Op::WarpSync(_)
                )
            })
            .collect();
        let mut splats = Vec::new();
        let row_forms = instrs
            .iter()
            .map(|ins| row_form(&ins.op, &mut splats))
            .collect();
        let gpr_rows = instrs.iter().map(gprs_named).max().unwrap_or(0);
        Ok(Program {
            gpr_rows,
            instrs,
            arch,
            falls_through,
            row_forms,
            splats,
            row_isa: RowIsa::detect(),
            native: NativeCache::default(),
        })
    }

    /// The rows of registers the program names (R0 up to this one).
    pub(crate) fn gpr_rows(&self) -> usize {
        self.gpr_rows
    }

    /// The architecture the code was decoded for.
    pub fn arch(&self) -> Arch {
        self.arch
    }

    pub fn instrs(&self) -> &[Instr] {
        &self.instrs
    }

    /// Whether the program may write global memory (a global store, atomic
    /// or reduction).
    pub(crate) fn writes_global(&self) -> bool {
        self.instrs.iter().any(|ins| match &ins.op {
            Op::St(o) => o.space == MemSpace::Global,
            Op::Atom(o) => o.space == MemSpace::Global,
            Op::Red(_) => true,
            _ => false,
        })
    }

    /// Whether instruction `index` only moves its lanes on (see the field).
    pub(crate) fn falls_through(&self, index: usize) -> bool {
        self.falls_through.get(index).copied().unwrap_or(false)
    }

    /// The row form of instruction `index`, if it has one.
    pub(crate) fn row_form(&self, index: usize) -> Option<&RowForm> {
        self.row_forms.get(index)?.as_ref()
    }

    /// The row a row-form source reads, given the register rows.
    pub(crate) fn src_row<'a>(&'a self, gpr: &'a [Row; RZ + 1], s: RowSrc) -> &'a Row {
        match s {
            // A u8 index is always one of the 256 rows.
            RowSrc::Gpr(r) => &gpr[usize::from(r)],
            // Decoding made a splat row for every index it handed out;
            // RZ's row stands in for the impossible miss.
            RowSrc::Splat(n) => self.splats.get(usize::from(n)).unwrap_or(&gpr[RZ]),
        }
    }

    /// The program's native code if warps may take it now (`Handover`;
    /// the first call starts the translation, in pieces for `how`'s
    /// worker threads).
    pub(crate) fn native_ready(&self, handover: Handover, how: Translation) -> Option<&NativeCode> {
        self.native.ready(&self.instrs, handover, how)
    }

    /// Starts translating the program on a thread of its own (the native
    /// tier's first run then waits for less).
    pub(crate) fn start_native(&self, how: Translation) {
        self.native.start_early(&self.instrs, how);
    }

    /// What translating the program gave, if it was translated.
    pub fn native_stats(&self) -> Option<NativeStats> {
        self.native.stats()
    }

    /// The instruction at byte address `pc`, if the program has one.
    pub fn at(&self, pc: u32) -> Option<&Instr> {
        self.instrs.get((pc / INSTR_BYTES) as usize)
    }
}

/// The register rows `ins` names: one past the highest register of its
/// register operands and groups (RZ aside), at most RZ.
fn gprs_named(ins: &Instr) -> usize {
    let mut top = 0;
    ins.clone().visit_regs(
        &mut |r: &mut Reg, file: RegFile, _: OperandKind, width: u8| {
            if let (RegFile::Gpr, Some(n)) = (file, r.phys())
                && usize::from(n) != RZ
            {
                top = top.max(usize::from(n) + usize::from(width));
            }
        },
    );
    top.min(RZ)
}

#[cfg(test)]
mod tests {
    use super::Program;
    use spvsass_isa::asm::assemble;

    fn rows(src: &str) -> usize {
        let binary = assemble(src)
            .expect("assembles")
            .to_binary()
            .expect("encodes");
        Program::decode(&binary.code, binary.arch)
            .expect("decodes")
            .gpr_rows()
    }

    /// The rows a new warp must find zeroed reach past the last register
    /// of a group, sources and destinations alike, and RZ is not one.
    #[test]
    fn the_named_rows_cover_every_group() {
        assert_eq!(rows("EXIT ;"), 0);
        assert_eq!(rows("MOV R3, RZ ;\nEXIT ;"), 4);
        assert_eq!(rows("LDG.E.128 R8, [R2.64] ;\nEXIT ;"), 12);
        assert_eq!(rows("STG.E.64 [R2.64], R20 ;\nEXIT ;"), 22);
        assert_eq!(rows("IADD3 R1, RZ, R30, RZ ;\nEXIT ;"), 31);
    }
}
