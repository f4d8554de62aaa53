//! The SASS-like ISA, defined once: every op is a struct (in `alu`, `isbe`,
//! `control`) that carries its own encoding, decoding, text form, register
//! operands and CPU semantic. The encoder, decoder, listing printer, register
//! allocator and simulator all go through these definitions; docs/ISA.md
//! documents them.

mod alu;
mod control;
mod ctrl;
mod isbe;
mod reg;
mod word;

pub use alu::{
    ConvKind, FloatArith, FloatCmp, IntCmp, OpConv, OpFArith, OpFSetP, OpIAdd3, OpIMad, OpISetP,
    OpLop3, OpMov, OpSel, OpShf, PredCombine, float_src, int_src,
};
pub use control::{OpBra, OpBssy, OpBsync, OpS2R, Target};
pub use ctrl::Ctrl;
pub use isbe::{IsbeAccess, IsbeSize, MAX_IMM_OFFSET, OpIsbeRd, OpIsbeWr};
pub use reg::{Dst, PredSrc, Reg, RegFile, SpecialReg, Src, SrcRef};
pub use word::{InstWord, field};

use std::fmt;

/// Whether an operand reads or writes its register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OperandKind {
    Use,
    Def,
}

/// The one operand visitor: register allocation collects operands with it
/// and writes the allocations back with it, so their order cannot drift.
/// Uses come before defs.
pub type RegVisitor<'a> = dyn FnMut(&mut Reg, RegFile, OperandKind) + 'a;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EncodeError {
    #[error("virtual register %{0} reached the encoder (register allocation did not run)")]
    VirtualRegister(u32),
    #[error("operand cannot be encoded: the instruction needs {0}")]
    OperandForm(&'static str),
    #[error("{what} {value:#x} does not fit its field")]
    ImmediateRange { what: &'static str, value: u32 },
    #[error("branch target is still a block, not an address (layout did not run)")]
    UnresolvedTarget,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    #[error("unknown opcode {opcode:#05x}")]
    UnknownOpcode { opcode: u64 },
    #[error("invalid {field} field value {value:#x}")]
    BadField { field: &'static str, value: u64 },
}

/// One operation with its operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    Mov(OpMov),
    IAdd3(OpIAdd3),
    IMad(OpIMad),
    ISetP(OpISetP),
    FSetP(OpFSetP),
    FArith(OpFArith),
    Sel(OpSel),
    Lop3(OpLop3),
    Shf(OpShf),
    Conv(OpConv),
    S2R(OpS2R),
    IsbeWr(OpIsbeWr),
    IsbeRd(OpIsbeRd),
    Bra(OpBra),
    Bssy(OpBssy),
    Bsync(OpBsync),
    Exit,
    Nop,
}

pub const OPCODE_EXIT: u16 = 0x94d;
pub const OPCODE_NOP: u16 = 0x918;

impl Op {
    /// Encodes the op's fields (not the guard or control bits) at byte
    /// address `pc` (branches are relative).
    pub fn encode(&self, w: &mut InstWord, pc: u32) -> Result<(), EncodeError> {
        match self {
            Op::Mov(o) => o.encode(w),
            Op::IAdd3(o) => o.encode(w),
            Op::IMad(o) => o.encode(w),
            Op::ISetP(o) => o.encode(w),
            Op::FSetP(o) => o.encode(w),
            Op::FArith(o) => o.encode(w),
            Op::Sel(o) => o.encode(w),
            Op::Lop3(o) => o.encode(w),
            Op::Shf(o) => o.encode(w),
            Op::Conv(o) => o.encode(w),
            Op::S2R(o) => o.encode(w),
            Op::IsbeWr(o) => o.encode(w),
            Op::IsbeRd(o) => o.encode(w),
            Op::Bra(o) => o.encode(w, pc),
            Op::Bssy(o) => o.encode(w, pc),
            Op::Bsync(o) => o.encode(w),
            Op::Exit => {
                w.set(field::OPCODE, u64::from(OPCODE_EXIT));
                w.set(field::PSRC, 7);
                Ok(())
            }
            Op::Nop => {
                w.set(field::OPCODE, u64::from(OPCODE_NOP));
                Ok(())
            }
        }
    }

    pub fn decode(w: &InstWord, pc: u32) -> Result<Op, DecodeError> {
        let full = w.get(field::OPCODE) as u16;
        let alu = w.get(field::ALU_OPCODE) as u16;
        // Fixed-form ops use all 12 opcode bits; ALU ops use 9 plus a form.
        Ok(match full {
            OpS2R::OPCODE => Op::S2R(OpS2R::decode(w)?),
            OpIsbeWr::OPCODE => Op::IsbeWr(OpIsbeWr::decode(w)?),
            OpIsbeRd::OPCODE => Op::IsbeRd(OpIsbeRd::decode(w)?),
            OpBra::OPCODE => Op::Bra(OpBra::decode(w, pc)?),
            OpBssy::OPCODE => Op::Bssy(OpBssy::decode(w, pc)?),
            OpBsync::OPCODE => Op::Bsync(OpBsync::decode(w)?),
            OPCODE_EXIT => Op::Exit,
            OPCODE_NOP => Op::Nop,
            _ => match alu {
                OpMov::OPCODE => Op::Mov(OpMov::decode(w)?),
                OpIAdd3::OPCODE => Op::IAdd3(OpIAdd3::decode(w)?),
                OpIMad::OPCODE => Op::IMad(OpIMad::decode(w)?),
                OpISetP::OPCODE => Op::ISetP(OpISetP::decode(w)?),
                OpFSetP::OPCODE => Op::FSetP(OpFSetP::decode(w)?),
                OpFArith::OPCODE_FADD => Op::FArith(OpFArith::decode(w, FloatArith::Add)?),
                OpFArith::OPCODE_FMUL => Op::FArith(OpFArith::decode(w, FloatArith::Mul)?),
                OpFArith::OPCODE_FFMA => Op::FArith(OpFArith::decode(w, FloatArith::Fma)?),
                OpSel::OPCODE => Op::Sel(OpSel::decode(w)?),
                OpLop3::OPCODE => Op::Lop3(OpLop3::decode(w)?),
                OpShf::OPCODE => Op::Shf(OpShf::decode(w)?),
                OpConv::OPCODE_I2F => Op::Conv(OpConv::decode(w, ConvKind::IntToFloat)?),
                OpConv::OPCODE_F2I => Op::Conv(OpConv::decode(w, ConvKind::FloatToInt)?),
                _ => {
                    return Err(DecodeError::UnknownOpcode {
                        opcode: u64::from(full),
                    });
                }
            },
        })
    }

    /// Visits every register operand: uses first, then defs.
    pub fn visit_regs(&mut self, v: &mut RegVisitor<'_>) {
        match self {
            Op::Mov(o) => o.visit(v),
            Op::IAdd3(o) => o.visit(v),
            Op::IMad(o) => o.visit(v),
            Op::ISetP(o) => o.visit(v),
            Op::FSetP(o) => o.visit(v),
            Op::FArith(o) => o.visit(v),
            Op::Sel(o) => o.visit(v),
            Op::Lop3(o) => o.visit(v),
            Op::Shf(o) => o.visit(v),
            Op::Conv(o) => o.visit(v),
            Op::S2R(o) => o.visit(v),
            Op::IsbeWr(o) => o.visit(v),
            Op::IsbeRd(o) => o.visit(v),
            Op::Bra(_) | Op::Bssy(_) | Op::Bsync(_) | Op::Exit | Op::Nop => {}
        }
    }

    pub fn is_branch(&self) -> bool {
        matches!(self, Op::Bra(_))
    }

    /// Ops that end a thread's execution or transfer control.
    pub fn is_terminator(&self) -> bool {
        matches!(self, Op::Bra(_) | Op::Exit)
    }
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Op::Mov(o) => o.fmt_op(f),
            Op::IAdd3(o) => o.fmt_op(f),
            Op::IMad(o) => o.fmt_op(f),
            Op::ISetP(o) => o.fmt_op(f),
            Op::FSetP(o) => o.fmt_op(f),
            Op::FArith(o) => o.fmt_op(f),
            Op::Sel(o) => o.fmt_op(f),
            Op::Lop3(o) => o.fmt_op(f),
            Op::Shf(o) => o.fmt_op(f),
            Op::Conv(o) => o.fmt_op(f),
            Op::S2R(o) => o.fmt_op(f),
            Op::IsbeWr(o) => o.fmt_op(f),
            Op::IsbeRd(o) => o.fmt_op(f),
            Op::Bra(o) => o.fmt_op(f),
            Op::Bssy(o) => o.fmt_op(f),
            Op::Bsync(o) => o.fmt_op(f),
            Op::Exit => write!(f, "EXIT"),
            Op::Nop => write!(f, "NOP"),
        }
    }
}

