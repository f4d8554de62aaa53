//! Copy propagation with immediate and constant-bank operand folding.
//!
//! A register defined once by an unguarded `MOV` of a register, RZ, an
//! immediate or a constant-bank word, or by an `LDC` of a fixed
//! constant-bank word, is replaced in its uses by what it copies: another
//! register anywhere, a constant only in the ALU source slots that can
//! encode it (the ISA's encoder decides, commuting sources where that
//! helps). The copies that become unused are left to dead-code
//! elimination. Constant-bank operands cost nothing on NVIDIA GPUs (the ALU
//! reads them through the constant cache), so folding an LDC saves an
//! instruction and a register.

use crate::isa::{MemSize, Op, OperandKind, Reg, Src, SrcRef, float_src};
use crate::mir::{MFunc, VReg};
use crate::mir_info::{Info, alu_srcs, dst_vreg, place_src};
use cranelift_entity::SecondaryMap;

/// What each copy stands for, before modifiers, indexed by register (a
/// dense table: every operand of every instruction is looked up).
struct Copies {
    of: SecondaryMap<VReg, Option<SrcRef>>,
    len: usize,
}

impl Copies {
    fn get(&self, v: VReg) -> Option<SrcRef> {
        self.of.get(v).copied().flatten()
    }
}

/// What each copy stands for, before modifiers.
fn copies(f: &MFunc, info: &Info) -> Copies {
    let mut out = Copies {
        of: SecondaryMap::new(),
        len: 0,
    };
    out.of.resize(f.vregs.len());
    for ins in f.blocks.values().flat_map(|b| &b.instrs) {
        if !ins.guard.is_true() {
            continue;
        }
        let (d, value) = match ins.op {
            Op::Mov(m) if !m.src.neg && !m.src.abs => (dst_vreg(&m.dst), m.src.src),
            Op::Ldc(l) if l.addr.src == SrcRef::Zero && l.size == MemSize::B32 => (
                dst_vreg(&l.dst),
                SrcRef::CBuf {
                    bank: l.bank,
                    offset: l.offset,
                },
            ),
            _ => continue,
        };
        let Some(d) = d.filter(|&d| info.is_plain(d)) else {
            continue;
        };
        let source_ok = match value {
            // The copied register must not change between the copy and a
            // use: SSA, one definition.
            SrcRef::Reg(Reg::Virt(s)) => info.defs.get(VReg::from_u32(s)) == Some(&1),
            SrcRef::Reg(Reg::Phys(_)) => false,
            _ => true,
        };
        if source_ok && let Some(slot) = out.of.get_mut(d) {
            out.len += usize::from(slot.is_none());
            *slot = Some(value);
        }
    }
    out
}

/// Follows copies of copies to the original value.
fn resolve(map: &Copies, v: VReg) -> Option<SrcRef> {
    let mut cur = map.get(v)?;
    for _ in 0..map.len {
        match cur {
            SrcRef::Reg(r @ Reg::Virt(_)) => match VReg::from_reg(r).and_then(|w| map.get(w)) {
                Some(next) => cur = next,
                None => break,
            },
            _ => break,
        }
    }
    Some(cur)
}

/// The source `s` (reading a register) rewritten to read constant `c`,
/// with its modifiers applied to an immediate, which cannot carry them.
fn constant_src(op: &Op, s: &Src, c: SrcRef) -> Option<Src> {
    match c {
        SrcRef::Zero | SrcRef::CBuf { .. } => Some(Src { src: c, ..*s }),
        SrcRef::Imm(k) if !s.neg && !s.abs => Some(Src::imm(k)),
        SrcRef::Imm(k) => match op {
            Op::IAdd3(_) if !s.abs => Some(Src::imm(k.wrapping_neg())),
            Op::FArith(_) | Op::FSetP(_) | Op::FMnMx(_) => Some(Src::imm(float_src(s, k))),
            _ => None,
        },
        SrcRef::Reg(_) => None,
    }
}

/// Runs the pass.
pub fn copy_prop(f: &mut MFunc) {
    let info = Info::new(f);
    let map = copies(f, &info);
    if map.len == 0 {
        return;
    }
    for b in f.blocks.values_mut() {
        for a in b.succ_args.iter_mut().flatten() {
            if let Some(SrcRef::Reg(r)) = resolve(&map, *a)
                && let Some(w) = VReg::from_reg(r)
            {
                *a = w;
            }
        }
        for ins in &mut b.instrs {
            // Registers for registers, in any operand.
            ins.visit_regs(&mut |r, _, kind, _| {
                if let (Some(v), OperandKind::Use) = (VReg::from_reg(*r), kind)
                    && let Some(SrcRef::Reg(w)) = resolve(&map, v)
                {
                    *r = w;
                }
            });
            // Constants where the operand form allows them; twice, since
            // placing one may swap another register into a slot already
            // passed (`place_src` commutes sources).
            let n = alu_srcs(&mut ins.op).map_or(0, |s| s.len());
            for slot in (0..n).chain(0..n) {
                let Some(s) = alu_srcs(&mut ins.op).map(|s| s[slot]) else {
                    continue;
                };
                let Some(c) = s
                    .as_reg()
                    .and_then(VReg::from_reg)
                    .and_then(|v| resolve(&map, v))
                    .filter(|c| !matches!(c, SrcRef::Reg(_)))
                else {
                    continue;
                };
                if let Some(new) = constant_src(&ins.op, &s, c) {
                    place_src(ins, slot, new);
                }
            }
        }
    }
}
