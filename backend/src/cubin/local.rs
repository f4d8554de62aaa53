//! Moves local memory into CUDA's per-thread local window (docs/CUBIN.md,
//! "Local memory"). Our LDL/STL address local memory from 0, as the
//! simulator lays it out; under CUDA a thread's local window is the
//! `FRAME_SIZE` bytes below the stack pointer the driver leaves in
//! `c[0x0][0x28]`, and address 0 is out of bounds. So a kernel with local
//! memory starts with `MOV Rsp, c[0x0][0x28]` into a register past the
//! allocated ones, and every local access is rebased onto it:
//! `[RZ+o]` becomes `[Rsp+o-frame]`, and `[Ra+o]` becomes
//! `IADD3 Rt, Ra, Rsp, RZ` followed by `[Rt+o-frame]` (a second register
//! past the allocated ones). Branch targets move with the inserted
//! instructions, and the caller recomputes the control bits.

use super::CubinError;
use crate::isa::{Dst, Instr, MemSpace, Op, OpIAdd3, OpMov, Reg, Src, SrcRef, Target};
use crate::program::INSTR_BYTES;

/// CUDA's stack pointer: constant bank 0, byte 0x28 (docs/CUBIN.md).
pub const STACK_POINTER: u16 = 0x28;

/// The highest GPR a kernel may use (R255 is RZ).
const LAST_GPR: u32 = 254;

/// What the rewrite did: the new program and the registers it now uses.
pub struct Rebased {
    pub instrs: Vec<Instr>,
    pub num_gprs: u32,
}

/// The local address register and offset of `op`, when it is a local
/// load or store.
fn local_access(op: &mut Op) -> Option<(&mut Src, &mut i32)> {
    match op {
        Op::Ld(o) if o.space == MemSpace::Local => Some((&mut o.addr, &mut o.offset)),
        Op::St(o) if o.space == MemSpace::Local => Some((&mut o.addr, &mut o.offset)),
        _ => None,
    }
}

/// Rebases the local accesses of `instrs` (which use `num_gprs`
/// registers) onto the window of `frame` bytes below CUDA's stack pointer.
/// A program without local accesses comes back unchanged.
pub fn rebase_local(instrs: &[Instr], num_gprs: u32, frame: u32) -> Result<Rebased, CubinError> {
    let mut probe = instrs.to_vec();
    if !probe.iter_mut().any(|i| local_access(&mut i.op).is_some()) {
        return Ok(Rebased {
            instrs: instrs.to_vec(),
            num_gprs,
        });
    }
    let (sp, tmp) = (num_gprs, num_gprs + 1);
    if tmp > LAST_GPR {
        return Err(CubinError::LocalRegisters { num_gprs });
    }
    let frame = i32::try_from(frame).map_err(|_| CubinError::LocalFrame { frame })?;
    let (sp, tmp) = (Reg::Phys(sp as u8), Reg::Phys(tmp as u8));

    let mut out = vec![Instr::new(Op::Mov(OpMov {
        dst: Dst::Reg(sp),
        src: Src {
            src: SrcRef::CBuf {
                bank: 0,
                offset: STACK_POINTER,
            },
            neg: false,
            abs: false,
        },
    }))];
    // Where each old instruction starts in the new program.
    let mut start = Vec::with_capacity(instrs.len() + 1);
    for ins in instrs {
        let mut ins = *ins;
        start.push(out.len() as u32);
        if let Some((addr, offset)) = local_access(&mut ins.op) {
            *offset = offset.checked_sub(frame).ok_or(CubinError::LocalFrame {
                frame: frame as u32,
            })?;
            match addr.as_reg() {
                None if addr.src == SrcRef::Zero => *addr = Src::reg(sp),
                None => {
                    return Err(CubinError::LocalAddress {
                        text: ins.to_string(),
                    });
                }
                Some(a) => {
                    out.push(Instr::new(Op::IAdd3(OpIAdd3 {
                        dst: Dst::Reg(tmp),
                        srcs: [Src::reg(a), Src::reg(sp), Src::ZERO],
                    })));
                    *addr = Src::reg(tmp);
                }
            }
        }
        out.push(ins);
    }
    start.push(out.len() as u32);
    let moved = |a: u32| -> Result<u32, CubinError> {
        start
            .get((a / INSTR_BYTES) as usize)
            .map(|&n| n * INSTR_BYTES)
            .ok_or(CubinError::Decode(format!(
                "a branch to {a:#x}, past the program"
            )))
    };
    for ins in &mut out {
        let target = match &mut ins.op {
            Op::Bra(b) => &mut b.target,
            Op::Bssy(b) => &mut b.target,
            _ => continue,
        };
        if let Target::Addr(a) = target {
            *a = moved(*a)?;
        }
    }
    Ok(Rebased {
        instrs: out,
        num_gprs: num_gprs + 2,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::{MemSize, OpBra, OpLd, OpSt};

    fn ldl(addr: Src, offset: i32) -> Instr {
        Instr::new(Op::Ld(OpLd {
            dst: Dst::Reg(Reg::Phys(0)),
            addr,
            offset,
            space: MemSpace::Local,
            size: MemSize::B32,
        }))
    }

    #[test]
    fn a_program_without_local_memory_is_unchanged() {
        let prog = [Instr::new(Op::Exit)];
        let r = rebase_local(&prog, 4, 0).unwrap();
        assert_eq!(r.instrs, prog.to_vec());
        assert_eq!(r.num_gprs, 4);
    }

    #[test]
    fn local_accesses_move_below_the_stack_pointer() {
        // 0x00: BRA 0x20; 0x10: STL [RZ+0x4], R0; 0x20: LDL R0, [R3+0x8]; 0x30: EXIT
        let prog = [
            Instr::new(Op::Bra(OpBra {
                target: Target::Addr(0x20),
            })),
            Instr::new(Op::St(OpSt {
                addr: Src::ZERO,
                offset: 4,
                data: Src::reg(Reg::Phys(0)),
                space: MemSpace::Local,
                size: MemSize::B32,
            })),
            ldl(Src::reg(Reg::Phys(3)), 8),
            Instr::new(Op::Exit),
        ];
        let r = rebase_local(&prog, 6, 0x10).unwrap();
        assert_eq!(r.num_gprs, 8);
        let text: Vec<String> = r.instrs.iter().map(|i| i.to_string()).collect();
        assert_eq!(
            text,
            [
                "MOV R6, c[0x0][0x28] ;",
                // The branch now lands on the inserted IADD3.
                "BRA 0x30 ;",
                "STL [R6-0xc], R0 ;",
                "IADD3 R7, R3, R6, RZ ;",
                "LDL R0, [R7-0x8] ;",
                "EXIT ;",
            ]
        );
    }

    #[test]
    fn too_many_registers_is_an_error() {
        let prog = [ldl(Src::ZERO, 0)];
        assert!(matches!(
            rebase_local(&prog, 254, 16),
            Err(CubinError::LocalRegisters { num_gprs: 254 })
        ));
    }
}
