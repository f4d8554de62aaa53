//! textureGrad on 3D and cube images: TXD's second source vector holds
//! the gradients x/y interleaved, four registers, so three-component
//! gradients do not fit. As NAK does (nir_lower_tex's `lower_txd_3d` and
//! `lower_txd_cube_map`), the LOD is computed in the shader and the lookup
//! is a TEX with that explicit LOD (`.LL`), which the sampler's bias and
//! clamps then adjust as they would the gradients' (docs/TEXTURES.md,
//! "3D and cube gradients"):
//!
//! - 3D: each derivative scaled by the base level's size (TXQ of level 0)
//!   in texels, ρ its longest component plus 11/32 of the middle one and
//!   1/4 of the shortest, and λ of the larger ρ as the texture unit takes
//!   it: the exponent plus a table entry for the mantissa's top 8 bits
//!   (`table_log2`; all fitted to the tex_grad3d_rho capture);
//! - cube: the derivatives projected onto the face the direction selects
//!   (the major axis m as the texture unit picks it: z on ties, then y):
//!   for a face coordinate `a / m`, `d(a / m) = (da·m − a·dm) / m²`, and
//!   half that times the face size in texels;
//!   λ = ½·log2 of the larger squared length (no square root);
//! - plus 17/16384, as the texture unit adds to λ from gradients.

use super::{Comp, Isel};
use crate::error::BackendError;
use crate::isa::{Instr, Op, OpTxq, TexDim, TxqQuery};
use spvsass_frontend::ir::{BinaryOp, CmpOp, ConvOp, InstData, Scalar, UnaryOp, Value};

/// Added to λ, as the texture unit adds it to λ of TXD's gradients
/// (sim/src/texture/filter.rs, docs/TEXTURES.md "3D and cube gradients").
const LOD_OFFSET: f32 = 17.0 / 16384.0;
/// The parts of the middle and shortest scaled 3D derivative components
/// added to the longest in ρ (fitted to an H200 capture, tex_grad3d_rho:
/// docs/TEXTURES.md, "3D and cube gradients").
const RHO_MID: f32 = 11.0 / 32.0;
const RHO_SHORT: f32 = 1.0 / 4.0;
/// The rounding offset of the 8-bit log2 table (`table_log2`).
const TABLE_OFFSET: f32 = 0.47;

