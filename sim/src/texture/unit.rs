//! [`TextureUnit`]: the operations compiled code performs on images,
//! texel buffers and samplers (TLD, TEX, TLD4, TXQ, SULD, SUST, SUATOM
//! execute through it), reading headers from the bound pools and texels
//! from global memory. Vulkan's rules are followed where the hardware is
//! not documented; docs/TEXTURES.md lists what is inferred.

use super::address::wrap;
use super::blend::{Arithmetic, Blend};
use super::cube;
use super::fields::words;
use super::filter::{self, LevelChoice};
use super::format::DataType;
use super::header::{Dim, HEADER_BYTES, TextureHeader};
use super::layout::{level_size, texel_offset};
use super::sampler::{Filter, SAMPLER_BYTES, SamplerHeader, Wrap};
use super::texel;
use super::weights;
use super::{Handle, TexError, TexturePools};
use crate::memory::GlobalMemory;
use spvsass_isa::isa::{AtomOp, AtomType};

/// How a sampled lookup picks its level.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Lod {
    /// λ given (textureLod); before the sampler's bias and clamps.
    Explicit(f32),
    /// Derivatives of the coordinates along x and y (textureGrad): of the
    /// normalised coordinates, or of the direction for cubes.
    Gradient { dx: [f32; 3], dy: [f32; 3] },
}

/// A sampled lookup's operands.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Lookup {
    /// The coordinates, then the array layer where the image is arrayed:
    /// 1D `(s, [layer])`, 2D `(s, t, [layer])`, 3D `(s, t, r)`, cube
    /// `(x, y, z, [cube])`. Normalised unless the sampler or header says
    /// otherwise.
    pub coords: [f32; 4],
    pub lod: Lod,
    /// Added to the integer texel coordinates (ConstOffset).
    pub offset: [i32; 3],
    /// The depth reference of a compare lookup.
    pub reference: Option<f32>,
}

impl Lookup {
    pub fn new(coords: [f32; 4], lod: f32) -> Lookup {
        Lookup {
            coords,
            lod: Lod::Explicit(lod),
            offset: [0; 3],
            reference: None,
        }
    }
}

/// A gather's component and per-texel offsets (ConstOffsets).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Gather {
    /// 0..4: which result component of each texel (ignored by compares).
    pub component: u8,
    pub offsets: Option<[[i32; 2]; 4]>,
}

/// What TXQ asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Query {
    /// The size of level `lod` of the view: width, then height, then depth
    /// or layers (cube arrays: cubes) as the dimension has them, zeros
    /// after; all zero for a level outside the view.
    Size { lod: u32 },
    /// Levels in the view.
    Levels,
    /// Samples per texel.
    Samples,
}

/// The texture unit of one SM over `mem`, with the pools the dispatch or
/// draw bound.
pub struct TextureUnit<'a> {
    pub mem: &'a mut GlobalMemory,
    pub pools: TexturePools,
}

const ONE: u32 = 0x3f80_0000;

impl<'a> TextureUnit<'a> {
    pub fn new(mem: &'a mut GlobalMemory, pools: TexturePools) -> Self {
        TextureUnit { mem, pools }
    }

    /// The texture header a handle names, with its index.
    pub fn header(&mut self, handle: u32) -> Result<(u32, TextureHeader), TexError> {
        let index = Handle(handle).texture();
        if index == 0 {
            return Err(TexError::NullTexture { handle });
        }
        if index > self.pools.header_max {
            return Err(TexError::TextureIndex {
                index,
                max: self.pools.header_max,
            });
        }
        let address = self.pools.headers + u64::from(index) * u64::from(HEADER_BYTES);
        let w = self
            .mem
            .read(address, HEADER_BYTES)
            .map(words)
            .map_err(|fault| TexError::Memory {
                what: "a texture header",
                address,
                fault,
            })?;
        Ok((index, TextureHeader::decode(&w, index)?))
    }

