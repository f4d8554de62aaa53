//! What the reference runner's two graphics passes share (the mesh draw,
//! `mesh.rs`, and the multisampled-image fill, `ms_fill.rs`): a render
//! pass with one colour attachment, a framebuffer of one view, and the
//! fixed-function state of a pipeline that draws over all of it, writing
//! every channel unblended.

use super::device::Gpu;
use super::error::{ReferenceError, vk_err};
use ash::vk;

/// A render pass with one colour attachment, stored at the end.
pub struct ColourPass {
    pub format: vk::Format,
    pub samples: vk::SampleCountFlags,
    /// Cleared, or left as it is where every pixel is drawn.
    pub load: vk::AttachmentLoadOp,
    /// The attachment's layout after the pass.
    pub final_layout: vk::ImageLayout,
    /// What uses the attachment after the pass (the dependency's
    /// destination stage and access), so the colour writes land first.
    pub then: (vk::PipelineStageFlags, vk::AccessFlags),
    /// Multiview's view mask (0: none; multiview must then be enabled).
    pub view_mask: u32,
}

impl ColourPass {
    pub fn create(&self, gpu: &mut Gpu) -> Result<vk::RenderPass, ReferenceError> {
        let attachments = [vk::AttachmentDescription::default()
            .format(self.format)
            .samples(self.samples)
            .load_op(self.load)
            .store_op(vk::AttachmentStoreOp::STORE)
            .stencil_load_op(vk::AttachmentLoadOp::DONT_CARE)
            .stencil_store_op(vk::AttachmentStoreOp::DONT_CARE)
            .initial_layout(vk::ImageLayout::UNDEFINED)
            .final_layout(self.final_layout)];
        let colour_refs = [vk::AttachmentReference::default()
            .attachment(0)
            .layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)];
        let subpasses = [vk::SubpassDescription::default()
            .pipeline_bind_point(vk::PipelineBindPoint::GRAPHICS)
            .color_attachments(&colour_refs)];
        let (stage, access) = self.then;
        let dependencies = [vk::SubpassDependency::default()
            .src_subpass(0)
            .dst_subpass(vk::SUBPASS_EXTERNAL)
            .src_stage_mask(vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT)
            .src_access_mask(vk::AccessFlags::COLOR_ATTACHMENT_WRITE)
            .dst_stage_mask(stage)
            .dst_access_mask(access)];
        let view_masks = [self.view_mask];
        let mut multiview = vk::RenderPassMultiviewCreateInfo::default().view_masks(&view_masks);
        let mut info = vk::RenderPassCreateInfo::default()
            .attachments(&attachments)
            .subpasses(&subpasses)
            .dependencies(&dependencies);
        if self.view_mask != 0 {
            info = info.push_next(&mut multiview);
        }
        // SAFETY: valid device and create info; the caller enabled
        // multiview when it gives a view mask.
        Ok(gpu.own(
            unsafe { gpu.device.create_render_pass(&info, None) }
                .map_err(vk_err("vkCreateRenderPass"))?,
        ))
    }
}

/// A framebuffer of `view` (one layer: under multiview the views select
/// the layers) for `render_pass`.
pub fn framebuffer(
    gpu: &mut Gpu,
    render_pass: vk::RenderPass,
    view: vk::ImageView,
    extent: vk::Extent2D,
) -> Result<vk::Framebuffer, ReferenceError> {
    let attachments = [view];
    let info = vk::FramebufferCreateInfo::default()
        .render_pass(render_pass)
        .attachments(&attachments)
        .width(extent.width)
        .height(extent.height)
        .layers(1);
    // SAFETY: the view matches the render pass's single attachment.
    Ok(gpu.own(
        unsafe { gpu.device.create_framebuffer(&info, None) }
            .map_err(vk_err("vkCreateFramebuffer"))?,
    ))
}

/// The viewport (depth 0..1) and scissor over all of an extent, and one
/// colour attachment written in every channel without blending.
pub struct WholeTarget {
    viewports: [vk::Viewport; 1],
    scissors: [vk::Rect2D; 1],
    blend: [vk::PipelineColorBlendAttachmentState; 1],
}

impl WholeTarget {
    pub fn new(extent: vk::Extent2D) -> WholeTarget {
        WholeTarget {
            viewports: [vk::Viewport {
                x: 0.0,
                y: 0.0,
                width: extent.width as f32,
                height: extent.height as f32,
                min_depth: 0.0,
                max_depth: 1.0,
            }],
            scissors: [vk::Rect2D {
                offset: vk::Offset2D::default(),
                extent,
            }],
            blend: [vk::PipelineColorBlendAttachmentState::default()
                .blend_enable(false)
                .color_write_mask(vk::ColorComponentFlags::RGBA)],
        }
    }

    pub fn viewport(&self) -> vk::PipelineViewportStateCreateInfo<'_> {
        vk::PipelineViewportStateCreateInfo::default()
            .viewports(&self.viewports)
            .scissors(&self.scissors)
    }

    pub fn blend(&self) -> vk::PipelineColorBlendStateCreateInfo<'_> {
        vk::PipelineColorBlendStateCreateInfo::default().attachments(&self.blend)
    }
}
