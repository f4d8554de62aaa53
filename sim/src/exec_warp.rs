//! Executing warp-wide ops over the lanes that execute them: SHFL, VOTE,
//! MATCH, REDUX. Every source is read before any destination is written,
//! as in hardware, so an op may overwrite its own source register.

use crate::error::SimError;
use crate::warp::{Warp, lanes};
use spvsass_isa::isa::{OpMatch, OpRedux, OpShfl, OpVote};

impl Warp<'_> {
    /// Each executing lane's value of `f`, indexed by lane.
    fn gather(
        &self,
        mask: u32,
        mut f: impl FnMut(usize) -> Result<u32, SimError>,
    ) -> Result<[u32; 32], SimError> {
        let mut v = [0; 32];
        for l in lanes(mask) {
            v[l] = f(l)?;
        }
        Ok(v)
    }

    pub(crate) fn shfl(&mut self, mask: u32, o: &OpShfl, pc: u32) -> Result<(), SimError> {
        let vals = self.gather(mask, |l| self.src(l, &o.src, pc))?;
        let mut out = Vec::new();
        for l in lanes(mask) {
            let b = self.src(l, &o.lane, pc)?;
            let c = self.src(l, &o.c, pc)?;
            let (j, ok) = o.source(l as u32, b, c);
            if mask >> j & 1 == 0 {
                return Err(SimError::ShuffleFromInactive {
                    pc,
                    lane: l as u32,
                    from: j,
                });
            }
            out.push((l, vals[j as usize], ok));
        }
        for (l, v, ok) in out {
            self.set_gpr(l, o.dst, v);
            self.set_pred(l, o.in_bounds, ok);
        }
        Ok(())
    }

    pub(crate) fn vote(&mut self, mask: u32, o: &OpVote) {
        let ballot = lanes(mask)
            .filter(|&l| self.pred(l, &o.src))
            .fold(0u32, |m, l| m | 1 << l);
        let r = o.eval(ballot, mask);
        for l in lanes(mask) {
            self.set_gpr(l, o.dst, ballot);
            self.set_pred(l, o.pdst, r);
        }
    }

    pub(crate) fn match_(&mut self, mask: u32, o: &OpMatch, pc: u32) -> Result<(), SimError> {
        let vals = self.gather(mask, |l| self.src(l, &o.src, pc))?;
        for l in lanes(mask) {
            let (m, p) = o.eval(&vals, mask, l);
            self.set_gpr(l, o.dst, m);
            self.set_pred(l, o.pdst, p);
        }
        Ok(())
    }

    pub(crate) fn redux(&mut self, mask: u32, o: &OpRedux, pc: u32) -> Result<(), SimError> {
        let vals = self.gather(mask, |l| self.src(l, &o.src, pc))?;
        let r = o.eval(lanes(mask).map(|l| vals[l]));
        for l in lanes(mask) {
            self.set_gpr(l, o.dst, r);
        }
        Ok(())
    }
}
