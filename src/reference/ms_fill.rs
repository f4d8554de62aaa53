//! Filling a multisampled image on the device. Vulkan cannot copy a
//! buffer into a multisampled image, so the runner renders it: per layer
//! a render pass whose one attachment is a UINT view of the texel's size
//! (R8, R16, R32, R32G32 or R32G32B32A32 UINT; the image is made with
//! MUTABLE_FORMAT), a triangle over the whole layer, and a fragment shader
//! run per sample (gl_SampleID) that writes the sample's raw bits, read
//! from the description's bytes in the simulator's layout
//! (tests/shaders/fill/; docs/TEXTURES.md, "Multisampled images"). Needs
//! sampleRateShading and the format's colour-attachment sample count.

use super::buffers::HostBuffer;
use super::colour_pass::{ColourPass, WholeTarget, framebuffer};
use super::commands;
use super::device::Gpu;
use super::error::{ReferenceError, vk_err};
use super::modules;
use ash::vk;
use spvsass_sim::texture::host::ImageShape;
use spvsass_sim::texture::samples::SampleLayout;

const VERTEX: &[u8] = include_bytes!("../../tests/shaders/fill/fill_samples.vert.spv");
const FRAGMENT: &[u8] = include_bytes!("../../tests/shaders/fill/fill_samples.frag.spv");

/// The UINT format a texel of `bytes` bytes is written through.
pub fn raw_format(bytes: u32) -> Option<vk::Format> {
    Some(match bytes {
        1 => vk::Format::R8_UINT,
        2 => vk::Format::R16_UINT,
        4 => vk::Format::R32_UINT,
        8 => vk::Format::R32G32_UINT,
        16 => vk::Format::R32G32B32A32_UINT,
        _ => return None,
    })
}

pub fn sample_count(samples: u32) -> vk::SampleCountFlags {
    vk::SampleCountFlags::from_raw(samples)
}

/// Writes `bytes` (every layer and sample, the simulator's layout) into
/// `image`, which is left in the GENERAL layout.
pub fn fill(
    gpu: &mut Gpu,
    image: vk::Image,
    shape: &ImageShape,
    layers: u32,
    bytes: &[u8],
    what: &str,
) -> Result<(), ReferenceError> {
    let texel = shape.format.info().texel_bytes();
    let format = raw_format(texel).ok_or_else(|| ReferenceError::FormatUnsupported {
        device: gpu.info.device_name.clone(),
        format: shape.format.info().name,
        usage: "multisampled images (a texel of 1, 2, 4, 8 or 16 bytes)",
    })?;
    let samples = sample_count(shape.samples);
    let layout = SampleLayout::for_count(shape.samples).unwrap_or_default();
    let (sw, sh) = layout.grid();
    // The sample map in two words (16 samples take 64 bits).
    let mut map = [0u32; 2];
    for s in 0..layout.count() {
        let (x, y) = layout.position(s);
        map[(s / 8) as usize] |= (x | y << 2) << (4 * (s % 8));
    }
    let mut padded = bytes.to_vec();
    padded.resize(bytes.len().next_multiple_of(4).max(4), 0);
    let data = HostBuffer::new(
        gpu,
        vk::BufferUsageFlags::STORAGE_BUFFER,
        padded.len() as u64,
        &padded,
        what,
    )?;

    let bindings = [vk::DescriptorSetLayoutBinding::default()
        .binding(0)
        .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
        .descriptor_count(1)
        .stage_flags(vk::ShaderStageFlags::FRAGMENT)];
    let set_info = vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings);
    // SAFETY: valid device and create info.
    let set_layout = gpu.own(
        unsafe { gpu.device.create_descriptor_set_layout(&set_info, None) }
            .map_err(vk_err("vkCreateDescriptorSetLayout"))?,
    );
    let ranges = [vk::PushConstantRange::default()
        .stage_flags(vk::ShaderStageFlags::FRAGMENT)
        .offset(0)
        .size(32)];
    let set_layouts = [set_layout];
    let layout_info = vk::PipelineLayoutCreateInfo::default()
        .set_layouts(&set_layouts)
        .push_constant_ranges(&ranges);
    // SAFETY: valid device and create info.
    let pipeline_layout = gpu.own(
        unsafe { gpu.device.create_pipeline_layout(&layout_info, None) }
            .map_err(vk_err("vkCreatePipelineLayout"))?,
    );
    let sizes = [vk::DescriptorPoolSize::default()
        .ty(vk::DescriptorType::STORAGE_BUFFER)
        .descriptor_count(1)];
    let pool_info = vk::DescriptorPoolCreateInfo::default()
        .max_sets(1)
        .pool_sizes(&sizes);
    // SAFETY: valid device and create info.
    let pool = gpu.own(
        unsafe { gpu.device.create_descriptor_pool(&pool_info, None) }
            .map_err(vk_err("vkCreateDescriptorPool"))?,
    );
    let alloc = vk::DescriptorSetAllocateInfo::default()
        .descriptor_pool(pool)
        .set_layouts(&set_layouts);
    // SAFETY: one set from a fresh pool sized for it.
    let set = unsafe { gpu.device.allocate_descriptor_sets(&alloc) }
        .map_err(vk_err("vkAllocateDescriptorSets"))?[0];
    let buffer_info = [vk::DescriptorBufferInfo::default()
        .buffer(data.buffer)
        .offset(0)
        .range(vk::WHOLE_SIZE)];
    let write = vk::WriteDescriptorSet::default()
        .dst_set(set)
        .dst_binding(0)
        .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
        .buffer_info(&buffer_info);
    // SAFETY: the set and buffer are live.
    unsafe { gpu.device.update_descriptor_sets(&[write], &[]) };

    // The writes land before any shader of the run reads the image.
    let render_pass = ColourPass {
        format,
        samples,
        load: vk::AttachmentLoadOp::DONT_CARE,
        final_layout: vk::ImageLayout::GENERAL,
        then: (
            vk::PipelineStageFlags::ALL_COMMANDS,
            vk::AccessFlags::SHADER_READ | vk::AccessFlags::SHADER_WRITE,
        ),
        view_mask: 0,
    }
    .create(gpu)?;
    let extent = vk::Extent2D {
        width: shape.width,
        height: shape.height,
    };
    let pipeline = pipeline(gpu, pipeline_layout, render_pass, extent, samples)?;

    let cmd = commands::begin(gpu)?;
    for layer in 0..layers {
        let view_info = vk::ImageViewCreateInfo::default()
            .image(image)
            .view_type(vk::ImageViewType::TYPE_2D)
            .format(format)
            .subresource_range(
                vk::ImageSubresourceRange::default()
                    .aspect_mask(vk::ImageAspectFlags::COLOR)
                    .base_mip_level(0)
                    .level_count(1)
                    .base_array_layer(layer)
                    .layer_count(1),
            );
        // SAFETY: a MUTABLE_FORMAT image viewed in a size-compatible format.
        let view = gpu.own(
            unsafe { gpu.device.create_image_view(&view_info, None) }
                .map_err(vk_err("vkCreateImageView"))?,
        );
        let framebuffer = framebuffer(gpu, render_pass, view, extent)?;
        let push: [u32; 8] = [
            shape.width * sw,
            shape.height * sh,
            sw,
            sh,
            map[0],
            map[1],
            layer,
            texel,
        ];
        let push_bytes: Vec<u8> = push.iter().flat_map(|w| w.to_le_bytes()).collect();
        let begin = vk::RenderPassBeginInfo::default()
            .render_pass(render_pass)
            .framebuffer(framebuffer)
            .render_area(vk::Rect2D {
                offset: vk::Offset2D::default(),
                extent,
            });
        // SAFETY: `cmd` is recording; every object lives in `gpu`.
        unsafe {
            gpu.device
                .cmd_begin_render_pass(cmd, &begin, vk::SubpassContents::INLINE);
            gpu.device
                .cmd_bind_pipeline(cmd, vk::PipelineBindPoint::GRAPHICS, pipeline);
            gpu.device.cmd_bind_descriptor_sets(
                cmd,
                vk::PipelineBindPoint::GRAPHICS,
                pipeline_layout,
                0,
                &[set],
                &[],
            );
            gpu.device.cmd_push_constants(
                cmd,
                pipeline_layout,
                vk::ShaderStageFlags::FRAGMENT,
                0,
                &push_bytes,
            );
            gpu.device.cmd_draw(cmd, 3, 1, 0, 0);
            gpu.device.cmd_end_render_pass(cmd);
        }
    }
    commands::submit_and_wait(gpu, cmd)
}

