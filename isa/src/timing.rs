//! Issue timing: when a result may be read, derived from each op's latency
//! class (`Op::latency`, declared in the op table), and which register
//! slots an instruction reads and writes. The compiler's scheduler
//! (backend `calc_instr_deps`) computes control bits from these rules and
//! the simulator's hazard checker (`SimOptions::check_ctrl`) checks
//! programs against the same rules (docs/ISA.md, "Control bits").

use crate::isa::{Instr, Latency, Op, OperandKind, Reg, RegFile};
use crate::target::Arch;

/// Register slots: GPRs R0..R254 are slots 0..254, predicates P0..P6 are
/// slots `PRED_SLOT..PRED_SLOT + 7`. RZ and PT have none.
pub const SLOTS: usize = PRED_SLOT + RegFile::Pred.zero_index() as usize;
/// The first predicate slot.
pub const PRED_SLOT: usize = 256;

/// Cycles from a fixed-latency op's issue until a predicate it writes can
/// be read: NVIDIA's compiler stalls 13 cycles between an ISETP/FSETP and
/// an instruction guarded by, or branching on, the predicate it sets, on
/// SM86 and SM90 alike (docs/ISA.md, "Control bits").
pub const PRED_LATENCY: u64 = 13;

/// The stall after BAR.SYNC: the warp stops at a barrier only some cycles
/// after the BAR issues, and on the H200 an LDS issued one cycle after it
/// read shared memory before another warp's earlier store
/// (d_switch_barrier; 6 and 15 cycles were enough, 1 was not, yield or
/// not: docs/ISA.md, "Control bits"). nvcc's barriers stall 1 to 6 and
/// set the yield bit.
pub const BAR_STALL: u8 = 6;

/// Cycles added to every fixed latency of the op table: on the H100/H200
/// (SM90) three of the fifteen compute run descriptions read stale
/// registers with the table's 4-cycle ALU latency and run correctly with
/// one more cycle (docs/CUBIN.md), so the margin stays until the latency of
/// each op is measured.
pub const HW_MARGIN: u8 = 1;

/// Cycles after its issue at which a result that a fixed-latency op of
/// `cycles` writes into `slot` can be read.
pub fn fixed_ready(cycles: u8, slot: usize) -> u64 {
    let cycles = u64::from(cycles + HW_MARGIN);
    if slot >= PRED_SLOT {
        PRED_LATENCY.max(cycles)
    } else {
        cycles
    }
}

/// Cycles from the issue of DADD, DMUL or DFMA until its result can be
/// read where double precision has a fixed latency (SM90: ptxas issues a
/// dependent DFMA 8 cycles after a DMUL or DFMA, tests/data/real_sass/
/// ops64_sm90.nvdisasm.txt).
pub const FP64_LATENCY: u8 = 8;
/// The same for the predicate a DSETP writes (ptxas waits 14 cycles).
pub const DSETP_LATENCY: u8 = 14;

/// `op`'s latency class on `arch`: the op table's (`Op::latency`), except
/// where an architecture runs the op in another pipe
/// ([`Arch::has_fixed_latency_fp64`]).
pub fn latency(op: &Op, arch: Arch) -> Latency {
    match op {
        Op::DArith(_) if arch.has_fixed_latency_fp64() => Latency::Fixed(FP64_LATENCY),
        Op::DSetP(_) if arch.has_fixed_latency_fp64() => Latency::Fixed(DSETP_LATENCY),
        _ => op.latency(),
    }
}

/// Whether `op` runs in the fixed-latency double-precision pipe of
/// [`Arch::has_fixed_latency_fp64`] (SM90).
pub fn in_fp64_pipe(op: &Op, arch: Arch) -> bool {
    arch.has_fixed_latency_fp64() && matches!(op, Op::DArith(_) | Op::DSetP(_))
}

/// Extra cycles a fixed-latency result takes to cross between the
/// double-precision pipe and the other fixed-latency ops on SM90: ptxas
/// reads an ALU result in DADD/DMUL/DFMA 6 cycles after its issue (4
/// between ALU ops) and a DADD/DMUL/DFMA result in an ALU op 10 cycles
/// after (8 between double-precision ops), and the H100 read stale
/// registers with one cycle less (docs/ISA.md, "Control bits").
/// Variable-latency consumers read late already (`read_margin`).
pub const PIPE_CROSSING: u64 = 1;

/// The crossing cycles between a fixed-latency `producer` and a
/// `consumer` of its result in register `slot` ([`PIPE_CROSSING`] or 0).
/// Predicates have their own latency (a DSETP's is already 14 cycles) and
/// no crossing.
pub fn crossing(producer_fp64: bool, consumer: &Op, slot: usize, arch: Arch) -> u64 {
    let fixed = matches!(latency(consumer, arch), Latency::Fixed(_));
    let crosses = slot < PRED_SLOT && fixed && producer_fp64 != in_fp64_pipe(consumer, arch);
    u64::from(crosses) * PIPE_CROSSING
}

/// Extra cycles a consumer `op` after a fixed-latency result is
/// ready: variable-latency ops (memory, conversions, warp-wide ops) read
/// their registers a cycle later than the ALU does, and NVIDIA's compiler
/// stalls 5 cycles, not 4, between an ALU op and a load or store of its
/// result (docs/ISA.md, "Control bits"); the same margin is kept.
pub fn read_margin(op: &Op, arch: Arch) -> u64 {
    u64::from(matches!(latency(op, arch), Latency::Variable { .. }))
}

/// The slot of register `r` of `file`, `i` registers into its group.
pub fn slot(r: &Reg, file: RegFile, i: u8) -> Option<usize> {
    let n = r.phys()?;
    match file {
        RegFile::Gpr if n != RegFile::Gpr.zero_index() => {
            Some(usize::from(n) + usize::from(i)).filter(|&s| s < 255)
        }
        RegFile::Pred if n != RegFile::Pred.zero_index() => Some(PRED_SLOT + usize::from(n)),
        _ => None,
    }
}

/// Calls `f` with each register slot `op` reads or writes (not the
/// guard: see [`guard_slot`]).
pub fn op_slots(op: &Op, mut f: impl FnMut(usize, OperandKind)) {
    let mut copy = *op;
    copy.visit_regs(&mut |r: &mut Reg, file, kind, width| {
        for i in 0..width {
            if let Some(s) = slot(r, file, i) {
                f(s, kind);
            }
        }
    });
}

/// The slot of the predicate guarding `ins`, if any.
pub fn guard_slot(ins: &Instr) -> Option<usize> {
    ins.guard.reg.and_then(|r| slot(&r, RegFile::Pred, 0))
}

/// A slot's name in a listing: `R12`, `P3`.
pub fn slot_name(slot: usize) -> String {
    if slot >= PRED_SLOT {
        format!("P{}", slot - PRED_SLOT)
    } else {
        format!("R{slot}")
    }
}
