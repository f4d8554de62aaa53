//! The control-bit hazard checker (`SimOptions::check_ctrl`): follows each
//! warp's issued instructions and their stall counts and scoreboards, and
//! stops the run at the first instruction the hardware could issue before
//! a register it reads is written, or that could overwrite a register a
//! variable-latency op may still be reading or writing. The timing rules
//! are the scheduler's own (`spvsass_isa::timing`, from each op's latency
//! class); docs/ISA.md, "Checking the control bits", states them.
//!
//! Time is kept per lane: a lane's clock is the sum of the stall counts of
//! the instructions issued for a group it was in (whether its guard held
//! or not). The hardware issues a lane's instructions in the order the
//! simulator runs them and waits at least each one's stall count before
//! issuing the next instruction of the warp, so the distance between two
//! instructions on one lane's clock is a lower bound of their distance in
//! cycles: exact for a converged warp and for a uniform branch, and
//! conservative across divergence, where the hardware may interleave the
//! paths differently (another path's instructions only add time). A wait
//! on a scoreboard clears it for the lanes of the group that waits (the
//! instructions after it on those lanes' paths).

use crate::error::{CtrlHazard, SimError};
use crate::program::Program;
use crate::warp::{WARP_LANES, lanes};
use spvsass_isa::isa::{Instr, Latency, Op, OperandKind};
use spvsass_isa::program::INSTR_BYTES;
use spvsass_isa::timing::{self, SLOTS};

const WARP: usize = WARP_LANES as usize;
/// Scoreboards the control bits name (0..5; 7 is none).
const SCOREBOARDS: usize = 6;
/// No instruction (a slot no one wrote or read late).
const NO_PC: u32 = u32::MAX;

/// What the checker knows of one register slot, per lane.
#[derive(Clone, Copy)]
struct SlotState {
    /// Lane clock from which the fixed-latency value is readable.
    ready: [u64; WARP],
    /// The pc of the last write.
    writer: [u32; WARP],
    /// The issue number of the last write if it is variable-latency (its
    /// scoreboard not yet known to be waited on), else 0.
    write_issue: [u64; WARP],
    /// The pc of the last op that reads the slot late (a store).
    reader: [u32; WARP],
    /// Its issue number, or 0.
    read_issue: [u64; WARP],
}

impl SlotState {
    const EMPTY: SlotState = SlotState {
        ready: [0; WARP],
        writer: [NO_PC; WARP],
        write_issue: [0; WARP],
        reader: [NO_PC; WARP],
        read_issue: [0; WARP],
    };
}

/// The checker's state for one warp.
pub(crate) struct CtrlCheck {
    clock: [u64; WARP],
    /// Instructions issued so far (issue numbers start at 1).
    issued: u64,
    /// Per lane and scoreboard, the issue number of the last instruction
    /// issued for the lane that waited on the scoreboard.
    waited: [[u64; SCOREBOARDS]; WARP],
    slots: Vec<SlotState>,
    /// A hazard found: by `issue` while it checks one instruction, or
    /// left by the converged loop for `Warp::steps` to report.
    pub(crate) hazard: Option<SimError>,
}

impl CtrlCheck {
    pub(crate) fn new() -> CtrlCheck {
        CtrlCheck {
            clock: [0; WARP],
            issued: 0,
            waited: [[0; SCOREBOARDS]; WARP],
            slots: vec![SlotState::EMPTY; SLOTS],
            hazard: None,
        }
    }

    /// Records that `ins` at `pc` issued for the lanes `active`, of which
    /// those of `exec` passed its guard; the first hazard is an error.
    pub(crate) fn issue(
        &mut self,
        program: &Program,
        ins: &Instr,
        pc: u32,
        active: u32,
        exec: u32,
    ) -> Result<(), SimError> {
        self.issued += 1;
        let now = self.issued;
        for sb in 0..SCOREBOARDS {
            if ins.ctrl.wait & 1 << sb != 0 {
                for l in lanes(active) {
                    self.waited[l][sb] = now;
                }
            }
        }
        if matches!(ins.op, Op::Bar(_)) && ins.ctrl.stall < timing::BAR_STALL {
            return Err(hazard(CtrlHazard::BarrierStall {
                pc,
                text: ins.to_string(),
                stall: ins.ctrl.stall,
                min: timing::BAR_STALL,
            }));
        }
        let late = timing::read_margin(&ins.op, program.arch());
        // The guard is read for every lane the instruction issues for.
        if let Some(s) = timing::guard_slot(ins) {
            self.check_read(program, ins, pc, active, s, late);
        }
        timing::op_slots(&ins.op, |s, kind| {
            if kind == OperandKind::Use {
                self.check_read(program, ins, pc, exec, s, late);
            }
        });
        timing::op_slots(&ins.op, |s, kind| {
            if kind == OperandKind::Def {
                self.check_write(program, ins, pc, exec, s);
            }
        });
        if let Some(hazard) = self.hazard.take() {
            return Err(hazard);
        }
        let latency = timing::latency(&ins.op, program.arch());
        timing::op_slots(&ins.op, |s, kind| {
            let slot = &mut self.slots[s];
            match (kind, latency) {
                (OperandKind::Def, Latency::Fixed(cycles)) => {
                    let ready = timing::fixed_ready(cycles, s);
                    for l in lanes(exec) {
                        slot.ready[l] = self.clock[l] + ready;
                        slot.writer[l] = pc;
                        slot.write_issue[l] = 0;
                    }
                }
                (OperandKind::Def, Latency::Variable { .. }) => {
                    for l in lanes(exec) {
                        slot.ready[l] = 0;
                        slot.writer[l] = pc;
                        slot.write_issue[l] = now;
                    }
                }
                (OperandKind::Use, Latency::Variable { reads_late: true }) => {
                    for l in lanes(exec) {
                        slot.reader[l] = pc;
                        slot.read_issue[l] = now;
                    }
                }
                (OperandKind::Use, Latency::Fixed(_) | Latency::Variable { reads_late: false }) => {
                }
            }
        });
        let stall = u64::from(ins.ctrl.stall);
        for l in lanes(active) {
            self.clock[l] += stall;
        }
        Ok(())
    }

