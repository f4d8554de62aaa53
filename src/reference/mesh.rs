//! A mesh (+ task) run: a headless render pass into an RGBA32F colour image
//! (one layer per view under multiview), cleared to 0, viewport over the
//! whole image with depth 0..1, no depth test, no blending; then the image,
//! the buffers and the queries are read back.

use super::bindings::Bindings;
use super::colour_pass::{ColourPass, WholeTarget, framebuffer};
use super::commands;
use super::compute::entry_name;
use super::description::{CullMode, FrontFace, ImageSize, RunDescription};
use super::device::Gpu;
use super::error::{ReferenceError, vk_err};
use super::interface::{ColourOutput, Spirv};
use super::modules;
use super::queries::Queries;
use super::readback;
use super::result::Statistics;
use ash::vk;

const FORMAT: vk::Format = vk::Format::R32G32B32A32_SFLOAT;

pub struct MeshShaders<'a> {
    pub task: Option<(&'a Spirv, &'a str)>,
    pub mesh: (&'a Spirv, &'a str),
    pub colour: ColourOutput,
}

/// Renders and returns the statistics and the image's pixels.
pub fn run(
    gpu: &mut Gpu,
    desc: &RunDescription,
    bindings: &Bindings,
    shaders: &MeshShaders,
    size: ImageSize,
) -> Result<(Statistics, Vec<f32>), ReferenceError> {
    let layers = desc.layers();
    check_limits(gpu, desc, shaders.task.is_some(), size, layers)?;
    let extent = vk::Extent2D {
        width: size.width,
        height: size.height,
    };
    let (image, view) = colour_image(gpu, extent, layers)?;
    // The colour writes land before the copy to the staging buffer.
    let render_pass = ColourPass {
        format: FORMAT,
        samples: vk::SampleCountFlags::TYPE_1,
        load: vk::AttachmentLoadOp::CLEAR,
        final_layout: vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
        then: (
            vk::PipelineStageFlags::TRANSFER,
            vk::AccessFlags::TRANSFER_READ,
        ),
        view_mask: desc.view_mask,
    }
    .create(gpu)?;
    let framebuffer = framebuffer(gpu, render_pass, view, extent)?;
    let pipeline = pipeline(gpu, desc, bindings, shaders, render_pass, extent)?;
    let queries = Queries::new(gpu, true, shaders.task.is_some())?;
    let staging = readback::staging(gpu, extent.width, extent.height, layers)?;

    let cmd = commands::begin(gpu)?;
    queries.begin(gpu, cmd);
    let clear = [vk::ClearValue {
        color: vk::ClearColorValue { float32: [0.0; 4] },
    }];
    let begin = vk::RenderPassBeginInfo::default()
        .render_pass(render_pass)
        .framebuffer(framebuffer)
        .render_area(vk::Rect2D {
            offset: vk::Offset2D::default(),
            extent,
        })
        .clear_values(&clear);
    let [x, y, z] = desc.groups;
    // `gpu.mesh` exists whenever the device was made for a mesh run.
    let Some(mesh_fns) = gpu.mesh.as_ref() else {
        return Err(ReferenceError::MeshShadersUnsupported {
            device: gpu.info.device_name.clone(),
        });
    };
    // SAFETY: `cmd` is recording; every object lives in `gpu`.
    unsafe {
        gpu.device
            .cmd_begin_render_pass(cmd, &begin, vk::SubpassContents::INLINE);
        gpu.device
            .cmd_bind_pipeline(cmd, vk::PipelineBindPoint::GRAPHICS, pipeline);
        bindings.record(gpu, cmd, vk::PipelineBindPoint::GRAPHICS);
        mesh_fns.cmd_draw_mesh_tasks(cmd, x, y, z);
        gpu.device.cmd_end_render_pass(cmd);
    }
    queries.end(gpu, cmd);
    readback::copy_image(gpu, cmd, image, extent, layers, &staging);
    commands::host_barrier(gpu, cmd);
    commands::submit_and_wait(gpu, cmd)?;
    Ok((queries.read(gpu)?, readback::pixels(gpu, &staging)?))
}

