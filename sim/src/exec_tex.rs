//! Executing the texture and surface ops (TEX, TLD, TLD4, TXD, TXQ, SULD,
//! SUST, SUATOM/SURED) through the texture unit (`texture/`): the source
//! registers are unpacked by the ISA's packing rule (`OpTex::src_counts`,
//! docs/ISA.md "Texture and surface ops"), each lane's request goes to the
//! unit, and the selected components are packed back into the
//! destination groups. Errors name the pc, the lane and the handle.

use crate::error::SimError;
use crate::texture::{Gather, Lod, Lookup, Query, TexError, TextureUnit};
use crate::warp::{Env, Warp, lanes};
use spvsass_isa::isa::{
    AtomOp, Dst, OpSuAtom, OpSuLd, OpSuSt, OpTex, OpTxq, SuAccess, SuDim, TexDim, TexKind,
    TxqQuery, group_width,
};

/// The components `mask` selects from `v`, packed from the lowest.
fn masked(v: [u32; 4], mask: u8) -> Vec<u32> {
    (0..4)
        .filter(|i| mask >> i & 1 != 0)
        .map(|i| v[i])
        .collect()
}

/// A signed field of `bits` bits at `shift` of `word`.
fn signed_field(word: u32, shift: u32, bits: u32) -> i32 {
    ((word >> shift) as i32) << (32 - bits) >> (32 - bits)
}

/// Integer coordinates of a texel fetch as the texture unit takes them:
/// x, (y), then the layer.
fn fetch_coords(dim: TexDim, layer: Option<u32>, c: &[u32]) -> [i32; 3] {
    let l = layer.unwrap_or(0) as i32;
    match dim.coords() {
        1 => [c[0] as i32, l, 0],
        2 => [c[0] as i32, c[1] as i32, l],
        _ => [c[0] as i32, c[1] as i32, c[2] as i32],
    }
}

