//! A run description's images, texel buffers and samplers (docs/RUNS.md,
//! "Images and samplers"): what the JSON says, and the image bytes it
//! gives, in the simulator's layout (docs/TEXTURES.md, "Image memory"),
//! which both the reference runner and the simulator start from.

use super::description::{Data, resolve_data};
use super::error::{DescriptionError, ReferenceError};
use serde::{Deserialize, Serialize};
use spvsass_sim::texture::Format;
use spvsass_sim::texture::host::{
    BoundImage, BoundSampler, ImageDim, ImageKind, ImageShape, SamplerState,
    TEXEL_BUFFER_OFFSET_ALIGN, png_rgba8,
};
use spvsass_sim::{MAX_STORAGE_BUFFER_BYTES, Slot};
use std::path::{Path, PathBuf};

fn is_zero(n: &u32) -> bool {
    *n == 0
}

fn one() -> u32 {
    1
}

fn is_one(n: &u32) -> bool {
    *n == 1
}

/// One image or texel buffer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImageDescription {
    #[serde(default, skip_serializing_if = "is_zero")]
    pub set: u32,
    pub binding: u32,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub element: u32,
    pub kind: ImageKind,
    pub format: Format,
    pub dim: ImageDim,
    /// Level-0 size; taken from the PNG when one is given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub width: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub height: Option<u32>,
    /// 3D depth, array layers, or cubes of a cube array.
    #[serde(default = "one")]
    pub depth: u32,
    #[serde(default = "one")]
    pub levels: u32,
    /// Samples per texel (1, 2, 4, 8 or 16; more than 1 for a one-level
    /// 2d or 2d_array image only).
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub samples: u32,
    /// Every level's texels in the simulator's layout; empty: zeros.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub contents: Vec<Data>,
    /// A PNG file for level 0 of an R8G8B8A8 2D image, instead of
    /// `contents`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub png: Option<PathBuf>,
    /// A combined image-sampler's sampler.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sampler: Option<SamplerState>,
    /// Report the image's final bytes (storage images and storage texel
    /// buffers) in the result's `buffers`, as words.
    #[serde(default)]
    pub read_back: bool,
    /// Texel buffers: where the buffer view starts in the buffer that
    /// `contents` gives (a multiple of 16); 0 for images.
    #[serde(default, skip_serializing_if = "is_zero_u64")]
    pub offset: u64,
}

fn is_zero_u64(n: &u64) -> bool {
    *n == 0
}

/// One separate sampler.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SamplerDescription {
    #[serde(default, skip_serializing_if = "is_zero")]
    pub set: u32,
    pub binding: u32,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub element: u32,
    #[serde(default)]
    pub sampler: SamplerState,
}

impl ImageDescription {
    pub fn slot(&self) -> Slot {
        Slot {
            set: self.set,
            binding: self.binding,
            element: self.element,
        }
    }

    fn what(&self) -> String {
        format!(
            "image at set {} binding {}[{}]",
            self.set, self.binding, self.element
        )
    }

