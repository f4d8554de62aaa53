//! Constant folding of machine ops through their CPU semantics: the same
//! `eval` methods the simulator executes, so folding and execution cannot
//! disagree.

use crate::isa::{Op, SrcRef};

/// A folded result: a 32-bit word or a predicate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Folded {
    Word(u32),
    Pred(bool),
}

fn konst(s: &crate::isa::Src) -> Option<u32> {
    match s.src {
        SrcRef::Zero => Some(0),
        SrcRef::Imm(v) => Some(v),
        _ => None,
    }
}

/// Evaluates `op` when every source is a constant (and predicate sources
/// are PT), or returns `None`.
pub fn fold(op: &Op) -> Option<Folded> {
    let all = |srcs: &[crate::isa::Src]| srcs.iter().map(konst).collect::<Option<Vec<u32>>>();
    let pt = |p: &crate::isa::PredSrc| if p.reg.is_none() { Some(!p.neg) } else { None };
    Some(match op {
        Op::Mov(o) => Folded::Word(o.eval(konst(&o.src)?)),
        Op::IAdd3(o) => {
            let v = all(&o.srcs)?;
            Folded::Word(o.eval([v[0], v[1], v[2]]))
        }
        Op::IMad(o) => {
            let v = all(&o.srcs)?;
            Folded::Word(o.eval([v[0], v[1], v[2]]))
        }
        Op::ISetP(o) => {
            let v = all(&o.srcs)?;
            Folded::Pred(o.eval(v[0], v[1], pt(&o.accum)?))
        }
        Op::FSetP(o) => {
            let v = all(&o.srcs)?;
            Folded::Pred(o.eval(v[0], v[1], pt(&o.accum)?))
        }
        Op::FArith(o) => {
            let v = all(&o.srcs)?;
            Folded::Word(o.eval([v[0], v[1], v[2]]))
        }
        Op::Sel(o) => {
            let v = all(&o.srcs)?;
            Folded::Word(o.eval(v[0], v[1], pt(&o.cond)?))
        }
        Op::Lop3(o) => {
            let v = all(&o.srcs)?;
            Folded::Word(o.eval([v[0], v[1], v[2]]))
        }
        Op::Shf(o) => {
            let v = all(&o.srcs)?;
            Folded::Word(o.eval([v[0], v[1], v[2]]))
        }
        Op::Conv(o) => Folded::Word(o.eval(konst(&o.src)?)),
        _ => return None,
    })
}
