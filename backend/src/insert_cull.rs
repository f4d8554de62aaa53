//! In-shader primitive culling's code (RADV's NGG culling, docs/HARDWARE.md
//! "In-shader culling", adapted to this hardware's mesh outputs), inserted
//! into the machine IR by a pass between the shader's two selections
//! (`compile::select`), with `BackendOptions::shader_cull`.
//!
//! Input ([`Culling`]): the machine function as the shader's first
//! selection ("part one") left it, the empty block its OpReturn branches
//! to, the plan `lower_cull.rs` chose, the output layouts selection placed
//! the outputs by, the target, and the special registers read at the top
//! of the entry block (shared with selection). Output: with deferred
//! attribute shading, where the shader's second selection ("part two")
//! starts ([`PartTwo`]); nothing for an epilogue.
//!
//! The code reads the root table's culling word (docs/ABI.md); 0 skips it.
//! Otherwise each lane takes the primitives `lane + 32k`, reads their
//! vertex indices from the output MAP region and their vertices' positions
//! from the output ATTR region, and tests them (`insert_cull/triangle.rs`).
//! Surviving primitives are compacted with a ballot and a prefix count
//! (VOTE, POPC of the lanes below), the vertices they reference get new,
//! dense indices (REDUX.OR of the reference bits, prefix counts), and
//! indices, per-primitive attributes, vertices and the primitive count are
//! rewritten in place (`insert_cull/compact.rs`). Each block of 32 elements
//! is read whole before any of it is written, and an element only moves
//! down, so no write clobbers an element not yet read.
//!
//! Deferred attribute shading (`crate::lower_cull::plan`): part one is the
//! shader without its per-vertex outputs other than position, and after
//! the culling the shader runs again (part two) for the surviving vertices
//! only: lane `L` plays the invocation whose vertex became vertex `L` (its
//! local invocation index is the `L`-th set bit of the reference mask),
//! writes only the per-vertex outputs other than position, and lanes
//! beyond the surviving vertex count exit at once. Dead-code elimination
//! then removes the attribute work from part one and the position work
//! from part two. With the culling switched off, part two runs for every
//! lane as itself.
//!
//! Numbering: the pass appends its blocks and virtual registers after
//! part one's, and part two's selection appends its own after the pass's:
//! the order in which selection created them when it emitted this code
//! itself, so the machine IR, and the registers allocated from it, are
//! what they were (ARCHITECTURE.md, "The culling pass inside selection").

mod compact;
mod triangle;

use crate::abi;
use crate::isa::{Instr, IntCmp, Op, OpBra, OpWarpSync, PredSrc, RegFile, SpecialReg, Src};
use crate::isbe_layout::AttrLayout;
use crate::lower_cull::CullPlan;
use crate::mir::{BlockId, MFunc, VReg};
use crate::special_regs::SpecialRegs;
use crate::target::Arch;
use rustc_hash::FxHashMap;

/// The pass's input.
pub(crate) struct Culling<'a> {
    /// The function as part one left it.
    pub func: &'a mut MFunc,
    /// The special registers read at the top of the entry block.
    pub special: &'a mut SpecialRegs,
    /// The empty block part one's OpReturn branches to.
    pub entry: BlockId,
    pub plan: CullPlan,
    /// Where the shader's per-vertex and per-primitive outputs are.
    pub vertex_layout: &'a AttrLayout,
    pub primitive_layout: &'a AttrLayout,
    pub arch: Arch,
}

/// Where part two starts: its selection branches from `from` (which has
/// no terminator yet) to its first block; `played` holds the local
/// invocation index each lane plays.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PartTwo {
    pub from: BlockId,
    pub played: VReg,
}

/// The culling code being built: the function, the block instructions go
/// to, and the constants moved into registers in each block.
struct Code<'a> {
    f: &'a mut MFunc,
    special: &'a mut SpecialRegs,
    cur: BlockId,
    const_regs: FxHashMap<(BlockId, u32), VReg>,
    arch: Arch,
    vertex_layout: &'a AttrLayout,
    primitive_layout: &'a AttrLayout,
}

/// Emits the culling code at `c.entry`; returns where part two starts
/// when the plan defers attributes.
pub(crate) fn insert_cull(c: Culling) -> Option<PartTwo> {
    let mut code = Code {
        f: c.func,
        special: c.special,
        cur: c.entry,
        const_regs: FxHashMap::default(),
        arch: c.arch,
        vertex_layout: c.vertex_layout,
        primitive_layout: c.primitive_layout,
    };
    // Every invocation reaches the one top-level OpReturn; the warp is
    // converged here.
    code.emit(Instr::new(Op::WarpSync(OpWarpSync {
        mask: Src::imm(u32::MAX),
    })));
    let control = code.root_word(abi::CULL_CONTROL);
    let off = code.c_isetp(IntCmp::Eq, control, Src::ZERO);
    let enabled = code.f.new_block();
    let disabled = code.f.new_block();
    code.branch(off, disabled, enabled);

    code.cur = enabled;
    let (count, mask) = code.cull_and_compact(control, c.plan);
    let lane = code.special_reg(SpecialReg::LaneId).src();
    match c.plan {
        CullPlan::Epilogue => {
            code.emit(Instr::new(Op::Exit));
            code.cur = disabled;
            code.emit(Instr::new(Op::Exit));
            None
        }
        CullPlan::Deferred => {
            let join = code.f.new_block();
            let played = code.f.new_vreg(RegFile::Gpr);
            code.f.blocks[join].params = vec![played];
            // Lanes past the surviving vertices have nothing to do.
            let src = code.nth_set_bit(mask, lane);
            let done = code.c_isetp(IntCmp::Ge, lane, count);
            let exit = code.f.new_block();
            let go = code.f.new_block();
            code.branch(done, exit, go);
            code.cur = exit;
            code.emit(Instr::new(Op::Exit));
            code.cur = go;
            code.jump_with(join, vec![reg_of(src)]);
            // Switched off: every lane runs part two as itself.
            code.cur = disabled;
            code.jump_with(join, vec![reg_of(lane)]);
            Some(PartTwo { from: join, played })
        }
    }
}

impl Code<'_> {
    fn emit(&mut self, i: Instr) {
        self.f.blocks[self.cur].instrs.push(i);
    }

    fn special_reg(&mut self, sr: SpecialReg) -> VReg {
        self.special.read(self.f, sr)
    }

    /// `@p BRA taken`, else on to `other`.
    fn branch(&mut self, p: PredSrc, taken: BlockId, other: BlockId) {
        let from = self.cur;
        self.emit(Instr::guarded(
            p,
            Op::Bra(OpBra {
                target: taken.target(),
            }),
        ));
        self.f.add_edge(from, taken, Vec::new());
        self.f.add_edge(from, other, Vec::new());
    }

    fn jump_with(&mut self, to: BlockId, args: Vec<VReg>) {
        let from = self.cur;
        self.emit(Instr::new(Op::Bra(OpBra {
            target: to.target(),
        })));
        self.f.add_edge(from, to, args);
    }
}

/// The virtual register of a register source.
fn reg_of(s: Src) -> VReg {
    match s.as_reg().and_then(VReg::from_reg) {
        Some(r) => r,
        None => unreachable!("culling values are virtual registers"),
    }
}