fn check_limits(
    gpu: &Gpu,
    desc: &RunDescription,
    task: bool,
    size: ImageSize,
    layers: u32,
) -> Result<(), ReferenceError> {
    let l = &gpu.limits;
    let checks = [
        ("image width", size.width, l.max_framebuffer_width),
        ("image height", size.height, l.max_framebuffer_height),
        (
            "view count (highest view mask bit + 1)",
            layers,
            gpu.max_views,
        ),
        ("image layers", layers, l.max_image_array_layers),
    ];
    for (what, value, limit) in checks {
        if value > limit {
            return Err(ReferenceError::LimitExceeded {
                device: gpu.info.device_name.clone(),
                what,
                value: value.into(),
                limit: limit.into(),
            });
        }
    }
    // The mesh-shader limits on the groups of a draw are checked by asking
    // the device for its mesh properties.
    let mut mesh = vk::PhysicalDeviceMeshShaderPropertiesEXT::default();
    {
        let mut props = vk::PhysicalDeviceProperties2::default().push_next(&mut mesh);
        // SAFETY: the device supports VK_EXT_mesh_shader (checked on creation).
        unsafe {
            gpu.instance
                .get_physical_device_properties2(gpu.physical, &mut props)
        };
    }
    let (per_axis, total, what) = if task {
        (
            mesh.max_task_work_group_count,
            mesh.max_task_work_group_total_count,
            "task workgroups",
        )
    } else {
        (
            mesh.max_mesh_work_group_count,
            mesh.max_mesh_work_group_total_count,
            "mesh workgroups",
        )
    };
    let count = desc
        .groups
        .iter()
        .fold(1u64, |a, &g| a.saturating_mul(u64::from(g)));
    let axis_over = desc.groups.iter().zip(per_axis).find(|(g, m)| **g > *m);
    if let Some((&g, m)) = axis_over {
        return Err(ReferenceError::LimitExceeded {
            device: gpu.info.device_name.clone(),
            what,
            value: g.into(),
            limit: m.into(),
        });
    }
    if count > u64::from(total) {
        return Err(ReferenceError::LimitExceeded {
            device: gpu.info.device_name.clone(),
            what,
            value: count,
            limit: total.into(),
        });
    }
    Ok(())
}

fn colour_image(
    gpu: &mut Gpu,
    extent: vk::Extent2D,
    layers: u32,
) -> Result<(vk::Image, vk::ImageView), ReferenceError> {
    let info = vk::ImageCreateInfo::default()
        .image_type(vk::ImageType::TYPE_2D)
        .format(FORMAT)
        .extent(vk::Extent3D {
            width: extent.width,
            height: extent.height,
            depth: 1,
        })
        .mip_levels(1)
        .array_layers(layers)
        .samples(vk::SampleCountFlags::TYPE_1)
        .tiling(vk::ImageTiling::OPTIMAL)
        .usage(vk::ImageUsageFlags::COLOR_ATTACHMENT | vk::ImageUsageFlags::TRANSFER_SRC)
        .sharing_mode(vk::SharingMode::EXCLUSIVE)
        .initial_layout(vk::ImageLayout::UNDEFINED);
    // SAFETY: RGBA32F colour attachments are required of every device.
    let image =
        gpu.own(unsafe { gpu.device.create_image(&info, None) }.map_err(vk_err("vkCreateImage"))?);
    // SAFETY: the image was just made on this device.
    let req = unsafe { gpu.device.get_image_memory_requirements(image) };
    let type_index = gpu
        .memory_type(
            req.memory_type_bits,
            vk::MemoryPropertyFlags::DEVICE_LOCAL,
            "colour image",
        )
        .or_else(|_| {
            gpu.memory_type(
                req.memory_type_bits,
                vk::MemoryPropertyFlags::empty(),
                "colour image",
            )
        })?;
    let alloc = vk::MemoryAllocateInfo::default()
        .allocation_size(req.size)
        .memory_type_index(type_index);
    // SAFETY: a memory type the device offers for this image.
    let memory = gpu.own(
        unsafe { gpu.device.allocate_memory(&alloc, None) }.map_err(vk_err("vkAllocateMemory"))?,
    );
    // SAFETY: fresh memory, bound once.
    unsafe { gpu.device.bind_image_memory(image, memory, 0) }
        .map_err(vk_err("vkBindImageMemory"))?;
    let view_info = vk::ImageViewCreateInfo::default()
        .image(image)
        .view_type(vk::ImageViewType::TYPE_2D_ARRAY)
        .format(FORMAT)
        .subresource_range(
            vk::ImageSubresourceRange::default()
                .aspect_mask(vk::ImageAspectFlags::COLOR)
                .base_mip_level(0)
                .level_count(1)
                .base_array_layer(0)
                .layer_count(layers),
        );
    // SAFETY: a view of the whole image.
    let view = gpu.own(
        unsafe { gpu.device.create_image_view(&view_info, None) }
            .map_err(vk_err("vkCreateImageView"))?,
    );
    Ok((image, view))
}

