//! The culling code's passes over the outputs (`insert_cull.rs`
//! describes them): test every primitive, then compact vertices and
//! primitives in place and write the new primitive count.

use super::Code;
use super::triangle::{LUT_AND, LUT_OR, PLUT_AND, PLUT_AND_NOT, PLUT_OR};
use crate::isa::{
    Dst, IntCmp, IsbeAccess, IsbeSize, Op, OpBmsk, OpRedux, OpVote, PredSrc, ReduxOp, SpecialReg,
    Src, VoteMode,
};
use crate::isbe_layout::{AttrLayout, BLOCK_ELEMS, addr, map};
use crate::lower_cull::CullPlan;

/// Vertices per triangle.
const VPP: u32 = 3;

impl Code<'_> {
    /// Culls and compacts; returns the surviving vertex count and the
    /// reference mask of the first 32 vertices (what part two needs).
    pub(super) fn cull_and_compact(&mut self, control: Src, plan: CullPlan) -> (Src, Src) {
        let params = self.cull_params(control);
        let lane = self.special_reg(SpecialReg::LaneId).src();
        let below = self.special_reg(SpecialReg::LtMask).src();
        let vl = self.vertex_layout;
        let pl = self.primitive_layout;
        let prim_blocks = pl.max_elems.div_ceil(BLOCK_ELEMS);
        let vertex_blocks = vl.max_elems.div_ceil(BLOCK_ELEMS);
        let count = self.c_isbe_rd(
            Src::ZERO,
            map::PRIMITIVE_COUNT_WRITE_OFFSET,
            IsbeAccess::Map,
            IsbeSize::B32,
            false,
        );
        let lane3 = self.c_imad(lane, Src::imm(VPP), Src::ZERO);
        // Pass 1: test; a ballot of survivors per block of primitives and,
        // per lane, the reference bits of its survivors' vertices.
        let mut ballots = Vec::new();
        let mut refs = vec![Src::ZERO; vertex_blocks as usize];
        for k in 0..prim_blocks {
            let p = self.c_iadd(lane, Src::imm(k * BLOCK_ELEMS));
            let inside = self.c_isetp(IntCmp::Lt, p, count);
            let idx = self.read_indices(lane3, k);
            let mut pos = [[Src::ZERO; 4]; 3];
            for (j, &i) in idx.iter().enumerate() {
                let off = self.c_elem_offset(i, vl);
                for (c, slot) in pos[j].iter_mut().enumerate() {
                    let base = vl.skew_base(addr::POSITION + 4 * c as u16).unwrap_or(0);
                    *slot = self.c_isbe_rd(off, base, IsbeAccess::Attr, IsbeSize::B32, false);
                }
            }
            let culled = self.triangle_culled(&pos, &params);
            let keep = self.c_plop(inside, culled, PLUT_AND_NOT);
            let ballot = self.c_gpr(PredSrc::TRUE, |dst| {
                Op::Vote(OpVote {
                    dst,
                    pdst: Dst::None,
                    src: keep,
                    mode: VoteMode::Any,
                })
            });
            ballots.push(ballot);
            for &i in &idx {
                let one = self.c_reg(1);
                let bit = self.c_shift(one, i, false);
                let bit = self.c_sel(bit, Src::ZERO, keep);
                let block = self.c_shift(i, Src::imm(5), true);
                for (b, r) in refs.iter_mut().enumerate() {
                    let here = if vertex_blocks == 1 {
                        bit
                    } else {
                        let p = self.c_isetp(IntCmp::Eq, block, Src::imm(b as u32));
                        self.c_sel(bit, Src::ZERO, p)
                    };
                    *r = if *r == Src::ZERO {
                        here
                    } else {
                        self.c_lop(*r, here, LUT_OR)
                    };
                }
            }
        }
        // The reference masks over the warp, and where each vertex block's
        // survivors start.
        let mut masks = Vec::new();
        let mut vbase = Vec::new();
        let mut total = Src::ZERO;
        for r in refs {
            let m = self.c_gpr(PredSrc::TRUE, |dst| {
                Op::Redux(OpRedux {
                    dst,
                    src: r,
                    op: ReduxOp::Or,
                    signed: false,
                })
            });
            vbase.push(total);
            let n = self.c_popc(m);
            total = if total == Src::ZERO {
                n
            } else {
                self.c_iadd(n, total)
            };
            masks.push(m);
        }
        self.move_vertices(plan, vl, &masks, &vbase, lane, below);
        let kept = self.move_primitives(pl, &ballots, &masks, &vbase, lane3, below);
        // The new primitive count, by one lane.
        let lane0 = self.c_isetp(IntCmp::Eq, lane, Src::ZERO);
        self.c_isbe_wr(
            (Src::ZERO, map::PRIMITIVE_COUNT_WRITE_OFFSET),
            kept,
            IsbeAccess::Map,
            IsbeSize::B32,
            lane0,
        );
        (total, masks[0])
    }

    /// The three vertex indices of primitive `lane + 32k` (8-bit reads at
    /// MAP 0x4 + 3p + j).
    /// Indices past the declared vertices (only in slots past the
    /// primitive count) read as 0, so the reads they address stay inside
    /// the layout.
    /// Lanes past the declared primitives read primitive 32k instead, so
    /// the reads stay inside the MAP region.
    fn read_indices(&mut self, lane3: Src, k: u32) -> [Src; 3] {
        let max = self.vertex_layout.max_elems;
        let lanes = self.primitive_layout.max_elems - k * BLOCK_ELEMS;
        let at = if lanes >= BLOCK_ELEMS {
            lane3
        } else {
            let lane = self.special_reg(SpecialReg::LaneId).src();
            let declared = self.c_isetp(IntCmp::Lt, lane, Src::imm(lanes));
            self.c_sel(lane3, Src::ZERO, declared)
        };
        [0, 1, 2].map(|j| {
            let imm = map::index_offset(k * BLOCK_ELEMS, VPP, j);
            let i = self.c_isbe_rd(at, imm, IsbeAccess::Map, IsbeSize::U8, false);
            let ok = self.c_isetp(IntCmp::Lt, i, Src::imm(max));
            self.c_sel(i, Src::ZERO, ok)
        })
    }

    /// `(v / 32) * block_size + (v % 32) * 4`.
    fn c_elem_offset(&mut self, v: Src, layout: &AttrLayout) -> Src {
        let block = self.c_shift(v, Src::imm(5), true);
        let lane = self.c_lop(v, Src::imm(31), LUT_AND);
        let part = self.c_imad(block, Src::imm(layout.block_size()), Src::ZERO);
        self.c_imad(lane, Src::imm(4), part)
    }

    /// The new index of vertex `i`: the survivors before it.
    fn remap(&mut self, i: Src, masks: &[Src], vbase: &[Src]) -> Src {
        let low = self.c_lop(i, Src::imm(31), LUT_AND);
        let below = self.c_gpr(PredSrc::TRUE, |dst| {
            Op::Bmsk(OpBmsk {
                dst,
                srcs: [Src::ZERO, low],
                wrap: false,
            })
        });
        let (mut mask, mut base) = (masks[0], vbase[0]);
        if masks.len() > 1 {
            let block = self.c_shift(i, Src::imm(5), true);
            for b in 1..masks.len() {
                let p = self.c_isetp(IntCmp::Eq, block, Src::imm(b as u32));
                mask = self.c_sel(masks[b], mask, p);
                let vb = self.cull_reg_src(vbase[b]);
                let cur = self.cull_reg_src(base);
                base = self.c_sel(vb, cur, p);
            }
        }
        let m = self.c_lop(mask, below, LUT_AND);
        let n = self.c_popc(m);
        if base == Src::ZERO {
            n
        } else {
            self.c_iadd(n, base)
        }
    }

    /// A source usable where only registers go (RZ stays RZ).
    fn cull_reg_src(&mut self, s: Src) -> Src {
        match s.src {
            crate::isa::SrcRef::Imm(v) => self.c_reg(v),
            _ => s,
        }
    }

    /// Moves referenced vertices to their new indices: positions when the
    /// other outputs come later (deferred), else every component.
    fn move_vertices(
        &mut self,
        plan: CullPlan,
        vl: &AttrLayout,
        masks: &[Src],
        vbase: &[Src],
        lane: Src,
        below: Src,
    ) {
        let comps: Vec<u16> = match plan {
            CullPlan::Deferred => (0..4).map(|c| addr::POSITION + 4 * c).collect(),
            CullPlan::Epilogue => vl.components.clone(),
        };
        let one = self.c_reg(1);
        let lane_bit = self.c_shift(one, lane, false);
        for (b, (&mask, &base)) in masks.iter().zip(vbase).enumerate() {
            let b = b as u32;
            let mine = self.c_lop(mask, lane_bit, LUT_AND);
            let referenced = self.c_isetp(IntCmp::Ne, mine, Src::ZERO);
            let before = self.c_lop(mask, below, LUT_AND);
            let n = self.c_popc(before);
            let to = if base == Src::ZERO {
                n
            } else {
                self.c_iadd(n, base)
            };
            let from = self.c_iadd(lane, Src::imm(b * BLOCK_ELEMS));
            let stays = self.c_isetp(IntCmp::Eq, to, from);
            let moves = self.c_plop(referenced, stays, PLUT_AND_NOT);
            let data: Vec<Src> = comps
                .iter()
                .map(|&a| {
                    let at = vl.skew_base(a).unwrap_or(0) + b * vl.block_size();
                    self.c_isbe_rd(Src::ZERO, at, IsbeAccess::Attr, IsbeSize::B32, true)
                })
                .collect();
            let off = self.c_elem_offset(to, vl);
            for (&a, d) in comps.iter().zip(data) {
                let at = (off, vl.skew_base(a).unwrap_or(0));
                self.c_isbe_wr(at, d, IsbeAccess::Attr, IsbeSize::B32, moves);
            }
        }
    }

    /// Moves surviving primitives (indices remapped, per-primitive
    /// outputs) down to their new places; returns the survivor count.
    fn move_primitives(
        &mut self,
        pl: &AttrLayout,
        ballots: &[Src],
        masks: &[Src],
        vbase: &[Src],
        lane3: Src,
        below: Src,
    ) -> Src {
        let mut base = Src::ZERO;
        let lane = self.special_reg(SpecialReg::LaneId).src();
        let one = self.c_reg(1);
        let lane_bit = self.c_shift(one, lane, false);
        for (k, &ballot) in ballots.iter().enumerate() {
            let k = k as u32;
            let mine = self.c_lop(ballot, lane_bit, LUT_AND);
            let keep = self.c_isetp(IntCmp::Ne, mine, Src::ZERO);
            let before = self.c_lop(ballot, below, LUT_AND);
            let n = self.c_popc(before);
            let to = if base == Src::ZERO {
                n
            } else {
                self.c_iadd(n, base)
            };
            // Read the block whole, then write.
            let idx = self.read_indices(lane3, k);
            let data: Vec<Src> = pl
                .components
                .iter()
                .map(|&a| {
                    let at = pl.skew_base(a).unwrap_or(0) + k * pl.block_size();
                    self.c_isbe_rd(Src::ZERO, at, IsbeAccess::Attr, IsbeSize::B32, true)
                })
                .collect();
            let new: Vec<Src> = idx.iter().map(|&i| self.remap(i, masks, vbase)).collect();
            // Only what changes is written: a primitive that keeps its
            // place and its indices is left as it is.
            let from = self.c_iadd(lane, Src::imm(k * BLOCK_ELEMS));
            let moved = self.c_isetp(IntCmp::Ne, to, from);
            let mut changed = moved;
            for (&i, &n) in idx.iter().zip(&new) {
                let differs = self.c_isetp(IntCmp::Ne, i, n);
                changed = self.c_plop(changed, differs, PLUT_OR);
            }
            let rewrite = self.c_plop(keep, changed, PLUT_AND);
            let to3 = self.c_imad(to, Src::imm(VPP), Src::ZERO);
            for (j, &i) in new.iter().enumerate() {
                let at = (to3, map::index_offset(0, VPP, j as u32));
                self.c_isbe_wr(at, i, IsbeAccess::Map, IsbeSize::U8, rewrite);
            }
            if !pl.components.is_empty() {
                let moves = self.c_plop(keep, moved, PLUT_AND);
                let off = self.c_elem_offset(to, pl);
                for (&a, d) in pl.components.iter().zip(data) {
                    let at = (off, pl.skew_base(a).unwrap_or(0));
                    self.c_isbe_wr(at, d, IsbeAccess::Attr, IsbeSize::B32, moves);
                }
            }
            let survivors = self.c_popc(ballot);
            base = if base == Src::ZERO {
                survivors
            } else {
                self.c_iadd(survivors, base)
            };
        }
        base
    }

    /// The index of the `n`-th (from 0) set bit of `mask`: the largest p
    /// with popc(mask & ((1 << p) - 1)) <= n, by binary search.
    pub(super) fn nth_set_bit(&mut self, mask: Src, n: Src) -> Src {
        let mut pos = Src::ZERO;
        for step in [16u32, 8, 4, 2, 1] {
            let probe = self.c_iadd(pos, Src::imm(step));
            let low = self.c_gpr(PredSrc::TRUE, |dst| {
                Op::Bmsk(OpBmsk {
                    dst,
                    srcs: [Src::ZERO, probe],
                    wrap: false,
                })
            });
            let m = self.c_lop(mask, low, LUT_AND);
            let c = self.c_popc(m);
            let fits = self.c_isetp(IntCmp::Le, c, n);
            pos = self.c_sel(probe, pos, fits);
        }
        pos
    }
}
