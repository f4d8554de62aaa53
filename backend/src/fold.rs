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
        Op::Bit(o) => Folded::Word(o.eval(konst(&o.src)?)),
        Op::Mufu(o) => Folded::Word(o.eval(konst(&o.src)?)),
        Op::F2F(o) => Folded::Word(o.eval(konst(&o.src)?)),
        Op::Frnd(o) => Folded::Word(o.eval(konst(&o.src)?)),
        Op::Bmsk(o) => {
            let v = all(&o.srcs)?;
            Folded::Word(o.eval(v[0], v[1]))
        }
        Op::Sgxt(o) => {
            let v = all(&o.srcs)?;
            Folded::Word(o.eval(v[0], v[1]))
        }
        Op::Prmt(o) => {
            let v = all(&o.srcs)?;
            Folded::Word(o.eval([v[0], v[1], v[2]]))
        }
        Op::Lea(o) => {
            let v = all(&o.srcs)?;
            Folded::Word(o.eval([v[0], v[1], v[2]]))
        }
        Op::IMadWide(o) if o.hi => {
            let v = all(&o.srcs)?;
            Folded::Word(o.eval_hi([v[0], v[1], v[2]]))
        }
        Op::IMnMx(o) => {
            let v = all(&o.srcs)?;
            Folded::Word(o.eval(v[0], v[1], pt(&o.min)?))
        }
        Op::FMnMx(o) => {
            let v = all(&o.srcs)?;
            Folded::Word(o.eval(v[0], v[1], pt(&o.min)?))
        }
        Op::FSel(o) => {
            let v = all(&o.srcs)?;
            Folded::Word(o.eval(v[0], v[1], pt(&o.cond)?))
        }
        Op::PLop3(o) => {
            let [a, b, c] = [pt(&o.srcs[0])?, pt(&o.srcs[1])?, pt(&o.srcs[2])?];
            Folded::Pred(o.eval(a, b, c))
        }
        // Two results (IADD3 with a carry, IMAD.WIDE), memory, warp-wide
        // and control ops do not fold to one value.
        _ => return None,
    })
}
