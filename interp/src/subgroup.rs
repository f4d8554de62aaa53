//! Subgroup operations, executed once for the invocations of a subgroup
//! that reached the instruction together (the tangle). Invocation ids
//! within the subgroup are local invocation indices modulo the subgroup
//! size; a read of an invocation outside the tangle is undefined.

use crate::arith::{self, EvalErr};
use crate::error::InterpError;
use crate::exec::{Lane, World};
use crate::value::{Val, mask, scalar_of};
use cranelift_entity::EntityRef;
use spvsass_frontend::ir::{BinaryOp, GroupOperation, Inst, ReduceOp, Scalar, SubgroupOp, Value};

fn bits_of(s: Scalar) -> u8 {
    match s {
        Scalar::Bool => 1,
        Scalar::Int { bits, .. } | Scalar::Float { bits } => bits,
    }
}

/// Runs subgroup op `op` for the invocations `active` (indices into
/// `lanes`, ascending) of the subgroup `start..end`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn exec(
    world: &mut World<'_>,
    lanes: &mut [Lane],
    start: usize,
    end: usize,
    active: &[usize],
    inst: Inst,
    op: SubgroupOp,
    args: &[Value],
) -> Result<(), InterpError> {
    let shader = world.shader;
    let data = &shader.insts[inst];
    let Some(result) = data.result else {
        return Ok(());
    };
    let sg = end - start;
    let arg = |l: usize, k: usize| lanes[l].vals[args[k].index()].clone();
    let id = |l: usize| (l - start) as u64;
    let is_active = |sid: u64| -> Option<usize> {
        let l = start + sid as usize;
        (sid < sg as u64 && active.binary_search(&l).is_ok()).then_some(l)
    };
    let undefined = |what: String, l: usize| InterpError::Undefined {
        at: world.at(inst, l as u32),
        what,
    };
    let scalar = args
        .first()
        .and_then(|a| scalar_of(&shader.types[shader.values[*a].ty]))
        .unwrap_or(Scalar::U32);
    let ballot_of = |pred: &dyn Fn(usize) -> bool| {
        let mut words = [0u64; 4];
        for &l in active {
            if pred(l) {
                let i = id(l) as usize;
                words[i / 32] |= 1 << (i % 32);
            }
        }
        words
    };
    let ballot_bits = |v: &Val| -> u128 {
        v.parts().iter().enumerate().fold(0u128, |acc, (i, w)| {
            acc | (u128::from(w.bits() & 0xffff_ffff) << (32 * i))
        })
    };
    let mut out: Vec<(usize, Val)> = Vec::with_capacity(active.len());
    match op {
        SubgroupOp::Elect => {
            for &l in active {
                out.push((l, Val::S(u64::from(l == active[0]))));
            }
        }
        SubgroupOp::All | SubgroupOp::Any | SubgroupOp::AllEqual => {
            let first = arg(active[0], 0);
            let r = match op {
                SubgroupOp::All => active.iter().all(|&l| arg(l, 0).bits() != 0),
                SubgroupOp::Any => active.iter().any(|&l| arg(l, 0).bits() != 0),
                _ => active.iter().all(|&l| arg(l, 0) == first),
            };
            for &l in active {
                out.push((l, Val::S(u64::from(r))));
            }
        }
        SubgroupOp::Ballot => {
            let w = ballot_of(&|l| arg(l, 0).bits() != 0);
            for &l in active {
                out.push((l, Val::C(w.iter().map(|x| Val::S(*x)).collect())));
            }
        }
        SubgroupOp::InverseBallot => {
            for &l in active {
                let b = ballot_bits(&arg(l, 0));
                out.push((l, Val::S(((b >> id(l)) & 1) as u64)));
            }
        }
        SubgroupOp::BallotBitExtract => {
            for &l in active {
                let b = ballot_bits(&arg(l, 0));
                let i = arg(l, 1).bits();
                out.push((l, Val::S(if i < 128 { ((b >> i) & 1) as u64 } else { 0 })));
            }
        }
        SubgroupOp::BallotBitCount(g) => {
            for &l in active {
                let b = ballot_bits(&arg(l, 0)) & ((1u128 << sg) - 1);
                let me = id(l);
                let b = match g {
                    GroupOperation::Reduce | GroupOperation::ClusteredReduce => b,
                    GroupOperation::InclusiveScan => b & ((1u128 << (me + 1)) - 1),
                    GroupOperation::ExclusiveScan => b & ((1u128 << me) - 1),
                };
                out.push((l, Val::S(u64::from(b.count_ones()))));
            }
        }
        SubgroupOp::BallotFindLsb | SubgroupOp::BallotFindMsb => {
            for &l in active {
                let b = ballot_bits(&arg(l, 0)) & ((1u128 << sg) - 1);
                let r = if b == 0 {
                    0xffff_ffff
                } else if op == SubgroupOp::BallotFindLsb {
                    u64::from(b.trailing_zeros())
                } else {
                    127 - u64::from(b.leading_zeros())
                };
                out.push((l, Val::S(r)));
            }
        }
        SubgroupOp::Broadcast | SubgroupOp::BroadcastFirst => {
            let src = if op == SubgroupOp::BroadcastFirst {
                active[0]
            } else {
                let i = arg(active[0], 1).bits();
                is_active(i).ok_or_else(|| {
                    undefined(format!("broadcast from inactive invocation {i}"), active[0])
                })?
            };
            let v = arg(src, 0);
            for &l in active {
                out.push((l, v.clone()));
            }
        }
        SubgroupOp::Shuffle
        | SubgroupOp::ShuffleXor
        | SubgroupOp::ShuffleUp
        | SubgroupOp::ShuffleDown
        | SubgroupOp::QuadBroadcast
        | SubgroupOp::QuadSwap => {
            for &l in active {
                let me = id(l);
                let x = arg(l, 1).bits();
                let src = match op {
                    SubgroupOp::Shuffle => x,
                    SubgroupOp::ShuffleXor => me ^ x,
                    SubgroupOp::ShuffleUp => me.wrapping_sub(x),
                    SubgroupOp::ShuffleDown => me.wrapping_add(x),
                    SubgroupOp::QuadBroadcast => (me & !3) + (x & 3),
                    _ => me ^ (x + 1),
                };
                let s = is_active(src)
                    .ok_or_else(|| undefined(format!("a read of inactive invocation {src}"), l))?;
                out.push((l, arg(s, 0)));
            }
        }
        SubgroupOp::Arithmetic(rop, g) => {
            let cluster = if g == GroupOperation::ClusteredReduce {
                arg(active[0], 1).bits().max(1) as usize
            } else {
                sg
            };
            for &l in active {
                let me = id(l) as usize;
                let base = me / cluster * cluster;
                let members = active.iter().copied().filter(|&k| {
                    let i = id(k) as usize;
                    match g {
                        GroupOperation::Reduce => true,
                        GroupOperation::ClusteredReduce => i >= base && i < base + cluster,
                        GroupOperation::InclusiveScan => i <= me,
                        GroupOperation::ExclusiveScan => i < me,
                    }
                });
                let mut acc = identity(rop, scalar, &arg(l, 0));
                for k in members {
                    acc = combine(rop, scalar, &acc, &arg(k, 0)).map_err(|e| match e {
                        EvalErr::Undefined(w) | EvalErr::Unsupported(w) => undefined(w, l),
                    })?;
                }
                out.push((l, acc));
            }
        }
    }
    for (l, v) in out {
        lanes[l].vals[result.index()] = v;
    }
    Ok(())
}

