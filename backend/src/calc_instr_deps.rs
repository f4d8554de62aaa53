//! Control bits: for every instruction of the laid-out program, the stall
//! count, yield, the read and write scoreboards it sets and the scoreboards
//! it waits on, from a latency table (docs/ISA.md, "Control bits").
//!
//! Fixed-latency ops (the ALU) have their results ready a fixed number of
//! cycles after issue: a consumer is delayed by raising the stall count of
//! the instruction before it. Variable-latency ops (memory, MUFU,
//! conversions, S2R, warp-wide ops, ISBE) set a write scoreboard that
//! consumers wait on; those that read their sources after issue (stores,
//! atomics, ISBEWR) also set a read scoreboard that a later writer of those
//! registers waits on. There are six scoreboards; when all are in use the
//! oldest is waited on and reused.
//!
//! Control flow is handled conservatively: a branch, a convergence or
//! workgroup barrier, WARPSYNC, EXIT and every branch target wait for all
//! outstanding results, so no dependency crosses a jump.

use crate::isa::{Instr, Op, OperandKind, Reg, RegFile, Target};
use crate::program::INSTR_BYTES;
use std::collections::BTreeSet;

/// Scoreboards the hardware has (a 6-bit wait mask; docs/ISA.md, "Instruction word").
const SCOREBOARDS: usize = 6;
/// "No scoreboard" in the control bits.
const NONE: u8 = 7;
const MAX_STALL: u64 = 15;
/// Cycles from a fixed-latency op's issue until a predicate it writes can
/// be read: NVIDIA's compiler stalls 13 cycles between an ISETP/FSETP and
/// an instruction guarded by, or branching on, the predicate it sets, on
/// SM86 and SM90 alike (docs/ISA.md, "Control bits").
const PRED_LATENCY: u64 = 13;
/// Cycles added to every fixed latency of the op table: on the H100/H200
/// (SM90) three of the fifteen compute run descriptions read stale
/// registers with the table's 4-cycle ALU latency and run correctly with
/// one more cycle (`spvsass reference --driver cuda`, docs/CUBIN.md), so the
/// margin stays until the latency of each op is measured.
const HW_MARGIN: u8 = 1;
/// The stall after a branch, EXIT or BSYNC.
const BRANCH_STALL: u8 = 5;
/// The first predicate slot (see [`slot`]).
const PRED_SLOT: usize = 256;

pub use crate::isa::Latency;

/// The latency table: each op's latency class is declared in the op table
/// (`isa/mod.rs`). Fixed latencies are approximate (published
/// microbenchmarks of Volta and Turing: about 4 cycles for FP32 and integer
/// ALU ops, 5 for IMAD); which ops are variable follows NAK's SM70 model.
pub fn latency(op: &Op) -> Latency {
    op.latency()
}

/// Ops after which (or before which) nothing may be outstanding.
fn is_sync_point(op: &Op) -> bool {
    op.is_sync_point()
}

/// A register slot: GPRs 0..255, predicates 256..263.
fn slot(r: &Reg, file: RegFile, i: u8) -> Option<usize> {
    let n = r.phys()?;
    match file {
        RegFile::Gpr if n != RegFile::Gpr.zero_index() => {
            Some(usize::from(n) + usize::from(i)).filter(|&s| s < 255)
        }
        RegFile::Pred if n != RegFile::Pred.zero_index() => Some(PRED_SLOT + usize::from(n)),
        _ => None,
    }
}

/// The register slots an instruction reads and writes, into `uses` and
/// `defs` (cleared first; reused from one instruction to the next).
fn operands(ins: &Instr, uses: &mut Vec<usize>, defs: &mut Vec<usize>) {
    uses.clear();
    defs.clear();
    let mut copy = *ins;
    copy.visit_regs(&mut |r, file, kind, width| {
        for i in 0..width {
            if let Some(s) = slot(r, file, i) {
                match kind {
                    OperandKind::Use => uses.push(s),
                    OperandKind::Def => defs.push(s),
                }
            }
        }
    });
}

/// A scoreboard set on a slot, with the scoreboard's release count at the
/// time: the mark lapses when the scoreboard is released, without a walk
/// over every slot at each release.
type Mark = Option<(u8, u32)>;

struct State {
    /// Cycle at which each slot's fixed-latency value is ready.
    ready: Vec<u64>,
    /// The scoreboard a pending variable-latency write to the slot set.
    write_sb: Vec<Mark>,
    /// The scoreboard a pending late read of the slot set.
    read_sb: Vec<Mark>,
    /// Issue order of the scoreboards in use (oldest first).
    busy: Vec<u8>,
    /// How many times each scoreboard has been released.
    releases: [u32; SCOREBOARDS],
}

impl State {
    fn release(&mut self, sb: u8) {
        self.busy.retain(|&b| b != sb);
        self.releases[usize::from(sb)] += 1;
    }

    /// The scoreboard `mark` names, if it has not been released since.
    fn pending(&self, mark: Mark) -> Option<u8> {
        mark.filter(|&(sb, n)| self.releases[usize::from(sb)] == n)
            .map(|(sb, _)| sb)
    }