fn pipeline(
    gpu: &mut Gpu,
    layout: vk::PipelineLayout,
    render_pass: vk::RenderPass,
    extent: vk::Extent2D,
    samples: vk::SampleCountFlags,
) -> Result<vk::Pipeline, ReferenceError> {
    let vertex = modules::built_in(gpu, VERTEX, "fill_samples.vert.spv")?;
    let fragment = modules::built_in(gpu, FRAGMENT, "fill_samples.frag.spv")?;
    let stages = [
        vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::VERTEX)
            .module(vertex)
            .name(c"main"),
        vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::FRAGMENT)
            .module(fragment)
            .name(c"main"),
    ];
    let vertex_input = vk::PipelineVertexInputStateCreateInfo::default();
    let assembly = vk::PipelineInputAssemblyStateCreateInfo::default()
        .topology(vk::PrimitiveTopology::TRIANGLE_LIST);
    let target = WholeTarget::new(extent);
    let viewport = target.viewport();
    let raster = vk::PipelineRasterizationStateCreateInfo::default()
        .polygon_mode(vk::PolygonMode::FILL)
        .cull_mode(vk::CullModeFlags::NONE)
        .line_width(1.0);
    // gl_SampleID runs the fragment shader once per sample.
    let multisample = vk::PipelineMultisampleStateCreateInfo::default()
        .rasterization_samples(samples)
        .sample_shading_enable(true)
        .min_sample_shading(1.0);
    let blend = target.blend();
    let info = vk::GraphicsPipelineCreateInfo::default()
        .stages(&stages)
        .vertex_input_state(&vertex_input)
        .input_assembly_state(&assembly)
        .viewport_state(&viewport)
        .rasterization_state(&raster)
        .multisample_state(&multisample)
        .color_blend_state(&blend)
        .layout(layout)
        .render_pass(render_pass)
        .subpass(0);
    // SAFETY: the committed shaders match the layout and render pass.
    let pipeline = unsafe {
        gpu.device
            .create_graphics_pipelines(vk::PipelineCache::null(), &[info], None)
    }
    .map_err(|(_, result)| ReferenceError::Pipeline {
        what: "multisampled-image fill",
        result,
    })?[0];
    Ok(gpu.own(pipeline))
}
