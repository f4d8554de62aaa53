//! The SASS-like ISA, defined once. Every op is a struct that carries its
//! own encoding, decoding, text form, register operands and CPU semantic,
//! in a file per op class: `alu` (MOV, IADD3, IMAD, ISETP, SEL, LOP3, SHF,
//! I2F/F2I), `int` (the other integer ops), `float_arith` (FADD, FMUL,
//! FFMA, FSETP), `float` (FMNMX, FSEL, MUFU, F2F, FRND), `float64`
//! (doubles), `pred` (PLOP3), `mem`, `isbe`, `subgroup`, `sync` and
//! `control`. The op table below (one line per op, expanded by
//! `op_table`) makes the `Op` enum and every dispatch over it: encoding,
//! decoding, operand visiting, printing, mnemonics, latency class and
//! effects; ALU ops also implement the generic interface of `generic`
//! ([`Alu`]), through which the folder, the passes, instruction selection
//! and the simulator handle them without listing them. docs/ISA.md
//! documents the ops, and ARCHITECTURE.md has the recipe for adding one.

#[macro_use]
mod op_table;
pub mod arch_form;
#[macro_use]
mod generic;
mod alu;
mod control;
mod ctrl;
mod float;
mod float64;
mod float_arith;
mod int;
mod isbe;
mod mem;
mod mufu;
mod mufu_tables;
mod operand;
mod pred;
mod reg;
mod subgroup;
mod surface;
mod sync;
mod tex;
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
pub use generic::{Alu, AluVisitor, AluVisitorMut};
pub use int::{
    BitOp, FALSE, OpBit, OpBmsk, OpIAbs, OpIAdd3X, OpIMadWide, OpIMnMx, OpLea, OpPrmt, OpSgxt,
};
pub use isbe::{IsbeAccess, IsbeSize, MAX_IMM_OFFSET, OpIsbeRd, OpIsbeWr};
pub use mem::{AtomOp, AtomType, MemSize, MemSpace, OpAtom, OpLd, OpLdc, OpRed, OpSt};
pub use pred::OpPLop3;
pub use reg::{Dst, PredSrc, Reg, RegFile, SpecialReg, Src, SrcRef};
pub use subgroup::{OpMatch, OpRedux, OpShfl, OpVote, OpWarpSync, ReduxOp, ShflMode, VoteMode};
pub use surface::{OpSuAtom, OpSuLd, OpSuSt, SuAccess, SuDim, SuOrder};
pub use sync::{MemScope, OpBar, OpMembar};
pub use tex::{LodMode, OpTex, OpTxq, TexDim, TexKind, TxqQuery, group_width};
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

/// How an op's results become available.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Latency {
    /// Ready this many cycles after issue.
    Fixed(u8),
    /// Ready when the op's write scoreboard is released; `reads_late`
    /// when its sources are read after issue too (a read scoreboard).
    Variable { reads_late: bool },
}

/// What an op does besides computing its results.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Nothing: removable when its results are unused.
    Pure,
    /// Memory, warp-wide or ordering effects.
    Effect,
    /// An effect after (and before) which no result may be outstanding:
    /// control flow, barriers, EXIT.
    Sync,
}

/// Which opcode field an entry of [`OPCODES`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpcodeKind {
    /// All 12 opcode bits (fixed-form ops).
    Fixed,
    /// The low 9 bits, with the operand form in bits 9..12 (ALU ops).
    Alu,
}

pub const OPCODE_EXIT: u16 = 0x94d;
pub const OPCODE_NOP: u16 = 0x918;

/// EXIT and NOP, the ops without operands.
fn encode_bare(w: &mut InstWord, op: Op) -> Result<(), EncodeError> {
    if op == Op::Exit {
        w.set(field::OPCODE, u64::from(OPCODE_EXIT));
        w.set(field::PSRC, 7);
    } else {
        w.set(field::OPCODE, u64::from(OPCODE_NOP));
    }
    Ok(())
}

