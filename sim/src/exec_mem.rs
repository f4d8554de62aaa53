//! Executing memory ops: loads, stores and atomics on global, shared and
//! local memory, and constant-bank loads. Lanes access memory one after
//! another in lane order, so atomics on one address serialise and a store
//! by a higher lane wins. Loads and stores first try the whole-warp path
//! of `exec_mem_rows.rs`, which takes those no lane can fault.

use crate::error::SimError;
use crate::exec::mem_error;
use crate::memory::{MemFault, Space, copy_access, range};
use crate::warp::{Env, Warp};
use spvsass_isa::isa::{MemSpace, OpAtom, OpLd, OpLdc, OpRed, OpSt, Src};

impl Warp<'_> {
    /// The address a lane accesses: the register (a pair for global memory)
    /// plus the offset. Computed in 64 bits, so an offset that takes a
    /// shared or local address below zero gives a huge address, which is
    /// out of bounds.
    fn address(
        &self,
        lane: usize,
        addr: &Src,
        space: MemSpace,
        offset: i32,
        pc: u32,
    ) -> Result<u64, SimError> {
        let base = match space {
            MemSpace::Global => wide(self.src_group(lane, addr, 2, pc)?),
            MemSpace::Shared | MemSpace::Local => u64::from(self.src(lane, addr, pc)?),
        };
        Ok(base.wrapping_add_signed(i64::from(offset)))
    }

    pub(crate) fn load(
        &mut self,
        mask: u32,
        o: &OpLd,
        pc: u32,
        env: &mut Env<'_>,
    ) -> Result<(), SimError> {
        if self.load_rows(mask, o, env) {
            return Ok(());
        }
        let n = o.size.bytes();
        self.each(mask, |w, l| {
            let addr = w.address(l, &o.addr, o.space, o.offset, pc)?;
            let fail = |f| mem_error(f, pc, l, space(o.space), addr, n);
            let bytes = match o.space {
                MemSpace::Global => env.global.read(addr, n).map_err(fail)?,
                MemSpace::Shared => env.local.shared.read(addr, n).map_err(fail)?,
                MemSpace::Local => slice(&env.local.local[l], addr, n).map_err(fail)?,
            };
            let regs = o.size.load(bytes);
            w.set_group(l, o.dst, &regs[..usize::from(o.size.regs())]);
            Ok(())
        })
    }

    pub(crate) fn store(
        &mut self,
        mask: u32,
        o: &OpSt,
        pc: u32,
        env: &mut Env<'_>,
    ) -> Result<(), SimError> {
        if self.store_rows(mask, o, env) {
            return Ok(());
        }
        let n = o.size.bytes();
        self.each(mask, |w, l| {
            let addr = w.address(l, &o.addr, o.space, o.offset, pc)?;
            let stored = o.size.store(w.src_group(l, &o.data, o.size.regs(), pc)?);
            let data = &stored[..n as usize];
            let fail = |f| mem_error(f, pc, l, space(o.space), addr, n);
            match o.space {
                MemSpace::Global => env.global.write(addr, data).map_err(fail),
                MemSpace::Shared => env.local.shared.write(addr, data).map_err(fail),
                MemSpace::Local => write(&mut env.local.local[l], addr, data).map_err(fail),
            }
        })
    }

    pub(crate) fn atom(
        &mut self,
        mask: u32,
        o: &OpAtom,
        pc: u32,
        env: &mut Env<'_>,
    ) -> Result<(), SimError> {
        let (regs, n) = (o.ty.regs(), o.ty.bytes());
        self.each(mask, |w, l| {
            let addr = w.address(l, &o.addr, o.space, o.offset, pc)?;
            let data = wide(w.src_group(l, &o.data, regs, pc)?);
            let cmp = wide(w.src_group(l, &o.cmp, regs, pc)?);
            let fail = |f| mem_error(f, pc, l, space(o.space), addr, n);
            let cell = match o.space {
                MemSpace::Global => env.global.cell(addr, n),
                MemSpace::Shared => env.local.shared.cell(addr, n),
                MemSpace::Local => cell(&mut env.local.local[l], addr, n),
            }
            .map_err(fail)?;
            let old = le(cell);
            let new = o.ty.apply(o.op, old, data, cmp);
            cell.copy_from_slice(&new.to_le_bytes()[..n as usize]);
            w.set_group(
                l,
                o.dst,
                &[old as u32, (old >> 32) as u32][..usize::from(regs)],
            );
            Ok(())
        })
    }

    pub(crate) fn red(
        &mut self,
        mask: u32,
        o: &OpRed,
        pc: u32,
        env: &mut Env<'_>,
    ) -> Result<(), SimError> {
        let (regs, n) = (o.ty.regs(), o.ty.bytes());
        self.each(mask, |w, l| {
            let addr = w.address(l, &o.addr, MemSpace::Global, o.offset, pc)?;
            let data = wide(w.src_group(l, &o.data, regs, pc)?);
            let fail = |f| mem_error(f, pc, l, Space::Global, addr, n);
            let cell = env.global.cell(addr, n).map_err(fail)?;
            let new = o.ty.apply(o.op, le(cell), data, 0);
            cell.copy_from_slice(&new.to_le_bytes()[..n as usize]);
            Ok(())
        })
    }

    pub(crate) fn ldc(&mut self, mask: u32, o: &OpLdc, pc: u32) -> Result<(), SimError> {
        let n = o.size.bytes();
        self.each(mask, |w, l| {
            let addr = u64::from(w.src(l, &o.addr, pc)?) + u64::from(o.offset);
            let bytes = w
                .consts
                .read(o.bank, addr, n)
                .map_err(|f| mem_error(f, pc, l, Space::Constant(o.bank), addr, n))?;
            let regs = o.size.load(bytes);
            w.set_group(l, o.dst, &regs[..usize::from(o.size.regs())]);
            Ok(())
        })
    }
}

fn space(s: MemSpace) -> Space {
    match s {
        MemSpace::Global => Space::Global,
        MemSpace::Shared => Space::Shared,
        MemSpace::Local => Space::Local,
    }
}

fn slice(mem: &[u8], addr: u64, n: u32) -> Result<&[u8], MemFault> {
    let start = range(addr, n, mem.len())?;
    Ok(&mem[start..start + n as usize])
}

fn write(mem: &mut [u8], addr: u64, data: &[u8]) -> Result<(), MemFault> {
    copy_access(cell(mem, addr, data.len() as u32)?, data);
    Ok(())
}

fn cell(mem: &mut [u8], addr: u64, n: u32) -> Result<&mut [u8], MemFault> {
    let start = range(addr, n, mem.len())?;
    Ok(&mut mem[start..start + n as usize])
}

/// A 64-bit value from the low two registers of a group.
fn wide(r: [u32; 4]) -> u64 {
    u64::from(r[0]) | u64::from(r[1]) << 32
}

/// A little-endian value of up to 8 bytes.
fn le(b: &[u8]) -> u64 {
    b.iter().rev().fold(0, |v, &x| v << 8 | u64::from(x))
}
