//! The CUDA runner's images, texel buffers and samplers (docs/CUBIN.md,
//! "Images under CUDA"). CUDA owns the texture header and sampler pools;
//! what it hands out are texture and surface objects, small indices that
//! name a texture header and the sampler beside it at the same index. So
//! each image becomes a CUDA array (mipmapped where it has levels, layered
//! and cubemap as its dimensionality says) filled from the description's
//! bytes in the simulator's layout, each texel buffer a linear resource,
//! and each descriptor slot gets the object's index as its handle:
//!
//! - a combined image-sampler: a texture object with its own sampler;
//! - a storage image: a surface object;
//! - a texel buffer: a texture object over linear memory (a storage texel
//!   buffer too: its header is a texel buffer's, as NVK binds both);
//! - separate images and samplers: compiled code ORs the two handles, so
//!   the objects are placed at indices where the OR names the texture
//!   object of that image with that sampler (`pack_sampled`).
//!
//! What CUDA cannot express (multisampled images, depth compares, ...)
//! is refused by name before any GPU call.

use super::super::error::ReferenceError;
use super::super::image_inputs::{ImageDescription, SamplerDescription};
use super::super::result::BufferResult;
use super::{DeviceBuffer, call};
use cudarc::driver::sys;
use spvsass_sim::Slot;
use spvsass_sim::texture::Format;
use spvsass_sim::texture::host::{ImageDim, ImageKind, ImageShape, SamplerState};
use spvsass_sim::texture::layout::{level_offset, level_size};
use spvsass_sim::texture::{Filter, MipFilter, Wrap};
use std::path::Path;

/// Handles hold the texture header index in bits 0..19 (docs/TEXTURES.md).
const MAX_HANDLE: u64 = (1 << 20) - 1;

/// How CUDA stores a format: the array format, its channel count, and
/// whether texture reads return integers (`CU_TRSF_READ_AS_INTEGER`) or
/// decode sRGB (`CU_TRSF_SRGB`).
#[derive(Clone, Copy, Debug)]
struct CudaFormat {
    format: sys::CUarray_format,
    channels: u32,
    integer: bool,
    srgb: bool,
}

/// CUDA's form of `format`, or what CUDA lacks for it.
fn cuda_format(format: Format) -> Result<CudaFormat, &'static str> {
    use sys::CUarray_format as A;
    let (f, channels, integer) = match format {
        Format::R8Unorm | Format::R8Srgb => (A::CU_AD_FORMAT_UNORM_INT8X1, 1, false),
        Format::R8Snorm => (A::CU_AD_FORMAT_SNORM_INT8X1, 1, false),
        Format::R8Uint => (A::CU_AD_FORMAT_UNSIGNED_INT8, 1, true),
        Format::R8Sint => (A::CU_AD_FORMAT_SIGNED_INT8, 1, true),
        Format::R8G8Unorm => (A::CU_AD_FORMAT_UNORM_INT8X2, 2, false),
        Format::R8G8Snorm => (A::CU_AD_FORMAT_SNORM_INT8X2, 2, false),
        Format::R8G8Uint => (A::CU_AD_FORMAT_UNSIGNED_INT8, 2, true),
        Format::R8G8Sint => (A::CU_AD_FORMAT_SIGNED_INT8, 2, true),
        Format::R8G8B8A8Unorm | Format::R8G8B8A8Srgb => (A::CU_AD_FORMAT_UNORM_INT8X4, 4, false),
        Format::R8G8B8A8Snorm => (A::CU_AD_FORMAT_SNORM_INT8X4, 4, false),
        Format::R8G8B8A8Uint => (A::CU_AD_FORMAT_UNSIGNED_INT8, 4, true),
        Format::R8G8B8A8Sint => (A::CU_AD_FORMAT_SIGNED_INT8, 4, true),
        Format::B8G8R8A8Unorm | Format::B8G8R8A8Srgb => {
            return Err("the B, G, R, A component order (CUDA arrays are R, G, B, A)");
        }
        Format::A2B10G10R10UnormPack32 => (A::CU_AD_FORMAT_UNORM_INT_101010_2, 4, false),
        Format::A2B10G10R10UintPack32 => {
            return Err("an unsigned-integer 10-10-10-2 format (CUDA has the UNORM one only)");
        }
        Format::R16Unorm | Format::D16Unorm => (A::CU_AD_FORMAT_UNORM_INT16X1, 1, false),
        Format::R16Snorm => (A::CU_AD_FORMAT_SNORM_INT16X1, 1, false),
        Format::R16Uint => (A::CU_AD_FORMAT_UNSIGNED_INT16, 1, true),
        Format::R16Sint => (A::CU_AD_FORMAT_SIGNED_INT16, 1, true),
        Format::R16Sfloat => (A::CU_AD_FORMAT_HALF, 1, false),
        Format::R16G16Unorm => (A::CU_AD_FORMAT_UNORM_INT16X2, 2, false),
        Format::R16G16Snorm => (A::CU_AD_FORMAT_SNORM_INT16X2, 2, false),
        Format::R16G16Uint => (A::CU_AD_FORMAT_UNSIGNED_INT16, 2, true),
        Format::R16G16Sint => (A::CU_AD_FORMAT_SIGNED_INT16, 2, true),
        Format::R16G16Sfloat => (A::CU_AD_FORMAT_HALF, 2, false),
        Format::R16G16B16A16Unorm => (A::CU_AD_FORMAT_UNORM_INT16X4, 4, false),
        Format::R16G16B16A16Snorm => (A::CU_AD_FORMAT_SNORM_INT16X4, 4, false),
        Format::R16G16B16A16Uint => (A::CU_AD_FORMAT_UNSIGNED_INT16, 4, true),
        Format::R16G16B16A16Sint => (A::CU_AD_FORMAT_SIGNED_INT16, 4, true),
        Format::R16G16B16A16Sfloat => (A::CU_AD_FORMAT_HALF, 4, false),
        Format::R32Uint => (A::CU_AD_FORMAT_UNSIGNED_INT32, 1, true),
        Format::R32Sint => (A::CU_AD_FORMAT_SIGNED_INT32, 1, true),
        Format::R32Sfloat | Format::D32Sfloat => (A::CU_AD_FORMAT_FLOAT, 1, false),
        Format::R32G32Uint => (A::CU_AD_FORMAT_UNSIGNED_INT32, 2, true),
        Format::R32G32Sint => (A::CU_AD_FORMAT_SIGNED_INT32, 2, true),
        Format::R32G32Sfloat => (A::CU_AD_FORMAT_FLOAT, 2, false),
        Format::R32G32B32A32Uint => (A::CU_AD_FORMAT_UNSIGNED_INT32, 4, true),
        Format::R32G32B32A32Sint => (A::CU_AD_FORMAT_SIGNED_INT32, 4, true),
        Format::R32G32B32A32Sfloat => (A::CU_AD_FORMAT_FLOAT, 4, false),
        Format::B10G11R11UfloatPack32 => {
            return Err("the packed 11-11-10 float format (CUDA has no such array format)");
        }
    };
    Ok(CudaFormat {
        format: f,
        channels,
        integer,
        srgb: format.info().srgb,
    })
}

