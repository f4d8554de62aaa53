//! Constant folding of machine ops through their CPU semantics: the same
//! `eval` methods the simulator executes, so folding and execution cannot
//! disagree.

use crate::isa::{Alu, AluVisitor, Op, OtherOp, PredSrc, RegFile, Src, SrcRef};

/// A folded result: a 32-bit word or a predicate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Folded {
    Word(u32),
    Pred(bool),
}

fn konst(s: &Src) -> Option<u32> {
    match s.src {
        SrcRef::Zero => Some(0),
        SrcRef::Imm(v) => Some(v),
        _ => None,
    }
}

/// Evaluates `op` when every source is a constant (and predicate sources
/// are PT), or returns `None`: every ALU op through its generic `lane`, and
/// IMAD.HI and PLOP3, the two other ops with one result. Two results
/// (IADD3 with a carry, IMAD.WIDE), memory, warp-wide and control ops do
/// not fold to one value.
pub fn fold(op: &Op) -> Option<Folded> {
    match op.split(Fold) {
        Ok(folded) => folded,
        Err(OtherOp::IMadWide(o)) if o.hi => {
            let v = all(&o.srcs)?;
            Some(Folded::Word(o.eval_hi(v[0], v[1], u64::from(v[2]))))
        }
        Err(OtherOp::PLop3(o)) => {
            let [a, b, c] = [pt(&o.srcs[0])?, pt(&o.srcs[1])?, pt(&o.srcs[2])?];
            Some(Folded::Pred(o.eval(a, b, c)))
        }
        Err(_) => None,
    }
}

/// The values of constant sources.
fn all<const N: usize>(srcs: &[Src; N]) -> Option<[u32; N]> {
    let mut v = [0; N];
    for (v, s) in v.iter_mut().zip(srcs) {
        *v = konst(s)?;
    }
    Some(v)
}

/// The value of PT or !PT.
fn pt(p: &PredSrc) -> Option<bool> {
    if p.reg.is_none() { Some(!p.neg) } else { None }
}

/// Folds an ALU op.
struct Fold;

impl AluVisitor<'_> for Fold {
    type Out = Option<Folded>;
    fn visit<const N: usize, O: Alu<N>>(self, o: &O) -> Option<Folded> {
        let v = o.lane(all(o.srcs())?, pt(&o.pred())?);
        Some(match O::DST {
            RegFile::Pred => Folded::Pred(v != 0),
            RegFile::Gpr => Folded::Word(v),
        })
    }
}