    /// Whether the lane's last wait on `sb` came after issue number `issue`.
    fn waited_since(&self, lane: usize, sb: u8, issue: u64) -> bool {
        usize::from(sb) < SCOREBOARDS && self.waited[lane][usize::from(sb)] > issue
    }

    fn check_read(
        &mut self,
        program: &Program,
        ins: &Instr,
        pc: u32,
        mask: u32,
        s: usize,
        late: u64,
    ) {
        if self.hazard.is_some() {
            return;
        }
        let slot = &self.slots[s];
        let arch = program.arch();
        // A fixed-latency result crossing between the FP64 pipe and the
        // others takes longer (`timing::crossing`).
        let cross = |producer: &Instr| {
            timing::crossing(timing::in_fp64_pipe(&producer.op, arch), &ins.op, s, arch)
        };
        for l in lanes(mask) {
            let writer = slot.writer[l];
            if writer == NO_PC {
                continue;
            }
            let producer = instr_at(program, writer);
            if slot.write_issue[l] != 0 {
                let sb = producer.ctrl.write_sb;
                if !self.waited_since(l, sb, slot.write_issue[l]) {
                    self.hazard = Some(hazard(CtrlHazard::ReadBeforeScoreboard {
                        pc,
                        text: ins.to_string(),
                        reg: timing::slot_name(s),
                        lane: l as u32,
                        sb,
                        producer_pc: writer,
                        producer_text: producer.to_string(),
                    }));
                    return;
                }
            } else if slot.ready[l] + late + cross(producer) > self.clock[l] {
                self.hazard = Some(hazard(CtrlHazard::ReadBeforeLatency {
                    pc,
                    text: ins.to_string(),
                    reg: timing::slot_name(s),
                    lane: l as u32,
                    short: slot.ready[l] + late + cross(producer) - self.clock[l],
                    producer_pc: writer,
                    producer_text: producer.to_string(),
                }));
                return;
            }
        }
    }

    fn check_write(&mut self, program: &Program, ins: &Instr, pc: u32, mask: u32, s: usize) {
        if self.hazard.is_some() {
            return;
        }
        let slot = &self.slots[s];
        for l in lanes(mask) {
            if slot.read_issue[l] != 0 {
                let reader = instr_at(program, slot.reader[l]);
                let sb = reader.ctrl.read_sb;
                // A result written means the sources were read: a wait on
                // the reader's write scoreboard covers its late reads too.
                let issue = slot.read_issue[l];
                if !self.waited_since(l, sb, issue)
                    && !self.waited_since(l, reader.ctrl.write_sb, issue)
                {
                    self.hazard = Some(hazard(CtrlHazard::WriteBeforeRead {
                        pc,
                        text: ins.to_string(),
                        reg: timing::slot_name(s),
                        lane: l as u32,
                        sb,
                        reader_pc: slot.reader[l],
                        reader_text: reader.to_string(),
                    }));
                    return;
                }
            }
            if slot.write_issue[l] != 0 {
                let producer = instr_at(program, slot.writer[l]);
                let sb = producer.ctrl.write_sb;
                if !self.waited_since(l, sb, slot.write_issue[l]) {
                    self.hazard = Some(hazard(CtrlHazard::WriteBeforeWrite {
                        pc,
                        text: ins.to_string(),
                        reg: timing::slot_name(s),
                        lane: l as u32,
                        sb,
                        producer_pc: slot.writer[l],
                        producer_text: producer.to_string(),
                    }));
                    return;
                }
            }
        }
    }
}

/// The instruction at `pc`, which the run issued earlier.
fn instr_at(program: &Program, pc: u32) -> &Instr {
    &program.instrs()[(pc / INSTR_BYTES) as usize]
}

fn hazard(h: CtrlHazard) -> SimError {
    SimError::Ctrl(Box::new(h))
}