    /// The sampler header a handle names.
    pub fn sampler(&mut self, handle: u32) -> Result<SamplerHeader, TexError> {
        let index = Handle(handle).sampler();
        if index == 0 {
            return Err(TexError::NullSampler { handle });
        }
        if index > self.pools.sampler_max {
            return Err(TexError::SamplerIndex {
                index,
                max: self.pools.sampler_max,
            });
        }
        let address = self.pools.samplers + u64::from(index) * u64::from(SAMPLER_BYTES);
        let w = self
            .mem
            .read(address, SAMPLER_BYTES)
            .map(words)
            .map_err(|fault| TexError::Memory {
                what: "a sampler header",
                address,
                fault,
            })?;
        SamplerHeader::decode(&w, index)
    }

    /// The address of a texel, `None` outside the image.
    fn texel_address(h: &TextureHeader, level: u32, at: [i64; 3], sample: u32) -> Option<u64> {
        texel_offset(h, level, at, sample).map(|o| h.address + o)
    }

    /// One texel's result components; `None` outside the image.
    fn texel(
        &mut self,
        h: &TextureHeader,
        level: u32,
        at: [i64; 3],
        sample: u32,
    ) -> Result<Option<[u32; 4]>, TexError> {
        self.texel_as(h, level, at, sample, texel::Snorm::Clamped)
    }

    /// One texel's result components, SNORM decoded as `snorm` says.
    fn texel_as(
        &mut self,
        h: &TextureHeader,
        level: u32,
        at: [i64; 3],
        sample: u32,
        snorm: texel::Snorm,
    ) -> Result<Option<[u32; 4]>, TexError> {
        let Some(address) = Self::texel_address(h, level, at, sample) else {
            return Ok(None);
        };
        let info = h.format.info();
        let bytes = self
            .mem
            .read(address, info.texel_bytes())
            .map_err(|fault| TexError::Memory {
                what: "a texel",
                address,
                fault,
            })?;
        Ok(Some(texel::swizzle(
            texel::decode_stored_as(info, bytes, h.srgb, snorm),
            h.swizzle,
        )))
    }

    /// Integer coordinates as x, y and slice (layer, cube face or 3D
    /// slice) for the header's dimension.
    fn split(h: &TextureHeader, c: [i32; 3]) -> [i64; 3] {
        let c = c.map(i64::from);
        match h.dim {
            Dim::D1 | Dim::Buffer => [c[0], 0, 0],
            Dim::D1Array => [c[0], 0, c[1]],
            Dim::D2 | Dim::D2NoMipmap => [c[0], c[1], 0],
            Dim::D2Array | Dim::Cube | Dim::CubeArray | Dim::D3 => c,
        }
    }

    /// TLD: the texel at integer coordinates of level `lod` (from the
    /// view's first level) and sample `sample`; zero outside the image,
    /// the view's levels or the samples.
    pub fn fetch(
        &mut self,
        handle: u32,
        coords: [i32; 3],
        lod: i32,
        sample: u32,
    ) -> Result<[u32; 4], TexError> {
        let (_, h) = self.header(handle)?;
        let (first, last) = h.view_levels;
        let Some(level) = u32::try_from(lod)
            .ok()
            .and_then(|l| l.checked_add(first))
            .filter(|&l| l <= last)
        else {
            return Ok([0; 4]);
        };
        Ok(self
            .texel(&h, level, Self::split(&h, coords), sample)?
            .unwrap_or([0; 4]))
    }

