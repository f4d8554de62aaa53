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
//! - cube: each derivative taken onto the face the direction selects (the
//!   major axis m as the texture unit picks it: z on ties, then y) as the
//!   H100 does, a forward difference of the face coordinates (0..1, each
//!   rounded up to 2^−23) of the moved direction and of the direction,
//!   times the face size in texels: `a/|m|` becomes `(a + da)/|m + dm|`,
//!   or, where the moved direction lies past an edge, its coordinate
//!   unfolded onto the neighbouring face (past the centre too, with the
//!   moved major component negative: beyond 2); λ of the two face
//!   derivatives by the texture unit's 2D gradient rule (`face_rho`,
//!   `diagonal_rho`: fitted to the tex_grad_sweep capture; the texture
//!   unit takes a cube quad's face derivatives so, tex_grad_quad) and the
//!   same table (the simulator's `cube::gradient_lod` does the same f32
//!   operations);
//! - plus 17/16384 (below the table's 1/256 steps, so λ's truncation to
//!   them never moves).

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
/// The part of a face derivative's shorter component added to its longer
/// one, and the scale of the components of the pair's sum and difference
/// (docs/TEXTURES.md, "Filtering arithmetic" rule 5).
const FACE_SHORT: f32 = 11.0 / 32.0;
const FACE_PAIR: f32 = 11.0 / 16.0;
/// Keeps the top 9 of an f32's 23 mantissa bits: the precision of a cube
/// face derivative's longer component in ρ.
const FACE_LONG_MASK: u32 = 0xffff_c000;
/// An f32's exponent field.
const EXPONENT_BITS: u32 = 0x7f80_0000;
/// The precision of a face coordinate (0..1) in a cube derivative:
/// rounded up to a multiple of 2^−FACE_BITS (tex_grad3d_rho's words on
/// 1/11 grids fit any FACE_BITS from 16 to 23, not rounding to nearest;
/// docs/TEXTURES.md, "3D and cube gradients").
const FACE_BITS: i32 = 23;
const FACE_UNITS: f32 = (1u32 << FACE_BITS) as f32;
/// Texels per face-coordinate unit and face texel: 2^−FACE_BITS.
const FACE_STEP: f32 = 1.0 / FACE_UNITS;
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
            let ex = self.own_face_derivative(axes, coord, p, &dx, size[0], inst)?;
            let ey = self.own_face_derivative(axes, coord, p, &dy, size[0], inst)?;
            let rx = self.face_rho(ex, inst)?;
            let ry = self.face_rho(ey, inst)?;
            let sum = [self.fadd(ex[0], ey[0]), self.fadd(ex[1], ey[1])];
            let diff = [self.fsub(ex[0], ey[0]), self.fsub(ex[1], ey[1])];
            let rs = self.diagonal_rho(sum, inst)?;
            let rd = self.diagonal_rho(diff, inst)?;
            let pair = self.binary(BinaryOp::FMax, rs, rd, inst)?;
            let one = self.binary(BinaryOp::FMax, rx, ry, inst)?;
            let rho = self.binary(BinaryOp::FMax, one, pair, inst)?;
            self.table_log2(rho, inst)?
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
    /// `T[k]/256` for the mantissa's top 8 bits k, with
    /// `T[k] = ⌊256·log2(1 + (k + ½)/256) + 0.47⌋`, `T[0] = 0`, at most 255.
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

    /// The face derivative, (s, t) in texels, of direction derivative `d`
    /// at `coord` (its face's `axes`, `p` by major axis) in the frame of
    /// the face the moved direction `coord + d` selects: where that is
    /// `coord`'s own face, `face_derivative`; where it is another (past an
    /// edge, or on an edge the tie rule gives to the other face), the
    /// negated derivative of `-d` at the moved direction, `coord` unfolded
    /// onto its face (the simulator's `cube::own_face_derivatives`;
    /// docs/TEXTURES.md, "3D and cube gradients", rule 1).
    fn own_face_derivative(
        &mut self,
        axes: (Comp, Comp),
        coord: &[Comp],
        p: [Comp; 3],
        d: &[Comp],
        size: Comp,
        inst: &InstData,
    ) -> Result<[Comp; 2], BackendError> {
        let here = self.face_derivative(axes, p, d, size, inst)?;
        let here = self.in_st_order(axes, here, inst)?;
        let mut moved = [Comp::Const(0); 3];
        let mut back = [Comp::Const(0); 3];
        for i in 0..3 {
            moved[i] = self.fadd(coord[i], d[i]);
            back[i] = self.unary(UnaryOp::FNeg, d[i], inst)?;
        }
        let axes2 = self.cube_axes(&moved, inst)?;
        let p2 = self.by_major(axes2, &moved);
        let there = self.face_derivative(axes2, p2, &back, size, inst)?;
        let there = self.in_st_order(axes2, there, inst)?;
        // The same face: the same major axis (z, else y, else x) with the
        // same sign.
        let same = |s: &mut Self, a: Comp, b: Comp| -> Result<Comp, BackendError> {
            let both = s.binary(BinaryOp::LogicalAnd, a, b, inst)?;
            let na = s.unary(UnaryOp::LogicalNot, a, inst)?;
            let nb = s.unary(UnaryOp::LogicalNot, b, inst)?;
            let neither = s.binary(BinaryOp::LogicalAnd, na, nb, inst)?;
            s.binary(BinaryOp::LogicalOr, both, neither, inst)
        };
        let same_z = same(self, axes.0, axes2.0)?;
        let same_y = same(self, axes.1, axes2.1)?;
        let y_counts = self.binary(BinaryOp::LogicalOr, axes.0, same_y, inst)?;
        let same_axis = self.binary(BinaryOp::LogicalAnd, same_z, y_counts, inst)?;
        let neg1 = self.compare(CmpOp::FOrdLt, p[0], Comp::Const(0));
        let neg2 = self.compare(CmpOp::FOrdLt, p2[0], Comp::Const(0));
        let same_sign = same(self, neg1, neg2)?;
        let same_face = self.binary(BinaryOp::LogicalAnd, same_axis, same_sign, inst)?;
        let mut e = [Comp::Const(0); 2];
        for i in 0..2 {
            let flipped = self.unary(UnaryOp::FNeg, there[i], inst)?;
            let (h, f) = (self.src_of(here[i]), self.src_of(flipped));
            e[i] = self.select(same_face, h, f);
        }
        Ok(e)
    }

    /// A `face_derivative` (tangents in `by_major` order: (y, z) on the x
    /// faces, which are t and s there) in (s, t) order.
    fn in_st_order(
        &mut self,
        (z, y): (Comp, Comp),
        e: [Comp; 2],
        inst: &InstData,
    ) -> Result<[Comp; 2], BackendError> {
        let not_y = self.unary(UnaryOp::LogicalNot, y, inst)?;
        let not_z = self.unary(UnaryOp::LogicalNot, z, inst)?;
        let x_major = self.binary(BinaryOp::LogicalAnd, not_z, not_y, inst)?;
        let (a, b) = (self.src_of(e[1]), self.src_of(e[0]));
        let s = self.select(x_major, a, b);
        let (a, b) = (self.src_of(e[0]), self.src_of(e[1]));
        let t = self.select(x_major, a, b);
        Ok([s, t])
    }

    /// The face-coordinate derivative in texels from direction derivative
    /// `d` at the direction whose components are `[m, a, b]` (`by_major`),
    /// for faces of `size` texels: a forward difference of the face
    /// coordinates `s = ½·sc/|m| + ½` (Vulkan's face table gives `sc`, `tc`
    /// as ±`a`, ±`b`), each rounded up to a multiple of 2^−`FACE_BITS`
    /// (`face_coord`).
    fn face_derivative(
        &mut self,
        axes: (Comp, Comp),
        [m, a, b]: [Comp; 3],
        d: &[Comp],
        size: Comp,
        inst: &InstData,
    ) -> Result<[Comp; 2], BackendError> {
        let [dm, da, db] = self.by_major(axes, d);
        let signs = self.face_signs(axes, m);
        let moved = self.fadd(m, dm);
        // The moved major component with the sign it has on the
        // direction's side of the centre (negative past the centre).
        let negative = self.compare(CmpOp::FOrdLt, m, Comp::Const(0));
        let (minus, plus) = (
            self.src_of(Comp::Const((-1.0f32).to_bits())),
            self.src_of(Comp::Const(1.0f32.to_bits())),
        );
        let side = self.select(negative, minus, plus);
        let moved = self.fmul(moved, side);
        let m = self.unary(UnaryOp::FAbs, m, inst)?;
        // The tangents of the direction and of the moved one, with the
        // face table's signs.
        let mut at = [Comp::Const(0); 2];
        let mut to = [Comp::Const(0); 2];
        for (((at, to), sign), (t, dt)) in at
            .iter_mut()
            .zip(&mut to)
            .zip(signs)
            .zip([(a, da), (b, db)])
        {
            *at = self.fmul(t, sign);
            let dt = self.fmul(dt, sign);
            *to = self.fadd(*at, dt);
        }
        let abs = [
            self.unary(UnaryOp::FAbs, to[0], inst)?,
            self.unary(UnaryOp::FAbs, to[1], inst)?,
        ];
        let big = self.binary(BinaryOp::FMax, abs[0], abs[1], inst)?;
        let big = self.binary(BinaryOp::FMax, big, moved, inst)?;
        let step = self.fmul(size, Comp::Const(FACE_STEP.to_bits()));
        let mut e = [Comp::Const(0); 2];
        let mut past = [Comp::Const(0); 2];
        for i in 0..2 {
            let here = self.binary(BinaryOp::FDiv, at[i], m, inst)?;
            let here = self.face_coord(here, inst)?;
            let there;
            (there, past[i]) = self.unfolded(to[i], abs[i], abs[1 - i], moved, big, inst)?;
            let there = self.face_coord(there, inst)?;
            let diff = self.fsub(there, here);
            e[i] = self.fmul(diff, step);
        }
        // Behind the centre with no edge crossed (on a diagonal or the
        // axis): the derivative is infinite, λ the largest.
        let behind = self.compare(CmpOp::FOrdLt, moved, Comp::Const(0));
        let crossed = self.binary(BinaryOp::LogicalOr, past[0], past[1], inst)?;
        let kept = self.unary(UnaryOp::LogicalNot, crossed, inst)?;
        let infinite = self.binary(BinaryOp::LogicalAnd, behind, kept, inst)?;
        for e_i in &mut e {
            let (inf, v) = (
                self.src_of(Comp::Const(f32::INFINITY.to_bits())),
                self.src_of(*e_i),
            );
            *e_i = self.select(infinite, inf, v);
        }
        Ok(e)
    }

    /// The face coordinate (−1..1 on the face) of the moved direction's
    /// tangent `x` (absolute value `ax`, the other tangent's `ay`, the
    /// major axis's `m` with the sign it has on the direction's side of
    /// the centre, the largest of the three `big`) on the direction's
    /// face, unfolded across an edge: `x/big` unless `x` is the largest
    /// (the point lies past that edge, on the neighbouring face, or past
    /// the centre beyond it), then ±(2 − m/|x|): 1 plus the distance from
    /// the edge on the neighbour's face (docs/TEXTURES.md, "3D and cube
    /// gradients"); and whether it was unfolded.
    fn unfolded(
        &mut self,
        x: Comp,
        ax: Comp,
        ay: Comp,
        m: Comp,
        big: Comp,
        inst: &InstData,
    ) -> Result<(Comp, Comp), BackendError> {
        let plain = self.binary(BinaryOp::FDiv, x, big, inst)?;
        let r = self.binary(BinaryOp::FDiv, m, ax, inst)?;
        let two = Comp::Const(2.0f32.to_bits());
        let pos = self.fsub(two, r);
        let neg = self.fsub(r, two);
        let negative = self.compare(CmpOp::FOrdLt, x, Comp::Const(0));
        let (n, p) = (self.src_of(neg), self.src_of(pos));
        let across = self.select(negative, n, p);
        let past_m = self.compare(CmpOp::FOrdGt, ax, m);
        let past_y = self.compare(CmpOp::FOrdGt, ax, ay);
        let largest = self.binary(BinaryOp::LogicalAnd, past_m, past_y, inst)?;
        let (a, p) = (self.src_of(across), self.src_of(plain));
        Ok((self.select(largest, a, p), largest))
    }

    /// The signs (±1.0) Vulkan's face table gives the tangents `a`, `b` of
    /// `by_major` in `sc`, `tc`: x major: `tc = −y`, `sc = −sign(x)·z`;
    /// y major: `sc = x`, `tc = sign(y)·z`; z major: `sc = sign(z)·x`,
    /// `tc = −y`.
    fn face_signs(&mut self, (z, y): (Comp, Comp), m: Comp) -> [Comp; 2] {
        let (plus, minus) = (1.0f32.to_bits(), (-1.0f32).to_bits());
        let negative = self.compare(CmpOp::FOrdLt, m, Comp::Const(0));
        let (p, n) = (
            self.src_of(Comp::Const(plus)),
            self.src_of(Comp::Const(minus)),
        );
        let sign = self.select(negative, n, p);
        let (p, n) = (
            self.src_of(Comp::Const(plus)),
            self.src_of(Comp::Const(minus)),
        );
        let flipped = self.select(negative, p, n);
        let (p, n) = (
            self.src_of(Comp::Const(plus)),
            self.src_of(Comp::Const(minus)),
        );
        let a_y = self.select(y, p, n);
        let (s, a_y) = (self.src_of(sign), self.src_of(a_y));
        let sa = self.select(z, s, a_y);
        let (s, f) = (self.src_of(sign), self.src_of(flipped));
        let b_y = self.select(y, s, f);
        let (n, b_y) = (self.src_of(Comp::Const(minus)), self.src_of(b_y));
        let sb = self.select(z, n, b_y);
        [sa, sb]
    }

    /// `⌈(½·q + ½)·2^FACE_BITS⌉`: face coordinate `q` (−1..1) as 0..1 in
    /// units of 2^−`FACE_BITS`, rounded up.
    fn face_coord(&mut self, q: Comp, inst: &InstData) -> Result<Comp, BackendError> {
        let half = Comp::Const(0.5f32.to_bits());
        let s = self.ffma(q, half, half);
        let scaled = self.fmul(s, Comp::Const(FACE_UNITS.to_bits()));
        self.unary(UnaryOp::FCeil, scaled, inst)
    }

    /// `|x|` (`ax`) cut to its top 9 mantissa bits, `m·q`, and `q/2^shift`
    /// (0 below the normal range), as integer operations on its bits.
    fn top9(&mut self, ax: Comp, shift: u32, inst: &InstData) -> Result<[Comp; 2], BackendError> {
        let cut = self.binary(BinaryOp::And, ax, Comp::Const(FACE_LONG_MASK), inst)?;
        let exp = self.binary(BinaryOp::And, ax, Comp::Const(EXPONENT_BITS), inst)?;
        let low = self.binary(BinaryOp::ISub, exp, Comp::Const((9 + shift) << 23), inst)?;
        let low = self.binary(BinaryOp::SMax, low, Comp::Const(0), inst)?;
        Ok([cut, low])
    }

    /// ρ of a face derivative `e` as the texture unit takes a 2D gradient:
    /// its longer component cut to 9 mantissa bits plus `(11·m + 4)/32·q`
    /// for the shorter one's top 9 bits `m·q` (the simulator's
    /// `filter::rho2`, the same f32 operations).
    fn face_rho(&mut self, e: [Comp; 2], inst: &InstData) -> Result<Comp, BackendError> {
        let a0 = self.unary(UnaryOp::FAbs, e[0], inst)?;
        let a1 = self.unary(UnaryOp::FAbs, e[1], inst)?;
        let hi = self.binary(BinaryOp::FMax, a0, a1, inst)?;
        let lo = self.binary(BinaryOp::FMin, a0, a1, inst)?;
        let hi = self.binary(BinaryOp::And, hi, Comp::Const(FACE_LONG_MASK), inst)?;
        let [short, eighth] = self.top9(lo, 3, inst)?;
        let part = self.ffma(short, Comp::Const(FACE_SHORT.to_bits()), eighth);
        Ok(self.fadd(hi, part))
    }

    /// ρ of the sum or difference `v` of a pair of face derivatives: each
    /// component scaled to `(11·m + 4)/16·q` of its top 9 mantissa bits
    /// `m·q`, then the longer cut to 9 bits plus 11/32 of the shorter
    /// (`filter::pair_rho2`).
    fn diagonal_rho(&mut self, v: [Comp; 2], inst: &InstData) -> Result<Comp, BackendError> {
        let mut scaled = [Comp::Const(0); 2];
        for (out, &c) in scaled.iter_mut().zip(&v) {
            let a = self.unary(UnaryOp::FAbs, c, inst)?;
            let [cut, quarter] = self.top9(a, 2, inst)?;
            *out = self.ffma(cut, Comp::Const(FACE_PAIR.to_bits()), quarter);
        }
        let hi = self.binary(BinaryOp::FMax, scaled[0], scaled[1], inst)?;
        let lo = self.binary(BinaryOp::FMin, scaled[0], scaled[1], inst)?;
        let hi = self.binary(BinaryOp::And, hi, Comp::Const(FACE_LONG_MASK), inst)?;
        Ok(self.ffma(lo, Comp::Const(FACE_SHORT.to_bits()), hi))
    }
}
