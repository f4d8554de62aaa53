//! The description's images, texel buffers and samplers on the Vulkan
//! device: each image a VkImage (optimal tiling, GENERAL layout) filled
//! from a staging buffer level by level from the simulator's layout
//! (docs/TEXTURES.md, "Image memory"), with a view of every level and
//! layer; each texel buffer a buffer with a view; each sampler a
//! VkSampler; storage images copied back the same way after the run.
//! Multisampled images cannot be copied to: they are rendered
//! (`ms_fill.rs`).

use super::buffers::HostBuffer;
use super::commands;
use super::description::RunDescription;
use super::device::Gpu;
use super::error::{ReferenceError, vk_err};
use super::image_inputs::ImageDescription;
use super::ms_fill;
use ash::vk;
use spvsass_sim::texture::host::{BorderColor, ImageDim, ImageKind, ImageShape, SamplerState};
use spvsass_sim::texture::layout::{level_offset, level_size};
use spvsass_sim::texture::{CompareOp, Filter, MipFilter, Wrap};
use std::path::Path;

/// One image or texel buffer on the device.
pub struct DeviceImage {
    pub kind: ImageKind,
    shape: ImageShape,
    /// An image and its view, or a texel buffer and its view.
    pub image: Option<(vk::Image, vk::ImageView)>,
    pub buffer: Option<(HostBuffer, vk::BufferView)>,
    /// A combined image-sampler's sampler.
    pub sampler: Option<vk::Sampler>,
}

pub fn descriptor_type(kind: ImageKind) -> vk::DescriptorType {
    match kind {
        ImageKind::Sampled => vk::DescriptorType::SAMPLED_IMAGE,
        ImageKind::Combined => vk::DescriptorType::COMBINED_IMAGE_SAMPLER,
        ImageKind::Storage => vk::DescriptorType::STORAGE_IMAGE,
        ImageKind::UniformTexelBuffer => vk::DescriptorType::UNIFORM_TEXEL_BUFFER,
        ImageKind::StorageTexelBuffer => vk::DescriptorType::STORAGE_TEXEL_BUFFER,
    }
}

fn vk_format(shape: &ImageShape) -> vk::Format {
    vk::Format::from_raw(shape.format.info().vk)
}

fn aspect(shape: &ImageShape) -> vk::ImageAspectFlags {
    if shape.format.info().is_depth() {
        vk::ImageAspectFlags::DEPTH
    } else {
        vk::ImageAspectFlags::COLOR
    }
}

fn layers(shape: &ImageShape) -> u32 {
    match shape.dim {
        ImageDim::D1Array | ImageDim::D2Array => shape.depth,
        ImageDim::Cube => 6,
        ImageDim::CubeArray => 6 * shape.depth,
        ImageDim::D1 | ImageDim::D2 | ImageDim::D3 | ImageDim::Buffer => 1,
    }
}

/// One copy region per level, at the level's offset in the simulator's
/// layout.
fn regions(shape: &ImageShape) -> Vec<vk::BufferImageCopy> {
    let header = shape.header(0);
    (0..shape.levels)
        .map(|level| {
            let [w, h, d] = level_size(&header, level);
            vk::BufferImageCopy::default()
                .buffer_offset(level_offset(&header, level))
                .image_subresource(
                    vk::ImageSubresourceLayers::default()
                        .aspect_mask(aspect(shape))
                        .mip_level(level)
                        .base_array_layer(0)
                        .layer_count(layers(shape)),
                )
                .image_extent(vk::Extent3D {
                    width: w,
                    height: h,
                    depth: d,
                })
        })
        .collect()
}