    /// Checks what needs no files.
    pub fn check(&self) -> Result<(), DescriptionError> {
        let problem = |problem: &'static str| DescriptionError::Image {
            set: self.set,
            binding: self.binding,
            element: self.element,
            problem,
        };
        if (self.kind == ImageKind::Combined) != self.sampler.is_some() {
            return Err(problem(
                "a combined image-sampler, and only it, has a `sampler`",
            ));
        }
        if self.kind.is_texel_buffer() != (self.dim == ImageDim::Buffer) {
            return Err(problem("texel buffers, and only they, have dim `buffer`"));
        }
        if self.offset != 0 && !self.kind.is_texel_buffer() {
            return Err(problem("only texel buffers have an `offset`"));
        }
        if !self.offset.is_multiple_of(TEXEL_BUFFER_OFFSET_ALIGN) {
            return Err(problem("a texel buffer's `offset` is a multiple of 16"));
        }
        let probe = ImageShape {
            format: self.format,
            dim: self.dim,
            width: self.width.unwrap_or(1),
            height: self.height.unwrap_or(1),
            depth: self.depth,
            levels: self.levels,
            samples: self.samples,
        };
        if let Some(p) = probe.multisample_problem() {
            return Err(problem(p));
        }
        if self.samples > 1 && self.read_back {
            return Err(problem(
                "a multisampled image cannot be read back (Vulkan copies no multisampled image to a buffer)",
            ));
        }
        if self.png.is_some() {
            if !self.contents.is_empty() {
                return Err(problem("give `contents` or `png`, not both"));
            }
            let rgba8 = matches!(self.format, Format::R8G8B8A8Unorm | Format::R8G8B8A8Srgb);
            if !rgba8 || self.dim != ImageDim::D2 || self.levels != 1 {
                return Err(problem(
                    "a `png` fills a one-level 2d image of r8g8b8a8_unorm or _srgb",
                ));
            }
        } else if self.width.is_none() {
            return Err(problem("`width` is required without a `png`"));
        }
        if self.read_back
            && !matches!(
                self.kind,
                ImageKind::Storage | ImageKind::StorageTexelBuffer
            )
        {
            return Err(problem(
                "only storage images and storage texel buffers are read back",
            ));
        }
        Ok(())
    }

    /// The shape and initial bytes (every level, the simulator's layout;
    /// a texel buffer's whole buffer, its view from `offset` on).
    pub fn resolve(&self, base: &Path) -> Result<(ImageShape, Vec<u8>), ReferenceError> {
        let what = self.what();
        let png = match &self.png {
            Some(p) => {
                let path = base.join(p);
                let bytes = std::fs::read(&path)
                    .map_err(|source| ReferenceError::ReadFile { path, source })?;
                Some(png_rgba8(&bytes).map_err(|e| ReferenceError::ImageData {
                    what: what.clone(),
                    problem: e.to_string(),
                })?)
            }
            None => None,
        };
        let (width, height) = match &png {
            Some((w, h, _)) => (*w, *h),
            None => (self.width.unwrap_or(1), self.height.unwrap_or(1)),
        };
        let shape = ImageShape {
            format: self.format,
            dim: self.dim,
            width,
            height,
            depth: self.depth,
            levels: self.levels,
            samples: self.samples,
        };
        let needed = self.offset.saturating_add(shape.bytes());
        if needed > MAX_STORAGE_BUFFER_BYTES {
            return Err(ReferenceError::OverLimit {
                what,
                bytes: needed,
                limit: MAX_STORAGE_BUFFER_BYTES,
            });
        }
        let bytes = match png {
            Some((_, _, rgba)) => rgba,
            None if self.contents.is_empty() => vec![0; needed as usize],
            None => {
                let mut b = resolve_data(&self.contents, base, &what, MAX_STORAGE_BUFFER_BYTES)?;
                // Contents are whole words: an image of another size is
                // given with its last word zero-padded.
                if b.len() as u64 == needed.next_multiple_of(4) {
                    b.truncate(needed as usize);
                }
                b
            }
        };
        if bytes.len() as u64 != needed {
            return Err(ReferenceError::ImageData {
                what,
                problem: format!(
                    "{} bytes given, the offset, format and shape need {needed}",
                    bytes.len()
                ),
            });
        }
        Ok((shape, bytes))
    }
}

impl SamplerDescription {
    pub fn slot(&self) -> Slot {
        Slot {
            set: self.set,
            binding: self.binding,
            element: self.element,
        }
    }
}

/// The description's images and samplers as the simulator binds them.
pub fn bound(
    images: &[ImageDescription],
    samplers: &[SamplerDescription],
    base: &Path,
) -> Result<(Vec<BoundImage>, Vec<BoundSampler>), ReferenceError> {
    let mut out = Vec::new();
    for i in images {
        let (shape, bytes) = i.resolve(base)?;
        out.push(BoundImage {
            slot: i.slot(),
            kind: i.kind,
            shape,
            bytes,
            sampler: i.sampler,
            offset: i.offset,
        });
    }
    let samplers = samplers
        .iter()
        .map(|s| BoundSampler {
            slot: s.slot(),
            state: s.sampler,
        })
        .collect();
    Ok((out, samplers))
}

/// Bytes as little-endian words, the last zero-padded.
pub fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks(4)
        .map(|c| {
            let mut w = [0u8; 4];
            w[..c.len()].copy_from_slice(c);
            u32::from_le_bytes(w)
        })
        .collect()
}