/// The identity of a reduction, shaped like `like`.
fn identity(op: ReduceOp, s: Scalar, like: &Val) -> Val {
    let bits = bits_of(s);
    let m = mask(bits);
    let one = |b: u8| arith::from_f64(1.0, b);
    let e = match op {
        ReduceOp::IAdd
        | ReduceOp::Or
        | ReduceOp::Xor
        | ReduceOp::LogicalOr
        | ReduceOp::LogicalXor => 0,
        ReduceOp::UMax => 0,
        ReduceOp::FAdd => 0,
        ReduceOp::IMul => 1,
        ReduceOp::FMul => one(bits),
        ReduceOp::SMin => m >> 1,
        ReduceOp::UMin | ReduceOp::And => m,
        ReduceOp::LogicalAnd => 1,
        ReduceOp::FMin => arith::from_f64(f64::INFINITY, bits),
        ReduceOp::SMax => (m >> 1) + 1,
        ReduceOp::FMax => arith::from_f64(f64::NEG_INFINITY, bits),
    };
    match like {
        Val::C(c) => Val::C(vec![Val::S(e); c.len()]),
        Val::S(_) | Val::P(_) => Val::S(e),
    }
}

fn combine(op: ReduceOp, s: Scalar, a: &Val, b: &Val) -> Result<Val, EvalErr> {
    match (a, b) {
        (Val::C(x), Val::C(y)) => Ok(Val::C(
            x.iter()
                .zip(y)
                .map(|(p, q)| combine(op, s, p, q))
                .collect::<Result<_, _>>()?,
        )),
        _ => {
            let (x, y) = (a.bits(), b.bits());
            let bin = match op {
                ReduceOp::IAdd => BinaryOp::IAdd,
                ReduceOp::FAdd => BinaryOp::FAdd,
                ReduceOp::IMul => BinaryOp::IMul,
                ReduceOp::FMul => BinaryOp::FMul,
                ReduceOp::SMin => BinaryOp::SMin,
                ReduceOp::UMin => BinaryOp::UMin,
                ReduceOp::FMin => BinaryOp::FMin,
                ReduceOp::SMax => BinaryOp::SMax,
                ReduceOp::UMax => BinaryOp::UMax,
                ReduceOp::FMax => BinaryOp::FMax,
                ReduceOp::And => BinaryOp::And,
                ReduceOp::Or => BinaryOp::Or,
                ReduceOp::Xor => BinaryOp::Xor,
                ReduceOp::LogicalAnd => BinaryOp::LogicalAnd,
                ReduceOp::LogicalOr => BinaryOp::LogicalOr,
                ReduceOp::LogicalXor => return Ok(Val::S(u64::from((x != 0) != (y != 0)))),
            };
            arith::binary(bin, s, x, y).map(Val::S)
        }
    }
}
