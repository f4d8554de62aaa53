//! The SASS-like ISA, defined once: every op is a struct (in `alu`, `isbe`,
//! `control`) that carries its own encoding, decoding, text form, register
//! operands and CPU semantic. The encoder, decoder, listing printer, register
//! allocator and simulator all go through these definitions; docs/ISA.md
//! documents them.

mod alu;
mod control;
mod ctrl;
mod float;
mod float64;
mod float_arith;
mod int;
mod isbe;
mod mem;
mod operand;
mod pred;
mod reg;
mod subgroup;
mod sync;
mod word;

pub use alu::{
    ConvKind, IntCmp, OpConv, OpIAdd3, OpIMad, OpISetP, OpLop3, OpMov, OpSel, OpShf, PredCombine,
    float_src, int_src,
};
pub use control::{OpBra, OpBssy, OpBsync, OpCs2r, OpS2R, Target};
pub use ctrl::Ctrl;
pub use float::{FloatFmt, MufuOp, OpF2F, OpFMnMx, OpFSel, OpFrnd, OpMufu, Round};
pub use float_arith::{FloatArith, FloatCmp, OpFArith, OpFSetP};
pub use float64::{NAN64, OpConv64, OpDArith, OpDSetP, OpF2F64, OpFrnd64, double_src};
pub use int::{BitOp, FALSE, OpBit, OpBmsk, OpIAdd3X, OpIMadWide, OpIMnMx, OpLea, OpPrmt, OpSgxt};
pub use isbe::{IsbeAccess, IsbeSize, MAX_IMM_OFFSET, OpIsbeRd, OpIsbeWr};
pub use mem::{AtomOp, AtomType, MemSize, MemSpace, OpAtom, OpLd, OpLdc, OpRed, OpSt};
pub use pred::OpPLop3;
pub use reg::{Dst, PredSrc, Reg, RegFile, SpecialReg, Src, SrcRef};
pub use subgroup::{OpMatch, OpRedux, OpShfl, OpVote, OpWarpSync, ReduxOp, ShflMode, VoteMode};
pub use sync::{MemScope, OpBar, OpMembar};
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
/// Uses come before defs. The last argument is the operand's width in
/// registers: 1, or 2 / 4 for a 64-bit / 128-bit value in an aligned group
/// `Rn..Rn+width` (n a multiple of the width) named by its base register; a
/// virtual register stands for the whole group.
///
/// A trait rather than a `dyn FnMut` so that each walk's callback is
/// inlined into the op's visit: the passes walk every instruction several
/// times, and an indirect call per operand was a large part of that.
pub trait RegVisitor: FnMut(&mut Reg, RegFile, OperandKind, u8) {}

impl<F: FnMut(&mut Reg, RegFile, OperandKind, u8)> RegVisitor for F {}

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
    #[error("R{reg} cannot start a group of {width} registers (it must be a multiple of {width})")]
    UnalignedGroup { reg: u8, width: u8 },
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    #[error("unknown opcode {opcode:#05x}")]
    UnknownOpcode { opcode: u64 },
    #[error("invalid {field} field value {value:#x}")]
    BadField { field: &'static str, value: u64 },
}