    fn mark(&self, sb: u8) -> Mark {
        Some((sb, self.releases[usize::from(sb)]))
    }

    /// A free scoreboard; when none is, the oldest, which the instruction
    /// then waits on (added to `wait`).
    fn allocate(&mut self, wait: &mut u8) -> u8 {
        let free = (0..SCOREBOARDS as u8).find(|b| !self.busy.contains(b));
        let sb = free.unwrap_or_else(|| {
            let oldest = self.busy[0];
            *wait |= 1 << oldest;
            self.release(oldest);
            oldest
        });
        self.busy.push(sb);
        sb
    }
}

/// Computes the control bits of a laid-out program in place.
pub fn calc_instr_deps(instrs: &mut [Instr]) {
    let targets: BTreeSet<u32> = instrs
        .iter()
        .filter_map(|i| match i.op {
            Op::Bra(b) => Some(b.target),
            Op::Bssy(b) => Some(b.target),
            _ => None,
        })
        .filter_map(|t| match t {
            Target::Addr(a) => Some(a),
            Target::Block(_) => None,
        })
        .collect();
    let mut st = State {
        ready: vec![0; 264],
        write_sb: vec![None; 264],
        read_sb: vec![None; 264],
        busy: Vec::new(),
        releases: [0; SCOREBOARDS],
    };
    let mut now = 0u64;
    let (mut uses, mut defs) = (Vec::new(), Vec::new());
    for i in 0..instrs.len() {
        let pc = i as u32 * INSTR_BYTES;
        operands(&instrs[i], &mut uses, &mut defs);
        let sync = is_sync_point(&instrs[i].op) || targets.contains(&pc);

        // Scoreboards: RAW on uses, WAW and WAR on defs, all at a sync point.
        let mut wait = 0u8;
        if sync {
            wait = st.busy.iter().fold(0, |m, &b| m | 1 << b);
        }
        for &s in &uses {
            wait |= st.pending(st.write_sb[s]).map_or(0, |b| 1 << b);
        }
        for &s in &defs {
            wait |= st.pending(st.write_sb[s]).map_or(0, |b| 1 << b);
            wait |= st.pending(st.read_sb[s]).map_or(0, |b| 1 << b);
        }
        for b in 0..SCOREBOARDS as u8 {
            if wait & 1 << b != 0 {
                st.release(b);
            }
        }

        // Fixed latencies: delay issue until the sources are ready (all
        // registers at a sync point; EXIT leaves nothing to read them).
        let needed = if sync && instrs[i].op != Op::Exit {
            st.ready.iter().copied().max().unwrap_or(0)
        } else {
            // Variable-latency ops (memory, conversions, warp-wide ops)
            // read their registers a cycle later than the ALU does, so
            // NVIDIA's compiler stalls 5 cycles, not 4, between an ALU op
            // and a load or store of its result (docs/ISA.md, "Control
            // bits"); the same margin is kept here.
            let late = u64::from(matches!(latency(&instrs[i].op), Latency::Variable { .. }));
            uses.iter()
                .map(|&s| st.ready[s] + late * u64::from(st.ready[s] > 0))
                .max()
                .unwrap_or(0)
        };
        if needed > now && i > 0 {
            let prev = &mut instrs[i - 1].ctrl;
            let extra = (needed - now).min(MAX_STALL - u64::from(prev.stall));
            prev.stall += extra as u8;
            now += extra;
        }

        // Yield at loop back edges, so other warps get to run.
        let backward = matches!(
            instrs[i].op,
            Op::Bra(b) if matches!(b.target, Target::Addr(a) if a <= pc)
        );
        let lat = latency(&instrs[i].op);
        let ctrl = &mut instrs[i].ctrl;
        // Branches, EXIT and BSYNC issue nothing for 5 cycles, as in
        // NVIDIA's code (docs/ISA.md, "Control bits").
        ctrl.stall = if matches!(instrs[i].op, Op::Bra(_) | Op::Exit | Op::Bsync(_)) {
            BRANCH_STALL
        } else {
            1
        };
        ctrl.yield_ = backward;
        ctrl.read_sb = NONE;
        ctrl.write_sb = NONE;
        match lat {
            Latency::Fixed(cycles) => {
                let cycles = cycles + HW_MARGIN;
                for &s in &defs {
                    let lat = if s >= PRED_SLOT {
                        PRED_LATENCY.max(u64::from(cycles))
                    } else {
                        u64::from(cycles)
                    };
                    st.ready[s] = now + lat;
                }
            }
            Latency::Variable { reads_late } => {
                if reads_late && !uses.is_empty() {
                    let sb = st.allocate(&mut wait);
                    ctrl.read_sb = sb;
                    for &s in &uses {
                        st.read_sb[s] = st.mark(sb);
                    }
                }
                if !defs.is_empty() {
                    let sb = st.allocate(&mut wait);
                    ctrl.write_sb = sb;
                    for &s in &defs {
                        st.write_sb[s] = st.mark(sb);
                        st.ready[s] = 0;
                    }
                }
            }
        }
        ctrl.wait = wait;
        now += u64::from(ctrl.stall);
    }
}
