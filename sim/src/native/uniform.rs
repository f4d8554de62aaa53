//! Which registers and predicates hold the same value in every lane of a
//! warp, before each instruction (a divergence analysis, as a GPU
//! compiler makes to give values uniform registers; docs/ISA.md has none,
//! so the translator finds them itself). The full-warp copy computes an
//! op whose sources are all uniform once per segment instead of once per
//! chunk (`compile.rs`).
//!
//! The analysis is sound only where every lane of the warp runs the same
//! instructions: a value computed under a branch some lanes take is no
//! longer the same in all of them. So it runs assuming that, then checks
//! it: every control op (BRA, EXIT, BSYNC, WARPSYNC, BAR, BSSY) must have
//! a guard that is uniform where it stands. If one has not, nothing is
//! uniform (`facts` gives `None`). If all have, by induction over the
//! steps of any run every lane of a full warp is at the same pc with the
//! facts of that pc true (a group of fewer lanes never uses them).
//!
//! The facts: nothing is uniform at the start (a warp's registers are
//! whatever the launch put there), but RZ and PT always are. An op of the
//! ALU class (one `eval` per lane of its sources, `Op::alu`) makes its
//! results uniform when all its register and predicate sources are; under
//! a guard, only if the guard and the results' old values are uniform
//! too. Every other op's results are not uniform (S2R, loads, shuffles:
//! conservative, never wrong). Where paths meet, a register is uniform if
//! it is on every path (the facts only shrink from "all" to a fixpoint).

use super::emit::always;
use spvsass_isa::isa::{Instr, Op, OperandKind, PredSrc, Reg, RegFile, Target};
use spvsass_isa::program::INSTR_BYTES;

/// The registers and predicates known uniform at a point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Uniform {
    /// R0..R255 (RZ is 255), one bit each.
    gpr: [u64; 4],
    /// P0..P7 (PT is 7), one bit each.
    pred: u8,
}

impl Uniform {
    /// Everything (the start of the fixpoint at points not yet reached).
    const ALL: Uniform = Uniform {
        gpr: [u64::MAX; 4],
        pred: u8::MAX,
    };
    /// Only RZ and PT (the program's start).
    const ENTRY: Uniform = Uniform {
        gpr: [0, 0, 0, 1 << 63],
        pred: 1 << 7,
    };

    /// Whether general register `n` is uniform (RZ always is).
    pub fn gpr(&self, n: u8) -> bool {
        n == 255 || self.gpr[usize::from(n / 64)] >> (n % 64) & 1 == 1
    }

    /// Whether predicate `n` is uniform (PT always is).
    pub fn pred(&self, n: u8) -> bool {
        n >= 7 || self.pred >> n & 1 == 1
    }

    fn reg(&self, file: RegFile, n: u8) -> bool {
        match file {
            RegFile::Gpr => self.gpr(n),
            RegFile::Pred => self.pred(n),
        }
    }

    fn set(&mut self, file: RegFile, n: u8, uniform: bool) {
        let (word, bit) = match file {
            RegFile::Gpr if n != 255 => (&mut self.gpr[usize::from(n / 64)], n % 64),
            RegFile::Pred if n < 7 => {
                self.pred = self.pred & !(1 << n) | u8::from(uniform) << n;
                return;
            }
            // RZ and PT: writes are dropped, they stay uniform.
            RegFile::Gpr | RegFile::Pred => return,
        };
        *word = *word & !(1 << bit) | u64::from(uniform) << bit;
    }

    fn meet(&mut self, other: &Uniform) -> bool {
        let before = *self;
        for (a, b) in self.gpr.iter_mut().zip(other.gpr) {
            *a &= b;
        }
        self.pred &= other.pred;
        *self != before
    }

    /// Whether a guard holds in all lanes or in none.
    fn guard(&self, g: PredSrc) -> bool {
        match g.reg {
            None => true,
            Some(r) => r.phys().is_some_and(|n| self.pred(n)),
        }
    }
}

/// An op that makes lanes go different ways if its guard differs between
/// them: the checked assumption of the analysis.
fn controls(op: &Op) -> bool {
    op.is_terminator() || op.is_sync_point()
}

