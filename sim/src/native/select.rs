//! Which instructions the native tier translates, read off the op table:
//! one exhaustive match over `Op`, so an op added to the table does not
//! compile until it is either given a translation here or marked as left
//! to the interpreter. A translated ALU op becomes a `Translated`, the
//! enum of only the ops the tier has code for (`emit.rs` matches on it, so
//! the list of ops left to the interpreter exists once, here); it keeps the
//! op's fields (its `eval` is the semantic the emitted code reproduces bit
//! for bit) and its operands resolved to register rows, immediates and
//! constant-bank slots.

use crate::warp::{RZ, gpr_index};
use spvsass_isa::isa::{
    Alu, AluVisitor, Dst, FloatArith, Instr, Op, OpConv, OpFArith, OpFMnMx, OpFSel, OpFSetP,
    OpFrnd, OpIAdd3, OpIMnMx, OpISetP, OpLop3, OpShf, PredSrc, Reg, Round, Src, SrcRef, Target,
};

/// Where one lane-wise source comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Operand {
    /// A register row (never RZ).
    Gpr(u8),
    /// Zero (RZ).
    Zero,
    /// An immediate, the same in every lane.
    Imm(u32),
    /// Slot `n` of the constant-bank words read when a warp starts
    /// running natively (see `NativeCode::read_constants`).
    Const(u16),
}

/// Where an op's result goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dest {
    /// A register row (never RZ).
    Gpr(u8),
    /// A predicate P0..P6.
    Pred(u8),
    /// RZ or PT: the result is dropped.
    Drop,
}

/// An instruction the native tier runs.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Native {
    /// An ALU op: computed over the 32 lanes of its source rows.
    Alu(NativeAlu),
    /// BSSY: the convergence barrier records the group's lanes.
    Bssy { bar: u8 },
    /// A branch to an address: taken when the guard holds for every lane
    /// of the group, not taken when it holds for none, and otherwise the
    /// group splits (`compile.rs`).
    Bra { target: u32 },
    /// BSYNC: passed natively when every lane the barrier expects is in
    /// the group (no lane waits); otherwise the interpreter runs it.
    Bsync { bar: u8 },
}

/// The ALU ops the native tier has code for, with what their code needs
/// of the op (`emit::alu` matches on this).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Translated {
    Mov,
    IAdd3(OpIAdd3),
    IMad,
    Lop3(OpLop3),
    /// SHF by a fixed amount (`shf_amount`).
    Shf {
        op: OpShf,
        amount: u32,
    },
    Sel,
    IMnMx(OpIMnMx),
    Conv(OpConv),
    /// Round to nearest even only; FFMA only with a fused multiply-add.
    FArith(OpFArith),
    FMnMx(OpFMnMx),
    FSel(OpFSel),
    ISetP(OpISetP),
    FSetP(OpFSetP),
    Frnd(OpFrnd),
    IAbs,
}

/// A translated ALU op with its operands.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NativeAlu {
    pub op: Translated,
    /// The sources in operand order, padded with `Zero`.
    pub srcs: [Operand; 3],
    pub dst: Dest,
    /// The op's predicate source, or PT.
    pub pred: PredSrc,
}

/// Host features the emitted code may use.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Host {
    /// A fused multiply-add instruction (FFMA is one rounding).
    pub fma: bool,
}