    /// TEX: a filtered lookup through the handle's sampler.
    pub fn sample(&mut self, handle: u32, l: &Lookup) -> Result<[u32; 4], TexError> {
        let (index, h) = self.header(handle)?;
        let s = self.sampler(handle)?;
        let p = Position::new(&h, index, l.coords, "a sampled lookup")?;
        let unnormalized = s.unnormalized || !h.normalized_coords;
        let choice = if unnormalized {
            LevelChoice::one(h.view_levels.0, s.mag)
        } else {
            let lambda = match l.lod {
                Lod::Explicit(lod) => lod,
                Lod::Gradient { dx, dy } => {
                    let size = level_size(&h, h.view_levels.0).map(|n| n as f32);
                    match p.direction {
                        Some(dir) => cube::gradient_lod(dir, dx, dy, size[0]),
                        None => {
                            let scale = |d: [f32; 3]| -> [f32; 3] {
                                let mut out = [0.0; 3];
                                for a in 0..p.dims {
                                    out[a] = d[a] * size[a];
                                }
                                out
                            };
                            if p.dims <= 2 {
                                let (x, y) = (scale(dx), scale(dy));
                                filter::gradient_lod_2d([x[0], x[1]], [y[0], y[1]])
                            } else {
                                filter::gradient_lod(scale(dx), scale(dy))
                            }
                        }
                    }
                }
            };
            filter::choose_levels(&h, &s, lambda)
        };
        let info = h.format.info();
        let normalized = !unnormalized;
        if info.is_integer() && l.reference.is_none() {
            if choice.filter == Filter::Linear || choice.count == 2 {
                return Err(TexError::FilterInteger {
                    index,
                    format: h.format,
                });
            }
            // One texel's integers.
            let level = choice.levels[0].0;
            let at = Self::nearest_at(&h, &p, level, l.offset, normalized);
            return self.wrapped(&h, &s, &p, level, at, None, texel::Snorm::Clamped);
        }
        let reference = l.reference.map(|r| {
            if info.data_type == DataType::Unorm {
                r.clamp(0.0, 1.0)
            } else {
                r
            }
        });
        let mut blend = Blend::new(Arithmetic::for_lookup(
            info,
            h.swizzle,
            h.srgb,
            reference.is_some(),
        ));
        for &(level, share) in &choice.levels[..choice.count] {
            let at = Footprint {
                level,
                share,
                filter: choice.filter,
                offset: l.offset,
                normalized,
            };
            self.filter_level(&h, &s, &p, &at, reference, &mut blend)?;
        }
        let out = blend.finish();
        Ok(match reference {
            Some(_) => [out[0], 0, 0, ONE],
            None => out,
        })
    }

    /// The texel coordinates a nearest filter reads on `level` (Vulkan's
    /// `floor(u)` of the float coordinate, plus the offset).
    fn nearest_at(
        h: &TextureHeader,
        p: &Position,
        level: u32,
        offset: [i32; 3],
        normalized: bool,
    ) -> [i64; 3] {
        let size = level_size(h, level);
        let mut at = [0i64, 0, p.slice];
        for (a, x) in at.iter_mut().enumerate().take(p.dims) {
            let u = if normalized {
                p.coords[a] * size[a] as f32
            } else {
                p.coords[a]
            };
            *x = filter::nearest(u) + i64::from(offset[a]);
        }
        at
    }

    /// Adds one level's texels to `blend`: the nearest texel with the
    /// level's share, or a linear footprint's texels with their weights
    /// (`weights::corners`). Compares add their 0.0/1.0 results.
    fn filter_level(
        &mut self,
        h: &TextureHeader,
        s: &SamplerHeader,
        p: &Position,
        f: &Footprint,
        reference: Option<f32>,
        blend: &mut Blend,
    ) -> Result<(), TexError> {
        match f.filter {
            Filter::Nearest => {
                let mut at = Self::nearest_at(h, p, f.level, f.offset, f.normalized);
                if p.direction.is_some() {
                    // A cube face's nearest texel stays on the face (a
                    // coordinate of exactly 1 takes its last texel).
                    let side = i64::from(level_size(h, f.level)[0]);
                    at[0] = at[0].clamp(0, side - 1);
                    at[1] = at[1].clamp(0, side - 1);
                }
                let v = self.wrapped(h, s, p, f.level, at, reference, texel::Snorm::Unclamped)?;
                blend.add(f.share, v);
            }
            Filter::Linear => {
                let size = level_size(h, f.level);
                let mut base = [0i64, 0, p.slice];
                let mut fracs = [0u32; 3];
                for a in 0..p.dims {
                    let u = f64::from(p.coords[a]);
                    let u = if f.normalized {
                        u * f64::from(size[a])
                    } else {
                        u
                    };
                    // Clamp-to-edge clamps the coordinate itself (cube
                    // lookups are seamless and ignore the address modes).
                    let clamp = (p.direction.is_none() && s.wrap[a] == Wrap::ClampToEdge)
                        .then_some(size[a]);
                    (base[a], fracs[a]) = filter::linear_axis(u, f.offset[a], clamp);
                }
                let mut w = weights::corners(f.share, &fracs[..p.dims]);
                if p.direction.is_some() {
                    cube::share_corner(&mut w[..4], [base[0], base[1]], size[0]);
                }
                for (corner, &weight) in w.iter().enumerate().take(1 << p.dims) {
                    if weight == 0 {
                        continue;
                    }
                    let mut at = base;
                    for (a, x) in at.iter_mut().enumerate().take(p.dims) {
                        *x += ((corner >> a) & 1) as i64;
                    }
                    let v =
                        self.wrapped(h, s, p, f.level, at, reference, texel::Snorm::Unclamped)?;
                    blend.add(weight, v);
                }
            }
        }
        Ok(())
    }

