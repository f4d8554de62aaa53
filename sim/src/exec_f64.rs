//! Executing the double-precision ops: each source is read as its register
//! pair (or one word), the ISA's `eval` computes the result, and the pair
//! (or word) is written back. The semantics are the ISA's own.

use crate::error::SimError;
use crate::warp::{Warp, lanes};
use spvsass_isa::isa::{ConvKind, Op, Src};

/// A source's value: `n` registers, low word first.
fn value(w: &Warp<'_>, lane: usize, s: &Src, n: u8, pc: u32) -> Result<u64, SimError> {
    let v = w.src_group(lane, s, n, pc)?;
    Ok(u64::from(v[0]) | u64::from(v[1]) << 32)
}

impl Warp<'_> {
    /// Runs a double op (one of those `is_f64` names) for the `exec` lanes.
    pub(crate) fn exec_f64(&mut self, exec: u32, op: &Op, pc: u32) -> Result<(), SimError> {
        let pair = |r: u64| [r as u32, (r >> 32) as u32];
        match op {
            Op::DArith(o) => self.each(exec, |w, l| {
                let mut x = [0; 3];
                for (v, s) in x.iter_mut().zip(&o.srcs) {
                    *v = value(w, l, s, 2, pc)?;
                }
                w.set_group(l, o.dst, &pair(o.eval(x)));
                Ok(())
            })?,
            Op::DSetP(o) => {
                let accum = self.pred_mask(u32::MAX, &o.accum);
                let mut r = 0;
                for l in lanes(exec) {
                    let a = value(self, l, &o.srcs[0], 2, pc)?;
                    let b = value(self, l, &o.srcs[1], 2, pc)?;
                    r |= u32::from(o.eval(a, b, accum >> l & 1 != 0)) << l;
                }
                self.write_pred(exec, o.dst, r);
            }
            Op::F2F64(o) => self.each(exec, |w, l| {
                let (src_n, dst_n) = if o.widen { (1, 2) } else { (2, 1) };
                let r = o.eval(value(w, l, &o.src, src_n, pc)?);
                w.set_group(l, o.dst, &pair(r)[..dst_n]);
                Ok(())
            })?,
            Op::Conv64(o) => self.each(exec, |w, l| {
                let int_n = if o.int64 { 2 } else { 1 };
                let (src_n, dst_n) = match o.kind {
                    ConvKind::IntToFloat => (int_n, 2),
                    ConvKind::FloatToInt => (2, usize::from(int_n)),
                };
                let r = o.eval(value(w, l, &o.src, src_n, pc)?);
                w.set_group(l, o.dst, &pair(r)[..dst_n]);
                Ok(())
            })?,
            Op::Frnd64(o) => self.each(exec, |w, l| {
                let r = o.eval(value(w, l, &o.src, 2, pc)?);
                w.set_group(l, o.dst, &pair(r));
                Ok(())
            })?,
            _ => unreachable!("exec_f64 runs double ops only"),
        }
        Ok(())
    }
}
