//! Where an image's texels are in memory (docs/TEXTURES.md, "Image
//! memory"): pitch-linear and tightly packed, level after level from the
//! header's address, each level starting at a multiple of 16 bytes;
//! within a level, layer (or 3D slice) after layer, row after row, texel
//! after texel. A multisampled image is stored as a single-sampled one of
//! its sample grid's size (`samples.rs`): sample s of texel (x, y) at
//! (x·sw + sx(s), y·sh + sy(s)). The hardware stores images block-linear
//! (GOBs); the simulator does not, and ignores the header's block-linear
//! fields.

use super::header::{Dim, TextureHeader};

/// Levels start at multiples of this many bytes.
pub const LEVEL_ALIGN: u64 = 16;

/// Width, height and depth of `level` (depth 1 unless 3D; layers apart).
pub fn level_size(h: &TextureHeader, level: u32) -> [u32; 3] {
    let shrink = |n: u32| (n >> level.min(31)).max(1);
    match h.dim {
        Dim::Buffer => [h.width, 1, 1],
        Dim::D1 | Dim::D1Array => [shrink(h.width), 1, 1],
        Dim::D2 | Dim::D2Array | Dim::D2NoMipmap | Dim::Cube | Dim::CubeArray => {
            [shrink(h.width), shrink(h.height), 1]
        }
        Dim::D3 => [shrink(h.width), shrink(h.height), shrink(h.depth)],
    }
}

/// Bytes of one level, every layer and sample included.
pub fn level_bytes(h: &TextureHeader, level: u32) -> u64 {
    let [w, hh, d] = level_size(h, level);
    u64::from(w)
        * u64::from(hh)
        * u64::from(d)
        * u64::from(h.layers())
        * u64::from(h.samples.count())
        * u64::from(h.format.info().texel_bytes())
}

/// Where `level` starts, from the image's address.
pub fn level_offset(h: &TextureHeader, level: u32) -> u64 {
    (0..level)
        .map(|l| level_bytes(h, l).next_multiple_of(LEVEL_ALIGN))
        .sum()
}

/// Bytes the whole image takes (no padding after the last level).
pub fn image_bytes(h: &TextureHeader) -> u64 {
    let last = h.levels.saturating_sub(1);
    level_offset(h, last) + level_bytes(h, last)
}

/// Where texel `x, y` of slice `slice` (the 3D slice or the layer; cube
/// faces are layers) and sample `sample` of `level` is, from the image's
/// address; `None` when outside the level.
pub fn texel_offset(
    h: &TextureHeader,
    level: u32,
    [x, y, slice]: [i64; 3],
    sample: u32,
) -> Option<u64> {
    let [w, hh, d] = level_size(h, level);
    let slices = if h.dim == Dim::D3 { d } else { h.layers() };
    let inside = |v: i64, n: u32| (0..i64::from(n)).contains(&v);
    if level >= h.levels
        || sample >= h.samples.count()
        || !inside(x, w)
        || !inside(y, hh)
        || !inside(slice, slices)
    {
        return None;
    }
    // In the sample grid: rows of w·sw texels, h·sh rows per slice.
    let (sw, sh) = h.samples.grid();
    let (sx, sy) = h.samples.position(sample);
    let (x, y) = (
        x as u64 * u64::from(sw) + u64::from(sx),
        y as u64 * u64::from(sh) + u64::from(sy),
    );
    let (w, hh) = (u64::from(w) * u64::from(sw), u64::from(hh) * u64::from(sh));
    let texel = (slice as u64 * hh + y) * w + x;
    Some(level_offset(h, level) + texel * u64::from(h.format.info().texel_bytes()))
}

#[cfg(test)]
mod tests {
    use super::super::format::Format;
    use super::*;

    #[test]
    fn levels_are_packed_and_16_byte_aligned() {
        // 5×3 RGBA8 with 4 layers: level 0 is 5·3·4·4 = 240 bytes, level 1
        // (2×1) 2·1·4·4 = 32, level 2 (1×1) 16.
        let h = TextureHeader::new(0, Format::R8G8B8A8Unorm, Dim::D2Array, [5, 3, 4], 3);
        assert_eq!(level_size(&h, 1), [2, 1, 1]);
        assert_eq!(level_offset(&h, 1), 240);
        assert_eq!(level_offset(&h, 2), 272);
        assert_eq!(image_bytes(&h), 288);
        assert_eq!(
            texel_offset(&h, 0, [1, 2, 3], 0),
            Some(((3 * 3 + 2) * 5 + 1) * 4)
        );
        assert_eq!(
            texel_offset(&h, 1, [1, 0, 2], 0),
            Some(240 + (2 * 2 + 1) * 4)
        );
        assert_eq!(texel_offset(&h, 0, [5, 0, 0], 0), None);
        assert_eq!(texel_offset(&h, 0, [0, 0, 4], 0), None);
        assert_eq!(texel_offset(&h, 3, [0, 0, 0], 0), None);
        // An R8 level of 3 bytes is padded to 16.
        let h = TextureHeader::new(0, Format::R8Uint, Dim::D1, [3, 1, 1], 2);
        assert_eq!(level_offset(&h, 1), 16);
        // No padding after the last level.
        assert_eq!(image_bytes(&h), 17);
        // 3D: depth shrinks with the level; cube faces are layers.
        let h = TextureHeader::new(0, Format::R32Sfloat, Dim::D3, [4, 4, 4], 2);
        assert_eq!(level_size(&h, 1), [2, 2, 2]);
        let h = TextureHeader::new(0, Format::R32Sfloat, Dim::CubeArray, [2, 2, 2], 1);
        assert_eq!(image_bytes(&h), 2 * 2 * 12 * 4);
    }
}