/// A format of the same texel size whose texels CUDA returns unchanged
/// (approximating only: the lookups of such an image differ).
fn raw_format(format: Format) -> Option<CudaFormat> {
    let channels = match format.info().texel_bytes() {
        4 => 1,
        8 => 2,
        16 => 4,
        _ => return None,
    };
    Some(CudaFormat {
        format: sys::CUarray_format::CU_AD_FORMAT_UNSIGNED_INT32,
        channels,
        integer: true,
        srgb: false,
    })
}

/// `SPVSASS_CUDA_APPROXIMATE=1`: sampler states CUDA cannot express are
/// replaced by the nearest it can (a warning names each) instead of
/// refused, so the rest of a run can be compared. Captures taken so are
/// for diagnosis, never committed as matching.
fn approximate() -> bool {
    std::env::var("SPVSASS_CUDA_APPROXIMATE").as_deref() == Ok("1")
}

/// `SPVSASS_CUDA_LOG=1`: each slot's object index on stderr.
fn log() -> bool {
    std::env::var("SPVSASS_CUDA_LOG").as_deref() == Ok("1")
}

/// Whether a handle also carries its index in the sampler bits 20..31 by
/// default (docs/CUBIN.md, "Images under CUDA"): CUDA keeps a texture
/// object's sampler at its header's index. On the H200 the hardware under
/// CUDA ignored those bits (both settings gave the same words); the copy
/// does no harm and stays for a device that reads them.
const COPY_SAMPLER_BITS: bool = true;

/// `SPVSASS_CUDA_SAMPLER_BITS=copy|zero`: a probe; with `copy` every handle
/// also carries its index in the sampler bits 20..31 (CUDA keeps a texture
/// object's sampler at its header's index), with `zero` they are 0, to see
/// whether the hardware under CUDA reads the sampler from the handle's
/// sampler bits or from the header's index (docs/CUBIN.md).
fn copy_sampler_bits() -> bool {
    match std::env::var("SPVSASS_CUDA_SAMPLER_BITS").as_deref() {
        Ok("copy") => true,
        Ok("zero") => false,
        _ => COPY_SAMPLER_BITS,
    }
}

fn wrap_mode(w: Wrap) -> Result<sys::CUaddress_mode, &'static str> {
    use sys::CUaddress_mode as M;
    Ok(match w {
        Wrap::Repeat => M::CU_TR_ADDRESS_MODE_WRAP,
        Wrap::MirroredRepeat => M::CU_TR_ADDRESS_MODE_MIRROR,
        Wrap::ClampToEdge => M::CU_TR_ADDRESS_MODE_CLAMP,
        Wrap::ClampToBorder => M::CU_TR_ADDRESS_MODE_BORDER,
        Wrap::MirrorClampToEdge => return Err("the mirror_clamp_to_edge address mode"),
    })
}

fn filter_mode(f: Filter) -> sys::CUfilter_mode {
    match f {
        Filter::Nearest => sys::CUfilter_mode::CU_TR_FILTER_MODE_POINT,
        Filter::Linear => sys::CUfilter_mode::CU_TR_FILTER_MODE_LINEAR,
    }
}

