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
use super::commands;
use super::device::Gpu;
use super::error::{ReferenceError, vk_err};
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

fn module(gpu: &mut Gpu, bytes: &[u8]) -> Result<vk::ShaderModule, ReferenceError> {
    let words: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let info = vk::ShaderModuleCreateInfo::default().code(&words);
    // SAFETY: a committed module built and validated by build.sh.
    let m = unsafe { gpu.device.create_shader_module(&info, None) }.map_err(|result| {
        ReferenceError::ShaderModule {
            path: "(built in) fill_samples".into(),
            result,
        }
    })?;
    Ok(gpu.own(m))
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

    let attachments = [vk::AttachmentDescription::default()
        .format(format)
        .samples(samples)
        .load_op(vk::AttachmentLoadOp::DONT_CARE)
        .store_op(vk::AttachmentStoreOp::STORE)
        .stencil_load_op(vk::AttachmentLoadOp::DONT_CARE)
        .stencil_store_op(vk::AttachmentStoreOp::DONT_CARE)
        .initial_layout(vk::ImageLayout::UNDEFINED)
        .final_layout(vk::ImageLayout::GENERAL)];
    let colour_refs = [vk::AttachmentReference::default()
        .attachment(0)
        .layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)];
    let subpasses = [vk::SubpassDescription::default()
        .pipeline_bind_point(vk::PipelineBindPoint::GRAPHICS)
        .color_attachments(&colour_refs)];
    // The writes land before any shader of the run reads the image.
    let dependencies = [vk::SubpassDependency::default()
        .src_subpass(0)
        .dst_subpass(vk::SUBPASS_EXTERNAL)
        .src_stage_mask(vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT)
        .src_access_mask(vk::AccessFlags::COLOR_ATTACHMENT_WRITE)
        .dst_stage_mask(vk::PipelineStageFlags::ALL_COMMANDS)
        .dst_access_mask(vk::AccessFlags::SHADER_READ | vk::AccessFlags::SHADER_WRITE)];
    let rp_info = vk::RenderPassCreateInfo::default()
        .attachments(&attachments)
        .subpasses(&subpasses)
        .dependencies(&dependencies);
    // SAFETY: valid device and create info.
    let render_pass = gpu.own(
        unsafe { gpu.device.create_render_pass(&rp_info, None) }
            .map_err(vk_err("vkCreateRenderPass"))?,
    );
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
        let views = [view];
        let fb_info = vk::FramebufferCreateInfo::default()
            .render_pass(render_pass)
            .attachments(&views)
            .width(extent.width)
            .height(extent.height)
            .layers(1);
        // SAFETY: the view matches the render pass's attachment.
        let framebuffer = gpu.own(
            unsafe { gpu.device.create_framebuffer(&fb_info, None) }
                .map_err(vk_err("vkCreateFramebuffer"))?,
        );
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
    let vertex = module(gpu, VERTEX)?;
    let fragment = module(gpu, FRAGMENT)?;
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
    let viewports = [vk::Viewport {
        x: 0.0,
        y: 0.0,
        width: extent.width as f32,
        height: extent.height as f32,
        min_depth: 0.0,
        max_depth: 1.0,
    }];
    let scissors = [vk::Rect2D {
        offset: vk::Offset2D::default(),
        extent,
    }];
    let viewport = vk::PipelineViewportStateCreateInfo::default()
        .viewports(&viewports)
        .scissors(&scissors);
    let raster = vk::PipelineRasterizationStateCreateInfo::default()
        .polygon_mode(vk::PolygonMode::FILL)
        .cull_mode(vk::CullModeFlags::NONE)
        .line_width(1.0);
    // gl_SampleID runs the fragment shader once per sample.
    let multisample = vk::PipelineMultisampleStateCreateInfo::default()
        .rasterization_samples(samples)
        .sample_shading_enable(true)
        .min_sample_shading(1.0);
    let blend_attachments = [vk::PipelineColorBlendAttachmentState::default()
        .blend_enable(false)
        .color_write_mask(vk::ColorComponentFlags::RGBA)];
    let blend = vk::PipelineColorBlendStateCreateInfo::default().attachments(&blend_attachments);
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
