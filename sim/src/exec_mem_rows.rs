//! Loads and stores of global and shared memory taken a whole warp at a
//! time where no lane can fault: the lanes' addresses come from the
//! address register's rows in one loop, one check finds every lane in
//! bounds and aligned in one buffer (global memory) or in the shared
//! memory, and the accesses then go in lane order without decoding an
//! operand or finding a buffer per lane. Anything else (an address or
//! data operand that is not a register, local memory, a lane that would
//! fault) is left to the lane-by-lane loops of `exec_mem.rs`, before any
//! lane has run, so that faults are reported as they are there, at the
//! first faulting lane. The effects are the lane-by-lane loops' (lanes in
//! ascending order, so a store by a higher lane wins), which the tests of
//! both paths share.

use crate::warp::{Env, RZ, WARP_LANES, Warp, gpr_index, lanes};
use spvsass_isa::isa::{Dst, MemSize, MemSpace, OpLd, OpSt, Src, SrcRef};

const WARP: usize = WARP_LANES as usize;

impl Warp<'_> {
    /// Each lane's address for an address operand that is a register (a
    /// pair for global memory), plus `offset`, as `exec_mem.rs` computes
    /// it lane by lane; `None` for another operand.
    fn lane_addresses(&self, addr: &Src, space: MemSpace, offset: i32) -> Option<[u64; WARP]> {
        let SrcRef::Reg(r) = addr.src else {
            return None;
        };
        let base = gpr_index(r);
        let mut out = [0u64; WARP];
        if base != RZ {
            let lo = &self.gpr[base];
            match space {
                MemSpace::Global => {
                    let hi = &self.gpr[(base + 1).min(RZ)];
                    for (a, (&lo, &hi)) in out.iter_mut().zip(lo.iter().zip(hi)) {
                        *a = u64::from(lo) | u64::from(hi) << 32;
                    }
                }
                MemSpace::Shared | MemSpace::Local => {
                    for (a, &lo) in out.iter_mut().zip(lo) {
                        *a = u64::from(lo);
                    }
                }
            }
        }
        let offset = i64::from(offset);
        for a in &mut out {
            *a = a.wrapping_add_signed(offset);
        }
        Some(out)
    }

    /// The load `o` for the lanes of `mask` at once; `false` (nothing
    /// done) where it does not apply (see the module's comment).
    pub(crate) fn load_rows(&mut self, mask: u32, o: &OpLd, env: &mut Env<'_>) -> bool {
        let Some(addrs) = self.lane_addresses(&o.addr, o.space, o.offset) else {
            return false;
        };
        let n = o.size.bytes();
        let mut bytes = [[0u8; 16]; WARP];
        match o.space {
            MemSpace::Global => {
                let Some(i) = env.global.lanes_buffer(mask, &addrs, n) else {
                    return false;
                };
                env.global.read_lanes(i, mask, &addrs, n, &mut bytes);
            }
            MemSpace::Shared => {
                if !env.local.shared.lanes_fit(mask, &addrs, n) {
                    return false;
                }
                env.local.shared.read_lanes(mask, &addrs, n, &mut bytes);
            }
            MemSpace::Local => return false,
        }
        let dst = match o.dst {
            Dst::Reg(r) => gpr_index(r),
            _ => RZ,
        };
        let regs = usize::from(o.size.regs());
        for i in 0..regs.min(RZ.saturating_sub(dst)) {
            let row = &mut self.gpr[dst + i];
            match o.size {
                // The common case, without the general conversion.
                MemSize::B32 => {
                    for l in lanes(mask) {
                        row[l] = u32::from_le_bytes([
                            bytes[l][0],
                            bytes[l][1],
                            bytes[l][2],
                            bytes[l][3],
                        ]);
                    }
                }
                size => {
                    for l in lanes(mask) {
                        row[l] = size.load(&bytes[l])[i];
                    }
                }
            }
        }
        true
    }

    /// The store `o` for the lanes of `mask` at once; `false` (nothing
    /// done) where it does not apply (see the module's comment).
    pub(crate) fn store_rows(&mut self, mask: u32, o: &OpSt, env: &mut Env<'_>) -> bool {
        let Some(addrs) = self.lane_addresses(&o.addr, o.space, o.offset) else {
            return false;
        };
        // The data's rows, as `src_group` reads them lane by lane.
        let rows = match o.data.src {
            SrcRef::Reg(r) => gpr_index(r),
            SrcRef::Zero => RZ,
            _ => return false,
        };
        let n = o.size.bytes();
        let global = match o.space {
            MemSpace::Global => match env.global.lanes_buffer(mask, &addrs, n) {
                Some(i) => Some(i),
                None => return false,
            },
            MemSpace::Shared if env.local.shared.lanes_fit(mask, &addrs, n) => None,
            MemSpace::Shared | MemSpace::Local => return false,
        };
        // Each lane's bytes, the low bytes of its registers (`MemSize::store`).
        let mut data = [[0u8; 16]; WARP];
        if rows != RZ {
            for i in 0..usize::from(o.size.regs()) {
                let row = &self.gpr[(rows + i).min(RZ)];
                for l in lanes(mask) {
                    data[l][4 * i..4 * i + 4].copy_from_slice(&row[l].to_le_bytes());
                }
            }
        }
        match global {
            Some(i) => env.global.write_lanes(i, mask, &addrs, n, &data),
            None => env.local.shared.write_lanes(mask, &addrs, n, &data),
        }
        true
    }
}