    /// The texel at unwrapped coordinates: wrapped by the sampler (cube
    /// texels across an edge come from the neighbouring face), the border
    /// colour outside, compared with `reference` when given; SNORM
    /// decoded as `snorm` says.
    #[allow(clippy::too_many_arguments)]
    fn wrapped(
        &mut self,
        h: &TextureHeader,
        s: &SamplerHeader,
        p: &Position,
        level: u32,
        at: [i64; 3],
        reference: Option<f32>,
        snorm: texel::Snorm,
    ) -> Result<[u32; 4], TexError> {
        let size = level_size(h, level);
        let mut w = at;
        let mut border = false;
        if p.direction.is_some() {
            // Seamless cube filtering: a texel across a face's edge is the
            // neighbouring face's (faces are square, `size[0]` a side).
            let inside = |a: usize| (0..i64::from(size[a])).contains(&at[a]);
            if !inside(0) || !inside(1) {
                let face = at[2].rem_euclid(6) as u32;
                let (f, x, y) = cube::across_edge(face, at[0], at[1], size[0]);
                w = [x, y, at[2] - i64::from(face) + i64::from(f)];
            }
        } else {
            for a in 0..p.dims {
                match wrap(s.wrap[a], at[a], size[a]) {
                    Some(x) => w[a] = x,
                    None => border = true,
                }
            }
        }
        let v = if border {
            texel::border(s.border, h.swizzle)
        } else {
            self.texel_as(h, level, w, 0, snorm)?.unwrap_or([0; 4])
        };
        Ok(match (reference, s.compare) {
            (Some(r), Some(op)) => {
                let pass = op.test(r, f32::from_bits(v[0]));
                [if pass { ONE } else { 0 }, 0, 0, ONE]
            }
            _ => v,
        })
    }

    /// TLD4: component `g.component` (or the compare result) of the four
    /// texels of a linear footprint on the view's first level, in
    /// Vulkan's order: (i0, j1), (i1, j1), (i1, j0), (i0, j0).
    pub fn gather(&mut self, handle: u32, l: &Lookup, g: &Gather) -> Result<[u32; 4], TexError> {
        let (index, h) = self.header(handle)?;
        let s = self.sampler(handle)?;
        let p = Position::new(&h, index, l.coords, "a gather")?;
        if p.dims != 2 {
            return Err(TexError::Dim {
                index,
                op: "a gather",
                dim: h.dim,
            });
        }
        let level = h.view_levels.0;
        let size = level_size(&h, level);
        let normalized = !s.unnormalized && h.normalized_coords;
        let u = |a: usize| {
            let u = f64::from(p.coords[a]);
            if normalized {
                u * f64::from(size[a])
            } else {
                u
            }
        };
        let (i0, _) = filter::linear_axis(u(0), 0, None);
        let (j0, _) = filter::linear_axis(u(1), 0, None);
        let corners = [(0, 1), (1, 1), (1, 0), (0, 0)];
        let mut out = [0u32; 4];
        for (k, (di, dj)) in corners.into_iter().enumerate() {
            let off = match g.offsets {
                Some(o) => o[k],
                None => [l.offset[0], l.offset[1]],
            };
            let at = [
                i0 + di + i64::from(off[0]),
                j0 + dj + i64::from(off[1]),
                p.slice,
            ];
            let v = self.wrapped(&h, &s, &p, level, at, l.reference, texel::Snorm::Clamped)?;
            out[k] = if l.reference.is_some() {
                v[0]
            } else {
                v[usize::from(g.component & 3)]
            };
        }
        Ok(out)
    }