/// The texture descriptor of `sampler` for an image of `format`; a state
/// CUDA cannot express is an error naming it (or, approximating, a
/// warning and the nearest state).
fn texture_desc(
    sampler: &SamplerState,
    format: &CudaFormat,
    cube: bool,
    what: &str,
) -> Result<sys::CUDA_TEXTURE_DESC, ReferenceError> {
    let refuse = |feature: &str| -> Result<(), ReferenceError> {
        if approximate() {
            eprintln!("warning: {what}: CUDA cannot express {feature}; approximated");
            Ok(())
        } else {
            Err(ReferenceError::CudaUnsupported {
                what: what.to_owned(),
                feature: feature.to_owned(),
            })
        }
    };
    if sampler.compare.is_some() {
        refuse("a depth-compare sampler")?;
    }
    if sampler.min_filter != sampler.mag_filter {
        refuse("different minification and magnification filters")?;
    }
    // SAFETY: a plain C struct; all-zero is a valid value of every field.
    let mut desc: sys::CUDA_TEXTURE_DESC = unsafe { std::mem::zeroed() };
    for (mode, w) in desc.addressMode.iter_mut().zip(sampler.address) {
        *mode = match wrap_mode(w) {
            Ok(m) => m,
            Err(feature) => {
                refuse(feature)?;
                sys::CUaddress_mode::CU_TR_ADDRESS_MODE_MIRROR
            }
        };
    }
    desc.filterMode = filter_mode(sampler.mag_filter);
    desc.mipmapFilterMode = match sampler.mipmap_mode {
        MipFilter::Linear => sys::CUfilter_mode::CU_TR_FILTER_MODE_LINEAR,
        MipFilter::Nearest | MipFilter::None => sys::CUfilter_mode::CU_TR_FILTER_MODE_POINT,
    };
    desc.mipmapLevelBias = sampler.lod_bias;
    desc.minMipmapLevelClamp = sampler.min_lod;
    desc.maxMipmapLevelClamp = if sampler.mipmap_mode == MipFilter::None {
        0.0
    } else {
        sampler.max_lod
    };
    desc.maxAnisotropy = 1;
    desc.borderColor = sampler.border_color.words().map(f32::from_bits);
    let mut flags = sys::CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION;
    if !sampler.unnormalized_coordinates {
        flags |= sys::CU_TRSF_NORMALIZED_COORDINATES;
    }
    if format.integer {
        flags |= sys::CU_TRSF_READ_AS_INTEGER;
    }
    if format.srgb {
        flags |= sys::CU_TRSF_SRGB;
    }
    if cube {
        flags |= sys::CU_TRSF_SEAMLESS_CUBEMAP;
    }
    desc.flags = flags;
    Ok(desc)
}

/// The CUDA array of an image of `shape` (level 0's size; the array
/// flags say layered, cubemap, surface use, gathers).
fn array_desc(
    shape: &ImageShape,
    format: &CudaFormat,
    surface: bool,
) -> sys::CUDA_ARRAY3D_DESCRIPTOR {
    let (w, h, d) = (
        shape.width as usize,
        shape.height as usize,
        shape.depth as usize,
    );
    let (height, depth, mut flags) = match shape.dim {
        ImageDim::D1 | ImageDim::Buffer => (0, 0, 0),
        ImageDim::D1Array => (0, d, sys::CUDA_ARRAY3D_LAYERED),
        ImageDim::D2 => (h, 0, sys::CUDA_ARRAY3D_TEXTURE_GATHER),
        ImageDim::D2Array => (h, d, sys::CUDA_ARRAY3D_LAYERED),
        ImageDim::D3 => (h, d, 0),
        ImageDim::Cube => (h, 6, sys::CUDA_ARRAY3D_CUBEMAP),
        ImageDim::CubeArray => (
            h,
            6 * d,
            sys::CUDA_ARRAY3D_CUBEMAP | sys::CUDA_ARRAY3D_LAYERED,
        ),
    };
    if surface {
        flags = (flags & !sys::CUDA_ARRAY3D_TEXTURE_GATHER) | sys::CUDA_ARRAY3D_SURFACE_LDST;
    }
    sys::CUDA_ARRAY3D_DESCRIPTOR {
        Width: w,
        Height: height,
        Depth: depth,
        Format: format.format,
        NumChannels: format.channels,
        Flags: flags,
    }
}

/// The 8- and 16-bit integer format that CUDA's textures read as the
/// normalized format `f` (without `CU_TRSF_READ_AS_INTEGER`).
fn classic_format(f: sys::CUarray_format) -> Option<sys::CUarray_format> {
    use sys::CUarray_format as A;
    Some(match f {
        A::CU_AD_FORMAT_UNORM_INT8X1
        | A::CU_AD_FORMAT_UNORM_INT8X2
        | A::CU_AD_FORMAT_UNORM_INT8X4 => A::CU_AD_FORMAT_UNSIGNED_INT8,
        A::CU_AD_FORMAT_SNORM_INT8X1
        | A::CU_AD_FORMAT_SNORM_INT8X2
        | A::CU_AD_FORMAT_SNORM_INT8X4 => A::CU_AD_FORMAT_SIGNED_INT8,
        A::CU_AD_FORMAT_UNORM_INT16X1
        | A::CU_AD_FORMAT_UNORM_INT16X2
        | A::CU_AD_FORMAT_UNORM_INT16X4 => A::CU_AD_FORMAT_UNSIGNED_INT16,
        A::CU_AD_FORMAT_SNORM_INT16X1
        | A::CU_AD_FORMAT_SNORM_INT16X2
        | A::CU_AD_FORMAT_SNORM_INT16X4 => A::CU_AD_FORMAT_SIGNED_INT16,
        _ => return None,
    })
}