// The op table: one line per op, the only list of ops (op_table.rs reads
// it). Latencies are approximate (published microbenchmarks of Volta and
// Turing: about 4 cycles for FP32 and integer ALU ops, 5 for IMAD); which
// ops are variable follows NAK's SM70 model, and doubles are scoreboarded
// as nvcc's sm_86 code shows (docs/ISA.md, "Control bits"). Every
// variable-latency op reads its sources after issue (`var_late`): an LDG
// whose address register a MOV overwrote one cycle later loaded from the
// new value on the H100 (docs/ISA.md, "Control bits").
ops! {
    decode(w, pc, opcode);
    Mov(OpMov) [MOV] alu, fixed(4), pure
        { alu9 [OpMov::OPCODE] => Op::Mov(OpMov::decode(w)?); }
    IAdd3(OpIAdd3) [IADD3] alu, fixed(4), pure
        { alu9 [OpIAdd3::OPCODE] => match OpIAdd3X::decode(w)? {
            Some(o) => Op::IAdd3X(o),
            None => Op::IAdd3(OpIAdd3::decode(w)?),
        }; }
    IMad(OpIMad) [IMAD] alu, fixed(5), pure
        { alu9 [OpIMad::OPCODE] => Op::IMad(OpIMad::decode(w)?); }
    ISetP(OpISetP) [ISETP] alu, fixed(4), pure
        { alu9 [OpISetP::OPCODE] => Op::ISetP(OpISetP::decode(w)?); }
    FSetP(OpFSetP) [FSETP] alu, fixed(4), pure
        { alu9 [OpFSetP::OPCODE] => Op::FSetP(OpFSetP::decode(w)?); }
    FArith(OpFArith) [FADD, FMUL, FFMA] alu, fixed(4), pure {
        alu9 [OpFArith::OPCODE_FADD] => Op::FArith(OpFArith::decode(w, FloatArith::Add)?);
        alu9 [OpFArith::OPCODE_FMUL] => Op::FArith(OpFArith::decode(w, FloatArith::Mul)?);
        alu9 [OpFArith::OPCODE_FFMA] => Op::FArith(OpFArith::decode(w, FloatArith::Fma)?);
    }
    Sel(OpSel) [SEL] alu, fixed(4), pure
        { alu9 [OpSel::OPCODE] => Op::Sel(OpSel::decode(w)?); }
    Lop3(OpLop3) [LOP3] alu, fixed(4), pure
        { alu9 [OpLop3::OPCODE] => Op::Lop3(OpLop3::decode(w)?); }
    Shf(OpShf) [SHF] alu, fixed(4), pure
        { alu9 [OpShf::OPCODE] => Op::Shf(OpShf::decode(w)?); }
    Conv(OpConv) [I2F, F2I] alu, var_late, pure {
        alu9 [OpConv::OPCODE_I2F] => Op::Conv(OpConv::decode(w, ConvKind::IntToFloat)?);
        alu9 [OpConv::OPCODE_F2I] => Op::Conv(OpConv::decode(w, ConvKind::FloatToInt)?);
    }
    S2R(OpS2R) [S2R] other, var_late, pure
        { fixed [OpS2R::OPCODE] => Op::S2R(OpS2R::decode(w)?); }
    IsbeWr(OpIsbeWr) [ISBEWR] other, var_late, effect
        { fixed [OpIsbeWr::OPCODE] => Op::IsbeWr(OpIsbeWr::decode(w)?); }
    IsbeRd(OpIsbeRd) [ISBERD] other, var_late, effect
        { fixed [OpIsbeRd::OPCODE] => Op::IsbeRd(OpIsbeRd::decode(w)?); }
    Bra(OpBra) @pc [BRA] other, fixed(4), sync
        { fixed [OpBra::OPCODE] => Op::Bra(OpBra::decode(w, pc)?); }
    Bssy(OpBssy) @pc [BSSY] other, fixed(4), sync
        { fixed [OpBssy::OPCODE] => Op::Bssy(OpBssy::decode(w, pc)?); }
    Bsync(OpBsync) [BSYNC] other, fixed(4), sync
        { fixed [OpBsync::OPCODE] => Op::Bsync(OpBsync::decode(w)?); }
    Ld(OpLd) [LDG, LDS, LDL] other, var_late, effect {
        fixed [OpLd::OPCODE_LDG] => Op::Ld(OpLd::decode(w, MemSpace::Global)?);
        fixed [OpLd::OPCODE_LDS] => Op::Ld(OpLd::decode(w, MemSpace::Shared)?);
        fixed [OpLd::OPCODE_LDL] => Op::Ld(OpLd::decode(w, MemSpace::Local)?);
    }
    St(OpSt) [STG, STS, STL] other, var_late, effect {
        fixed [OpSt::OPCODE_STG] => Op::St(OpSt::decode(w, MemSpace::Global)?);
        fixed [OpSt::OPCODE_STS] => Op::St(OpSt::decode(w, MemSpace::Shared)?);
        fixed [OpSt::OPCODE_STL] => Op::St(OpSt::decode(w, MemSpace::Local)?);
    }
    Atom(OpAtom) [ATOMG, ATOMS] other, var_late, effect {
        fixed [OpAtom::OPCODE_ATOMG] => Op::Atom(OpAtom::decode(w, MemSpace::Global, false)?);
        fixed [OpAtom::OPCODE_ATOMG_CAS] => Op::Atom(OpAtom::decode(w, MemSpace::Global, true)?);
        fixed [OpAtom::OPCODE_ATOMS] => Op::Atom(OpAtom::decode(w, MemSpace::Shared, false)?);
        fixed [OpAtom::OPCODE_ATOMS_CAS] => Op::Atom(OpAtom::decode(w, MemSpace::Shared, true)?);
    }
    Red(OpRed) [RED] other, var_late, effect
        { fixed [OpRed::OPCODE] => Op::Red(OpRed::decode(w)?); }
    Ldc(OpLdc) [LDC] other, var_late, pure
        { fixed [OpLdc::OPCODE] => Op::Ldc(OpLdc::decode(w)?); }
    Cs2r(OpCs2r) [CS2R] other, fixed(4), pure
        { fixed [OpCs2r::OPCODE] => Op::Cs2r(OpCs2r::decode(w)?); }
    Bar(OpBar) [BAR] other, fixed(4), sync
        { fixed [OpBar::OPCODE] => Op::Bar(OpBar); }
    Membar(OpMembar) [MEMBAR] other, fixed(4), sync
        { fixed [OpMembar::OPCODE] => Op::Membar(OpMembar::decode(w)?); }
    // Shares IADD3's opcode: IADD3's decode arm tells them apart.
    IAdd3X(OpIAdd3X) [IADD3] other, fixed(4), pure {}
    IMadWide(OpIMadWide) [IMAD] other, fixed(5), pure {
        alu9 [OpIMadWide::OPCODE_WIDE] => Op::IMadWide(OpIMadWide::decode(w, false)?);
        alu9 [OpIMadWide::OPCODE_HI] => Op::IMadWide(OpIMadWide::decode(w, true)?);
    }
    IMnMx(OpIMnMx) [IMNMX] alu, fixed(4), pure
        { alu9 [OpIMnMx::OPCODE] => Op::IMnMx(OpIMnMx::decode(w)?); }
    Bit(OpBit) [POPC, FLO, BREV] alu, var_late, pure {
        alu9 [OpBit::OPCODE_FLO, OpBit::OPCODE_BREV, OpBit::OPCODE_POPC]
            => Op::Bit(OpBit::decode(w, opcode)?);
    }
    Bmsk(OpBmsk) [BMSK] alu, fixed(4), pure
        { alu9 [OpBmsk::OPCODE] => Op::Bmsk(OpBmsk::decode(w)?); }
    Prmt(OpPrmt) [PRMT] alu, fixed(4), pure
        { alu9 [OpPrmt::OPCODE] => Op::Prmt(OpPrmt::decode(w)?); }
    Sgxt(OpSgxt) [SGXT] alu, fixed(4), pure
        { alu9 [OpSgxt::OPCODE] => Op::Sgxt(OpSgxt::decode(w)?); }
    Lea(OpLea) [LEA] alu, fixed(4), pure
        { alu9 [OpLea::OPCODE] => Op::Lea(OpLea::decode(w)?); }
    FMnMx(OpFMnMx) [FMNMX] alu, fixed(4), pure
        { alu9 [OpFMnMx::OPCODE] => Op::FMnMx(OpFMnMx::decode(w)?); }
    FSel(OpFSel) [FSEL] alu, fixed(4), pure
        { alu9 [OpFSel::OPCODE] => Op::FSel(OpFSel::decode(w)?); }
    Mufu(OpMufu) [MUFU] alu, var_late, pure
        { alu9 [OpMufu::OPCODE] => Op::Mufu(OpMufu::decode(w)?); }
    F2F(OpF2F) [F2F] alu, var_late, pure
        { alu9 [OpF2F::OPCODE] => Op::F2F(OpF2F::decode(w)?); }
    Frnd(OpFrnd) [FRND] alu, var_late, pure
        { alu9 [OpFrnd::OPCODE] => Op::Frnd(OpFrnd::decode(w)?); }
    PLop3(OpPLop3) [PLOP3] other, fixed(4), pure
        { fixed [OpPLop3::OPCODE] => Op::PLop3(OpPLop3::decode(w)?); }
    Shfl(OpShfl) [SHFL] other, var_late, effect {
        fixed [OpShfl::OPCODES[0], OpShfl::OPCODES[1], OpShfl::OPCODES[2], OpShfl::OPCODES[3]]
            => Op::Shfl(OpShfl::decode(w, opcode)?);
    }
    Vote(OpVote) [VOTE] other, fixed(4), effect
        { fixed [OpVote::OPCODE] => Op::Vote(OpVote::decode(w)?); }
    Match(OpMatch) [MATCH] other, var_late, effect
        { fixed [OpMatch::OPCODE] => Op::Match(OpMatch::decode(w)?); }
    Redux(OpRedux) [REDUX] other, var_late, effect
        { fixed [OpRedux::OPCODE] => Op::Redux(OpRedux::decode(w)?); }
    WarpSync(OpWarpSync) [WARPSYNC] other, fixed(4), sync
        { alu9 [OpWarpSync::OPCODE] => Op::WarpSync(OpWarpSync::decode(w)?); }
    DArith(OpDArith) [DADD, DMUL, DFMA] other, var_late, pure {
        alu9 [OpDArith::OPCODE_DADD] => Op::DArith(OpDArith::decode(w, FloatArith::Add)?);
        alu9 [OpDArith::OPCODE_DMUL] => Op::DArith(OpDArith::decode(w, FloatArith::Mul)?);
        alu9 [OpDArith::OPCODE_DFMA] => Op::DArith(OpDArith::decode(w, FloatArith::Fma)?);
    }
    DSetP(OpDSetP) [DSETP] other, var_late, pure
        { alu9 [OpDSetP::OPCODE] => Op::DSetP(OpDSetP::decode(w)?); }
    F2F64(OpF2F64) [F2F] other, var_late, pure
        { alu9 [OpF2F64::OPCODE] => Op::F2F64(OpF2F64::decode(w)?); }
    Conv64(OpConv64) [I2F, F2I] other, var_late, pure {
        alu9 [OpConv64::OPCODE_I2F] => Op::Conv64(OpConv64::decode(w, ConvKind::IntToFloat)?);
        alu9 [OpConv64::OPCODE_F2I] => Op::Conv64(OpConv64::decode(w, ConvKind::FloatToInt)?);
    }
    Frnd64(OpFrnd64) [FRND] other, var_late, pure
        { alu9 [OpFrnd64::OPCODE] => Op::Frnd64(OpFrnd64::decode(w)?); }
    IAbs(OpIAbs) [IABS] alu, fixed(4), pure
        { alu9 [OpIAbs::OPCODE] => Op::IAbs(OpIAbs::decode(w)?); }
    Tex(OpTex) [TEX, TLD, TLD4, TXD] other, var_late, effect {
        fixed [OpTex::OPCODE_TEX] => Op::Tex(OpTex::decode(w, TexKind::Tex)?);
        fixed [OpTex::OPCODE_TLD] => Op::Tex(OpTex::decode(w, TexKind::Tld)?);
        fixed [OpTex::OPCODE_TLD4] => Op::Tex(OpTex::decode(w, TexKind::Tld4 { comp: 0 })?);
        fixed [OpTex::OPCODE_TXD] => Op::Tex(OpTex::decode(w, TexKind::Txd)?);
    }
    Txq(OpTxq) [TXQ] other, var_late, effect
        { fixed [OpTxq::OPCODE] => Op::Txq(OpTxq::decode(w)?); }
    SuLd(OpSuLd) [SULD] other, var_late, effect {
        fixed [OpSuLd::OPCODE_P] => Op::SuLd(OpSuLd::decode(w, true)?);
        fixed [OpSuLd::OPCODE_D] => Op::SuLd(OpSuLd::decode(w, false)?);
    }
    SuSt(OpSuSt) [SUST] other, var_late, effect {
        fixed [OpSuSt::OPCODE_P] => Op::SuSt(OpSuSt::decode(w, true)?);
        fixed [OpSuSt::OPCODE_D] => Op::SuSt(OpSuSt::decode(w, false)?);
    }
    SuAtom(OpSuAtom) [SUATOM, SURED] other, var_late, effect {
        fixed [OpSuAtom::OPCODE] => Op::SuAtom(OpSuAtom::decode(w, false, false)?);
        fixed [OpSuAtom::OPCODE_CAS] => Op::SuAtom(OpSuAtom::decode(w, true, false)?);
        fixed [OpSuAtom::OPCODE_RED] => Op::SuAtom(OpSuAtom::decode(w, false, true)?);
    }
    Exit [EXIT] other, fixed(4), sync
        { fixed [OPCODE_EXIT] => Op::Exit; }
    Nop [NOP] other, fixed(4), effect
        { fixed [OPCODE_NOP] => Op::Nop; }
}

