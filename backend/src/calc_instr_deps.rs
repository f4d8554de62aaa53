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

use crate::isa::{Instr, Op, OperandKind, Target};
use crate::program::INSTR_BYTES;
use crate::target::Arch;
use spvsass_isa::timing::{self, SLOTS};
use std::collections::BTreeSet;

/// Scoreboards the hardware has (a 6-bit wait mask; docs/ISA.md, "Instruction word").
const SCOREBOARDS: usize = 6;
/// "No scoreboard" in the control bits.
const NONE: u8 = 7;
const MAX_STALL: u64 = 15;
/// The stall after a branch, EXIT or BSYNC.
const BRANCH_STALL: u8 = 5;

pub use crate::isa::Latency;

/// The latency table: each op's latency class is declared in the op table
/// (`isa/mod.rs`). Fixed latencies are approximate (published
/// microbenchmarks of Volta and Turing: about 4 cycles for FP32 and integer
/// ALU ops, 5 for IMAD); which ops are variable follows NAK's SM70 model.
pub fn latency(op: &Op, arch: Arch) -> Latency {
    timing::latency(op, arch)
}

/// Ops after which (or before which) nothing may be outstanding.
fn is_sync_point(op: &Op) -> bool {
    op.is_sync_point()
}

/// The register slots an instruction reads and writes, into `uses` and
/// `defs` (cleared first; reused from one instruction to the next).
fn operands(ins: &Instr, uses: &mut Vec<usize>, defs: &mut Vec<usize>) {
    uses.clear();
    defs.clear();
    uses.extend(timing::guard_slot(ins));
    timing::op_slots(&ins.op, |s, kind| match kind {
        OperandKind::Use => uses.push(s),
        OperandKind::Def => defs.push(s),
    });
}

/// A scoreboard set on a slot, with the scoreboard's release count at the
/// time: the mark lapses when the scoreboard is released, without a walk
/// over every slot at each release.
type Mark = Option<(u8, u32)>;

struct State {
    /// Cycle at which each slot's fixed-latency value is ready.
    ready: Vec<u64>,
    /// Whether that value comes from the double-precision pipe
    /// (`timing::crossing`).
    ready_fp64: Vec<bool>,
    /// The scoreboard a pending variable-latency write to the slot set.
    write_sb: Vec<Mark>,
    /// The scoreboards pending late reads of the slot set: every one must
    /// be waited on before the slot is written (a store on SB2 and a later
    /// one on SB1 both read it).
    read_sb: Vec<Vec<Mark>>,
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

/// Whether an instruction after `i` and before the next sync point (where
/// `i`'s write scoreboard is waited on, and a written result means its
/// sources were read) writes one of the slots `uses` that `i` reads late:
/// only then does `i` need a read scoreboard of its own.
fn overwritten_before_sync(
    instrs: &[Instr],
    i: usize,
    uses: &[usize],
    targets: &BTreeSet<u32>,
) -> bool {
    let mut defs = Vec::new();
    for (j, ins) in instrs.iter().enumerate().skip(i + 1) {
        if is_sync_point(&ins.op) || targets.contains(&(j as u32 * INSTR_BYTES)) {
            return false;
        }
        defs.clear();
        timing::op_slots(&ins.op, |s, kind| {
            if kind == OperandKind::Def {
                defs.push(s);
            }
        });
        if defs.iter().any(|d| uses.contains(d)) {
            return true;
        }
    }
    false
}

/// Computes the control bits of a laid-out program in place.
pub fn calc_instr_deps(instrs: &mut [Instr], arch: Arch) {
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
        ready: vec![0; SLOTS],
        ready_fp64: vec![false; SLOTS],
        write_sb: vec![None; SLOTS],
        read_sb: vec![Vec::new(); SLOTS],
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
            for &m in &st.read_sb[s] {
                wait |= st.pending(m).map_or(0, |b| 1 << b);
            }
        }
        for b in 0..SCOREBOARDS as u8 {
            if wait & 1 << b != 0 {
                st.release(b);
            }
        }

        // Fixed latencies: delay issue until the sources are ready (all
        // registers at a sync point; EXIT leaves nothing to read them).
        // A load or store reads its registers a cycle late
        // (`timing::read_margin`), at a sync point too: a loop head that
        // is a MATCH or BREV after an ALU op needs the extra cycle (the
        // simulator's control-bit checker found it).
        let late = timing::read_margin(&instrs[i].op, arch);
        let for_uses = uses
            .iter()
            .map(|&s| {
                let cross = timing::crossing(st.ready_fp64[s], &instrs[i].op, s, arch);
                st.ready[s] + (late + cross) * u64::from(st.ready[s] > 0)
            })
            .max()
            .unwrap_or(0);
        let needed = if sync && instrs[i].op != Op::Exit {
            st.ready.iter().copied().max().unwrap_or(0).max(for_uses)
        } else {
            for_uses
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
        let lat = latency(&instrs[i].op, arch);
        let overwritten = matches!(lat, Latency::Variable { reads_late: true })
            && overwritten_before_sync(instrs, i, &uses, &targets);
        let ctrl = &mut instrs[i].ctrl;
        // Branches, EXIT and BSYNC issue nothing for 5 cycles, as in
        // NVIDIA's code (docs/ISA.md, "Control bits").
        // A barrier holds the warp only some cycles after it issues
        // (`timing::BAR_STALL`); nvcc sets the yield bit on it too.
        let barrier = matches!(instrs[i].op, Op::Bar(_));
        ctrl.stall = if matches!(instrs[i].op, Op::Bra(_) | Op::Exit | Op::Bsync(_)) {
            BRANCH_STALL
        } else if barrier {
            timing::BAR_STALL
        } else {
            1
        };
        ctrl.yield_ = backward || barrier;
        ctrl.read_sb = NONE;
        ctrl.write_sb = NONE;
        match lat {
            Latency::Fixed(cycles) => {
                let fp64 = timing::in_fp64_pipe(&instrs[i].op, arch);
                for &s in &defs {
                    st.ready[s] = now + timing::fixed_ready(cycles, s);
                    st.ready_fp64[s] = fp64;
                }
            }
            Latency::Variable { reads_late } => {
                if reads_late && !uses.is_empty() && (defs.is_empty() || overwritten) {
                    let sb = st.allocate(&mut wait);
                    ctrl.read_sb = sb;
                    let mark = st.mark(sb);
                    for &s in &uses {
                        let mut marks = std::mem::take(&mut st.read_sb[s]);
                        marks.retain(|&m| st.pending(m).is_some());
                        marks.push(mark);
                        st.read_sb[s] = marks;
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