/// Every op's mnemonic (what [`Op::mnemonic`] returns), for tests that
/// check the emit table and docs/ISA.md cover the whole ISA.
pub const MNEMONICS: [&str; 57] = [
    "MOV", "IADD3", "IMAD", "ISETP", "FSETP", "FADD", "FMUL", "FFMA", "SEL", "LOP3", "SHF", "I2F",
    "F2I", "S2R", "ISBEWR", "ISBERD", "BRA", "BSSY", "BSYNC", "LDG", "LDS", "LDL", "STG", "STS",
    "STL", "ATOMG", "ATOMS", "RED", "LDC", "CS2R", "BAR", "MEMBAR", "IMNMX", "POPC", "FLO", "BREV",
    "BMSK", "PRMT", "SGXT", "LEA", "FMNMX", "FSEL", "MUFU", "F2F", "FRND", "PLOP3", "SHFL", "VOTE",
    "MATCH", "REDUX", "WARPSYNC", "EXIT", "NOP", "DADD", "DMUL", "DFMA", "DSETP",
];

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
    Ld(OpLd),
    St(OpSt),
    Atom(OpAtom),
    Red(OpRed),
    Ldc(OpLdc),
    Cs2r(OpCs2r),
    Bar(OpBar),
    Membar(OpMembar),
    IAdd3X(OpIAdd3X),
    IMadWide(OpIMadWide),
    IMnMx(OpIMnMx),
    Bit(OpBit),
    Bmsk(OpBmsk),
    Prmt(OpPrmt),
    Sgxt(OpSgxt),
    Lea(OpLea),
    FMnMx(OpFMnMx),
    FSel(OpFSel),
    Mufu(OpMufu),
    F2F(OpF2F),
    Frnd(OpFrnd),
    PLop3(OpPLop3),
    Shfl(OpShfl),
    Vote(OpVote),
    Match(OpMatch),
    Redux(OpRedux),
    WarpSync(OpWarpSync),
    DArith(OpDArith),
    DSetP(OpDSetP),
    F2F64(OpF2F64),
    Conv64(OpConv64),
    Frnd64(OpFrnd64),
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
            Op::Ld(o) => o.encode(w),
            Op::St(o) => o.encode(w),
            Op::Atom(o) => o.encode(w),
            Op::Red(o) => o.encode(w),
            Op::Ldc(o) => o.encode(w),
            Op::Cs2r(o) => o.encode(w),
            Op::Bar(o) => o.encode(w),
            Op::Membar(o) => o.encode(w),
            Op::IAdd3X(o) => o.encode(w),
            Op::IMadWide(o) => o.encode(w),
            Op::IMnMx(o) => o.encode(w),
            Op::Bit(o) => o.encode(w),
            Op::Bmsk(o) => o.encode(w),
            Op::Prmt(o) => o.encode(w),
            Op::Sgxt(o) => o.encode(w),
            Op::Lea(o) => o.encode(w),
            Op::FMnMx(o) => o.encode(w),
            Op::FSel(o) => o.encode(w),
            Op::Mufu(o) => o.encode(w),
            Op::F2F(o) => o.encode(w),
            Op::Frnd(o) => o.encode(w),
            Op::PLop3(o) => o.encode(w),
            Op::Shfl(o) => o.encode(w),
            Op::Vote(o) => o.encode(w),
            Op::Match(o) => o.encode(w),
            Op::Redux(o) => o.encode(w),
            Op::WarpSync(o) => o.encode(w),
            Op::DArith(o) => o.encode(w),
            Op::DSetP(o) => o.encode(w),
            Op::F2F64(o) => o.encode(w),
            Op::Conv64(o) => o.encode(w),
            Op::Frnd64(o) => o.encode(w),
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
            OpLd::OPCODE_LDG => Op::Ld(OpLd::decode(w, MemSpace::Global)?),
            OpLd::OPCODE_LDS => Op::Ld(OpLd::decode(w, MemSpace::Shared)?),
            OpLd::OPCODE_LDL => Op::Ld(OpLd::decode(w, MemSpace::Local)?),
            OpSt::OPCODE_STG => Op::St(OpSt::decode(w, MemSpace::Global)?),
            OpSt::OPCODE_STS => Op::St(OpSt::decode(w, MemSpace::Shared)?),
            OpSt::OPCODE_STL => Op::St(OpSt::decode(w, MemSpace::Local)?),
            OpAtom::OPCODE_ATOMG => Op::Atom(OpAtom::decode(w, MemSpace::Global, false)?),
            OpAtom::OPCODE_ATOMG_CAS => Op::Atom(OpAtom::decode(w, MemSpace::Global, true)?),
            OpAtom::OPCODE_ATOMS => Op::Atom(OpAtom::decode(w, MemSpace::Shared, false)?),
            OpAtom::OPCODE_ATOMS_CAS => Op::Atom(OpAtom::decode(w, MemSpace::Shared, true)?),
            OpRed::OPCODE => Op::Red(OpRed::decode(w)?),
            OpLdc::OPCODE => Op::Ldc(OpLdc::decode(w)?),
            OpCs2r::OPCODE => Op::Cs2r(OpCs2r::decode(w)?),
            OpBar::OPCODE => Op::Bar(OpBar),
            OpMembar::OPCODE => Op::Membar(OpMembar::decode(w)?),
            OpPLop3::OPCODE => Op::PLop3(OpPLop3::decode(w)?),
            o if OpShfl::OPCODES.contains(&o) => Op::Shfl(OpShfl::decode(w, o)?),
            OpVote::OPCODE => Op::Vote(OpVote::decode(w)?),
            OpMatch::OPCODE => Op::Match(OpMatch::decode(w)?),
            OpRedux::OPCODE => Op::Redux(OpRedux::decode(w)?),
            OPCODE_EXIT => Op::Exit,
            OPCODE_NOP => Op::Nop,
            _ => match alu {
                OpMov::OPCODE => Op::Mov(OpMov::decode(w)?),
                OpIAdd3::OPCODE => match OpIAdd3X::decode(w)? {
                    Some(o) => Op::IAdd3X(o),
                    None => Op::IAdd3(OpIAdd3::decode(w)?),
                },
                OpIMadWide::OPCODE_WIDE => Op::IMadWide(OpIMadWide::decode(w, false)?),
                OpIMadWide::OPCODE_HI => Op::IMadWide(OpIMadWide::decode(w, true)?),
                OpIMnMx::OPCODE => Op::IMnMx(OpIMnMx::decode(w)?),
                OpBit::OPCODE_FLO | OpBit::OPCODE_BREV | OpBit::OPCODE_POPC => {
                    Op::Bit(OpBit::decode(w, alu)?)
                }
                OpBmsk::OPCODE => Op::Bmsk(OpBmsk::decode(w)?),
                OpPrmt::OPCODE => Op::Prmt(OpPrmt::decode(w)?),
                OpSgxt::OPCODE => Op::Sgxt(OpSgxt::decode(w)?),
                OpLea::OPCODE => Op::Lea(OpLea::decode(w)?),
                OpFMnMx::OPCODE => Op::FMnMx(OpFMnMx::decode(w)?),
                OpFSel::OPCODE => Op::FSel(OpFSel::decode(w)?),
                OpMufu::OPCODE => Op::Mufu(OpMufu::decode(w)?),
                OpF2F::OPCODE => Op::F2F(OpF2F::decode(w)?),
                OpFrnd::OPCODE => Op::Frnd(OpFrnd::decode(w)?),
                OpWarpSync::OPCODE => Op::WarpSync(OpWarpSync::decode(w)?),
                OpDArith::OPCODE_DADD => Op::DArith(OpDArith::decode(w, FloatArith::Add)?),
                OpDArith::OPCODE_DMUL => Op::DArith(OpDArith::decode(w, FloatArith::Mul)?),
                OpDArith::OPCODE_DFMA => Op::DArith(OpDArith::decode(w, FloatArith::Fma)?),
                OpDSetP::OPCODE => Op::DSetP(OpDSetP::decode(w)?),
                OpF2F64::OPCODE => Op::F2F64(OpF2F64::decode(w)?),
                OpConv64::OPCODE_I2F => Op::Conv64(OpConv64::decode(w, ConvKind::IntToFloat)?),
                OpConv64::OPCODE_F2I => Op::Conv64(OpConv64::decode(w, ConvKind::FloatToInt)?),
                OpFrnd64::OPCODE => Op::Frnd64(OpFrnd64::decode(w)?),
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
    pub fn visit_regs(&mut self, v: &mut impl RegVisitor) {
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
            Op::Ld(o) => o.visit(v),
            Op::St(o) => o.visit(v),
            Op::Atom(o) => o.visit(v),
            Op::Red(o) => o.visit(v),
            Op::Ldc(o) => o.visit(v),
            Op::Cs2r(o) => o.visit(v),
            Op::IAdd3X(o) => o.visit(v),
            Op::IMadWide(o) => o.visit(v),
            Op::IMnMx(o) => o.visit(v),
            Op::Bit(o) => o.visit(v),
            Op::Bmsk(o) => o.visit(v),
            Op::Prmt(o) => o.visit(v),
            Op::Sgxt(o) => o.visit(v),
            Op::Lea(o) => o.visit(v),
            Op::FMnMx(o) => o.visit(v),
            Op::FSel(o) => o.visit(v),
            Op::Mufu(o) => o.visit(v),
            Op::F2F(o) => o.visit(v),
            Op::Frnd(o) => o.visit(v),
            Op::PLop3(o) => o.visit(v),
            Op::Shfl(o) => o.visit(v),
            Op::Vote(o) => o.visit(v),
            Op::Match(o) => o.visit(v),
            Op::Redux(o) => o.visit(v),
            Op::WarpSync(o) => o.visit(v),
            Op::DArith(o) => o.visit(v),
            Op::DSetP(o) => o.visit(v),
            Op::F2F64(o) => o.visit(v),
            Op::Conv64(o) => o.visit(v),
            Op::Frnd64(o) => o.visit(v),
            Op::Bra(_)
            | Op::Bssy(_)
            | Op::Bsync(_)
            | Op::Bar(_)
            | Op::Membar(_)
            | Op::Exit
            | Op::Nop => {}
        }
    }

    /// The op's name without modifiers, as its text form begins.
    pub fn mnemonic(&self) -> &'static str {
        match self {
            Op::Mov(_) => "MOV",
            Op::IAdd3(_) => "IADD3",
            Op::IMad(_) => "IMAD",
            Op::ISetP(_) => "ISETP",
            Op::FSetP(_) => "FSETP",
            Op::FArith(o) => match o.kind {
                FloatArith::Add => "FADD",
                FloatArith::Mul => "FMUL",
                FloatArith::Fma => "FFMA",
            },
            Op::Sel(_) => "SEL",
            Op::Lop3(_) => "LOP3",
            Op::Shf(_) => "SHF",
            Op::Conv(o) => match o.kind {
                ConvKind::IntToFloat => "I2F",
                ConvKind::FloatToInt => "F2I",
            },
            Op::S2R(_) => "S2R",
            Op::IsbeWr(_) => "ISBEWR",
            Op::IsbeRd(_) => "ISBERD",
            Op::Bra(_) => "BRA",
            Op::Bssy(_) => "BSSY",
            Op::Bsync(_) => "BSYNC",
            Op::Ld(o) => o.mnemonic(),
            Op::St(o) => o.mnemonic(),
            Op::Atom(o) => o.mnemonic(),
            Op::Red(_) => "RED",
            Op::Ldc(_) => "LDC",
            Op::Cs2r(_) => "CS2R",
            Op::Bar(_) => "BAR",
            Op::Membar(_) => "MEMBAR",
            Op::Bit(o) => o.mnemonic(),
            Op::IAdd3X(_) => "IADD3",
            Op::IMadWide(_) => "IMAD",
            Op::IMnMx(_) => "IMNMX",
            Op::Bmsk(_) => "BMSK",
            Op::Prmt(_) => "PRMT",
            Op::Sgxt(_) => "SGXT",
            Op::Lea(_) => "LEA",
            Op::FMnMx(_) => "FMNMX",
            Op::FSel(_) => "FSEL",
            Op::Mufu(_) => "MUFU",
            Op::F2F(_) => "F2F",
            Op::Frnd(_) => "FRND",
            Op::PLop3(_) => "PLOP3",
            Op::Shfl(_) => "SHFL",
            Op::Vote(_) => "VOTE",
            Op::Match(_) => "MATCH",
            Op::Redux(_) => "REDUX",
            Op::WarpSync(_) => "WARPSYNC",
            Op::DArith(o) => o.mnemonic(),
            Op::DSetP(_) => "DSETP",
            Op::F2F64(_) => "F2F",
            Op::Conv64(o) => match o.kind {
                ConvKind::IntToFloat => "I2F",
                ConvKind::FloatToInt => "F2I",
            },
            Op::Frnd64(_) => "FRND",
            Op::Exit => "EXIT",
            Op::Nop => "NOP",
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
            Op::Ld(o) => o.fmt_op(f),
            Op::St(o) => o.fmt_op(f),
            Op::Atom(o) => o.fmt_op(f),
            Op::Red(o) => o.fmt_op(f),
            Op::Ldc(o) => o.fmt_op(f),
            Op::Cs2r(o) => o.fmt_op(f),
            Op::Bar(o) => o.fmt_op(f),
            Op::Membar(o) => o.fmt_op(f),
            Op::IAdd3X(o) => o.fmt_op(f),
            Op::IMadWide(o) => o.fmt_op(f),
            Op::IMnMx(o) => o.fmt_op(f),
            Op::Bit(o) => o.fmt_op(f),
            Op::Bmsk(o) => o.fmt_op(f),
            Op::Prmt(o) => o.fmt_op(f),
            Op::Sgxt(o) => o.fmt_op(f),
            Op::Lea(o) => o.fmt_op(f),
            Op::FMnMx(o) => o.fmt_op(f),
            Op::FSel(o) => o.fmt_op(f),
            Op::Mufu(o) => o.fmt_op(f),
            Op::F2F(o) => o.fmt_op(f),
            Op::Frnd(o) => o.fmt_op(f),
            Op::PLop3(o) => o.fmt_op(f),
            Op::Shfl(o) => o.fmt_op(f),
            Op::Vote(o) => o.fmt_op(f),
            Op::Match(o) => o.fmt_op(f),
            Op::Redux(o) => o.fmt_op(f),
            Op::WarpSync(o) => o.fmt_op(f),
            Op::DArith(o) => o.fmt_op(f),
            Op::DSetP(o) => o.fmt_op(f),
            Op::F2F64(o) => o.fmt_op(f),
            Op::Conv64(o) => o.fmt_op(f),
            Op::Frnd64(o) => o.fmt_op(f),
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
    pub fn visit_regs(&mut self, v: &mut impl RegVisitor) {
        if let Some(r) = &mut self.guard.reg {
            v(r, RegFile::Pred, OperandKind::Use, 1);
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
