//! The driver side of images and samplers: what a run binds (an image's
//! format, shape and bytes, a sampler's state), placed into global memory
//! with the texture header and sampler pools and one handle per
//! descriptor, and images read back after the run (docs/TEXTURES.md,
//! "Driver side"). PNG files become R8G8B8A8 images.

use super::format::Format;
use super::header::{Dim, HEADER_BYTES, TextureHeader};
use super::layout::image_bytes;
use super::sampler::{CompareOp, Filter, MipFilter, SamplerHeader, Wrap};
use super::samples::SampleLayout;
use super::{Handle, TexturePools};
use crate::descriptors::Slot;
use crate::memory::{GlobalMemory, MAX_STORAGE_BUFFER_BYTES};
use serde::{Deserialize, Serialize};

/// An image's dimensionality as a view sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ImageDim {
    #[serde(rename = "1d")]
    D1,
    #[serde(rename = "2d")]
    D2,
    #[serde(rename = "3d")]
    D3,
    Cube,
    #[serde(rename = "1d_array")]
    D1Array,
    #[serde(rename = "2d_array")]
    D2Array,
    CubeArray,
    /// A texel buffer.
    Buffer,
}

impl ImageDim {
    pub fn header_dim(self) -> Dim {
        match self {
            ImageDim::D1 => Dim::D1,
            ImageDim::D2 => Dim::D2,
            ImageDim::D3 => Dim::D3,
            ImageDim::Cube => Dim::Cube,
            ImageDim::D1Array => Dim::D1Array,
            ImageDim::D2Array => Dim::D2Array,
            ImageDim::CubeArray => Dim::CubeArray,
            ImageDim::Buffer => Dim::Buffer,
        }
    }
}

/// What a descriptor of an image says it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ImageKind {
    /// VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE (a separate image).
    Sampled,
    /// VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER: needs a sampler.
    Combined,
    /// VK_DESCRIPTOR_TYPE_STORAGE_IMAGE.
    Storage,
    /// VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER.
    UniformTexelBuffer,
    /// VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER.
    StorageTexelBuffer,
}

impl ImageKind {
    pub fn is_texel_buffer(self) -> bool {
        matches!(
            self,
            ImageKind::UniformTexelBuffer | ImageKind::StorageTexelBuffer
        )
    }
}

fn one() -> u32 {
    1
}

/// An image's shape and format. Sizes are of level 0; `depth` is the 3D
/// depth, the layer count of 1D/2D arrays, or the cube count of cube
/// arrays (1 otherwise).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImageShape {
    pub format: Format,
    pub dim: ImageDim,
    pub width: u32,
    #[serde(default = "one")]
    pub height: u32,
    #[serde(default = "one")]
    pub depth: u32,
    #[serde(default = "one")]
    pub levels: u32,
    #[serde(default = "one")]
    pub samples: u32,
}

impl ImageShape {
    /// The header of this image at `address`.
    pub fn header(&self, address: u64) -> TextureHeader {
        let mut h = TextureHeader::new(
            address,
            self.format,
            self.dim.header_dim(),
            [self.width, self.height, self.depth],
            self.levels,
        );
        h.samples = SampleLayout::for_count(self.samples).unwrap_or_default();
        h
    }

    /// What is wrong with a multisampled shape, if anything: a sample
    /// count Vulkan has, a 2D image or 2D array, one level (Vulkan's
    /// rules for multisampled images).
    pub fn multisample_problem(&self) -> Option<&'static str> {
        if SampleLayout::for_count(self.samples).is_none() {
            return Some("`samples` is 1, 2, 4, 8 or 16");
        }
        if self.samples > 1
            && (!matches!(self.dim, ImageDim::D2 | ImageDim::D2Array) || self.levels != 1)
        {
            return Some("a multisampled image is a 2d image or 2d_array with one level");
        }
        None
    }

    /// A multisampled storage image as its surface ops see it: the
    /// single-sampled image of its sample grid (NVK's storage view of a
    /// multisampled image; docs/TEXTURES.md, "Multisampled images"),
    /// with the same bytes.
    pub fn sample_grid(&self) -> ImageShape {
        let (sw, sh) = SampleLayout::for_count(self.samples)
            .unwrap_or_default()
            .grid();
        ImageShape {
            width: self.width * sw,
            height: self.height * sh,
            samples: 1,
            ..*self
        }
    }

    /// Bytes the image takes in the simulator's layout
    /// (`texture::layout`).
    pub fn bytes(&self) -> u64 {
        image_bytes(&self.header(0))
    }
}