fn check_features(
    gpu: &Gpu,
    d: &ImageDescription,
    shape: &ImageShape,
) -> Result<(), ReferenceError> {
    // SAFETY: a physical device of this instance.
    let props = unsafe {
        gpu.instance
            .get_physical_device_format_properties(gpu.physical, vk_format(shape))
    };
    let (have, want, usage) = match d.kind {
        ImageKind::UniformTexelBuffer => (
            props.buffer_features,
            vk::FormatFeatureFlags::UNIFORM_TEXEL_BUFFER,
            "uniform texel buffers",
        ),
        ImageKind::StorageTexelBuffer => (
            props.buffer_features,
            vk::FormatFeatureFlags::STORAGE_TEXEL_BUFFER,
            "storage texel buffers",
        ),
        ImageKind::Storage => (
            props.optimal_tiling_features,
            vk::FormatFeatureFlags::STORAGE_IMAGE,
            "storage images",
        ),
        ImageKind::Sampled | ImageKind::Combined => {
            let linear = d.sampler.is_some_and(|s| {
                s.mag_filter == Filter::Linear
                    || s.min_filter == Filter::Linear
                    || s.mipmap_mode == MipFilter::Linear
            });
            if linear {
                (
                    props.optimal_tiling_features,
                    vk::FormatFeatureFlags::SAMPLED_IMAGE_FILTER_LINEAR,
                    "linear filtering",
                )
            } else {
                (
                    props.optimal_tiling_features,
                    vk::FormatFeatureFlags::SAMPLED_IMAGE,
                    "sampled images",
                )
            }
        }
    };
    if !have.contains(want) {
        return Err(ReferenceError::FormatUnsupported {
            device: gpu.info.device_name.clone(),
            format: shape.format.info().name,
            usage,
        });
    }
    if shape.samples > 1 {
        check_multisample(gpu, d, shape)?;
    }
    Ok(())
}

/// What a multisampled image needs: the features of the fill and of
/// storage use, and the sample count for the image's format and usage.
fn check_multisample(
    gpu: &Gpu,
    d: &ImageDescription,
    shape: &ImageShape,
) -> Result<(), ReferenceError> {
    let mut missing = Vec::new();
    if !gpu.enabled.sample_rate_shading {
        missing.push("sampleRateShading (to fill a multisampled image)");
    }
    if d.kind == ImageKind::Storage && !gpu.enabled.storage_image_multisample {
        missing.push("shaderStorageImageMultisample");
    }
    if !missing.is_empty() {
        return Err(ReferenceError::MissingFeatures {
            device: gpu.info.device_name.clone(),
            features: missing,
        });
    }
    let unsupported = |usage| ReferenceError::FormatUnsupported {
        device: gpu.info.device_name.clone(),
        format: shape.format.info().name,
        usage,
    };
    let raw = ms_fill::raw_format(shape.format.info().texel_bytes())
        .filter(|_| !shape.format.info().is_depth())
        .ok_or_else(|| {
            unsupported("multisampled images (a colour texel of 1, 2, 4, 8 or 16 bytes)")
        })?;
    // SAFETY: a physical device of this instance.
    let raw_props = unsafe {
        gpu.instance
            .get_physical_device_format_properties(gpu.physical, raw)
    };
    if !raw_props
        .optimal_tiling_features
        .contains(vk::FormatFeatureFlags::COLOR_ATTACHMENT)
    {
        return Err(unsupported(
            "rendering through a UINT view (the multisampled fill)",
        ));
    }
    let (_, _, usage, flags) = image_kind(d, shape);
    // SAFETY: a physical device of this instance.
    let props = unsafe {
        gpu.instance.get_physical_device_image_format_properties(
            gpu.physical,
            vk_format(shape),
            vk::ImageType::TYPE_2D,
            vk::ImageTiling::OPTIMAL,
            usage,
            flags,
        )
    }
    .map_err(|_| unsupported("multisampled images of this usage"))?;
    if !props
        .sample_counts
        .contains(ms_fill::sample_count(shape.samples))
    {
        return Err(unsupported("this sample count"));
    }
    Ok(())
}