/// The native form of `instr`, or `None` where the interpreter runs it.
/// `constants` collects the constant-bank words the operands read.
pub(crate) fn select(instr: &Instr, host: Host, constants: &mut Vec<(u8, u16)>) -> Option<Native> {
    let alu = |op, constants: &mut Vec<(u8, u16)>| alu_operands(&instr.op, op, constants);
    match &instr.op {
        Op::Bra(o) => match o.target {
            Target::Addr(target) => Some(Native::Bra { target }),
            Target::Block(_) => None,
        },
        Op::Bssy(o) => Some(Native::Bssy { bar: o.bar }),
        Op::Bsync(o) => Some(Native::Bsync { bar: o.bar }),
        Op::Mov(_) => alu(Translated::Mov, constants),
        Op::IAdd3(o) => alu(Translated::IAdd3(*o), constants),
        Op::IMad(_) => alu(Translated::IMad, constants),
        Op::ISetP(o) => alu(Translated::ISetP(*o), constants),
        Op::Sel(_) => alu(Translated::Sel, constants),
        Op::Lop3(o) => alu(Translated::Lop3(*o), constants),
        Op::Conv(o) => alu(Translated::Conv(*o), constants),
        Op::IMnMx(o) => alu(Translated::IMnMx(*o), constants),
        Op::FSetP(o) => alu(Translated::FSetP(*o), constants),
        Op::FMnMx(o) => alu(Translated::FMnMx(*o), constants),
        Op::FSel(o) => alu(Translated::FSel(*o), constants),
        Op::Frnd(o) => alu(Translated::Frnd(*o), constants),
        Op::IAbs(_) => alu(Translated::IAbs, constants),
        // Directed rounding has no vector form here; FFMA needs a fused
        // multiply-add.
        Op::FArith(o) => {
            let fused_ok = o.kind != FloatArith::Fma || host.fma;
            (o.rnd == Round::Rn && fused_ok)
                .then(|| alu(Translated::FArith(*o), constants))
                .flatten()
        }
        // Vector shifts take one amount for all lanes: an immediate one.
        Op::Shf(o) => {
            shf_amount(o).and_then(|amount| alu(Translated::Shf { op: *o, amount }, constants))
        }
        // Not translated yet: the interpreter runs them. Memory, textures,
        // workgroup barriers, warp-wide and special-register ops leave the
        // converged path anyway.
        Op::S2R(_)
        | Op::IsbeWr(_)
        | Op::IsbeRd(_)
        | Op::Ld(_)
        | Op::St(_)
        | Op::Atom(_)
        | Op::Red(_)
        | Op::Ldc(_)
        | Op::Cs2r(_)
        | Op::Bar(_)
        | Op::Membar(_)
        | Op::IAdd3X(_)
        | Op::IMadWide(_)
        | Op::Bit(_)
        | Op::Bmsk(_)
        | Op::Prmt(_)
        | Op::Sgxt(_)
        | Op::Lea(_)
        | Op::Mufu(_)
        | Op::F2F(_)
        | Op::PLop3(_)
        | Op::Shfl(_)
        | Op::Vote(_)
        | Op::Match(_)
        | Op::Redux(_)
        | Op::WarpSync(_)
        | Op::DArith(_)
        | Op::DSetP(_)
        | Op::F2F64(_)
        | Op::Conv64(_)
        | Op::Frnd64(_)
        | Op::Tex(_)
        | Op::Txq(_)
        | Op::SuLd(_)
        | Op::SuSt(_)
        | Op::SuAtom(_)
        | Op::Exit
        | Op::Nop => None,
    }
}

/// SHF's shift amount when it is an immediate, as its `eval` reads it
/// (modulo 32 with .W, clamped to 32 without).
fn shf_amount(o: &OpShf) -> Option<u32> {
    match o.srcs[1].src {
        SrcRef::Imm(v) => Some(if o.wrap { v & 31 } else { v.min(32) }),
        SrcRef::Zero => Some(0),
        SrcRef::Reg(_) | SrcRef::CBuf { .. } => None,
    }
}

/// The operands of the ALU op `op` (through the generic ALU interface),
/// translated as `translated`.
fn alu_operands(op: &Op, translated: Translated, constants: &mut Vec<(u8, u16)>) -> Option<Native> {
    let (srcs, dst, pred, is_pred) = op.alu(Operands)?;
    let mut operands = [Operand::Zero; 3];
    for (i, s) in srcs.iter().enumerate() {
        operands[i] = match s.src {
            SrcRef::Reg(r) => match gpr_index(r) {
                RZ => Operand::Zero,
                n => Operand::Gpr(n as u8),
            },
            SrcRef::Zero => Operand::Zero,
            SrcRef::Imm(v) => Operand::Imm(v),
            SrcRef::CBuf { bank, offset } => {
                let slot = match constants.iter().position(|&c| c == (bank, offset)) {
                    Some(n) => n,
                    None => {
                        constants.push((bank, offset));
                        constants.len() - 1
                    }
                };
                Operand::Const(u16::try_from(slot).ok()?)
            }
        };
    }
    let dst = match (dst, is_pred) {
        (Dst::Reg(r), false) => match gpr_index(r) {
            RZ => Dest::Drop,
            n => Dest::Gpr(n as u8),
        },
        // P0..P6; PT (7) drops the write, as `Warp::write_pred` does.
        (Dst::Reg(Reg::Phys(n)), true) if n < 7 => Dest::Pred(n),
        (Dst::Reg(_), true) | (Dst::None, _) => Dest::Drop,
    };
    Some(Native::Alu(NativeAlu {
        op: translated,
        srcs: operands,
        dst,
        pred,
    }))
}

/// An ALU op's sources, destination, predicate source and whether it
/// writes a predicate.
struct Operands;

impl<'a> AluVisitor<'a> for Operands {
    type Out = (&'a [Src], Dst, PredSrc, bool);
    fn visit<const N: usize, O: Alu<N>>(self, o: &'a O) -> Self::Out {
        let is_pred = O::DST == spvsass_isa::isa::RegFile::Pred;
        (o.srcs(), o.dst(), o.pred(), is_pred)
    }
}
