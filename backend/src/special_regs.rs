//! The special registers a machine function reads once, at the top of its
//! entry block (`S2R`): instruction selection reads them where the shader
//! needs them and the culling pass (`insert_cull.rs`) where its code does,
//! and both share one read of each, since the entry block dominates every
//! other.

use crate::isa::{Instr, Op, OpS2R, RegFile, SpecialReg};
use crate::mir::{BlockId, MFunc, VReg};
use rustc_hash::FxHashMap;

/// The special registers read so far, and the register each is in.
#[derive(Default)]
pub(crate) struct SpecialRegs(FxHashMap<SpecialReg, VReg>);

impl SpecialRegs {
    /// The register holding `sr`: a fresh one, read by an `S2R` put first
    /// in `f`'s entry block, the first time `sr` is asked for.
    pub(crate) fn read(&mut self, f: &mut MFunc, sr: SpecialReg) -> VReg {
        if let Some(&r) = self.0.get(&sr) {
            return r;
        }
        let r = f.new_vreg(RegFile::Gpr);
        f.blocks[BlockId::ENTRY]
            .instrs
            .insert(0, Instr::new(Op::S2R(OpS2R { dst: r.dst(), sr })));
        self.0.insert(sr, r);
        r
    }

    /// The register holding `sr`, if it has been read.
    pub(crate) fn get(&self, sr: SpecialReg) -> Option<VReg> {
        self.0.get(&sr).copied()
    }
}