    /// TXQ.
    pub fn query(&mut self, handle: u32, q: Query) -> Result<[u32; 4], TexError> {
        let (_, h) = self.header(handle)?;
        let (first, last) = h.view_levels;
        Ok(match q {
            Query::Levels => [last - first + 1, 0, 0, 0],
            Query::Samples => [h.samples.count(), 0, 0, 0],
            Query::Size { lod } => {
                let Some(level) = lod.checked_add(first).filter(|&l| l <= last) else {
                    return Ok([0; 4]);
                };
                let [w, hh, d] = level_size(&h, level);
                match h.dim {
                    Dim::D1 | Dim::Buffer => [w, 0, 0, 0],
                    Dim::D1Array => [w, h.depth, 0, 0],
                    Dim::D2 | Dim::D2NoMipmap | Dim::Cube => [w, hh, 0, 0],
                    Dim::D2Array | Dim::CubeArray => [w, hh, h.depth, 0],
                    Dim::D3 => [w, hh, d, 0],
                }
            }
        })
    }

    /// SULD (formatted): the texel at integer coordinates of the view's
    /// first level, converted; zero outside the image.
    pub fn load(
        &mut self,
        handle: u32,
        coords: [i32; 3],
        sample: u32,
    ) -> Result<[u32; 4], TexError> {
        let (_, h) = self.header(handle)?;
        Ok(self
            .texel(&h, h.view_levels.0, Self::split(&h, coords), sample)?
            .unwrap_or([0; 4]))
    }

    /// SULD (raw): the texel's bytes as little-endian words, zero-padded
    /// to whole words; zero outside the image.
    pub fn load_raw(
        &mut self,
        handle: u32,
        coords: [i32; 3],
        sample: u32,
    ) -> Result<[u32; 4], TexError> {
        let (_, h) = self.header(handle)?;
        let Some(address) =
            Self::texel_address(&h, h.view_levels.0, Self::split(&h, coords), sample)
        else {
            return Ok([0; 4]);
        };
        let n = h.format.info().texel_bytes();
        let bytes = self
            .mem
            .read(address, n)
            .map_err(|fault| TexError::Memory {
                what: "a texel",
                address,
                fault,
            })?;
        let mut out = [0u32; 4];
        for (i, b) in bytes.iter().enumerate() {
            out[i / 4] |= u32::from(*b) << (8 * (i % 4));
        }
        Ok(out)
    }

    /// SUST (formatted): converts `value` to the format and writes it;
    /// nothing outside the image.
    pub fn store(
        &mut self,
        handle: u32,
        coords: [i32; 3],
        sample: u32,
        value: [u32; 4],
    ) -> Result<(), TexError> {
        let (_, h) = self.header(handle)?;
        let bytes = texel::encode(h.format.info(), h.swizzle, h.srgb, value);
        self.write(&h, coords, sample, &bytes)
    }

    /// SUST (raw): writes the texel's bytes from little-endian words.
    pub fn store_raw(
        &mut self,
        handle: u32,
        coords: [i32; 3],
        sample: u32,
        value: [u32; 4],
    ) -> Result<(), TexError> {
        let (_, h) = self.header(handle)?;
        let n = h.format.info().texel_bytes() as usize;
        let bytes: Vec<u8> = value.iter().flat_map(|w| w.to_le_bytes()).take(n).collect();
        self.write(&h, coords, sample, &bytes)
    }