/// The facts before each instruction of `instrs`, or `None` if a control
/// op's guard is not uniform (or a branch target is not an address in the
/// program): then nothing is taken as uniform.
pub(crate) fn facts(instrs: &[Instr]) -> Option<Vec<Uniform>> {
    let n = instrs.len();
    let mut before = vec![Uniform::ALL; n];
    let mut queued = vec![false; n];
    let mut work = Vec::new();
    if n == 0 {
        return Some(before);
    }
    before[0] = Uniform::ENTRY;
    work.push(0);
    queued[0] = true;
    while let Some(i) = work.pop() {
        queued[i] = false;
        let ins = &instrs[i];
        let after = transfer(ins, before[i]);
        let mut next = [None, None];
        match &ins.op {
            Op::Bra(b) => {
                let Target::Addr(a) = b.target else {
                    return None;
                };
                let t = (a / INSTR_BYTES) as usize;
                if a % INSTR_BYTES != 0 || t >= n {
                    return None;
                }
                next[0] = Some(t);
                if !always(ins.guard) {
                    next[1] = Some(i + 1);
                }
            }
            Op::Exit if always(ins.guard) => {}
            _ => next[0] = Some(i + 1),
        }
        for s in next.into_iter().flatten().filter(|&s| s < n) {
            if before[s].meet(&after) && !queued[s] {
                queued[s] = true;
                work.push(s);
            }
        }
    }
    let checked = instrs
        .iter()
        .zip(&before)
        .all(|(ins, u)| !controls(&ins.op) || u.guard(ins.guard));
    checked.then_some(before)
}

/// The facts after `ins`, from those before it.
fn transfer(ins: &Instr, before: Uniform) -> Uniform {
    let mut op = ins.op;
    let lane_wise = op.alu(IsAlu).is_some();
    let mut sources = true;
    let mut defs = Vec::new();
    op.visit_regs(&mut |r: &mut Reg, file, kind, width| {
        let Some(n) = r.phys() else {
            sources = false;
            return;
        };
        for k in 0..width {
            let n = n.saturating_add(k);
            match kind {
                OperandKind::Use => sources &= before.reg(file, n),
                OperandKind::Def => defs.push((file, n)),
            }
        }
    });
    let unguarded = always(ins.guard);
    let mut after = before;
    for (file, n) in defs {
        let uniform =
            lane_wise && sources && (unguarded || (before.guard(ins.guard) && before.reg(file, n)));
        after.set(file, n, uniform);
    }
    after
}

/// `Op::alu`'s visitor that only asks whether the op is of the ALU class.
struct IsAlu;