impl Warp<'_> {
    fn write_result(&mut self, lane: usize, dst: [Dst; 2], comps: &[u32]) {
        let (lo, hi) = comps.split_at(comps.len().min(2));
        self.set_group(lane, dst[0], lo);
        self.set_group(lane, dst[1], hi);
    }

    fn tex_err(pc: u32, lane: usize, handle: u32, error: TexError) -> SimError {
        SimError::Texture {
            pc,
            lane: lane as u32,
            handle,
            error: crate::error::TexFault(error),
        }
    }

    pub(crate) fn tex(
        &mut self,
        exec: u32,
        o: OpTex,
        pc: u32,
        env: &mut Env<'_>,
    ) -> Result<(), SimError> {
        let [n0, n1] = o.src_counts();
        let mut unit = TextureUnit::new(env.global, env.textures);
        for l in lanes(exec) {
            let s0 = self.src_group(l, &o.src[0], group_width(n0), pc)?;
            let s1 = self.src_group(l, &o.src[1], group_width(n1), pc)?;
            let (handle, result) = match o.kind {
                TexKind::Txd => {
                    let handle = s0[0];
                    let k = usize::from(o.dim.coords());
                    let mut coords = [0f32; 4];
                    for (i, c) in coords.iter_mut().enumerate().take(k) {
                        *c = f32::from_bits(s0[1 + i]);
                    }
                    let mut offset = [0; 3];
                    if o.dim.is_array() || o.offset {
                        let packed = s0[1 + k];
                        if o.dim.is_array() {
                            coords[k] = (packed & 0xffff) as f32;
                        }
                        if o.offset {
                            for (i, off) in offset.iter_mut().enumerate() {
                                *off = signed_field(packed, 16 + 4 * i as u32, 4);
                            }
                        }
                    }
                    let (mut dx, mut dy) = ([0f32; 3], [0f32; 3]);
                    for i in 0..k {
                        dx[i] = f32::from_bits(s1[2 * i]);
                        dy[i] = f32::from_bits(s1[2 * i + 1]);
                    }
                    let lookup = Lookup {
                        coords,
                        lod: Lod::Gradient { dx, dy },
                        offset,
                        reference: None,
                    };
                    (handle, unit.sample(handle, &lookup))
                }
                _ => {
                    let layer = o.dim.is_array().then_some(s0[0]);
                    let first = usize::from(o.dim.is_array());
                    let c = &s0[first..first + usize::from(o.dim.coords())];
                    let mut rest = s1.iter().copied();
                    let handle = rest.next().unwrap_or(0);
                    let sample = if o.ms { rest.next().unwrap_or(0) } else { 0 };
                    let lod = if o.lod.has_reg() { rest.next() } else { None };
                    let offset = if o.offset { rest.next() } else { None };
                    let reference = if o.dc { rest.next() } else { None };
                    match o.kind {
                        TexKind::Tld => {
                            let coords = fetch_coords(o.dim, layer, c);
                            let lod = lod.unwrap_or(0) as i32;
                            (handle, unit.fetch(handle, coords, lod, sample))
                        }
                        TexKind::Tex | TexKind::Tld4 { .. } => {
                            let k = c.len();
                            let mut coords = [0f32; 4];
                            for i in 0..k {
                                coords[i] = f32::from_bits(c[i]);
                            }
                            if let Some(layer) = layer {
                                coords[k] = layer as f32;
                            }
                            let bits = if matches!(o.kind, TexKind::Tld4 { .. }) {
                                8
                            } else {
                                4
                            };
                            let mut off = [0; 3];
                            if let Some(p) = offset {
                                for (i, x) in off.iter_mut().enumerate() {
                                    *x = signed_field(p, bits * i as u32, bits);
                                }
                            }
                            let lookup = Lookup {
                                coords,
                                lod: Lod::Explicit(lod.map_or(0.0, f32::from_bits)),
                                offset: off,
                                reference: reference.map(f32::from_bits),
                            };
                            match o.kind {
                                TexKind::Tld4 { comp } => {
                                    let g = Gather {
                                        component: comp,
                                        offsets: None,
                                    };
                                    (handle, unit.gather(handle, &lookup, &g))
                                }
                                _ => (handle, unit.sample(handle, &lookup)),
                            }
                        }
                        TexKind::Txd => unreachable!("handled above"),
                    }
                }
            };
            let v = result.map_err(|e| Self::tex_err(pc, l, handle, e))?;
            self.write_result(l, o.dst, &masked(v, o.mask));
        }
        Ok(())
    }

    pub(crate) fn txq(
        &mut self,
        exec: u32,
        o: OpTxq,
        pc: u32,
        env: &mut Env<'_>,
    ) -> Result<(), SimError> {
        let mut unit = TextureUnit::new(env.global, env.textures);
        for l in lanes(exec) {
            let s = self.src_group(l, &o.src, o.src_count(), pc)?;
            let handle = s[0];
            let err = |e| Self::tex_err(pc, l, handle, e);
            let v = match o.query {
                TxqQuery::Dimension => {
                    let mut v = unit.query(handle, Query::Size { lod: s[1] }).map_err(err)?;
                    v[3] = unit.query(handle, Query::Levels).map_err(err)?[0];
                    v
                }
                TxqQuery::TextureType => {
                    let samples = unit.query(handle, Query::Samples).map_err(err)?[0];
                    [0, 0, samples, 0]
                }
                TxqQuery::SamplerPos => {
                    return Err(SimError::Unsupported {
                        pc,
                        what: "TXQ of sample positions",
                    });
                }
            };
            self.write_result(l, o.dst, &masked(v, o.mask));
        }
        Ok(())
    }

    fn surface_coords(
        &self,
        lane: usize,
        coord: &spvsass_isa::isa::Src,
        dim: SuDim,
        byte_addr: bool,
        pc: u32,
    ) -> Result<[i32; 3], SimError> {
        if byte_addr {
            return Err(SimError::Unsupported {
                pc,
                what: "byte-addressed (.BA) surface coordinates",
            });
        }
        let c = self.src_group(lane, coord, group_width(dim.coords()), pc)?;
        Ok([c[0] as i32, c[1] as i32, c[2] as i32])
    }

    pub(crate) fn suld(
        &mut self,
        exec: u32,
        o: OpSuLd,
        pc: u32,
        env: &mut Env<'_>,
    ) -> Result<(), SimError> {
        let mut unit = TextureUnit::new(env.global, env.textures);
        for l in lanes(exec) {
            let coords = self.surface_coords(l, &o.coord, o.dim, o.byte_addr, pc)?;
            let handle = self.src(l, &o.handle, pc)?;
            let err = |e| Self::tex_err(pc, l, handle, e);
            let v = match o.access {
                SuAccess::Formatted(mask) => {
                    masked(unit.load(handle, coords, 0).map_err(err)?, mask)
                }
                SuAccess::Binary(size) => {
                    let raw = unit.load_raw(handle, coords, 0).map_err(err)?;
                    raw[..usize::from(size.regs())].to_vec()
                }
            };
            self.set_group(l, o.dst, &v);
        }
        Ok(())
    }

    pub(crate) fn sust(
        &mut self,
        exec: u32,
        o: OpSuSt,
        pc: u32,
        env: &mut Env<'_>,
    ) -> Result<(), SimError> {
        let mut unit = TextureUnit::new(env.global, env.textures);
        for l in lanes(exec) {
            let coords = self.surface_coords(l, &o.coord, o.dim, o.byte_addr, pc)?;
            let handle = self.src(l, &o.handle, pc)?;
            let data = self.src_group(l, &o.data, o.access.regs(), pc)?;
            let err = |e| Self::tex_err(pc, l, handle, e);
            match o.access {
                SuAccess::Formatted(mask) => {
                    // The masked components, in order, from the data
                    // registers; the others are zero.
                    let mut v = [0u32; 4];
                    let mut next = data.iter();
                    for (i, c) in v.iter_mut().enumerate() {
                        if mask >> i & 1 != 0 {
                            *c = *next.next().unwrap_or(&0);
                        }
                    }
                    unit.store(handle, coords, 0, v).map_err(err)?;
                }
                SuAccess::Binary(_) => unit.store_raw(handle, coords, 0, data).map_err(err)?,
            }
        }
        Ok(())
    }

    pub(crate) fn suatom(
        &mut self,
        exec: u32,
        o: OpSuAtom,
        pc: u32,
        env: &mut Env<'_>,
    ) -> Result<(), SimError> {
        let mut unit = TextureUnit::new(env.global, env.textures);
        for l in lanes(exec) {
            let coords = self.surface_coords(l, &o.coord, o.dim, o.byte_addr, pc)?;
            let handle = self.src(l, &o.handle, pc)?;
            let data = self.src_group(l, &o.data, 2, pc)?;
            // Compare-and-swap takes (compare, new value).
            let (value, compare) = match o.op {
                AtomOp::CmpExch => (data[1], data[0]),
                _ => (data[0], 0),
            };
            let old = unit
                .atomic(handle, coords, 0, o.op, o.ty, value, compare)
                .map_err(|e| Self::tex_err(pc, l, handle, e))?;
            self.set_gpr(l, o.dst, old);
        }
        Ok(())
    }
}