impl Op {
    pub fn is_branch(&self) -> bool {
        matches!(self, Op::Bra(_))
    }

    /// Ops that end a thread's execution or transfer control.
    pub fn is_terminator(&self) -> bool {
        matches!(self, Op::Bra(_) | Op::Exit)
    }

    /// Whether the op has no effect but its results: removable when they
    /// are unused.
    pub fn is_pure(&self) -> bool {
        self.effect() == Effect::Pure
    }

    /// Whether no result may be outstanding before or after the op.
    pub fn is_sync_point(&self) -> bool {
        self.effect() == Effect::Sync
    }

    /// An ALU op's sources, in operand order.
    pub fn alu_srcs_mut(&mut self) -> Option<&mut [Src]> {
        struct Srcs;
        impl<'a> AluVisitorMut<'a> for Srcs {
            type Out = &'a mut [Src];
            fn visit<const N: usize, O: Alu<N>>(self, op: &'a mut O) -> &'a mut [Src] {
                op.srcs_mut()
            }
        }
        self.alu_mut(Srcs)
    }

    /// An ALU op's result register.
    pub fn alu_dst_mut(&mut self) -> Option<&mut Dst> {
        struct DstOf;
        impl<'a> AluVisitorMut<'a> for DstOf {
            type Out = &'a mut Dst;
            fn visit<const N: usize, O: Alu<N>>(self, op: &'a mut O) -> &'a mut Dst {
                op.dst_mut()
            }
        }
        self.alu_mut(DstOf)
    }

    /// The pairs of an ALU op's source slots that commute (none for other
    /// ops).
    pub fn commuting_slots(&self) -> &'static [(usize, usize)] {
        struct Commuting;
        impl AluVisitor<'_> for Commuting {
            type Out = &'static [(usize, usize)];
            fn visit<const N: usize, O: Alu<N>>(self, _: &O) -> Self::Out {
                O::COMMUTING
            }
        }
        self.alu(Commuting).unwrap_or(&[])
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