/// The image type, view type, usage and create flags of an image (not a
/// texel buffer).
fn image_kind(
    d: &ImageDescription,
    shape: &ImageShape,
) -> (
    vk::ImageType,
    vk::ImageViewType,
    vk::ImageUsageFlags,
    vk::ImageCreateFlags,
) {
    let (image_type, view_type) = match shape.dim {
        ImageDim::D1 => (vk::ImageType::TYPE_1D, vk::ImageViewType::TYPE_1D),
        ImageDim::D1Array => (vk::ImageType::TYPE_1D, vk::ImageViewType::TYPE_1D_ARRAY),
        ImageDim::D2 | ImageDim::Buffer => (vk::ImageType::TYPE_2D, vk::ImageViewType::TYPE_2D),
        ImageDim::D2Array => (vk::ImageType::TYPE_2D, vk::ImageViewType::TYPE_2D_ARRAY),
        ImageDim::Cube => (vk::ImageType::TYPE_2D, vk::ImageViewType::CUBE),
        ImageDim::CubeArray => (vk::ImageType::TYPE_2D, vk::ImageViewType::CUBE_ARRAY),
        ImageDim::D3 => (vk::ImageType::TYPE_3D, vk::ImageViewType::TYPE_3D),
    };
    let mut usage = vk::ImageUsageFlags::SAMPLED;
    let mut flags = vk::ImageCreateFlags::empty();
    if shape.samples > 1 {
        // Rendered through a UINT view (`ms_fill.rs`).
        usage |= vk::ImageUsageFlags::COLOR_ATTACHMENT;
        flags |= vk::ImageCreateFlags::MUTABLE_FORMAT;
    } else {
        usage |= vk::ImageUsageFlags::TRANSFER_DST | vk::ImageUsageFlags::TRANSFER_SRC;
    }
    if d.kind == ImageKind::Storage {
        usage |= vk::ImageUsageFlags::STORAGE;
    }
    if matches!(shape.dim, ImageDim::Cube | ImageDim::CubeArray) {
        flags |= vk::ImageCreateFlags::CUBE_COMPATIBLE;
    }
    (image_type, view_type, usage, flags)
}