impl spvsass_isa::isa::AluVisitor<'_> for IsAlu {
    type Out = ();
    fn visit<const N: usize, O: spvsass_isa::isa::Alu<N>>(self, _: &O) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use spvsass_isa::isa::{
        Dst, IntCmp, OpBra, OpIAdd3, OpISetP, OpMov, OpS2R, PredCombine, SpecialReg, Src,
    };

    fn r(n: u8) -> Src {
        Src::reg(Reg::Phys(n))
    }
    fn d(n: u8) -> Dst {
        Dst::Reg(Reg::Phys(n))
    }
    fn p(n: u8) -> PredSrc {
        PredSrc::reg(Reg::Phys(n))
    }
    fn mov(dst: u8, src: Src) -> Instr {
        Instr::new(Op::Mov(OpMov { dst: d(dst), src }))
    }
    fn add(dst: u8, a: Src, b: Src) -> Instr {
        Instr::new(Op::IAdd3(OpIAdd3 {
            dst: d(dst),
            srcs: [a, b, Src::ZERO],
        }))
    }
    fn setp(dst: u8, a: Src, b: Src) -> Instr {
        Instr::new(Op::ISetP(OpISetP {
            dst: d(dst),
            cmp: IntCmp::Ne,
            signed: false,
            combine: PredCombine::And,
            srcs: [a, b],
            accum: PredSrc::TRUE,
        }))
    }
    fn bra(guard: PredSrc, to: usize) -> Instr {
        Instr::guarded(
            guard,
            Op::Bra(OpBra {
                target: Target::Addr(to as u32 * INSTR_BYTES),
            }),
        )
    }
    fn tid(dst: u8) -> Instr {
        Instr::new(Op::S2R(OpS2R {
            dst: d(dst),
            sr: SpecialReg::TidX,
        }))
    }

    /// A counted loop: the counter and its predicate are uniform in the
    /// loop and after it; a lane's id and what is computed from it are
    /// not; a value computed from immediates is; nothing is at the start
    /// but RZ and PT.
    #[test]
    fn a_loop_counter_is_uniform_and_a_lane_id_is_not() {
        let instrs = [
            /* 0 */ tid(0),
            /* 1 */ mov(1, Src::imm(8)),
            /* 2 */ setp(0, r(1), Src::ZERO),
            /* 3 */ bra(PredSrc { neg: true, ..p(0) }, 7),
            /* 4 */ add(2, r(0), r(1)),
            /* 5 */ add(1, r(1), Src::imm(u32::MAX)),
            /* 6 */ bra(PredSrc::TRUE, 2),
            /* 7 */ Instr::new(Op::Exit),
        ];
        let f = facts(&instrs).expect("every branch is uniform");
        assert!(!f[0].gpr(0) && !f[0].gpr(1) && !f[0].pred(0));
        assert!(f[0].gpr(255) && f[0].pred(7));
        for at in [2, 3, 4, 5, 6, 7] {
            assert!(f[at].gpr(1), "R1 before {at}");
            assert!(!f[at].gpr(0), "R0 before {at}");
        }
        assert!(f[4].pred(0) && f[7].pred(0));
        // R2 = R0 + R1: R0 differs between lanes.
        assert!(!f[5].gpr(2) && !f[7].gpr(2));
    }

    /// A branch on a predicate that differs between lanes: nothing is
    /// taken as uniform.
    #[test]
    fn a_branch_that_may_split_the_warp_gives_no_facts() {
        let instrs = [
            tid(0),
            mov(1, Src::imm(3)),
            setp(0, r(0), Src::imm(5)),
            bra(p(0), 5),
            mov(1, Src::imm(4)),
            Instr::new(Op::Exit),
        ];
        assert_eq!(facts(&instrs), None);
        // The same on a uniform predicate: R1 is 3 or 4, the same in
        // every lane either way.
        let mut uniform = instrs;
        uniform[2] = setp(0, r(1), Src::imm(5));
        let f = facts(&uniform).expect("uniform branch");
        assert!(f[5].gpr(1));
        // A guarded EXIT on a lane's value, too, gives none.
        let mut exit = instrs;
        exit[3] = Instr::guarded(p(0), Op::Exit);
        assert_eq!(facts(&exit), None);
    }

    /// Where paths meet, a register is uniform only if it is on both; a
    /// guarded write keeps it uniform only under a uniform guard.
    #[test]
    fn paths_meet_and_guards_keep_only_what_both_sides_know() {
        let instrs = [
            /* 0 */ tid(0),
            /* 1 */ mov(1, Src::imm(3)),
            /* 2 */ mov(2, Src::imm(3)),
            /* 3 */ setp(1, r(1), Src::imm(5)),
            /* 4 */ bra(p(1), 6),
            /* 5 */ mov(1, r(0)),
            /* 6 */ setp(2, r(0), Src::imm(9)),
            /* 7 */
            Instr::guarded(
                p(2),
                Op::Mov(OpMov {
                    dst: d(2),
                    src: Src::imm(4),
                }),
            ),
            /* 8 */
            Instr::guarded(
                p(1),
                Op::Mov(OpMov {
                    dst: d(3),
                    src: Src::imm(4),
                }),
            ),
            /* 9 */ Instr::new(Op::Exit),
        ];
        let f = facts(&instrs).expect("the branch is uniform");
        // R1 is a lane's id on one path.
        assert!(f[5].gpr(1) && !f[6].gpr(1));
        // Under P2 (a lane's value), R2 is 4 in some lanes, 3 in others.
        assert!(f[7].gpr(2) && !f[8].gpr(2));
        // R3 was never written: not uniform before, nor after a write
        // under a uniform guard (its other lanes keep their old values).
        assert!(!f[9].gpr(3));
        let mut known = instrs;
        known[0] = mov(3, Src::imm(1));
        known[5] = mov(1, Src::imm(7));
        known[6] = setp(2, r(1), Src::imm(9));
        let f = facts(&known).expect("uniform");
        assert!(f[6].gpr(1) && f[9].gpr(2) && f[9].gpr(3));
    }
}