/// One subpass, one colour attachment: cleared, stored, left ready for the
/// copy to the host.
fn pipeline(
    gpu: &mut Gpu,
    desc: &RunDescription,
    bindings: &Bindings,
    shaders: &MeshShaders,
    render_pass: vk::RenderPass,
    extent: vk::Extent2D,
) -> Result<vk::Pipeline, ReferenceError> {
    let mut stages = Vec::new();
    let mut names = Vec::new();
    if let Some((spirv, entry)) = shaders.task {
        stages.push((vk::ShaderStageFlags::TASK_EXT, modules::create(gpu, spirv)?));
        names.push(entry_name(entry));
    }
    stages.push((
        vk::ShaderStageFlags::MESH_EXT,
        modules::create(gpu, shaders.mesh.0)?,
    ));
    names.push(entry_name(shaders.mesh.1));
    stages.push((
        vk::ShaderStageFlags::FRAGMENT,
        modules::fragment(gpu, shaders.colour)?,
    ));
    names.push(c"main".to_owned());
    let stage_infos: Vec<vk::PipelineShaderStageCreateInfo> = stages
        .iter()
        .zip(&names)
        .map(|((stage, module), name)| {
            vk::PipelineShaderStageCreateInfo::default()
                .stage(*stage)
                .module(*module)
                .name(name)
        })
        .collect();
    let target = WholeTarget::new(extent);
    let viewport = target.viewport();
    let raster = vk::PipelineRasterizationStateCreateInfo::default()
        .polygon_mode(vk::PolygonMode::FILL)
        .cull_mode(match desc.cull_mode {
            CullMode::None => vk::CullModeFlags::NONE,
            CullMode::Front => vk::CullModeFlags::FRONT,
            CullMode::Back => vk::CullModeFlags::BACK,
            CullMode::FrontAndBack => vk::CullModeFlags::FRONT_AND_BACK,
        })
        .front_face(match desc.front_face {
            FrontFace::CounterClockwise => vk::FrontFace::COUNTER_CLOCKWISE,
            FrontFace::Clockwise => vk::FrontFace::CLOCKWISE,
        })
        .line_width(1.0);
    let multisample = vk::PipelineMultisampleStateCreateInfo::default()
        .rasterization_samples(vk::SampleCountFlags::TYPE_1);
    let blend = target.blend();
    // Mesh pipelines have no vertex input or input assembly state.
    let info = vk::GraphicsPipelineCreateInfo::default()
        .stages(&stage_infos)
        .viewport_state(&viewport)
        .rasterization_state(&raster)
        .multisample_state(&multisample)
        .color_blend_state(&blend)
        .layout(bindings.layout)
        .render_pass(render_pass)
        .subpass(0);
    // SAFETY: the modules hold the named entry points (checked), the
    // fragment shader's input matches the mesh shader's Location-0 output.
    let pipeline = unsafe {
        gpu.device
            .create_graphics_pipelines(vk::PipelineCache::null(), &[info], None)
    }
    .map_err(|(_, result)| ReferenceError::Pipeline {
        what: "mesh",
        result,
    })?[0];
    Ok(gpu.own(pipeline))
}
