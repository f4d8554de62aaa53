//! Getting results to the host: the colour image copied into a staging
//! buffer, and the description's buffers and read-back images as 32-bit
//! words.

use super::bindings::Bindings;
use super::buffers::HostBuffer;
use super::description::RunDescription;
use super::device::Gpu;
use super::error::ReferenceError;
use super::result::BufferResult;
use ash::vk;

/// Bytes per RGBA32F pixel.
pub const PIXEL_BYTES: u64 = 16;

/// A staging buffer for a `width`×`height`×`layers` RGBA32F image.
pub fn staging(
    gpu: &mut Gpu,
    width: u32,
    height: u32,
    layers: u32,
) -> Result<HostBuffer, ReferenceError> {
    let size = u64::from(width) * u64::from(height) * u64::from(layers) * PIXEL_BYTES;
    HostBuffer::new(
        gpu,
        vk::BufferUsageFlags::TRANSFER_DST,
        size,
        &[],
        "image staging buffer",
    )
}

/// Records the copy of every layer of `image` (in TRANSFER_SRC_OPTIMAL
/// layout) into `staging`, tightly packed, layer after layer.
pub fn copy_image(
    gpu: &Gpu,
    cmd: vk::CommandBuffer,
    image: vk::Image,
    extent: vk::Extent2D,
    layers: u32,
    staging: &HostBuffer,
) {
    let region = vk::BufferImageCopy::default()
        .buffer_offset(0)
        .buffer_row_length(0)
        .buffer_image_height(0)
        .image_subresource(
            vk::ImageSubresourceLayers::default()
                .aspect_mask(vk::ImageAspectFlags::COLOR)
                .mip_level(0)
                .base_array_layer(0)
                .layer_count(layers),
        )
        .image_extent(vk::Extent3D {
            width: extent.width,
            height: extent.height,
            depth: 1,
        });
    // SAFETY: `cmd` is recording outside a render pass; the staging buffer
    // holds exactly the image's bytes.
    unsafe {
        gpu.device.cmd_copy_image_to_buffer(
            cmd,
            image,
            vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
            staging.buffer,
            &[region],
        );
    }
}

/// The staging buffer's pixels as f32 (little-endian on every Vulkan host
/// this runs on, like the file written from them).
pub fn pixels(gpu: &Gpu, staging: &HostBuffer) -> Result<Vec<f32>, ReferenceError> {
    Ok(staging
        .read(gpu)?
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect())
}

/// The buffers marked `read_back`, in the description's order.
pub fn buffers(
    gpu: &Gpu,
    desc: &RunDescription,
    bindings: &Bindings,
) -> Result<Vec<BufferResult>, ReferenceError> {
    let mut out = Vec::new();
    for (d, buffer) in desc.buffers.iter().zip(&bindings.buffers) {
        if !d.read_back {
            continue;
        }
        let words = buffer
            .read(gpu)?
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        out.push(BufferResult {
            set: d.set,
            binding: d.binding,
            element: d.element,
            words,
        });
    }
    Ok(out)
}

/// The images marked `read_back`, in the description's order, as
/// buffer results (bytes in the simulator's layout, the last word
/// zero-padded).
pub fn images(
    gpu: &mut Gpu,
    desc: &RunDescription,
    bindings: &Bindings,
) -> Result<Vec<BufferResult>, ReferenceError> {
    Ok(super::images::read_back(gpu, desc, &bindings.images)?
        .into_iter()
        .map(|(d, bytes)| BufferResult {
            set: d.set,
            binding: d.binding,
            element: d.element,
            words: super::image_inputs::words(&bytes),
        })
        .collect())
}