/// Creates an array with `make`, first as `desc` says, then (with a
/// warning) without the gather flag and with the classic integer form of a
/// normalized format, where the driver refuses the first: what the H100's
/// driver accepts was not known when this was written (docs/CUBIN.md).
fn create(
    what: &'static str,
    desc: &sys::CUDA_ARRAY3D_DESCRIPTOR,
    mut make: impl FnMut(&sys::CUDA_ARRAY3D_DESCRIPTOR) -> sys::CUresult,
) -> Result<(), ReferenceError> {
    let mut tries = vec![*desc];
    if desc.Flags & sys::CUDA_ARRAY3D_TEXTURE_GATHER != 0 {
        tries.push(sys::CUDA_ARRAY3D_DESCRIPTOR {
            Flags: desc.Flags & !sys::CUDA_ARRAY3D_TEXTURE_GATHER,
            ..*desc
        });
    }
    if let Some(format) = classic_format(desc.Format) {
        let more: Vec<_> = tries
            .iter()
            .map(|d| sys::CUDA_ARRAY3D_DESCRIPTOR {
                Format: format,
                ..*d
            })
            .collect();
        tries.extend(more);
    }
    let mut first = None;
    for d in &tries {
        match make(d).result() {
            Ok(()) => {
                if let Some(e) = first {
                    eprintln!("warning: {what} refused {desc:?} ({e:?}); created {d:?}");
                }
                return Ok(());
            }
            Err(e) => {
                first.get_or_insert(e);
            }
        }
    }
    call(what, Err(first.expect("at least one try")))
}

/// One image's bytes ready to bind: the description, its shape and bytes
/// (the simulator's layout) and CUDA's format.
struct Prepared<'a> {
    desc: &'a ImageDescription,
    shape: ImageShape,
    bytes: Vec<u8>,
    format: CudaFormat,
}

/// Everything that needs no GPU: the images' bytes, and the refusals.
pub struct Plan<'a> {
    images: Vec<Prepared<'a>>,
    samplers: &'a [SamplerDescription],
}

/// Checks that CUDA can express every image and sampler of the run and
/// resolves the images' bytes (relative to `base`).
pub fn plan<'a>(
    images: &'a [ImageDescription],
    samplers: &'a [SamplerDescription],
    base: &Path,
) -> Result<Plan<'a>, ReferenceError> {
    let mut out = Vec::new();
    for d in images {
        let what = format!(
            "image at set {} binding {}[{}]",
            d.set, d.binding, d.element
        );
        let unsupported = |feature: &str| ReferenceError::CudaUnsupported {
            what: what.clone(),
            feature: feature.to_owned(),
        };
        let (shape, bytes) = d.resolve(base)?;
        if shape.samples > 1 {
            return Err(unsupported(
                "a multisampled image (CUDA arrays have one sample)",
            ));
        }
        let format = match cuda_format(shape.format) {
            Ok(f) => f,
            Err(feature) if approximate() => {
                eprintln!("warning: {what}: CUDA cannot express {feature}; bound as raw words");
                raw_format(shape.format).ok_or_else(|| unsupported(feature))?
            }
            Err(feature) => return Err(unsupported(feature)),
        };
        if let Some(s) = &d.sampler {
            let cube = matches!(shape.dim, ImageDim::Cube | ImageDim::CubeArray);
            texture_desc(s, &format, cube, &what)?;
        }
        out.push(Prepared {
            desc: d,
            shape,
            bytes,
            format,
        });
    }
    for s in samplers {
        let what = format!(
            "sampler at set {} binding {}[{}]",
            s.set, s.binding, s.element
        );
        // Checked against any format: only the format's integer and sRGB
        // flags depend on it.
        let any =
            cuda_format(Format::R32Sfloat).map_err(|feature| ReferenceError::CudaUnsupported {
                what: what.clone(),
                feature: feature.to_owned(),
            })?;
        texture_desc(&s.sampler, &any, false, &what)?;
    }
    Ok(Plan {
        images: out,
        samplers,
    })
}

/// What is read back after the run.
enum ReadBack {
    /// A storage image: each level's array.
    Image {
        index: usize,
        levels: Vec<sys::CUarray>,
    },
    /// A storage texel buffer: its view's device memory (`buffers[buffer]`).
    TexelBuffer { index: usize, buffer: usize },
}

/// The CUDA objects of a run's images and samplers, destroyed when dropped.
pub struct Bound<'a> {
    plan: Plan<'a>,
    textures: Vec<sys::CUtexObject>,
    surfaces: Vec<sys::CUsurfObject>,
    arrays: Vec<sys::CUarray>,
    mipmapped: Vec<sys::CUmipmappedArray>,
    buffers: Vec<DeviceBuffer>,
    read_back: Vec<ReadBack>,
    /// The handle each image and sampler slot holds.
    pub handles: Vec<(Slot, u32)>,
}

