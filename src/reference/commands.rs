//! One command buffer, recorded once, submitted and waited for with a time
//! limit, so that a hung shader ends in an error instead of a hung runner.

use super::device::Gpu;
use super::error::{ReferenceError, vk_err};
use ash::vk;

/// How long the device may take for one run.
const TIMEOUT_S: u64 = 20;

pub fn begin(gpu: &mut Gpu) -> Result<vk::CommandBuffer, ReferenceError> {
    let pool_info = vk::CommandPoolCreateInfo::default().queue_family_index(gpu.queue_family);
    // SAFETY: valid device and create info.
    let pool = gpu.own(
        unsafe { gpu.device.create_command_pool(&pool_info, None) }
            .map_err(vk_err("vkCreateCommandPool"))?,
    );
    let alloc = vk::CommandBufferAllocateInfo::default()
        .command_pool(pool)
        .level(vk::CommandBufferLevel::PRIMARY)
        .command_buffer_count(1);
    // SAFETY: one buffer from a fresh pool, freed with the pool.
    let cmd = unsafe { gpu.device.allocate_command_buffers(&alloc) }
        .map_err(vk_err("vkAllocateCommandBuffers"))?[0];
    let begin =
        vk::CommandBufferBeginInfo::default().flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT);
    // SAFETY: a fresh command buffer.
    unsafe { gpu.device.begin_command_buffer(cmd, &begin) }
        .map_err(vk_err("vkBeginCommandBuffer"))?;
    Ok(cmd)
}

/// Makes every earlier write (shaders, transfers) visible to host reads.
pub fn host_barrier(gpu: &Gpu, cmd: vk::CommandBuffer) {
    let barrier = vk::MemoryBarrier::default()
        .src_access_mask(vk::AccessFlags::SHADER_WRITE | vk::AccessFlags::TRANSFER_WRITE)
        .dst_access_mask(vk::AccessFlags::HOST_READ);
    // SAFETY: `cmd` is recording, outside a render pass.
    unsafe {
        gpu.device.cmd_pipeline_barrier(
            cmd,
            vk::PipelineStageFlags::ALL_COMMANDS,
            vk::PipelineStageFlags::HOST,
            vk::DependencyFlags::empty(),
            &[barrier],
            &[],
            &[],
        );
    }
}

/// Ends `cmd`, submits it and waits until the device has finished it.
pub fn submit_and_wait(gpu: &mut Gpu, cmd: vk::CommandBuffer) -> Result<(), ReferenceError> {
    // SAFETY: `cmd` is recording.
    unsafe { gpu.device.end_command_buffer(cmd) }.map_err(vk_err("vkEndCommandBuffer"))?;
    // SAFETY: valid device.
    let fence = gpu.own(
        unsafe {
            gpu.device
                .create_fence(&vk::FenceCreateInfo::default(), None)
        }
        .map_err(vk_err("vkCreateFence"))?,
    );
    let cmds = [cmd];
    let submit = vk::SubmitInfo::default().command_buffers(&cmds);
    // SAFETY: a fully recorded command buffer whose objects all live in `gpu`.
    unsafe { gpu.device.queue_submit(gpu.queue, &[submit], fence) }
        .map_err(vk_err("vkQueueSubmit"))?;
    // SAFETY: the fence was submitted above.
    match unsafe {
        gpu.device
            .wait_for_fences(&[fence], true, TIMEOUT_S * 1_000_000_000)
    } {
        Ok(()) => Ok(()),
        Err(vk::Result::TIMEOUT) => Err(ReferenceError::Timeout(TIMEOUT_S)),
        Err(result) => Err(ReferenceError::Vulkan {
            call: "vkWaitForFences",
            result,
        }),
    }
}