/// Vulkan's border colours.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BorderColor {
    #[default]
    FloatTransparentBlack,
    IntTransparentBlack,
    FloatOpaqueBlack,
    IntOpaqueBlack,
    FloatOpaqueWhite,
    IntOpaqueWhite,
}

impl BorderColor {
    /// The four words the sampler header holds.
    pub fn words(self) -> [u32; 4] {
        let f = 0x3f80_0000;
        match self {
            BorderColor::FloatTransparentBlack | BorderColor::IntTransparentBlack => [0; 4],
            BorderColor::FloatOpaqueBlack => [0, 0, 0, f],
            BorderColor::IntOpaqueBlack => [0, 0, 0, 1],
            BorderColor::FloatOpaqueWhite => [f; 4],
            BorderColor::IntOpaqueWhite => [1; 4],
        }
    }
}

fn repeat3() -> [Wrap; 3] {
    [Wrap::Repeat; 3]
}
fn nearest() -> Filter {
    Filter::Nearest
}
fn mip_nearest() -> MipFilter {
    MipFilter::Nearest
}
fn max_lod() -> f32 {
    1000.0
}

/// A sampler's state, as VkSamplerCreateInfo gives it (anisotropy off).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SamplerState {
    /// U, V, W address modes.
    #[serde(default = "repeat3")]
    pub address: [Wrap; 3],
    #[serde(default = "nearest")]
    pub mag_filter: Filter,
    #[serde(default = "nearest")]
    pub min_filter: Filter,
    #[serde(default = "mip_nearest")]
    pub mipmap_mode: MipFilter,
    #[serde(default)]
    pub lod_bias: f32,
    #[serde(default)]
    pub min_lod: f32,
    #[serde(default = "max_lod")]
    pub max_lod: f32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compare: Option<CompareOp>,
    #[serde(default)]
    pub unnormalized_coordinates: bool,
    #[serde(default)]
    pub border_color: BorderColor,
}

impl Default for SamplerState {
    fn default() -> Self {
        SamplerState {
            address: repeat3(),
            mag_filter: Filter::Nearest,
            min_filter: Filter::Nearest,
            mipmap_mode: MipFilter::Nearest,
            lod_bias: 0.0,
            min_lod: 0.0,
            max_lod: max_lod(),
            compare: None,
            unnormalized_coordinates: false,
            border_color: BorderColor::default(),
        }
    }
}

impl SamplerState {
    /// The sampler header (LOD bias and clamps saturate to the header's
    /// fixed-point ranges: bias -16..16, clamps 0..4095/256).
    pub fn header(&self) -> SamplerHeader {
        SamplerHeader {
            wrap: self.address,
            compare: self.compare,
            mag: self.mag_filter,
            min: self.min_filter,
            mip: self.mipmap_mode,
            lod_bias: self.lod_bias,
            min_lod: self.min_lod,
            max_lod: self.max_lod,
            unnormalized: self.unnormalized_coordinates,
            border: self.border_color.words(),
        }
    }
}

/// An image or texel buffer bound at a descriptor.
#[derive(Clone, Debug, PartialEq)]
pub struct BoundImage {
    pub slot: Slot,
    pub kind: ImageKind,
    pub shape: ImageShape,
    /// Every level in the simulator's layout (`ImageShape::bytes` of
    /// them); for a texel buffer, the whole buffer, the view's texels from
    /// `offset` on.
    pub bytes: Vec<u8>,
    /// A combined image-sampler's sampler.
    pub sampler: Option<SamplerState>,
    /// Texel buffers: where the buffer view starts in `bytes`, a multiple
    /// of [`TEXEL_BUFFER_OFFSET_ALIGN`]; 0 for images.
    pub offset: u64,
}

