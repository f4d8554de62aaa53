//! 8- and 16-bit integers. A narrow value lives in the low bits of a 32-bit
//! register whose high bits are whatever arithmetic left there: adds,
//! subtracts, multiplies, left shifts and bitwise ops only need the low
//! bits of their operands, and stores write only those, so they run on the
//! word as it is (no clean-up after each op, as ptxas does for `short`
//! arithmetic). An op whose low result bits depend on the high ones
//! (comparisons, division and remainder, right shifts, min/max, bit counts
//! and scans) first extends its operands from their width, zero- or
//! sign-filling by what the op reads (SGXT, one instruction with an
//! immediate width; nvcc uses PRMT 0x9910 / LOP3 masks for the same,
//! tests/data/real_sass/ops64_sm86.nvdisasm.txt, k_narrow), then runs the
//! 32-bit lowering. Shift amounts and bit-field offsets and counts are
//! zero-extended when they are narrow themselves.

use super::{Comp, Isel};
use crate::error::BackendError;
use crate::isa::{Dst, Op, OpIMad, OpShf, Src, SrcRef};
use spvsass_frontend::ir::{BinaryOp, CmpOp, InstData, MathOp, Scalar, Type, UnaryOp, Value};

/// How an op reads a narrow operand's high bits.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Ext {
    /// Only the low bits matter: the word as it is.
    Keep,
    /// Zero-filled from the operand's width.
    Zero,
    /// Sign-filled from the operand's width.
    Sign,
}

/// The extension of the two operands of a binary op.
pub(super) fn binary_ext(op: BinaryOp) -> (Ext, Ext) {
    use BinaryOp as B;
    match op {
        B::UDiv | B::UMod | B::UMin | B::UMax => (Ext::Zero, Ext::Zero),
        B::SDiv | B::SRem | B::SMod | B::SMin | B::SMax => (Ext::Sign, Ext::Sign),
        B::ShrLogical => (Ext::Zero, Ext::Zero),
        B::ShrArithmetic => (Ext::Sign, Ext::Zero),
        B::Shl => (Ext::Keep, Ext::Zero),
        _ => (Ext::Keep, Ext::Keep),
    }
}

/// The extension of both operands of a comparison: signed orders
/// sign-fill, equality and unsigned orders zero-fill.
pub(super) fn cmp_ext(op: CmpOp) -> Ext {
    match op {
        CmpOp::SLt | CmpOp::SLe | CmpOp::SGt | CmpOp::SGe => Ext::Sign,
        _ => Ext::Zero,
    }
}

/// The extension of argument `i` of an integer Math op.
fn math_ext(op: MathOp, i: usize) -> Ext {
    use MathOp as M;
    match op {
        M::SAbs | M::SSign | M::SClamp | M::FindSMsb | M::SMulExtended => Ext::Sign,
        M::UClamp | M::FindUMsb | M::FindILsb | M::IAddCarry | M::ISubBorrow => Ext::Zero,
        M::UMulExtended => Ext::Zero,
        // Offset and count; the base and the inserted bits are read only
        // where the field lies, inside the width.
        M::BitFieldInsert if i >= 2 => Ext::Zero,
        M::BitFieldSExtract | M::BitFieldUExtract if i >= 1 => Ext::Zero,
        _ => Ext::Keep,
    }
}

