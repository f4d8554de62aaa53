//! ALU operands resolved when the program is decoded: each source is the
//! index of the register row it reads or of a row holding its immediate,
//! so the converged path (`converged.rs`) runs an ALU op over whole rows
//! without matching on operand kinds.

use crate::warp::{RZ, Row, WARP_LANES, gpr_index};
use spvsass_backend::isa::{Dst, Op, PredSrc, Src, SrcRef};

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

/// The ALU ops with a whole-row form: their sources, destination and
/// predicate source. Constant-bank sources are left to the general path,
/// which reports a bad bank or offset at the instruction that reads it.
pub(crate) fn row_form(op: &Op, splats: &mut Vec<Row>) -> Option<RowForm> {
    let one = std::slice::from_ref;
    let t = PredSrc::TRUE;
    let (srcs, dst, pred): (&[Src], Dst, PredSrc) = match op {
        Op::Mov(o) => (one(&o.src), o.dst, t),
        Op::Conv(o) => (one(&o.src), o.dst, t),
        Op::Bit(o) => (one(&o.src), o.dst, t),
        Op::Mufu(o) => (one(&o.src), o.dst, t),
        Op::F2F(o) => (one(&o.src), o.dst, t),
        Op::Frnd(o) => (one(&o.src), o.dst, t),
        Op::IAdd3(o) => (&o.srcs, o.dst, t),
        Op::IMad(o) => (&o.srcs, o.dst, t),
        Op::FArith(o) => (&o.srcs, o.dst, t),
        Op::Lop3(o) => (&o.srcs, o.dst, t),
        Op::Shf(o) => (&o.srcs, o.dst, t),
        Op::Prmt(o) => (&o.srcs, o.dst, t),
        Op::Lea(o) => (&o.srcs, o.dst, t),
        Op::Bmsk(o) => (&o.srcs, o.dst, t),
        Op::Sgxt(o) => (&o.srcs, o.dst, t),
        Op::IMnMx(o) => (&o.srcs, o.dst, o.min),
        Op::FMnMx(o) => (&o.srcs, o.dst, o.min),
        Op::Sel(o) => (&o.srcs, o.dst, o.cond),
        Op::FSel(o) => (&o.srcs, o.dst, o.cond),
        Op::ISetP(o) => (&o.srcs, o.dst, o.accum),
        Op::FSetP(o) => (&o.srcs, o.dst, o.accum),
        _ => return None,
    };
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