/// The alignment of a texel buffer view's offset: NVIDIA's
/// `minTexelBufferOffsetAlignment` (16 bytes, which also keeps every
/// format's texels aligned as the raw typed header needs).
pub const TEXEL_BUFFER_OFFSET_ALIGN: u64 = 16;

/// A separate sampler bound at a descriptor.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoundSampler {
    pub slot: Slot,
    pub state: SamplerState,
}

/// Why images or samplers cannot be placed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HostError {
    #[error("{slot}: the image's bytes are {given}, its format and shape need {needed}")]
    Size {
        slot: String,
        given: u64,
        needed: u64,
    },
    #[error("{slot}: the image takes {bytes} bytes, more than the limit of {limit}")]
    TooLarge {
        slot: String,
        bytes: u64,
        limit: u64,
    },
    #[error(
        "{slot}: a texture header cannot describe this image (a size of 0, too many levels, or a dimension beyond the header's fields)"
    )]
    Header { slot: String },
    #[error("{slot}: {what}")]
    Kind { slot: String, what: &'static str },
    #[error(
        "{slot}: a texel buffer view's offset {offset} must be a multiple of {TEXEL_BUFFER_OFFSET_ALIGN}"
    )]
    Offset { slot: String, offset: u64 },
    #[error("cannot read the PNG image: {0}")]
    Png(String),
}

/// Where [`place`] put everything.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Placed {
    pub pools: TexturePools,
    /// Each descriptor's handle.
    pub handles: Vec<(Slot, u32)>,
    /// The sample map (the descriptor's second word) of each multisampled
    /// storage image.
    pub sample_maps: Vec<(Slot, u32)>,
    /// Each image's address and shape, for [`read_back`].
    pub images: Vec<(Slot, u64, ImageShape)>,
}

