//! Multisample layouts: the texture header's `MULTI_SAMPLE_COUNT` modes
//! (open-gpu-doc, classes/3d/clcd97tex.h), each a grid of samples per
//! pixel and a map from sample index to a position in that grid. A
//! multisampled image is stored as a single-sampled image of the grid's
//! size times its own (docs/TEXTURES.md, "Multisampled images"), so a
//! sample's texel is at `(x·sw + sx, y·sh + sy)`.

/// A `MULTI_SAMPLE_COUNT` mode the simulator reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SampleLayout {
    #[default]
    S1x1,
    S2x1,
    S2x2,
    S4x2,
    S4x2D3d,
    S2x1D3d,
    S4x4,
}

impl SampleLayout {
    pub const ALL: [SampleLayout; 7] = [
        SampleLayout::S1x1,
        SampleLayout::S2x1,
        SampleLayout::S2x2,
        SampleLayout::S4x2,
        SampleLayout::S4x2D3d,
        SampleLayout::S2x1D3d,
        SampleLayout::S4x4,
    ];

    /// The header's `MULTI_SAMPLE_COUNT` value.
    pub fn mode(self) -> u64 {
        match self {
            SampleLayout::S1x1 => 0,
            SampleLayout::S2x1 => 1,
            SampleLayout::S2x2 => 2,
            SampleLayout::S4x2 => 3,
            SampleLayout::S4x2D3d => 4,
            SampleLayout::S2x1D3d => 5,
            SampleLayout::S4x4 => 6,
        }
    }

    /// The layout of a header mode; `None` for the modes the simulator
    /// does not read (the VC modes 8..11 and unassigned values).
    pub fn from_mode(mode: u64) -> Option<SampleLayout> {
        SampleLayout::ALL.into_iter().find(|l| l.mode() == mode)
    }

    /// The layout a driver picks for `samples` samples: the D3D forms for
    /// 2 and 8, as NVK does (Mesa, nil `choose_sample_layout`), whose
    /// sample positions are Vulkan's standard ones.
    pub fn for_count(samples: u32) -> Option<SampleLayout> {
        Some(match samples {
            1 => SampleLayout::S1x1,
            2 => SampleLayout::S2x1D3d,
            4 => SampleLayout::S2x2,
            8 => SampleLayout::S4x2D3d,
            16 => SampleLayout::S4x4,
            _ => return None,
        })
    }

    /// Samples per pixel.
    pub fn count(self) -> u32 {
        let (w, h) = self.grid();
        w * h
    }

    /// The grid of samples a pixel takes in memory: (width, height).
    pub fn grid(self) -> (u32, u32) {
        match self {
            SampleLayout::S1x1 => (1, 1),
            SampleLayout::S2x1 | SampleLayout::S2x1D3d => (2, 1),
            SampleLayout::S2x2 => (2, 2),
            SampleLayout::S4x2 | SampleLayout::S4x2D3d => (4, 2),
            SampleLayout::S4x4 => (4, 4),
        }
    }

    /// Where sample `s` (below `count`) lies in the pixel's grid. The D3D
    /// forms' maps are NVK's (Mesa, nil `sa_offset`); the 4×4 map is not
    /// known and is taken row by row, as the plain 2×1, 2×2 and 4×2 are.
    pub fn position(self, s: u32) -> (u32, u32) {
        match self {
            SampleLayout::S1x1 => (0, 0),
            SampleLayout::S2x1 => (s & 1, 0),
            SampleLayout::S2x1D3d => (1 - (s & 1), 0),
            SampleLayout::S2x2 => (s & 1, (s >> 1) & 1),
            SampleLayout::S4x2 => (s & 3, (s >> 2) & 1),
            SampleLayout::S4x2D3d => {
                const MAP: [(u32, u32); 8] = [
                    (2, 0),
                    (1, 1),
                    (3, 1),
                    (1, 0),
                    (0, 1),
                    (0, 0),
                    (2, 1),
                    (3, 0),
                ];
                MAP[(s & 7) as usize]
            }
            SampleLayout::S4x4 => (s & 3, (s >> 2) & 3),
        }
    }

    /// The storage-image descriptor's sample map (NVK's form): sample `s`
    /// in nibble `s`, x in its low two bits and y in its high two. A 4×4
    /// layout's 16 samples need 64 bits: its map holds samples 0..8.
    pub fn sample_map(self) -> u32 {
        (0..self.count().min(8)).fold(0, |m, s| {
            let (x, y) = self.position(s);
            m | (x | y << 2) << (4 * s)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_sample_has_its_own_place_in_the_grid() {
        for l in SampleLayout::ALL {
            let (w, h) = l.grid();
            let mut seen = vec![false; (w * h) as usize];
            for s in 0..l.count() {
                let (x, y) = l.position(s);
                assert!(x < w && y < h, "{l:?} sample {s}");
                assert!(!std::mem::replace(&mut seen[(y * w + x) as usize], true));
            }
            assert_eq!(SampleLayout::from_mode(l.mode()), Some(l));
        }
        assert_eq!(SampleLayout::from_mode(8), None);
        assert_eq!(SampleLayout::for_count(3), None);
    }

    #[test]
    fn sample_maps_as_nvk_writes_them() {
        // 2×2: samples 0..3 at (0,0), (1,0), (0,1), (1,1): nibbles 0, 1, 4, 5.
        assert_eq!(SampleLayout::S2x2.sample_map(), 0x5410);
        // 2×1 D3D: sample 0 on the right.
        assert_eq!(SampleLayout::S2x1D3d.sample_map(), 0x01);
        assert_eq!(SampleLayout::S4x2D3d.position(1), (1, 1));
    }
}
