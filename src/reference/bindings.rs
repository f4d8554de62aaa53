//! Descriptor set 0 (one buffer per binding) and the push constants: the
//! pipeline layout shared by compute and mesh pipelines.

use super::buffers::HostBuffer;
use super::description::{BufferKind, RunDescription, resolve_data};
use super::device::Gpu;
use super::error::{ReferenceError, vk_err};
use ash::vk;
use std::path::Path;

pub struct Bindings {
    pub layout: vk::PipelineLayout,
    set: Option<vk::DescriptorSet>,
    push: Vec<u8>,
    stages: vk::ShaderStageFlags,
    /// The description's buffers, in its order.
    pub buffers: Vec<(u32, HostBuffer)>,
}

impl Bindings {
    /// Makes the buffers with their initial contents, the set that points at
    /// them and the pipeline layout; `stages` are the stages that see them.
    pub fn new(
        gpu: &mut Gpu,
        desc: &RunDescription,
        base: &Path,
        stages: vk::ShaderStageFlags,
    ) -> Result<Bindings, ReferenceError> {
        let mut buffers = Vec::new();
        let mut layout_bindings = Vec::new();
        for b in &desc.buffers {
            let what = format!("buffer at binding {}", b.binding);
            let data = resolve_data(&b.contents, base, &what, b.kind.limit())?;
            let (usage, ty) = match b.kind {
                BufferKind::Storage => (
                    vk::BufferUsageFlags::STORAGE_BUFFER,
                    vk::DescriptorType::STORAGE_BUFFER,
                ),
                BufferKind::Uniform => (
                    vk::BufferUsageFlags::UNIFORM_BUFFER,
                    vk::DescriptorType::UNIFORM_BUFFER,
                ),
            };
            let (limit_name, limit) = match b.kind {
                BufferKind::Storage => ("storage buffer size", gpu.limits.max_storage_buffer_range),
                BufferKind::Uniform => ("uniform buffer size", gpu.limits.max_uniform_buffer_range),
            };
            check_limit(gpu, limit_name, data.len() as u64, limit.into())?;
            let buffer = HostBuffer::new(gpu, usage, data.len() as u64, &data, &what)?;
            buffers.push((b.binding, buffer));
            layout_bindings.push(
                vk::DescriptorSetLayoutBinding::default()
                    .binding(b.binding)
                    .descriptor_type(ty)
                    .descriptor_count(1)
                    .stage_flags(stages),
            );
        }
        let push = resolve_data(
            &desc.push_constants,
            base,
            "push constants",
            super::description::PUSH_CONSTANT_LIMIT,
        )?;
        check_limit(
            gpu,
            "push constant size",
            push.len() as u64,
            gpu.limits.max_push_constants_size.into(),
        )?;

        let set_info = vk::DescriptorSetLayoutCreateInfo::default().bindings(&layout_bindings);
        // SAFETY: valid device and create info.
        let set_layout = gpu.own(
            unsafe { gpu.device.create_descriptor_set_layout(&set_info, None) }
                .map_err(vk_err("vkCreateDescriptorSetLayout"))?,
        );
        let ranges = [vk::PushConstantRange::default()
            .stage_flags(stages)
            .offset(0)
            .size(push.len() as u32)];
        let set_layouts = [set_layout];
        let mut layout_info = vk::PipelineLayoutCreateInfo::default().set_layouts(&set_layouts);
        if !push.is_empty() {
            layout_info = layout_info.push_constant_ranges(&ranges);
        }
        // SAFETY: valid device and create info.
        let layout = gpu.own(
            unsafe { gpu.device.create_pipeline_layout(&layout_info, None) }
                .map_err(vk_err("vkCreatePipelineLayout"))?,
        );
        let set = if buffers.is_empty() {
            None
        } else {
            Some(write_set(gpu, set_layout, desc, &buffers)?)
        };
        Ok(Bindings {
            layout,
            set,
            push,
            stages,
            buffers,
        })
    }

    /// Binds the set and pushes the constants into `cmd`.
    pub fn record(&self, gpu: &Gpu, cmd: vk::CommandBuffer, point: vk::PipelineBindPoint) {
        // SAFETY: `cmd` is recording; the set and layout match.
        unsafe {
            if let Some(set) = self.set {
                gpu.device
                    .cmd_bind_descriptor_sets(cmd, point, self.layout, 0, &[set], &[]);
            }
            if !self.push.is_empty() {
                gpu.device
                    .cmd_push_constants(cmd, self.layout, self.stages, 0, &self.push);
            }
        }
    }
}

fn check_limit(
    gpu: &Gpu,
    what: &'static str,
    value: u64,
    limit: u64,
) -> Result<(), ReferenceError> {
    if value > limit {
        return Err(ReferenceError::LimitExceeded {
            device: gpu.info.device_name.clone(),
            what,
            value,
            limit,
        });
    }
    Ok(())
}

fn write_set(
    gpu: &mut Gpu,
    set_layout: vk::DescriptorSetLayout,
    desc: &RunDescription,
    buffers: &[(u32, HostBuffer)],
) -> Result<vk::DescriptorSet, ReferenceError> {
    let count = |kind| desc.buffers.iter().filter(|b| b.kind == kind).count() as u32;
    let sizes: Vec<vk::DescriptorPoolSize> = [
        (BufferKind::Storage, vk::DescriptorType::STORAGE_BUFFER),
        (BufferKind::Uniform, vk::DescriptorType::UNIFORM_BUFFER),
    ]
    .into_iter()
    .filter(|(k, _)| count(*k) > 0)
    .map(|(k, ty)| {
        vk::DescriptorPoolSize::default()
            .ty(ty)
            .descriptor_count(count(k))
    })
    .collect();
    let pool_info = vk::DescriptorPoolCreateInfo::default()
        .max_sets(1)
        .pool_sizes(&sizes);
    // SAFETY: valid device and create info.
    let pool = gpu.own(
        unsafe { gpu.device.create_descriptor_pool(&pool_info, None) }
            .map_err(vk_err("vkCreateDescriptorPool"))?,
    );
    let layouts = [set_layout];
    let alloc = vk::DescriptorSetAllocateInfo::default()
        .descriptor_pool(pool)
        .set_layouts(&layouts);
    // SAFETY: the pool has room for exactly this set.
    let set = unsafe { gpu.device.allocate_descriptor_sets(&alloc) }
        .map_err(vk_err("vkAllocateDescriptorSets"))?[0];
    let infos: Vec<[vk::DescriptorBufferInfo; 1]> = buffers
        .iter()
        .map(|(_, b)| {
            [vk::DescriptorBufferInfo::default()
                .buffer(b.buffer)
                .offset(0)
                .range(vk::WHOLE_SIZE)]
        })
        .collect();
    let writes: Vec<vk::WriteDescriptorSet> = desc
        .buffers
        .iter()
        .zip(&infos)
        .map(|(b, info)| {
            vk::WriteDescriptorSet::default()
                .dst_set(set)
                .dst_binding(b.binding)
                .descriptor_type(match b.kind {
                    BufferKind::Storage => vk::DescriptorType::STORAGE_BUFFER,
                    BufferKind::Uniform => vk::DescriptorType::UNIFORM_BUFFER,
                })
                .buffer_info(info)
        })
        .collect();
    // SAFETY: every write names a binding of the set's layout and a live buffer.
    unsafe { gpu.device.update_descriptor_sets(&writes, &[]) };
    Ok(set)
}