impl Drop for Bound<'_> {
    fn drop(&mut self) {
        // SAFETY: each object was created in the still-current context and
        // no launch is in flight; objects go before their arrays.
        unsafe {
            for &t in &self.textures {
                let _ = sys::cuTexObjectDestroy(t);
            }
            for &s in &self.surfaces {
                let _ = sys::cuSurfObjectDestroy(s);
            }
            for &a in &self.arrays {
                let _ = sys::cuArrayDestroy(a);
            }
            for &m in &self.mipmapped {
                let _ = sys::cuMipmappedArrayDestroy(m);
            }
        }
    }
}

/// The extent of one level in a 3D copy: bytes of a row, rows, and
/// slices (3D depth, layers or cube faces).
fn copy_extent(shape: &ImageShape, level: u32) -> (usize, usize, usize) {
    let header = shape.header(0);
    let [w, h, d] = level_size(&header, level);
    let tb = shape.format.info().texel_bytes() as usize;
    (
        w as usize * tb,
        h as usize,
        d as usize * header.layers() as usize,
    )
}

/// Copies level `level` between `host` (the simulator's layout of the
/// whole image) and `array`.
fn copy_level(
    shape: &ImageShape,
    level: u32,
    array: sys::CUarray,
    host: &mut [u8],
    to_device: bool,
) -> Result<(), ReferenceError> {
    let offset = level_offset(&shape.header(0), level) as usize;
    let (row, rows, slices) = copy_extent(shape, level);
    assert!(
        offset + row * rows * slices <= host.len(),
        "the layout holds every level"
    );
    let ptr = host[offset..].as_mut_ptr().cast::<std::ffi::c_void>();
    let (host_side, array_side) = (
        sys::CUmemorytype::CU_MEMORYTYPE_HOST,
        sys::CUmemorytype::CU_MEMORYTYPE_ARRAY,
    );
    // Every field is written: the memory types have no zero value.
    let c = sys::CUDA_MEMCPY3D {
        srcXInBytes: 0,
        srcY: 0,
        srcZ: 0,
        srcLOD: 0,
        srcMemoryType: if to_device { host_side } else { array_side },
        srcHost: if to_device { ptr } else { std::ptr::null() },
        srcDevice: 0,
        srcArray: if to_device {
            std::ptr::null_mut()
        } else {
            array
        },
        reserved0: std::ptr::null_mut(),
        srcPitch: if to_device { row } else { 0 },
        srcHeight: if to_device { rows } else { 0 },
        dstXInBytes: 0,
        dstY: 0,
        dstZ: 0,
        dstLOD: 0,
        dstMemoryType: if to_device { array_side } else { host_side },
        dstHost: if to_device { std::ptr::null_mut() } else { ptr },
        dstDevice: 0,
        dstArray: if to_device {
            array
        } else {
            std::ptr::null_mut()
        },
        reserved1: std::ptr::null_mut(),
        dstPitch: if to_device { 0 } else { row },
        dstHeight: if to_device { 0 } else { rows },
        WidthInBytes: row,
        Height: rows,
        Depth: slices,
    };
    // SAFETY: the host range holds the level's `row * rows * slices`
    // bytes (asserted above) and the array has the level's extent.
    call("cuMemcpy3D", unsafe { sys::cuMemcpy3D_v2(&c) }.result())
}

impl<'a> Plan<'a> {
    /// Creates every array, object and linear buffer on the current
    /// context and assigns each slot its handle.
    pub fn bind(self) -> Result<Bound<'a>, ReferenceError> {
        let mut b = Bound {
            plan: Plan {
                images: Vec::new(),
                samplers: self.samplers,
            },
            textures: Vec::new(),
            surfaces: Vec::new(),
            arrays: Vec::new(),
            mipmapped: Vec::new(),
            buffers: Vec::new(),
            read_back: Vec::new(),
            handles: Vec::new(),
        };
        let mut sampled = Vec::new();
        for (index, p) in self.images.iter().enumerate() {
            let handle = match p.desc.kind {
                ImageKind::Combined => {
                    let sampler = p.desc.sampler.unwrap_or_default();
                    let res = b.image_resource(p, false, None)?;
                    b.texture(&res, p, &sampler)?
                }
                ImageKind::Storage => {
                    let res = b.image_resource(p, true, Some(index))?;
                    b.surface(&res)?
                }
                ImageKind::UniformTexelBuffer | ImageKind::StorageTexelBuffer => {
                    b.texel_buffer(p, index)?
                }
                ImageKind::Sampled => {
                    sampled.push(index);
                    continue;
                }
            };
            b.handles.push((p.desc.slot(), handle));
        }
        b.pack_sampled(&self.images, &sampled)?;
        b.plan.images = self.images;
        if copy_sampler_bits() {
            for (slot, h) in &mut b.handles {
                if *h > 0xfff {
                    return Err(ReferenceError::CudaBind(format!(
                        "{slot}: handle {h:#x} does not fit the 12 sampler bits"
                    )));
                }
                *h |= *h << 20;
            }
        }
        if log() {
            for (slot, h) in &b.handles {
                eprintln!("cuda: {slot}: handle {h:#x}");
            }
        }
        Ok(b)
    }
}

