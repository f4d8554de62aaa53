//! ALU operands resolved when the program is decoded: each source is the
//! index of the register row it reads or of a row holding its immediate,
//! so the converged path (`converged.rs`) runs an ALU op over whole rows
//! without matching on operand kinds.

use crate::warp::{RZ, Row, WARP_LANES, gpr_index};
use spvsass_isa::isa::{Alu, AluVisitor, Dst, Op, PredSrc, Src, SrcRef};

/// Where an ALU source's 32 lanes come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RowSrc {
    /// Register row (RZ's row reads as zero).
    Gpr(u8),
    /// Row `n` of the program's immediate rows.
    Splat(u16),
}

/// The operands of an ALU op that the converged path runs over whole rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RowForm {
    /// The op's sources in order; unused ones read RZ.
    pub srcs: [RowSrc; 3],
    pub dst: Dst,
    /// The op's predicate source (ISETP/FSETP accumulator, SEL/FSEL
    /// condition, IMNMX/FMNMX min), or PT.
    pub pred: PredSrc,
}

/// The ALU ops (all have a whole-row form): their sources, destination and
/// predicate source. Constant-bank sources are left to the general path,
/// which reports a bad bank or offset at the instruction that reads it.
pub(crate) fn row_form(op: &Op, splats: &mut Vec<Row>) -> Option<RowForm> {
    let (srcs, dst, pred) = op.alu(Operands)?;
    let mut rows = [RowSrc::Gpr(RZ as u8); 3];
    for (row, s) in rows.iter_mut().zip(srcs) {
        *row = match s.src {
            SrcRef::Reg(r) => RowSrc::Gpr(gpr_index(r) as u8),
            SrcRef::Zero => RowSrc::Gpr(RZ as u8),
            SrcRef::Imm(v) => {
                let n = u16::try_from(splats.len()).ok()?;
                splats.push([v; WARP_LANES as usize]);
                RowSrc::Splat(n)
            }
            SrcRef::CBuf { .. } => return None,
        };
    }
    Some(RowForm {
        srcs: rows,
        dst,
        pred,
    })
}

/// An ALU op's sources, destination and predicate source.
struct Operands;

impl<'a> AluVisitor<'a> for Operands {
    type Out = (&'a [Src], Dst, PredSrc);
    fn visit<const N: usize, O: Alu<N>>(self, o: &'a O) -> Self::Out {
        (o.srcs(), o.dst(), o.pred())
    }
}