    fn write(
        &mut self,
        h: &TextureHeader,
        coords: [i32; 3],
        sample: u32,
        bytes: &[u8],
    ) -> Result<(), TexError> {
        let Some(address) = Self::texel_address(h, h.view_levels.0, Self::split(h, coords), sample)
        else {
            return Ok(());
        };
        self.mem
            .write(address, bytes)
            .map_err(|fault| TexError::Store { address, fault })
    }

    /// SUATOM: a 32-bit read-modify-write of the texel (the ISA's own
    /// atomic semantics, `AtomType::apply`); returns the old value, 0
    /// outside the image (nothing is written there).
    #[allow(clippy::too_many_arguments)]
    pub fn atomic(
        &mut self,
        handle: u32,
        coords: [i32; 3],
        sample: u32,
        op: AtomOp,
        ty: AtomType,
        data: u32,
        compare: u32,
    ) -> Result<u32, TexError> {
        if ty.regs() != 1 {
            return Err(TexError::AtomicType { ty: ty.suffix() });
        }
        let (index, h) = self.header(handle)?;
        if h.format.info().bits != [32] {
            return Err(TexError::AtomicFormat {
                index,
                format: h.format,
            });
        }
        let Some(address) =
            Self::texel_address(&h, h.view_levels.0, Self::split(&h, coords), sample)
        else {
            return Ok(0);
        };
        let cell = self
            .mem
            .cell(address, 4)
            .map_err(|fault| TexError::Store { address, fault })?;
        let old = u32::from_le_bytes([cell[0], cell[1], cell[2], cell[3]]);
        let new = ty.apply(op, u64::from(old), u64::from(data), u64::from(compare)) as u32;
        cell.copy_from_slice(&new.to_le_bytes());
        Ok(old)
    }
}

/// One level of a sampled lookup: which level, its share of the lookup
/// (1/256 steps), the filter within it, the texel offset and whether the
/// coordinates are normalised.
struct Footprint {
    level: u32,
    share: u32,
    filter: Filter,
    offset: [i32; 3],
    normalized: bool,
}

/// A lookup's position: coordinates along the image's axes, the slice
/// (layer or cube face), and for cubes the direction.
struct Position {
    coords: [f32; 3],
    dims: usize,
    slice: i64,
    direction: Option<[f32; 3]>,
}

impl Position {
    fn new(
        h: &TextureHeader,
        index: u32,
        c: [f32; 4],
        op: &'static str,
    ) -> Result<Position, TexError> {
        // Vulkan: layer = clamp(RNE(a), 0, layers - 1).
        let layer = |a: f32, n: u32| (a.round_ties_even() as i64).clamp(0, i64::from(n) - 1);
        Ok(match h.dim {
            Dim::Buffer => {
                return Err(TexError::Dim {
                    index,
                    op,
                    dim: h.dim,
                });
            }
            Dim::D1 => Position {
                coords: [c[0], 0.0, 0.0],
                dims: 1,
                slice: 0,
                direction: None,
            },
            Dim::D1Array => Position {
                coords: [c[0], 0.0, 0.0],
                dims: 1,
                slice: layer(c[1], h.depth),
                direction: None,
            },
            Dim::D2 | Dim::D2NoMipmap => Position {
                coords: [c[0], c[1], 0.0],
                dims: 2,
                slice: 0,
                direction: None,
            },
            Dim::D2Array => Position {
                coords: [c[0], c[1], 0.0],
                dims: 2,
                slice: layer(c[2], h.depth),
                direction: None,
            },
            Dim::D3 => Position {
                coords: [c[0], c[1], c[2]],
                dims: 3,
                slice: 0,
                direction: None,
            },
            Dim::Cube | Dim::CubeArray => {
                let dir = [c[0], c[1], c[2]];
                let (face, s, t) = cube::face_coords(dir);
                let cube = if h.dim == Dim::CubeArray {
                    layer(c[3], h.depth)
                } else {
                    0
                };
                Position {
                    coords: [s, t, 0.0],
                    dims: 2,
                    slice: 6 * cube + i64::from(face),
                    direction: Some(dir),
                }
            }
        })
    }
}