impl Bound<'_> {
    /// The resource of an image: its array (or mipmapped array) holding
    /// the description's bytes. `read_back` records a storage image's
    /// levels to read after the run.
    fn image_resource(
        &mut self,
        p: &Prepared,
        surface: bool,
        read_back: Option<usize>,
    ) -> Result<sys::CUDA_RESOURCE_DESC, ReferenceError> {
        let desc = array_desc(&p.shape, &p.format, surface);
        let mut host = p.bytes.clone();
        // SAFETY: a plain C struct; all-zero is a valid value of every field.
        let mut res: sys::CUDA_RESOURCE_DESC = unsafe { std::mem::zeroed() };
        let mut levels = Vec::new();
        if p.shape.levels == 1 {
            let mut array = std::ptr::null_mut();
            // SAFETY: writes one handle.
            create("cuArray3DCreate", &desc, |d| unsafe {
                sys::cuArray3DCreate_v2(&mut array, d)
            })?;
            self.arrays.push(array);
            levels.push(array);
            res.resType = sys::CUresourcetype::CU_RESOURCE_TYPE_ARRAY;
            res.res.array =
                sys::CUDA_RESOURCE_DESC_st__bindgen_ty_1__bindgen_ty_1 { hArray: array };
        } else {
            let mut mip = std::ptr::null_mut();
            // SAFETY: writes one handle.
            create("cuMipmappedArrayCreate", &desc, |d| unsafe {
                sys::cuMipmappedArrayCreate(&mut mip, d, p.shape.levels)
            })?;
            self.mipmapped.push(mip);
            for level in 0..p.shape.levels {
                let mut array = std::ptr::null_mut();
                // SAFETY: `mip` has `levels` levels; writes one handle.
                call(
                    "cuMipmappedArrayGetLevel",
                    unsafe { sys::cuMipmappedArrayGetLevel(&mut array, mip, level) }.result(),
                )?;
                levels.push(array);
            }
            if surface {
                // A storage image's view is its first level.
                res.resType = sys::CUresourcetype::CU_RESOURCE_TYPE_ARRAY;
                res.res.array =
                    sys::CUDA_RESOURCE_DESC_st__bindgen_ty_1__bindgen_ty_1 { hArray: levels[0] };
            } else {
                res.resType = sys::CUresourcetype::CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
                res.res.mipmap = sys::CUDA_RESOURCE_DESC_st__bindgen_ty_1__bindgen_ty_2 {
                    hMipmappedArray: mip,
                };
            }
        }
        for (level, &array) in levels.iter().enumerate() {
            copy_level(&p.shape, level as u32, array, &mut host, true)?;
        }
        if let Some(index) = read_back.filter(|_| p.desc.read_back) {
            self.read_back.push(ReadBack::Image { index, levels });
        }
        Ok(res)
    }

    /// A texture object over `res` with `sampler`'s state; its index.
    fn texture(
        &mut self,
        res: &sys::CUDA_RESOURCE_DESC,
        p: &Prepared,
        sampler: &SamplerState,
    ) -> Result<u32, ReferenceError> {
        let what = format!(
            "image at set {} binding {}[{}]",
            p.desc.set, p.desc.binding, p.desc.element
        );
        let cube = matches!(p.shape.dim, ImageDim::Cube | ImageDim::CubeArray);
        let tex = texture_desc(sampler, &p.format, cube, &what)?;
        let mut obj = 0;
        // SAFETY: `res` names a live resource; writes one handle.
        call(
            "cuTexObjectCreate",
            unsafe { sys::cuTexObjectCreate(&mut obj, res, &tex, std::ptr::null()) }.result(),
        )?;
        self.textures.push(obj);
        handle(obj)
    }

    /// A surface object over `res`; its index.
    fn surface(&mut self, res: &sys::CUDA_RESOURCE_DESC) -> Result<u32, ReferenceError> {
        let mut obj = 0;
        // SAFETY: `res` names a live array made for surface use.
        call(
            "cuSurfObjectCreate",
            unsafe { sys::cuSurfObjectCreate(&mut obj, res) }.result(),
        )?;
        self.surfaces.push(obj);
        handle(obj)
    }

    /// A texel buffer: its view (from the description's offset) in its own
    /// device memory, as a linear texture object; its index.
    fn texel_buffer(&mut self, p: &Prepared, index: usize) -> Result<u32, ReferenceError> {
        let start = p.desc.offset as usize;
        let view = &p.bytes[start..];
        let buffer = DeviceBuffer::with(view)?;
        // SAFETY: a plain C struct; all-zero is a valid value of every field.
        let mut res: sys::CUDA_RESOURCE_DESC = unsafe { std::mem::zeroed() };
        res.resType = sys::CUresourcetype::CU_RESOURCE_TYPE_LINEAR;
        res.res.linear = sys::CUDA_RESOURCE_DESC_st__bindgen_ty_1__bindgen_ty_3 {
            devPtr: buffer.ptr,
            format: p.format.format,
            numChannels: p.format.channels,
            sizeInBytes: view.len(),
        };
        self.buffers.push(buffer);
        if p.desc.kind == ImageKind::StorageTexelBuffer && p.desc.read_back {
            self.read_back.push(ReadBack::TexelBuffer {
                index,
                buffer: self.buffers.len() - 1,
            });
        }
        let sampler = SamplerState {
            address: [Wrap::ClampToEdge; 3],
            unnormalized_coordinates: true,
            ..SamplerState::default()
        };
        self.texture(&res, p, &sampler)
    }

    /// Separate images and samplers. Compiled code ORs an image's handle
    /// with a sampler's, and a CUDA texture object holds its image and its
    /// sampler together, so each image i gets a texture object at index
    /// I_i (with the first sampler, for fetches and queries, which read no
    /// sampler state), sampler j the value (j + 1) << s with 2^s above
    /// every I_i, and the object of image i with sampler j is placed at
    /// I_i | (j + 1) << s. CUDA hands out indices in order, so the gaps
    /// are filled with dummy objects; an index that does not come out as
    /// planned is an error.
    fn pack_sampled(
        &mut self,
        images: &[Prepared],
        sampled: &[usize],
    ) -> Result<(), ReferenceError> {
        let samplers: Vec<SamplerState> = self.plan.samplers.iter().map(|s| s.sampler).collect();
        let first = samplers.first().copied().unwrap_or_default();
        let mut resources = Vec::new();
        let mut bases = Vec::new();
        for &i in sampled {
            let res = self.image_resource(&images[i], false, None)?;
            let h = self.texture(&res, &images[i], &first)?;
            self.handles.push((images[i].desc.slot(), h));
            resources.push(res);
            bases.push(h);
        }
        let packing = Packing::new(&bases, samplers.len())?;
        for (s, &value) in self.plan.samplers.iter().zip(&packing.samplers) {
            self.handles.push((s.slot(), value));
        }
        for (sampler, targets) in samplers.iter().zip(&packing.objects) {
            for ((&i, res), &wanted) in sampled.iter().zip(&resources).zip(targets) {
                let wanted = u64::from(wanted);
                loop {
                    let got = u64::from(self.texture(res, &images[i], sampler)?);
                    if got == wanted {
                        break;
                    }
                    if got > wanted {
                        return Err(ReferenceError::CudaObjectIndex { wanted, got });
                    }
                    // An object in the gap stays alive, holding its index.
                }
            }
        }
        Ok(())
    }

    /// The storage images and storage texel buffers marked `read_back`, in
    /// the description's order, as buffer results (the simulator's layout).
    pub fn read_back(&self) -> Result<Vec<BufferResult>, ReferenceError> {
        let mut out = Vec::new();
        for r in &self.read_back {
            let (index, bytes) = match r {
                ReadBack::Image { index, levels } => {
                    let p = &self.plan.images[*index];
                    // Bytes between levels keep what the description gave.
                    let mut host = p.bytes.clone();
                    for (level, &array) in levels.iter().enumerate() {
                        copy_level(&p.shape, level as u32, array, &mut host, false)?;
                    }
                    (*index, host)
                }
                ReadBack::TexelBuffer { index, buffer } => {
                    let p = &self.plan.images[*index];
                    let mut host = p.bytes.clone();
                    let start = p.desc.offset as usize;
                    let view = self.buffers[*buffer].read()?;
                    let n = host.len() - start;
                    host[start..].copy_from_slice(&view[..n]);
                    (*index, host)
                }
            };
            let d = self.plan.images[index].desc;
            out.push(BufferResult {
                set: d.set,
                binding: d.binding,
                element: d.element,
                words: super::super::image_inputs::words(&bytes),
            });
        }
        Ok(out)
    }
}

