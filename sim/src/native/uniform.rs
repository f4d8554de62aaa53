//! Which registers and predicates hold the same value in every lane of a
//! warp, before each instruction (a divergence analysis, as a GPU
//! compiler makes to give values uniform registers; docs/ISA.md has none,
//! so the translator finds them itself). The full-warp copy computes an
//! op whose sources are all uniform once per segment instead of once per
//! chunk (`compile.rs`).
//!
//! What it must hold to: when all 32 lanes of a warp are at one pc (the
//! only time the full-warp copy runs), every fact of that pc is true in
//! all of them. Lanes go apart at a branch whose guard differs between
//! them, and the scheduler runs the lanes at the lowest pc first
//! (ARCHITECTURE.md, "Native tier"). So for such a branch the lanes at the
//! higher of its two pcs (the meeting point) wait there while the others
//! run the region between, provided that every instruction of the region
//! lies below the meeting point and none may make a lane wait for others
//! (BSYNC, BAR, WARPSYNC: the lanes at the meeting point would run ahead
//! of the waiting ones). When they meet, only what the region wrote may
//! differ between them: those registers are not uniform at the meeting
//! point (`region`, `facts`). Within the region, all 32 lanes can be
//! together only if none took the branch, and then the ordinary facts
//! hold. Lanes that exit never run again, so an EXIT under any guard
//! leaves the others together. Where a branch's region does not meet
//! those conditions, or another control op (BSYNC, BAR, WARPSYNC) has a
//! guard that is not uniform, nothing is taken as uniform in the whole
//! program (`facts` gives `None`): a region with a convergence barrier
//! inside (an if/else inside a loop whose lanes leave it at different
//! iterations) is one. By induction over the steps of any run, the facts
//! hold as said.
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

    /// No register (a set of registers, as `defs` and kills use it; RZ
    /// and PT are never in it).
    const NONE: Uniform = Uniform {
        gpr: [0; 4],
        pred: 0,
    };

    /// Adds `other`'s registers (as sets).
    fn join(&mut self, other: &Uniform) {
        for (a, b) in self.gpr.iter_mut().zip(other.gpr) {
            *a |= b;
        }
        self.pred |= other.pred;
    }

    /// Takes `other`'s registers out (as sets; RZ and PT stay).
    fn remove(&mut self, other: &Uniform) {
        for (a, b) in self.gpr.iter_mut().zip(other.gpr) {
            *a &= !b;
        }
        self.pred &= !other.pred;
        self.gpr[3] |= 1 << 63;
        self.pred |= 1 << 7;
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

/// An op that makes lanes go different ways, or wait for each other, if
/// its guard differs between them.
fn controls(op: &Op) -> bool {
    op.is_terminator() || op.is_sync_point()
}

/// An op a lane may wait at for others (`region`).
fn blocks(op: &Op) -> bool {
    op.is_sync_point() && !matches!(op, Op::Bra(_) | Op::Bssy(_) | Op::Exit)
}

/// The facts before each instruction of `instrs`, or `None` where lanes
/// may go apart in a way the analysis does not follow (a control op other
/// than BRA or EXIT under a guard that is not uniform, a branch whose
/// lanes may not meet again as `region` requires, a branch target that is
/// not an address in the program): then nothing is taken as uniform.
///
/// A branch under a guard that is not uniform sends some lanes to its
/// target and the others to the next instruction. The lanes at the higher
/// of the two pcs (the meeting point) wait there, since the scheduler runs
/// the lanes at the lowest pc first, while the others run the region
/// between, until they reach the meeting point too (or exit). The
/// registers written in the region then differ between lanes that ran it
/// and lanes that did not: the meeting point takes them as not uniform
/// (`kills`). Which branches are not uniform depends on the facts, and
/// the facts on the kills: the two are computed in turn until they agree
/// (each round only adds kills, so it ends).
pub(crate) fn facts(instrs: &[Instr]) -> Option<Vec<Uniform>> {
    let n = instrs.len();
    let succ = instrs
        .iter()
        .enumerate()
        .map(|(i, ins)| successors(i, ins, n))
        .collect::<Option<Vec<_>>>()?;
    let mut kills = vec![Uniform::NONE; n];
    loop {
        let before = flow(instrs, &succ, &kills);
        let mut found = vec![Uniform::NONE; n];
        for (i, (ins, u)) in instrs.iter().zip(&before).enumerate() {
            if !controls(&ins.op) || u.guard(ins.guard) {
                continue;
            }
            match ins.op {
                // The lanes that leave never run again; the others stay
                // together.
                Op::Exit => {}
                Op::Bra(_) => {
                    let (meet, written) = region(instrs, &succ, i)?;
                    found[meet].join(&written);
                }
                _ => return None,
            }
        }
        if found == kills {
            return Some(before);
        }
        kills = found;
    }
}

/// The instructions that may run after instruction `i`; `None` for a
/// branch whose target is not an instruction of the program.
fn successors(i: usize, ins: &Instr, n: usize) -> Option<[Option<usize>; 2]> {
    let next = (i + 1 < n).then_some(i + 1);
    Some(match &ins.op {
        Op::Bra(b) => {
            let Target::Addr(a) = b.target else {
                return None;
            };
            let t = (a / INSTR_BYTES) as usize;
            if a % INSTR_BYTES != 0 || t >= n {
                return None;
            }
            [Some(t), (!always(ins.guard)).then_some(next).flatten()]
        }
        Op::Exit if always(ins.guard) => [None, None],
        _ => [next, None],
    })
}

/// The branch at `b` whose lanes may go both ways: its meeting point (the
/// higher of its target and the next instruction) and the registers the
/// region before it may write (every instruction reachable from the lower
/// one without passing the meeting point). `None` unless every
/// instruction of the region lies below the meeting point (so the lanes
/// waiting there run only once all the others have come) and none of
/// them may make a lane wait for others (BSYNC, BAR, WARPSYNC: the
/// waiting lanes would let those at the meeting point run ahead).
fn region(instrs: &[Instr], succ: &[[Option<usize>; 2]], b: usize) -> Option<(usize, Uniform)> {
    let target = succ[b][0]?;
    let (low, meet) = (target.min(b + 1), target.max(b + 1));
    let mut written = Uniform::NONE;
    if low == meet {
        return Some((meet, written));
    }
    let mut seen = vec![false; instrs.len()];
    let mut work = vec![low];
    while let Some(i) = work.pop() {
        if i == meet || std::mem::replace(&mut seen[i], true) {
            continue;
        }
        if i > meet || blocks(&instrs[i].op) {
            return None;
        }
        written.join(&defs(&instrs[i]));
        work.extend(succ[i].into_iter().flatten());
    }
    Some((meet, written))
}

/// The registers and predicates `ins` may write, as a set.
fn defs(ins: &Instr) -> Uniform {
    let mut set = Uniform::NONE;
    let mut op = ins.op;
    op.visit_regs(&mut |r: &mut Reg, file, kind, width| {
        if let (Some(n), OperandKind::Def) = (r.phys(), kind) {
            for k in 0..width {
                set.set(file, n.saturating_add(k), true);
            }
        }
    });
    set
}

/// The forward dataflow of the facts, from nothing uniform at the start;
/// `kills[i]`: the registers not uniform on entry to instruction `i`
/// whatever comes in.
fn flow(instrs: &[Instr], succ: &[[Option<usize>; 2]], kills: &[Uniform]) -> Vec<Uniform> {
    let n = instrs.len();
    let mut before = vec![Uniform::ALL; n];
    if n == 0 {
        return before;
    }
    let mut queued = vec![false; n];
    before[0] = Uniform::ENTRY;
    before[0].remove(&kills[0]);
    let mut work = vec![0];
    queued[0] = true;
    while let Some(i) = work.pop() {
        queued[i] = false;
        let after = transfer(&instrs[i], before[i]);
        for s in succ[i].into_iter().flatten() {
            let mut incoming = after;
            incoming.remove(&kills[s]);
            if before[s].meet(&incoming) && !queued[s] {
                queued[s] = true;
                work.push(s);
            }
        }
    }
    before
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

    /// A branch on a predicate that differs between lanes: where its lanes
    /// meet again, what the region between wrote is not uniform, the rest
    /// is; lanes that exit leave the others together.
    #[test]
    fn lanes_that_went_apart_meet_again_with_what_the_region_wrote_not_uniform() {
        let instrs = [
            /* 0 */ tid(0),
            /* 1 */ mov(1, Src::imm(3)),
            /* 2 */ setp(0, r(0), Src::imm(5)),
            /* 3 */ bra(p(0), 5),
            /* 4 */ mov(1, Src::imm(4)),
            /* 5 */ add(2, r(1), Src::imm(1)),
            /* 6 */ mov(3, Src::imm(6)),
            /* 7 */ Instr::new(Op::Exit),
        ];
        let f = facts(&instrs).expect("the lanes meet at 5");
        // Inside the region, R1 is 3 in every lane that runs it.
        assert!(f[4].gpr(1));
        // At 5, R1 is 3 in some lanes and 4 in others, and so is R2 after.
        assert!(!f[5].gpr(1) && !f[6].gpr(2));
        assert!(f[7].gpr(3));
        // The same on a uniform predicate: R1 is 3 or 4, the same in
        // every lane either way.
        let mut uniform = instrs;
        uniform[2] = setp(0, r(1), Src::imm(5));
        let f = facts(&uniform).expect("uniform branch");
        assert!(f[5].gpr(1) && f[6].gpr(2));
        // `if (i >= n) return;`: the lanes that go on stay together.
        let early = [
            tid(0),
            setp(0, r(0), Src::imm(5)),
            bra(p(0), 4),
            Instr::new(Op::Exit),
            mov(1, Src::imm(8)),
            add(2, r(1), Src::imm(1)),
            Instr::new(Op::Exit),
        ];
        let f = facts(&early).expect("the lanes meet at 4");
        assert!(f[5].gpr(1) && f[6].gpr(2));
        // A guarded EXIT on a lane's value, too.
        let mut exit = early;
        exit[2] = Instr::guarded(PredSrc { neg: true, ..p(0) }, Op::Exit);
        exit[3] = Instr::new(Op::Nop);
        let f = facts(&exit).expect("the others stay together");
        assert!(f[5].gpr(1) && f[6].gpr(2));
    }

    /// A loop whose lanes leave it at different iterations: its counter
    /// is uniform inside (while all lanes are in it, they are at one
    /// iteration) but not after it.
    #[test]
    fn a_loop_left_at_different_iterations_is_not_uniform_after_it() {
        let instrs = [
            /* 0 */ tid(0),
            /* 1 */ mov(1, Src::ZERO),
            /* 2 */ setp(0, r(1), r(0)),
            /* 3 */ bra(PredSrc { neg: true, ..p(0) }, 6),
            /* 4 */ add(1, r(1), Src::imm(1)),
            /* 5 */ bra(PredSrc::TRUE, 2),
            /* 6 */ add(2, r(1), Src::imm(1)),
            /* 7 */ Instr::new(Op::Exit),
        ];
        let f = facts(&instrs).expect("the lanes meet at 6");
        assert!(f[4].gpr(1) && f[3].gpr(1));
        assert!(!f[6].gpr(1) && !f[7].gpr(2));
    }

    /// Regions the lanes may not come out of together give no facts: one
    /// that jumps past the meeting point, one where a lane may wait for
    /// others (BSYNC), and a guarded BSYNC on a lane's value.
    #[test]
    fn lanes_that_may_not_meet_again_give_no_facts() {
        let past = [
            /* 0 */ tid(0),
            /* 1 */ setp(0, r(0), Src::imm(5)),
            /* 2 */ bra(p(0), 4),
            /* 3 */ bra(PredSrc::TRUE, 6),
            /* 4 */ mov(1, Src::imm(4)),
            /* 5 */ mov(2, r(1)),
            /* 6 */ Instr::new(Op::Exit),
        ];
        assert_eq!(facts(&past), None);
        let mut waits = past;
        waits[3] = Instr::new(Op::Bsync(spvsass_isa::isa::OpBsync { bar: 0 }));
        assert_eq!(facts(&waits), None);
        let mut guarded = past;
        guarded[2] = Instr::guarded(p(0), Op::Bsync(spvsass_isa::isa::OpBsync { bar: 0 }));
        guarded[3] = Instr::new(Op::Nop);
        assert_eq!(facts(&guarded), None);
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
