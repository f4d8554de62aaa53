//! A loop built inside the selection of one IR instruction (the float CAS
//! loop, the MATCH.ANY loop of emulated atomics, 64-bit division): three
//! machine blocks split off the current IR block (`split_off`, placed by
//! `atomics::place_split_blocks`), the head taking the loop's values as
//! block parameters.
//!
//! A loop that lanes leave at different iterations (`Exit::Divergent`: the
//! CAS loop, where each lane leaves once its own swap succeeded) is
//! wrapped in a convergence barrier, BSSY before it and BSYNC first in the
//! block after it, so the warp goes on converged: a workgroup barrier
//! later in the shader must be reached by the whole warp at once
//! (docs/HARDWARE.md, "Barriers"). Its barrier is the one above every
//! barrier the structured plan numbers (`Barriers::inner`): an inner loop
//! lies inside one IR instruction, so no construct opens inside it.

use super::Isel;
use crate::isa::{Instr, Op, OpBra, OpBssy, OpBsync, RegFile};
use crate::mir::{BlockId, PReg, VReg};

/// The blocks of an inner loop: `head` holds the body, `latch` (a block of
/// its own, so no edge is critical) goes back to it, `done` follows.
pub(super) struct InnerLoop {
    head: BlockId,
    latch: BlockId,
    done: BlockId,
    /// The convergence barrier around a divergent loop.
    bar: Option<u8>,
}

/// How lanes leave an inner loop.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Exit {
    /// All together, after the same number of rounds (a count the warp
    /// shares).
    Uniform,
    /// Each lane when its own condition holds.
    Divergent,
}

impl Isel<'_> {
    /// Branches to a new loop head that takes `init` as its parameters
    /// (GPRs) and continues there; returns the loop and those parameters.
    pub(super) fn open_inner_loop(
        &mut self,
        init: Vec<VReg>,
        exit: Exit,
    ) -> (InnerLoop, Vec<VReg>) {
        let l = InnerLoop {
            head: self.f.new_block(),
            latch: self.f.new_block(),
            done: self.f.new_block(),
            bar: (exit == Exit::Divergent).then_some(self.barriers.inner),
        };
        if let Some(bar) = l.bar {
            self.emit(Instr::new(Op::Bssy(OpBssy {
                bar,
                target: l.done.target(),
            })));
        }
        self.split_off
            .entry(self.cur)
            .or_default()
            .extend([l.head, l.latch, l.done]);
        self.emit(Instr::new(Op::Bra(OpBra {
            target: l.head.target(),
        })));
        let params: Vec<VReg> = init.iter().map(|_| self.f.new_vreg(RegFile::Gpr)).collect();
        self.f.add_edge(self.cur, l.head, init);
        self.cur = l.head;
        self.f.blocks[l.head].params = params.clone();
        (l, params)
    }

    /// Ends the body: lanes where `leave` holds go to the block after the
    /// loop, the others round again through the latch with `back` as the
    /// head's parameters. Continues after the loop.
    pub(super) fn close_inner_loop(&mut self, l: InnerLoop, leave: PReg, back: Vec<VReg>) {
        self.emit(Instr::guarded(
            leave.pred(),
            Op::Bra(OpBra {
                target: l.done.target(),
            }),
        ));
        self.f.add_edge(l.head, l.done, Vec::new());
        self.f.add_edge(l.head, l.latch, Vec::new());
        self.cur = l.latch;
        self.emit(Instr::new(Op::Bra(OpBra {
            target: l.head.target(),
        })));
        self.f.add_edge(l.latch, l.head, back);
        self.cur = l.done;
        if let Some(bar) = l.bar {
            self.emit(Instr::new(Op::Bsync(OpBsync { bar })));
        }
    }
}