/// Maps every image (each as its own buffer), then the texture header
/// pool (index 0 the null header, image i at index i + 1) and the sampler
/// pool (index 0 the null sampler, then the separate samplers and the
/// combined images' samplers in order).
pub fn place(
    images: &[BoundImage],
    samplers: &[BoundSampler],
    mem: &mut GlobalMemory,
) -> Result<Placed, HostError> {
    let mut placed = Placed::default();
    let mut headers = vec![0u8; HEADER_BYTES as usize];
    let mut sampler_pool = vec![0u8; super::SAMPLER_BYTES as usize];
    for s in samplers {
        let index = (sampler_pool.len() / super::SAMPLER_BYTES as usize) as u32;
        sampler_pool.extend(super::fields::bytes(&s.state.header().encode()));
        placed.handles.push((s.slot, Handle::new(0, index).0));
    }
    for img in images {
        let slot = img.slot.to_string();
        let buffer = img.shape.dim == ImageDim::Buffer;
        if img.offset != 0 && !buffer {
            return Err(HostError::Kind {
                slot,
                what: "only texel buffers are bound at an offset",
            });
        }
        if !img.offset.is_multiple_of(TEXEL_BUFFER_OFFSET_ALIGN) {
            return Err(HostError::Offset {
                slot,
                offset: img.offset,
            });
        }
        let needed = img.offset.saturating_add(img.shape.bytes());
        if needed > MAX_STORAGE_BUFFER_BYTES {
            return Err(HostError::TooLarge {
                slot,
                bytes: needed,
                limit: MAX_STORAGE_BUFFER_BYTES,
            });
        }
        if img.bytes.len() as u64 != needed {
            return Err(HostError::Size {
                slot,
                given: img.bytes.len() as u64,
                needed,
            });
        }
        if buffer != img.kind.is_texel_buffer() {
            return Err(HostError::Kind {
                slot,
                what: "texel buffers, and only they, have dim \"buffer\"",
            });
        }
        if (img.kind == ImageKind::Combined) != img.sampler.is_some() {
            return Err(HostError::Kind {
                slot,
                what: "combined image-samplers, and only they, have a sampler",
            });
        }
        if let Some(what) = img.shape.multisample_problem() {
            return Err(HostError::Kind { slot, what });
        }
        let layout = SampleLayout::for_count(img.shape.samples).unwrap_or_default();
        let storage_ms = img.kind == ImageKind::Storage && img.shape.samples > 1;
        if storage_ms && layout.count() > 8 {
            return Err(HostError::Kind {
                slot,
                what: "a multisampled storage image has at most 8 samples (the descriptor's sample map holds 8)",
            });
        }
        let address = mem.map(img.bytes.clone());
        let header = if storage_ms {
            img.shape.sample_grid().header(address)
        } else {
            img.shape.header(address + img.offset)
        };
        let words = header
            .encode()
            .ok_or(HostError::Header { slot: slot.clone() })?;
        let texture = (headers.len() / HEADER_BYTES as usize) as u32;
        headers.extend(super::fields::bytes(&words));
        let sampler = match &img.sampler {
            Some(state) => {
                let index = (sampler_pool.len() / super::SAMPLER_BYTES as usize) as u32;
                sampler_pool.extend(super::fields::bytes(&state.header().encode()));
                index
            }
            None => 0,
        };
        let mut handle = Handle::new(texture, sampler).0;
        if storage_ms {
            // NVK's storage-image descriptor: log2 of the grid in bits
            // 20..23 (a storage image has no sampler), the sample map in
            // the second word.
            let (sw, sh) = layout.grid();
            handle |= sw.trailing_zeros() << 20 | sh.trailing_zeros() << 22;
            placed.sample_maps.push((img.slot, layout.sample_map()));
        }
        placed.handles.push((img.slot, handle));
        placed.images.push((img.slot, address, img.shape));
    }
    placed.pools = TexturePools {
        header_max: (headers.len() / HEADER_BYTES as usize - 1) as u32,
        headers: mem.map(headers),
        sampler_max: (sampler_pool.len() / super::SAMPLER_BYTES as usize - 1) as u32,
        samplers: mem.map(sampler_pool),
    };
    Ok(placed)
}

/// The final bytes of the image bound at `slot` (every level).
pub fn read_back(placed: &Placed, slot: Slot, mem: &GlobalMemory) -> Option<Vec<u8>> {
    let (_, address, _) = placed.images.iter().find(|(s, _, _)| *s == slot)?;
    mem.buffer(*address).map(<[u8]>::to_vec)
}

/// A PNG file as an R8G8B8A8 image: width, height and bytes (grey,
/// palette, 16-bit and alpha-less PNGs converted; opaque where the file
/// has no alpha). Decoding is bounded by the png crate's memory limit.
pub fn png_rgba8(bytes: &[u8]) -> Result<(u32, u32, Vec<u8>), HostError> {
    let err = |e: png::DecodingError| HostError::Png(e.to_string());
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = decoder.read_info().map_err(err)?;
    let size = reader
        .output_buffer_size()
        .ok_or_else(|| HostError::Png("the image is too large".into()))?;
    let mut buf = vec![0; size];
    let info = reader.next_frame(&mut buf).map_err(err)?;
    buf.truncate(info.buffer_size());
    let rgba = match info.color_type {
        png::ColorType::Rgba => buf,
        png::ColorType::Rgb => buf
            .chunks_exact(3)
            .flat_map(|p| [p[0], p[1], p[2], 255])
            .collect(),
        png::ColorType::GrayscaleAlpha => buf
            .chunks_exact(2)
            .flat_map(|p| [p[0], p[0], p[0], p[1]])
            .collect(),
        png::ColorType::Grayscale => buf.iter().flat_map(|&g| [g, g, g, 255]).collect(),
        png::ColorType::Indexed => {
            return Err(HostError::Png("an indexed PNG was not expanded".into()));
        }
    };
    Ok((info.width, info.height, rgba))
}
