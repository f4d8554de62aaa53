//! Constant folding and algebraic simplification on the machine IR.
//!
//! An unguarded instruction whose sources are all constants becomes a MOV
//! of its value, computed by `crate::fold` through the op's own `eval`
//! (the simulator's semantics, so folding cannot change a result). A few
//! identities turn an op into a copy (`x + 0 + 0`, `x * 1 + 0`, a LOP3 that
//! passes one source through, a SEL of equal sources). Copy propagation
//! then carries the constants and copies into their uses.

use crate::fold::{Folded, fold};
use crate::isa::{Instr, Op, OpLop3, OpMov, RegFile, Src, SrcRef};
use crate::mir::{MFunc, VReg};
use crate::mir_info::{Info, alu_srcs, dst_vreg, encodable, single_def};
use cranelift_entity::SecondaryMap;

/// The constant `v` as a source.
fn word(v: u32) -> Src {
    if v == 0 { Src::ZERO } else { Src::imm(v) }
}

fn plain(s: &Src) -> bool {
    !s.neg && !s.abs
}

/// The source `op` copies, when it is an identity on one source.
fn identity(op: &Op) -> Option<Src> {
    match op {
        Op::IAdd3(o) => {
            let nonzero: Vec<&Src> = o.srcs.iter().filter(|s| s.src != SrcRef::Zero).collect();
            match nonzero[..] {
                [] => Some(Src::ZERO),
                [s] if plain(s) => Some(*s),
                _ => None,
            }
        }
        Op::IMad(o) if o.srcs[2].src == SrcRef::Zero && o.srcs.iter().all(plain) => {
            match (o.srcs[0].src, o.srcs[1].src) {
                (SrcRef::Imm(1), _) => Some(o.srcs[1]),
                (_, SrcRef::Imm(1)) => Some(o.srcs[0]),
                (SrcRef::Zero, _) | (_, SrcRef::Zero) => Some(Src::ZERO),
                _ => None,
            }
        }
        Op::IMad(o)
            if (o.srcs[0].src == SrcRef::Zero || o.srcs[1].src == SrcRef::Zero)
                && plain(&o.srcs[2]) =>
        {
            Some(o.srcs[2])
        }
        Op::Lop3(o) => match o.lut {
            0x00 => Some(Src::ZERO),
            0xff => Some(Src::imm(u32::MAX)),
            OpLop3::A => Some(o.srcs[0]),
            OpLop3::B => Some(o.srcs[1]),
            OpLop3::C => Some(o.srcs[2]),
            _ => None,
        },
        Op::Sel(o) if o.srcs[0] == o.srcs[1] => Some(o.srcs[0]),
        _ => None,
    }
}

/// The constants registers hold: unguarded MOVs of an immediate or RZ,
/// indexed by register (a dense table: every ALU source is looked up).
fn constants(f: &MFunc, info: &Info) -> SecondaryMap<VReg, Option<u32>> {
    let mut out = SecondaryMap::new();
    out.resize(f.vregs.len());
    for ins in f.blocks.values().flat_map(|b| &b.instrs) {
        if let (true, Op::Mov(m)) = (ins.guard.is_true(), ins.op)
            && let Some(d) = dst_vreg(&m.dst).filter(|&d| info.is_plain(d))
            && plain(&m.src)
        {
            out[d] = match m.src.src {
                SrcRef::Imm(k) => Some(k),
                SrcRef::Zero => Some(0),
                _ => continue,
            };
        }
    }
    out
}

/// `op` with the registers of known value read as those values (whether
/// or not the operand form could encode them: only `eval` sees this).
fn with_constants(op: &Op, consts: &SecondaryMap<VReg, Option<u32>>) -> Op {
    let mut probe = *op;
    for s in alu_srcs(&mut probe).into_iter().flatten() {
        if let Some(v) = s.as_reg().and_then(VReg::from_reg)
            && let Some(&Some(k)) = consts.get(v)
        {
            s.src = word(k).src;
        }
    }
    probe
}

/// Runs the pass.
pub fn const_fold(f: &mut MFunc) {
    let info = Info::new(f);
    let mut consts = constants(f, &info);
    for ins in f.blocks.values_mut().flat_map(|b| &mut b.instrs) {
        if !ins.guard.is_true() || matches!(ins.op, Op::Mov(_)) {
            continue;
        }
        let Some((d, RegFile::Gpr)) = single_def(ins) else {
            continue;
        };
        let probe = with_constants(&ins.op, &consts);
        let src = match fold(&probe) {
            Some(Folded::Word(w)) => {
                if info.is_plain(d) {
                    consts[d] = Some(w);
                }
                word(w)
            }
            Some(Folded::Pred(_)) => continue,
            None => match identity(&probe) {
                Some(s) if plain(&s) => s,
                _ => continue,
            },
        };
        let mov = Instr::new(Op::Mov(OpMov { dst: d.dst(), src }));
        if encodable(&mov) {
            *ins = mov;
        }
    }
}