/// Makes every image, texel buffer and sampler of `desc` and fills them;
/// returns the images in the description's order and the separate
/// samplers in theirs.
pub fn create(
    gpu: &mut Gpu,
    desc: &RunDescription,
    base: &Path,
) -> Result<(Vec<DeviceImage>, Vec<vk::Sampler>), ReferenceError> {
    let mut out = Vec::new();
    let mut uploads: Vec<(vk::Image, HostBuffer, ImageShape)> = Vec::new();
    for d in &desc.images {
        let (shape, bytes) = d.resolve(base)?;
        check_features(gpu, d, &shape)?;
        let what = format!(
            "image at set {} binding {}[{}]",
            d.set, d.binding, d.element
        );
        let sampler = match &d.sampler {
            Some(s) => Some(sampler(gpu, s)?),
            None => None,
        };
        if d.kind.is_texel_buffer() {
            if shape.width > gpu.limits.max_texel_buffer_elements {
                return Err(ReferenceError::LimitExceeded {
                    device: gpu.info.device_name.clone(),
                    what: "texel buffer elements",
                    value: shape.width.into(),
                    limit: gpu.limits.max_texel_buffer_elements.into(),
                });
            }
            let usage = if d.kind == ImageKind::StorageTexelBuffer {
                vk::BufferUsageFlags::STORAGE_TEXEL_BUFFER
            } else {
                vk::BufferUsageFlags::UNIFORM_TEXEL_BUFFER
            };
            if !d
                .offset
                .is_multiple_of(gpu.limits.min_texel_buffer_offset_alignment)
            {
                return Err(ReferenceError::TexelBufferOffset {
                    device: gpu.info.device_name.clone(),
                    what: what.clone(),
                    offset: d.offset,
                    align: gpu.limits.min_texel_buffer_offset_alignment,
                });
            }
            let buffer = HostBuffer::new(gpu, usage, bytes.len() as u64, &bytes, &what)?;
            // The view covers the texels from the description's offset to
            // the end of the buffer (`resolve` sized it so).
            let info = vk::BufferViewCreateInfo::default()
                .buffer(buffer.buffer)
                .format(vk_format(&shape))
                .offset(d.offset)
                .range(vk::WHOLE_SIZE);
            // SAFETY: a live buffer made with a texel-buffer usage.
            let view = gpu.own(
                unsafe { gpu.device.create_buffer_view(&info, None) }
                    .map_err(vk_err("vkCreateBufferView"))?,
            );
            out.push(DeviceImage {
                kind: d.kind,
                shape,
                image: None,
                buffer: Some((buffer, view)),
                sampler,
            });
            continue;
        }
        if shape.dim == ImageDim::Buffer {
            // Texel buffers were made above.
            continue;
        }
        let (image_type, view_type, usage, flags) = image_kind(d, &shape);
        let depth = if shape.dim == ImageDim::D3 {
            shape.depth
        } else {
            1
        };
        let info = vk::ImageCreateInfo::default()
            .flags(flags)
            .image_type(image_type)
            .format(vk_format(&shape))
            .extent(vk::Extent3D {
                width: shape.width,
                height: shape.height,
                depth,
            })
            .mip_levels(shape.levels)
            .array_layers(layers(&shape))
            .samples(ms_fill::sample_count(shape.samples))
            .tiling(vk::ImageTiling::OPTIMAL)
            .usage(usage)
            .sharing_mode(vk::SharingMode::EXCLUSIVE)
            .initial_layout(vk::ImageLayout::UNDEFINED);
        // SAFETY: valid device and create info.
        let image = gpu
            .own(unsafe { gpu.device.create_image(&info, None) }.map_err(vk_err("vkCreateImage"))?);
        // SAFETY: the image was just made on this device.
        let req = unsafe { gpu.device.get_image_memory_requirements(image) };
        let type_index = gpu.memory_type(
            req.memory_type_bits,
            vk::MemoryPropertyFlags::empty(),
            &what,
        )?;
        let alloc = vk::MemoryAllocateInfo::default()
            .allocation_size(req.size)
            .memory_type_index(type_index);
        // SAFETY: a memory type the device offers for this image.
        let memory = gpu.own(
            unsafe { gpu.device.allocate_memory(&alloc, None) }
                .map_err(vk_err("vkAllocateMemory"))?,
        );
        // SAFETY: fresh memory of a suitable type and size, bound once.
        unsafe { gpu.device.bind_image_memory(image, memory, 0) }
            .map_err(vk_err("vkBindImageMemory"))?;
        let view_info = vk::ImageViewCreateInfo::default()
            .image(image)
            .view_type(view_type)
            .format(vk_format(&shape))
            .subresource_range(range(&shape));
        // SAFETY: a live image and a view type its flags allow.
        let view = gpu.own(
            unsafe { gpu.device.create_image_view(&view_info, None) }
                .map_err(vk_err("vkCreateImageView"))?,
        );
        if shape.samples > 1 {
            ms_fill::fill(gpu, image, &shape, layers(&shape), &bytes, &what)?;
        } else {
            let staging = HostBuffer::new(
                gpu,
                vk::BufferUsageFlags::TRANSFER_SRC | vk::BufferUsageFlags::TRANSFER_DST,
                bytes.len() as u64,
                &bytes,
                &what,
            )?;
            uploads.push((image, staging, shape));
        }
        out.push(DeviceImage {
            kind: d.kind,
            shape,
            image: Some((image, view)),
            buffer: None,
            sampler,
        });
    }
    if !uploads.is_empty() {
        let cmd = commands::begin(gpu)?;
        for (image, staging, shape) in &uploads {
            barrier(
                gpu,
                cmd,
                *image,
                shape,
                vk::ImageLayout::UNDEFINED,
                vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                vk::AccessFlags::empty(),
                vk::AccessFlags::TRANSFER_WRITE,
            );
            // SAFETY: `cmd` is recording; the staging buffer holds every region.
            unsafe {
                gpu.device.cmd_copy_buffer_to_image(
                    cmd,
                    staging.buffer,
                    *image,
                    vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                    &regions(shape),
                );
            }
            barrier(
                gpu,
                cmd,
                *image,
                shape,
                vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                vk::ImageLayout::GENERAL,
                vk::AccessFlags::TRANSFER_WRITE,
                vk::AccessFlags::SHADER_READ | vk::AccessFlags::SHADER_WRITE,
            );
        }
        commands::submit_and_wait(gpu, cmd)?;
    }
    let mut samplers = Vec::new();
    for s in &desc.samplers {
        samplers.push(sampler(gpu, &s.sampler)?);
    }
    Ok((out, samplers))
}

