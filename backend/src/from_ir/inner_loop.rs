//! A loop built inside the selection of one IR instruction (the float CAS
//! loop, the MATCH.ANY loop of emulated atomics, 64-bit division): three
//! machine blocks split off the current IR block (`split_off`, placed by
//! `atomics::place_split_blocks`), the head taking the loop's values as
//! block parameters.

use super::Isel;
use crate::isa::{Instr, Op, OpBra, RegFile};
use crate::mir::{BlockId, PReg, VReg};

/// The blocks of an inner loop: `head` holds the body, `latch` (a block of
/// its own, so no edge is critical) goes back to it, `done` follows.
pub(super) struct InnerLoop {
    head: BlockId,
    latch: BlockId,
    done: BlockId,
}

impl Isel<'_> {
    /// Branches to a new loop head that takes `init` as its parameters
    /// (GPRs) and continues there; returns the loop and those parameters.
    pub(super) fn open_inner_loop(&mut self, init: Vec<VReg>) -> (InnerLoop, Vec<VReg>) {
        let l = InnerLoop {
            head: self.f.new_block(),
            latch: self.f.new_block(),
            done: self.f.new_block(),
        };
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
    }
}