impl Isel<'_> {
    /// λ of a 3D or cube lookup at `coord` with derivatives `dx`, `dy`.
    pub(super) fn gradient_lod(
        &mut self,
        dim: TexDim,
        handle: Comp,
        coord: &[Comp],
        dx: Value,
        dy: Value,
        inst: &InstData,
    ) -> Result<Comp, BackendError> {
        let (dx, dy) = (self.comps_of(dx)?, self.comps_of(dy)?);
        let cube = matches!(dim, TexDim::Cube | TexDim::ArrayCube);
        let size = self.base_size(handle, if cube { 1 } else { 3 }, inst)?;
        let lod = if cube {
            let axes = self.cube_axes(coord, inst)?;
            let p = self.by_major(axes, coord);
            let qx = self.cube_length2(axes, p, &dx, size[0], inst)?;
            let qy = self.cube_length2(axes, p, &dy, size[0], inst)?;
            let q = self.binary(BinaryOp::FMax, qx, qy, inst)?;
            let log = self.unary(UnaryOp::FLog2, q, inst)?;
            self.fmul(log, Comp::Const(0.5f32.to_bits()))
        } else {
            let rx = self.scaled_rho(&dx, &size, inst)?;
            let ry = self.scaled_rho(&dy, &size, inst)?;
            let rho = self.binary(BinaryOp::FMax, rx, ry, inst)?;
            self.table_log2(rho, inst)?
        };
        Ok(self.fadd(lod, Comp::Const(LOD_OFFSET.to_bits())))
    }

    /// ρ of derivative `d` scaled axis by axis by `size`: its longest
    /// component plus `RHO_MID` of the middle one and `RHO_SHORT` of the
    /// shortest.
    fn scaled_rho(
        &mut self,
        d: &[Comp],
        size: &[Comp],
        inst: &InstData,
    ) -> Result<Comp, BackendError> {
        let mut a = [Comp::Const(0); 3];
        for ((a, &c), &s) in a.iter_mut().zip(d).zip(size) {
            let scaled = self.fmul(c, s);
            *a = self.unary(UnaryOp::FAbs, scaled, inst)?;
        }
        let hi = self.binary(BinaryOp::FMax, a[0], a[1], inst)?;
        let lo = self.binary(BinaryOp::FMin, a[0], a[1], inst)?;
        let longest = self.binary(BinaryOp::FMax, hi, a[2], inst)?;
        let shortest = self.binary(BinaryOp::FMin, lo, a[2], inst)?;
        let mid_hi = self.binary(BinaryOp::FMin, hi, a[2], inst)?;
        let mid = self.binary(BinaryOp::FMax, lo, mid_hi, inst)?;
        let m = self.fmul(mid, Comp::Const(RHO_MID.to_bits()));
        let s = self.fmul(shortest, Comp::Const(RHO_SHORT.to_bits()));
        let sum = self.fadd(longest, m);
        Ok(self.fadd(sum, s))
    }

    /// log2 of a positive `rho` in 1/256 steps, as the texture unit takes
    /// it (fitted to tex_grad3d_rho, docs/TEXTURES.md): the exponent E plus
    /// T[k]/256 for the mantissa's top 8 bits k, with
    /// T[k] = ⌊256·log2(1 + (k + ½)/256) + 0.47⌋, T[0] = 0, at most 255.
    /// MUFU.LG2 is within 2^-15 of 256·log2 there, and no entry's sum lies
    /// closer than 0.00029 to an integer, so the floor is the table's.
    fn table_log2(&mut self, rho: Comp, inst: &InstData) -> Result<Comp, BackendError> {
        let exp_bits = self.binary(BinaryOp::ShrLogical, rho, Comp::Const(23), inst)?;
        let biased = self.binary(BinaryOp::And, exp_bits, Comp::Const(0xff), inst)?;
        let exp = self.binary(BinaryOp::ISub, biased, Comp::Const(127), inst)?;
        let exp = self.convert(
            ConvOp::SToF,
            exp,
            Scalar::I32,
            Scalar::Float { bits: 32 },
            inst,
        )?;
        let code_bits = self.binary(BinaryOp::ShrLogical, rho, Comp::Const(15), inst)?;
        let code = self.binary(BinaryOp::And, code_bits, Comp::Const(0xff), inst)?;
        let mantissa = self.binary(BinaryOp::Shl, code, Comp::Const(15), inst)?;
        // 1 + (k + ½)/256 exactly.
        let x = self.binary(BinaryOp::Or, mantissa, Comp::Const(0x3f80_4000), inst)?;
        let log = self.unary(UnaryOp::FLog2, x, inst)?;
        let scaled = self.ffma(
            log,
            Comp::Const(256.0f32.to_bits()),
            Comp::Const(TABLE_OFFSET.to_bits()),
        );
        let entry = self.unary(UnaryOp::FFloor, scaled, inst)?;
        let entry = self.binary(BinaryOp::FMin, entry, Comp::Const(255.0f32.to_bits()), inst)?;
        let first = self.compare(CmpOp::IEq, code, Comp::Const(0));
        let (zero, entry) = (self.src_of(Comp::Const(0)), self.src_of(entry));
        let entry = self.select(first, zero, entry);
        Ok(self.ffma(entry, Comp::Const((1.0f32 / 256.0).to_bits()), exp))
    }

    /// Level 0's width (and height and depth), as floats.
    fn base_size(
        &mut self,
        handle: Comp,
        n: u8,
        inst: &InstData,
    ) -> Result<Vec<Comp>, BackendError> {
        let src = self.group_of(&[handle, Comp::Const(0)]);
        let (dst, comps) = self.result_groups(n);
        self.emit(Instr::new(Op::Txq(OpTxq {
            dst,
            src,
            query: TxqQuery::Dimension,
            mask: (1u8 << n) - 1,
        })));
        comps
            .into_iter()
            .map(|c| {
                self.convert(
                    ConvOp::UToF,
                    c,
                    Scalar::U32,
                    Scalar::Float { bits: 32 },
                    inst,
                )
            })
            .collect()
    }

    /// `a² + b² (+ c²)`.
    fn sum_of_squares(&mut self, v: &[Comp]) -> Comp {
        let mut sum = self.fmul(v[0], v[0]);
        for &c in &v[1..] {
            let sq = self.fmul(c, c);
            sum = self.fadd(sum, sq);
        }
        sum
    }

    /// The predicates choosing the major axis of direction `p`: (z is
    /// major, y is major); x otherwise.
    fn cube_axes(&mut self, p: &[Comp], inst: &InstData) -> Result<(Comp, Comp), BackendError> {
        let mut abs = [Comp::Const(0); 3];
        for (a, &c) in abs.iter_mut().zip(p) {
            *a = self.unary(UnaryOp::FAbs, c, inst)?;
        }
        let z_x = self.compare(CmpOp::FOrdGe, abs[2], abs[0]);
        let z_y = self.compare(CmpOp::FOrdGe, abs[2], abs[1]);
        let z = self.binary(BinaryOp::LogicalAnd, z_x, z_y, inst)?;
        let y_x = self.compare(CmpOp::FOrdGe, abs[1], abs[0]);
        Ok((z, y_x))
    }

    /// `v` reordered as (major, tangent, tangent) by the axis predicates
    /// (z major: (z, x, y); y major: (y, x, z); else (x, y, z)).
    fn by_major(&mut self, (z, y): (Comp, Comp), v: &[Comp]) -> [Comp; 3] {
        let mut pick = |zc: usize, yc: usize, xc: usize| {
            let (vz, vy, vx) = (self.src_of(v[zc]), self.src_of(v[yc]), self.src_of(v[xc]));
            let not_z = self.select(y, vy, vx);
            let not_z = self.src_of(not_z);
            self.select(z, vz, not_z)
        };
        [pick(2, 1, 0), pick(0, 0, 1), pick(1, 2, 2)]
    }

    /// The squared length in texels of the face-coordinate derivative
    /// from direction derivative `d` at the direction whose components are
    /// `[m, a, b]` (`by_major`), for faces of `size` texels.
    fn cube_length2(
        &mut self,
        axes: (Comp, Comp),
        [m, a, b]: [Comp; 3],
        d: &[Comp],
        size: Comp,
        inst: &InstData,
    ) -> Result<Comp, BackendError> {
        let [dm, da, db] = self.by_major(axes, d);
        // r = ½·size / m².
        let m2 = self.fmul(m, m);
        let half = self.fmul(size, Comp::Const(0.5f32.to_bits()));
        let r = self.binary(BinaryOp::FDiv, half, m2, inst)?;
        let mut e = Vec::with_capacity(2);
        for (t, dt) in [(a, da), (b, db)] {
            let x = self.fmul(dt, m);
            let y = self.fmul(t, dm);
            let diff = self.fsub(x, y);
            e.push(self.fmul(diff, r));
        }
        Ok(self.sum_of_squares(&e))
    }
}