fn range(shape: &ImageShape) -> vk::ImageSubresourceRange {
    vk::ImageSubresourceRange::default()
        .aspect_mask(aspect(shape))
        .base_mip_level(0)
        .level_count(shape.levels)
        .base_array_layer(0)
        .layer_count(layers(shape))
}

#[allow(clippy::too_many_arguments)]
fn barrier(
    gpu: &Gpu,
    cmd: vk::CommandBuffer,
    image: vk::Image,
    shape: &ImageShape,
    from: vk::ImageLayout,
    to: vk::ImageLayout,
    src: vk::AccessFlags,
    dst: vk::AccessFlags,
) {
    let b = vk::ImageMemoryBarrier::default()
        .old_layout(from)
        .new_layout(to)
        .src_access_mask(src)
        .dst_access_mask(dst)
        .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        .image(image)
        .subresource_range(range(shape));
    // SAFETY: `cmd` is recording outside a render pass.
    unsafe {
        gpu.device.cmd_pipeline_barrier(
            cmd,
            vk::PipelineStageFlags::ALL_COMMANDS,
            vk::PipelineStageFlags::ALL_COMMANDS,
            vk::DependencyFlags::empty(),
            &[],
            &[],
            &[b],
        );
    }
}

fn sampler(gpu: &mut Gpu, s: &SamplerState) -> Result<vk::Sampler, ReferenceError> {
    let filter = |f: Filter| match f {
        Filter::Nearest => vk::Filter::NEAREST,
        Filter::Linear => vk::Filter::LINEAR,
    };
    let wrap = |w: Wrap| match w {
        Wrap::Repeat => vk::SamplerAddressMode::REPEAT,
        Wrap::MirroredRepeat => vk::SamplerAddressMode::MIRRORED_REPEAT,
        Wrap::ClampToEdge => vk::SamplerAddressMode::CLAMP_TO_EDGE,
        Wrap::ClampToBorder => vk::SamplerAddressMode::CLAMP_TO_BORDER,
        Wrap::MirrorClampToEdge => vk::SamplerAddressMode::MIRROR_CLAMP_TO_EDGE,
    };
    let compare = |c: CompareOp| match c {
        CompareOp::Never => vk::CompareOp::NEVER,
        CompareOp::Less => vk::CompareOp::LESS,
        CompareOp::Equal => vk::CompareOp::EQUAL,
        CompareOp::LessOrEqual => vk::CompareOp::LESS_OR_EQUAL,
        CompareOp::Greater => vk::CompareOp::GREATER,
        CompareOp::NotEqual => vk::CompareOp::NOT_EQUAL,
        CompareOp::GreaterOrEqual => vk::CompareOp::GREATER_OR_EQUAL,
        CompareOp::Always => vk::CompareOp::ALWAYS,
    };
    let border = match s.border_color {
        BorderColor::FloatTransparentBlack => vk::BorderColor::FLOAT_TRANSPARENT_BLACK,
        BorderColor::IntTransparentBlack => vk::BorderColor::INT_TRANSPARENT_BLACK,
        BorderColor::FloatOpaqueBlack => vk::BorderColor::FLOAT_OPAQUE_BLACK,
        BorderColor::IntOpaqueBlack => vk::BorderColor::INT_OPAQUE_BLACK,
        BorderColor::FloatOpaqueWhite => vk::BorderColor::FLOAT_OPAQUE_WHITE,
        BorderColor::IntOpaqueWhite => vk::BorderColor::INT_OPAQUE_WHITE,
    };
    // Vulkan has no "no mip filter": nearest with maxLod 0.25 reads the
    // base level only, as the spec suggests.
    let (mipmap_mode, max_lod) = match s.mipmap_mode {
        MipFilter::None => (vk::SamplerMipmapMode::NEAREST, s.max_lod.min(0.25)),
        MipFilter::Nearest => (vk::SamplerMipmapMode::NEAREST, s.max_lod),
        MipFilter::Linear => (vk::SamplerMipmapMode::LINEAR, s.max_lod),
    };
    let info = vk::SamplerCreateInfo::default()
        .mag_filter(filter(s.mag_filter))
        .min_filter(filter(s.min_filter))
        .mipmap_mode(mipmap_mode)
        .address_mode_u(wrap(s.address[0]))
        .address_mode_v(wrap(s.address[1]))
        .address_mode_w(wrap(s.address[2]))
        .mip_lod_bias(s.lod_bias)
        .compare_enable(s.compare.is_some())
        .compare_op(s.compare.map_or(vk::CompareOp::NEVER, compare))
        .min_lod(s.min_lod)
        .max_lod(max_lod)
        .border_color(border)
        .unnormalized_coordinates(s.unnormalized_coordinates);
    // SAFETY: valid device and create info.
    Ok(gpu
        .own(unsafe { gpu.device.create_sampler(&info, None) }.map_err(vk_err("vkCreateSampler"))?))
}

