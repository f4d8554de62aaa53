//! Conversions the ISA has no single instruction for: bitcasts between
//! vectors of different component widths (`u32` ↔ `u8vec4`, `f16vec2` ↔
//! `u32`, `u64` ↔ `u16vec4`: glslang's unpack8/pack32 and friends), and
//! 64-bit integers to f32.
//!
//! Bitcasts regroup bits: an 8- or 16-bit component lives in the low bits
//! of its word (high bits zero-filled here, so halves keep float16.rs's
//! convention) and a 64-bit one in two words, low first, so the words are
//! split with shifts or joined with shifts and ORs.
//!
//! A u64 → f32 conversion must round once: the value is normalised so its
//! top set bit is bit 31 of the high word (a funnel shift by the leading
//! zero count, FLO.SH), the bits shifted below the word collapse into a
//! sticky bit 0 (below f32's rounding bit, so round-to-nearest-even of
//! the word is that of the whole value), I2F.U32 rounds the word and an
//! exact multiplication by 2^(32 - shift) scales it back. Signed values
//! convert their magnitude and take the sign afterwards.

use super::{Comp, Isel};
use crate::error::BackendError;
use crate::isa::{BitOp, IntCmp, OpLop3, Src};
use spvsass_frontend::ir::{BinaryOp, ConvOp, InstData, Scalar};

const F32: Scalar = Scalar::Float { bits: 32 };
const U32: Scalar = Scalar::U32;

impl Isel<'_> {
    /// OpBitcast of the components `x` between component widths `from`
    /// and `to` (in bits, 8 to 64); narrow results have their high bits
    /// zero-filled.
    pub(super) fn regroup_bits(&mut self, x: &[Comp], from: u32, to: u32) -> Vec<Comp> {
        // 64-bit components are their two words already.
        let (from, to) = (from.min(32), to.min(32));
        if from == to {
            return x.to_vec();
        }
        if from > to {
            let per = from / to;
            let mut out = Vec::with_capacity(x.len() * per as usize);
            for &c in x {
                for k in 0..per {
                    let part = if k == 0 {
                        c
                    } else {
                        self.shift(c, Comp::Const(k * to), true)
                    };
                    // The last part's high bits are zero already.
                    out.push(if k + 1 == per {
                        part
                    } else {
                        self.sgxt(part, Comp::Const(to), false)
                    });
                }
            }
            out
        } else {
            let per = (to / from) as usize;
            let mut out = Vec::with_capacity(x.len() / per);
            for group in x.chunks(per) {
                let mut acc = Comp::Const(0);
                for (k, &c) in group.iter().enumerate() {
                    let c = self.sgxt(c, Comp::Const(from), false);
                    let shifted = if k == 0 {
                        c
                    } else {
                        self.shift(c, Comp::Const(k as u32 * from), false)
                    };
                    let (a, b) = (self.src_of(acc), self.src_of(shifted));
                    acc = self.lop3(a, b, Src::ZERO, OpLop3::A | OpLop3::B);
                }
                out.push(acc);
            }
            out
        }
    }

    /// A 64-bit integer (`x`: low word, high word) to f32, correctly
    /// rounded.
    pub(super) fn wide_int_to_f32(
        &mut self,
        x: [Comp; 2],
        signed: bool,
        inst: &InstData,
    ) -> Result<Comp, BackendError> {
        let [lo, hi] = if signed {
            // |x|: the two's complement where the sign is set.
            let neg = self.wide_binary(BinaryOp::ISub, &[Comp::Const(0); 2], &x, inst)?;
            let hs = self.src_of(x[1]);
            let negative = self.int_cmp(IntCmp::Lt, true, hs, Src::ZERO);
            let mut abs = [Comp::Const(0); 2];
            for k in 0..2 {
                let (n, p) = (self.src_of(neg[k]), self.src_of(x[k]));
                abs[k] = self.select(negative, n, p);
            }
            abs
        } else {
            x
        };
        // The leading zero count of the high word: 32 when it is zero
        // (FLO.SH gives all ones there).
        let flo = self.bit_comp(
            BitOp::Flo {
                signed: false,
                shift: true,
            },
            hi,
        );
        let hs = self.src_of(hi);
        let hi_zero = self.int_cmp(IntCmp::Eq, false, hs, Src::ZERO);
        let fs = self.src_of(flo);
        let lz = self.select(hi_zero, Src::imm(32), fs);
        let top = self.funnel(lo, lz, hi, true);
        let rest = self.funnel(lo, lz, hi, false);
        let rs = self.src_of(rest);
        let inexact = self.int_cmp(IntCmp::Ne, false, rs, Src::ZERO);
        let ts = self.src_of(top);
        let sticky = self.lop3(ts, Src::imm(1), Src::ZERO, OpLop3::A | OpLop3::B);
        let ss = self.src_of(sticky);
        let word = self.select(inexact, ss, ts);
        let f = self.convert(ConvOp::UToF, word, U32, F32, inst)?;
        // 2^(32 - lz) as f32 bits: (127 + 32 - lz) << 23.
        let ls = self.src_of(lz);
        let biased = self.iadd_src(ls.negated(), Src::imm(159));
        let scale = self.shift(biased, Comp::Const(23), false);
        let r = self.fmul(f, scale);
        Ok(if signed {
            // The sign bit of x onto the (non-negative) result.
            let (rs, hs) = (self.src_of(r), self.src_of(x[1]));
            self.lop3(
                rs,
                hs,
                Src::imm(0x8000_0000),
                OpLop3::A ^ (OpLop3::B & OpLop3::C),
            )
        } else {
            r
        })
    }
}