/// An instruction: a guard predicate, an op and its control bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Instr {
    /// The lanes for which the guard is false do nothing (`@P0`, `@!P0`).
    pub guard: PredSrc,
    pub op: Op,
    pub ctrl: Ctrl,
}

impl Instr {
    pub fn new(op: Op) -> Instr {
        Instr {
            guard: PredSrc::TRUE,
            op,
            ctrl: Ctrl::default(),
        }
    }

    pub fn guarded(guard: PredSrc, op: Op) -> Instr {
        Instr {
            guard,
            op,
            ctrl: Ctrl::default(),
        }
    }

    /// Visits the guard, then the op's operands.
    pub fn visit_regs(&mut self, v: &mut RegVisitor<'_>) {
        if let Some(r) = &mut self.guard.reg {
            v(r, RegFile::Pred, OperandKind::Use);
        }
        self.op.visit_regs(v);
    }

    /// The instruction at byte address `pc`, encoded.
    pub fn encode(&self, pc: u32) -> Result<InstWord, EncodeError> {
        let mut w = InstWord::default();
        self.op.encode(&mut w, pc)?;
        w.set_pred_src(field::GUARD, field::GUARD_NEG, &self.guard)?;
        self.ctrl.encode(&mut w);
        Ok(w)
    }

    pub fn decode(w: &InstWord, pc: u32) -> Result<Instr, DecodeError> {
        Ok(Instr {
            guard: w.get_pred_src(field::GUARD, field::GUARD_NEG),
            op: Op::decode(w, pc)?,
            ctrl: Ctrl::decode(w),
        })
    }
}

impl fmt::Display for Instr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.guard.is_true() {
            write!(f, "@{} ", self.guard)?;
        }
        write!(f, "{} ;", self.op)
    }
}