/// Where the objects of separate images and samplers go
/// (`Bound::pack_sampled`).
#[derive(Debug, PartialEq)]
struct Packing {
    /// Sampler j's handle: (j + 1) << s, 2^s above every image's index.
    samplers: Vec<u32>,
    /// For sampler j, the index of each image's object with it: the OR of
    /// the image's and the sampler's handles, in increasing order.
    objects: Vec<Vec<u32>>,
}

impl Packing {
    /// `images`: the separate images' indices (increasing), `samplers` the
    /// number of separate samplers.
    fn new(images: &[u32], samplers: usize) -> Result<Packing, ReferenceError> {
        let top = images.iter().copied().max().unwrap_or(0);
        let shift = 32 - top.leading_zeros();
        let last = (samplers as u64) << shift | u64::from(top);
        if last > MAX_HANDLE {
            return Err(ReferenceError::CudaBind(format!(
                "{} separate images and {samplers} samplers need handles past {MAX_HANDLE:#x}",
                images.len()
            )));
        }
        let samplers: Vec<u32> = (1..=samplers as u32).map(|j| j << shift).collect();
        let objects = samplers
            .iter()
            .map(|s| images.iter().map(|i| i | s).collect())
            .collect();
        Ok(Packing { samplers, objects })
    }
}