impl Isel<'_> {
    /// The width of `v` when it is an 8- or 16-bit integer (scalar or
    /// vector).
    pub(super) fn narrow_bits(&self, v: Value) -> Option<u32> {
        match self.sh.value_type(v) {
            Type::Scalar(Scalar::Int { bits, .. })
            | Type::Vector {
                scalar: Scalar::Int { bits, .. },
                ..
            } if *bits < 32 => Some(u32::from(*bits)),
            _ => None,
        }
    }

    /// The components of `v`, extended from its width as `ext` says when it
    /// is a narrow integer (other values come as they are).
    pub(super) fn operand(&mut self, v: Value, ext: Ext) -> Result<Vec<Comp>, BackendError> {
        let comps = self.value(v)?.clone();
        let Some(bits) = self.narrow_bits(v) else {
            return Ok(comps);
        };
        if ext == Ext::Keep {
            return Ok(comps);
        }
        Ok(comps
            .into_iter()
            .map(|c| self.sgxt(c, Comp::Const(bits), ext == Ext::Sign))
            .collect())
    }

    /// OpBitCount and OpBitReverse of a narrow integer: POPC of the
    /// zero-extended word; BREV moves the field to the top, a shift right
    /// brings it back.
    pub(super) fn narrow_bit_unary(
        &mut self,
        op: UnaryOp,
        a: Value,
    ) -> Result<Vec<Comp>, BackendError> {
        let bits = self.narrow_bits(a).unwrap_or(32);
        let ext = if op == UnaryOp::BitCount {
            Ext::Zero
        } else {
            Ext::Keep
        };
        let mut out = Vec::new();
        for c in self.operand(a, ext)? {
            let r = self.bit_unary(op, c);
            out.push(if op == UnaryOp::BitReverse {
                let s = self.src_of(r);
                self.alu(Op::Shf(OpShf {
                    dst: Dst::None,
                    srcs: [s, Src::imm(32 - bits), Src::ZERO],
                    right: true,
                    wrap: false,
                    high: false,
                }))
            } else {
                r
            });
        }
        Ok(out)
    }

    /// An integer Math op with a narrow operand: the operands extended as
    /// the op reads them, then the 32-bit lowering; the carry, borrow and
    /// high halves of the extended forms come from the exact 32-bit result
    /// of the extended operands.
    pub(super) fn narrow_math(
        &mut self,
        op: MathOp,
        args: &[Value],
        inst: &InstData,
    ) -> Result<Vec<Comp>, BackendError> {
        use MathOp as M;
        let bits = args
            .iter()
            .filter_map(|&a| self.narrow_bits(a))
            .next()
            .unwrap_or(32);
        let mut vals = Vec::with_capacity(args.len());
        for (i, &a) in args.iter().enumerate() {
            vals.push(self.operand(a, math_ext(op, i))?);
        }
        if vals.len() != op.arity() {
            return Err(BackendError::Invalid {
                what: format!("{op:?} takes {} operands", op.arity()),
                spirv_id: inst.spirv_id,
            });
        }
        let n = vals.iter().map(Vec::len).max().unwrap_or(0);
        let (mut first, mut second) = (Vec::with_capacity(n), Vec::new());
        for i in 0..n {
            let x: Vec<Comp> = vals
                .iter()
                .map(|v| v[if v.len() == 1 { 0 } else { i }])
                .collect();
            match op {
                M::SAbs
                | M::SSign
                | M::UClamp
                | M::SClamp
                | M::FindILsb
                | M::FindSMsb
                | M::FindUMsb
                | M::BitFieldInsert
                | M::BitFieldSExtract
                | M::BitFieldUExtract => first.push(self.int_math(op, &x)),
                M::IAddCarry | M::UMulExtended | M::SMulExtended => {
                    // The 32-bit sum or product of the extended operands is
                    // exact; its bits above the width are the second member.
                    let (a, b) = (self.src_of(x[0]), self.src_of(x[1]));
                    let r = if op == M::IAddCarry {
                        self.iadd(x[0], x[1])
                    } else {
                        self.alu(Op::IMad(OpIMad {
                            dst: Dst::None,
                            srcs: if matches!(a.src, SrcRef::Imm(_)) {
                                [b, a, Src::ZERO]
                            } else {
                                [a, b, Src::ZERO]
                            },
                            signed: false,
                        }))
                    };
                    let high = if op == M::SMulExtended {
                        self.shr_arithmetic(r, Comp::Const(bits))
                    } else {
                        let rs = self.src_of(r);
                        self.alu(Op::Shf(OpShf {
                            dst: Dst::None,
                            srcs: [rs, Src::imm(bits), Src::ZERO],
                            right: true,
                            wrap: false,
                            high: false,
                        }))
                    };
                    first.push(r);
                    second.push(high);
                }
                // Zero-extended operands: the 32-bit borrow is the narrow one.
                M::ISubBorrow => {
                    let (d, b) = self.extended(op, x[0], x[1]);
                    first.push(d);
                    second.push(b);
                }
                _ => {
                    return Err(self.unsupported(format!("{op:?} of 8- or 16-bit integers"), inst));
                }
            }
        }
        first.extend(second);
        Ok(first)
    }
}
