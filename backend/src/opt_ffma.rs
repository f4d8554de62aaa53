//! Float multiply-add formation: `t = a * b` (FMUL) read only by
//! `d = t + c` (FADD) in the same block becomes `d = fma(a, b, c)`.
//!
//! FFMA rounds once where FMUL then FADD round twice, so the result can
//! differ in the last bit (or more, near overflow): this is contraction,
//! which SPIR-V allows unless an operation is decorated NoContraction, and
//! which NVIDIA's compilers (and Mesa NAK) apply by default. The frontend
//! does not keep NoContraction yet, and the simulator is checked bit for
//! bit against Vulkan drivers that do not contract, so the pass only runs
//! when a library caller sets `BackendOptions::fp_contract` (the command
//! line has no switch for it).
//! Both instructions must use the same rounding mode and the same FTZ.

use crate::isa::{FloatArith, Instr, Op, OpFArith, SrcRef};
use crate::mir::{BlockId, MFunc, VReg};
use crate::mir_info::{Info, encodable};
use cranelift_entity::EntityRef;

/// Runs the pass.
pub fn form_ffma(f: &mut MFunc) {
    let info = Info::new(f);
    for b in (0..f.blocks.len()).map(BlockId::new) {
        for i in 0..f.blocks[b].instrs.len() {
            let ins = f.blocks[b].instrs[i];
            let Op::FArith(add) = ins.op else { continue };
            if add.kind != FloatArith::Add {
                continue;
            }
            for slot in 0..2 {
                let s = add.srcs[slot];
                let Some(t) = s.as_reg().and_then(VReg::from_reg) else {
                    continue;
                };
                let Some(&Instr {
                    op: Op::FArith(mul),
                    ..
                }) = info.plain_def(f, t)
                else {
                    continue;
                };
                let local = info.def_at[t].is_some_and(|(db, di)| db == b && di < i);
                if !local
                    || info.uses[t] != 1
                    || mul.kind != FloatArith::Mul
                    || mul.ftz != add.ftz
                    || mul.rnd != add.rnd
                    || s.abs
                {
                    continue;
                }
                // -(a * b) is (-a) * b exactly.
                let mut a = mul.srcs[0];
                if s.neg {
                    if let SrcRef::Imm(k) = a.src {
                        a.src = SrcRef::Imm(k ^ 0x8000_0000);
                    } else {
                        a.neg = !a.neg;
                    }
                }
                let fma = |x, y| Instr {
                    op: Op::FArith(OpFArith {
                        kind: FloatArith::Fma,
                        srcs: [x, y, add.srcs[1 - slot]],
                        ..add
                    }),
                    ..ins
                };
                let cands = [fma(a, mul.srcs[1]), fma(mul.srcs[1], a)];
                if let Some(ok) = cands.into_iter().find(encodable) {
                    f.blocks[b].instrs[i] = ok;
                    break;
                }
            }
        }
    }
}