/// An object's index as a handle: it must fit the handle's header bits.
fn handle(obj: u64) -> Result<u32, ReferenceError> {
    if obj > MAX_HANDLE {
        return Err(ReferenceError::CudaBind(format!(
            "CUDA object {obj:#x} is past the handle's 20 header-index bits"
        )));
    }
    Ok(obj as u32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::description::RunDescription;

    fn plan_of(name: &str) -> Result<usize, String> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let path = root.join(format!("tests/runs/{name}.json"));
        let desc = RunDescription::load(&path).expect("a valid description");
        let base = path.parent().expect("in a folder");
        plan(&desc.images, &desc.samplers, base)
            .map(|p| p.images.len())
            .map_err(|e| e.to_string())
    }

    #[test]
    fn what_cuda_cannot_express_is_refused_by_name() {
        let cases = [
            (
                "tex_misc",
                "image at set 0 binding 1[0]: CUDA cannot express a depth-compare sampler",
            ),
            (
                "tex_multisample",
                "image at set 0 binding 0[0]: CUDA cannot express a multisampled image",
            ),
            (
                "tex_sample",
                "sampler at set 0 binding 1[4]: CUDA cannot express the mirror_clamp_to_edge address mode",
            ),
            (
                "tex_formats",
                "image at set 0 binding 5[0]: CUDA cannot express the packed 11-11-10 float format",
            ),
        ];
        for (name, want) in cases {
            let got = plan_of(name).expect_err(name);
            assert!(got.starts_with(want), "{name}: {got}");
        }
    }

    #[test]
    fn expressible_runs_are_planned_with_every_image() {
        assert_eq!(plan_of("tex_grad"), Ok(3));
        assert_eq!(plan_of("tex_texel_offset"), Ok(3));
        assert_eq!(plan_of("image_ops"), Ok(6));
    }

    #[test]
    fn packed_handles_or_to_the_pair_object() {
        // tex_sample's shape: one separate image (object 1), five samplers.
        let p = Packing::new(&[1], 5).expect("fits");
        assert_eq!(p.samplers, [2, 4, 6, 8, 10]);
        assert_eq!(p.objects, [[3], [5], [7], [9], [11]]);
        // Seven combined images first (1..7), then two separate ones.
        let p = Packing::new(&[8, 9], 3).expect("fits");
        assert_eq!(p.samplers, [16, 32, 48]);
        assert_eq!(p.objects, [[24, 25], [40, 41], [56, 57]]);
        for (s, objects) in p.samplers.iter().zip(&p.objects) {
            for (i, o) in [8, 9].iter().zip(objects) {
                assert_eq!(i | s, *o);
            }
        }
        // Every object index is above the images' and increasing.
        let all: Vec<u32> = p.objects.concat();
        assert!(all.windows(2).all(|w| w[0] < w[1]) && all[0] > 9);
        // No separate sampler: the images keep their objects.
        assert_eq!(
            Packing::new(&[3], 0).expect("fits"),
            Packing {
                samplers: vec![],
                objects: vec![]
            }
        );
        let e = Packing::new(&[1000], 2000).expect_err("past 20 bits");
        assert!(
            e.to_string()
                .contains("1 separate images and 2000 samplers")
        );
    }

    #[test]
    fn cuda_formats_hold_the_texel_size() {
        use sys::CUarray_format as A;
        for info in Format::TABLE {
            let Ok(f) = cuda_format(info.format) else {
                continue;
            };
            let channel_bytes = match f.format {
                A::CU_AD_FORMAT_UNSIGNED_INT8
                | A::CU_AD_FORMAT_SIGNED_INT8
                | A::CU_AD_FORMAT_UNORM_INT8X1
                | A::CU_AD_FORMAT_UNORM_INT8X2
                | A::CU_AD_FORMAT_UNORM_INT8X4
                | A::CU_AD_FORMAT_SNORM_INT8X1
                | A::CU_AD_FORMAT_SNORM_INT8X2
                | A::CU_AD_FORMAT_SNORM_INT8X4 => 1,
                A::CU_AD_FORMAT_UNSIGNED_INT16
                | A::CU_AD_FORMAT_SIGNED_INT16
                | A::CU_AD_FORMAT_HALF
                | A::CU_AD_FORMAT_UNORM_INT16X1
                | A::CU_AD_FORMAT_UNORM_INT16X2
                | A::CU_AD_FORMAT_UNORM_INT16X4
                | A::CU_AD_FORMAT_SNORM_INT16X1
                | A::CU_AD_FORMAT_SNORM_INT16X2
                | A::CU_AD_FORMAT_SNORM_INT16X4 => 2,
                A::CU_AD_FORMAT_UNSIGNED_INT32
                | A::CU_AD_FORMAT_SIGNED_INT32
                | A::CU_AD_FORMAT_FLOAT => 4,
                // Four channels in one 32-bit word.
                A::CU_AD_FORMAT_UNORM_INT_101010_2 => 1,
                other => panic!("{}: unexpected {other:?}", info.name),
            };
            assert_eq!(
                channel_bytes * f.channels,
                info.texel_bytes(),
                "{}",
                info.name
            );
            assert_eq!(f.integer, info.is_integer(), "{}", info.name);
        }
    }
}