/// The final bytes of every image the description reads back, in its
/// order, with their descriptions.
pub fn read_back<'a>(
    gpu: &mut Gpu,
    desc: &'a RunDescription,
    images: &[DeviceImage],
) -> Result<Vec<(&'a ImageDescription, Vec<u8>)>, ReferenceError> {
    let mut staged = Vec::new();
    let wanted: Vec<_> = desc
        .images
        .iter()
        .zip(images)
        .filter(|(d, _)| d.read_back)
        .collect();
    if wanted.is_empty() {
        return Ok(Vec::new());
    }
    let cmd = commands::begin(gpu)?;
    for (d, img) in &wanted {
        if let Some((image, _)) = img.image {
            let bytes = img.shape.bytes();
            let staging = HostBuffer::new(
                gpu,
                vk::BufferUsageFlags::TRANSFER_DST,
                bytes,
                &[],
                "image read-back",
            )?;
            barrier(
                gpu,
                cmd,
                image,
                &img.shape,
                vk::ImageLayout::GENERAL,
                vk::ImageLayout::GENERAL,
                vk::AccessFlags::SHADER_WRITE,
                vk::AccessFlags::TRANSFER_READ,
            );
            // SAFETY: `cmd` is recording; the staging buffer holds every region.
            unsafe {
                gpu.device.cmd_copy_image_to_buffer(
                    cmd,
                    image,
                    vk::ImageLayout::GENERAL,
                    staging.buffer,
                    &regions(&img.shape),
                );
            }
            staged.push((*d, Some(staging)));
        } else {
            staged.push((*d, None));
        }
    }
    commands::host_barrier(gpu, cmd);
    commands::submit_and_wait(gpu, cmd)?;
    let mut out = Vec::new();
    for ((d, staging), (_, img)) in staged.into_iter().zip(&wanted) {
        let bytes = match (staging, &img.buffer) {
            (Some(s), _) => s.read(gpu)?,
            (None, Some((b, _))) => b.read(gpu)?,
            (None, None) => Vec::new(),
        };
        out.push((d, bytes));
    }
    Ok(out)
}
