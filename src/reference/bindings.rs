//! The description's descriptor sets (any sets, bindings, descriptor
//! arrays, offsets, ranges and dynamic buffers) and the push constants:
//! the pipeline layout shared by compute and mesh pipelines. Sets up to
//! the highest one used get a layout each (empty where nothing is bound),
//! as set numbers are positions in the pipeline layout.

use super::buffers::HostBuffer;
use super::description::{BufferDescription, BufferKind, RunDescription, resolve_data};
use super::device::Gpu;
use super::error::{ReferenceError, vk_err};
use super::images::{self, DeviceImage};
use ash::vk;
use std::collections::BTreeMap;
use std::path::Path;

pub struct Bindings {
    pub layout: vk::PipelineLayout,
    /// Each set with the dynamic offsets it is bound with, by set number.
    sets: Vec<(vk::DescriptorSet, Vec<u32>)>,
    push: Vec<u8>,
    stages: vk::ShaderStageFlags,
    /// The description's buffers, in its order.
    pub buffers: Vec<HostBuffer>,
    /// The description's images and texel buffers, in its order.
    pub images: Vec<DeviceImage>,
}

fn descriptor_type(kind: BufferKind) -> vk::DescriptorType {
    match kind {
        BufferKind::Storage => vk::DescriptorType::STORAGE_BUFFER,
        BufferKind::Uniform => vk::DescriptorType::UNIFORM_BUFFER,
        BufferKind::StorageDynamic => vk::DescriptorType::STORAGE_BUFFER_DYNAMIC,
        BufferKind::UniformDynamic => vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC,
    }
}

fn what(b: &BufferDescription) -> String {
    format!(
        "buffer at set {} binding {}[{}]",
        b.set, b.binding, b.element
    )
}

impl Bindings {
    /// Makes the buffers with their initial contents, the sets that point
    /// at them and the pipeline layout; `stages` are the stages that see
    /// them.
    pub fn new(
        gpu: &mut Gpu,
        desc: &RunDescription,
        base: &Path,
        stages: vk::ShaderStageFlags,
    ) -> Result<Bindings, ReferenceError> {
        let mut buffers = Vec::new();
        // (set, binding) -> (descriptor type, descriptor count).
        let mut layout: BTreeMap<(u32, u32), (vk::DescriptorType, u32)> = BTreeMap::new();
        for b in &desc.buffers {
            let what = what(b);
            let data = resolve_data(&b.contents, base, &what, b.kind.limit())?;
            let storage = b.kind.is_storage();
            let usage = if storage {
                vk::BufferUsageFlags::STORAGE_BUFFER
            } else {
                vk::BufferUsageFlags::UNIFORM_BUFFER
            };
            let limits = &gpu.limits;
            let (limit_name, limit, align) = if storage {
                let align = limits.min_storage_buffer_offset_alignment;
                (
                    "storage buffer size",
                    limits.max_storage_buffer_range,
                    align,
                )
            } else {
                let align = limits.min_uniform_buffer_offset_alignment;
                (
                    "uniform buffer size",
                    limits.max_uniform_buffer_range,
                    align,
                )
            };
            let range = b
                .range
                .unwrap_or((data.len() as u64).saturating_sub(b.offset));
            check_limit(gpu, limit_name, range, limit.into())?;
            if align != 0 && !b.offset.is_multiple_of(align) {
                return Err(ReferenceError::OffsetAlignment {
                    what,
                    offset: b.offset,
                    align,
                });
            }
            buffers.push(HostBuffer::new(
                gpu,
                usage,
                data.len() as u64,
                &data,
                &what,
            )?);
            let entry = layout
                .entry((b.set, b.binding))
                .or_insert((descriptor_type(b.kind), 0));
            entry.1 = entry.1.max(b.element + 1);
        }
        let (images, samplers) = images::create(gpu, desc, base)?;
        let image_slots = desc
            .images
            .iter()
            .map(|i| (i.set, i.binding, i.element, images::descriptor_type(i.kind)));
        let sampler_slots = desc
            .samplers
            .iter()
            .map(|s| (s.set, s.binding, s.element, vk::DescriptorType::SAMPLER));
        for (set, binding, element, ty) in image_slots.chain(sampler_slots) {
            let entry = layout.entry((set, binding)).or_insert((ty, 0));
            entry.1 = entry.1.max(element + 1);
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
        let set_count = layout.keys().map(|&(set, _)| set + 1).max().unwrap_or(0);
        check_limit(
            gpu,
            "descriptor sets",
            set_count.into(),
            gpu.limits.max_bound_descriptor_sets.into(),
        )?;
        let mut set_layouts = Vec::new();
        for set in 0..set_count {
            let bindings: Vec<vk::DescriptorSetLayoutBinding> = layout
                .range((set, 0)..=(set, u32::MAX))
                .map(|(&(_, binding), &(ty, count))| {
                    vk::DescriptorSetLayoutBinding::default()
                        .binding(binding)
                        .descriptor_type(ty)
                        .descriptor_count(count)
                        .stage_flags(stages)
                })
                .collect();
            let set_info = vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings);
            // SAFETY: valid device and create info.
            set_layouts.push(
                gpu.own(
                    unsafe { gpu.device.create_descriptor_set_layout(&set_info, None) }
                        .map_err(vk_err("vkCreateDescriptorSetLayout"))?,
                ),
            );
        }
        let ranges = [vk::PushConstantRange::default()
            .stage_flags(stages)
            .offset(0)
            .size(push.len() as u32)];
        let mut layout_info = vk::PipelineLayoutCreateInfo::default().set_layouts(&set_layouts);
        if !push.is_empty() {
            layout_info = layout_info.push_constant_ranges(&ranges);
        }
        // SAFETY: valid device and create info.
        let pipeline_layout = gpu.own(
            unsafe { gpu.device.create_pipeline_layout(&layout_info, None) }
                .map_err(vk_err("vkCreatePipelineLayout"))?,
        );
        let sets = if set_layouts.is_empty() {
            Vec::new()
        } else {
            write_sets(
                gpu,
                &set_layouts,
                &layout,
                desc,
                &buffers,
                &images,
                &samplers,
            )?
        };
        Ok(Bindings {
            layout: pipeline_layout,
            sets,
            push,
            stages,
            buffers,
            images,
        })
    }

    /// Binds the sets (with their dynamic offsets) and pushes the
    /// constants into `cmd`.
    pub fn record(&self, gpu: &Gpu, cmd: vk::CommandBuffer, point: vk::PipelineBindPoint) {
        // SAFETY: `cmd` is recording; the sets and layout match.
        unsafe {
            for (i, (set, offsets)) in self.sets.iter().enumerate() {
                gpu.device.cmd_bind_descriptor_sets(
                    cmd,
                    point,
                    self.layout,
                    i as u32,
                    &[*set],
                    offsets,
                );
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

/// Allocates one descriptor set per layout and writes every buffer into
/// its set; returns each set with its dynamic offsets in binding, then
/// element order (the order vkCmdBindDescriptorSets takes them).
#[allow(clippy::too_many_arguments)]
fn write_sets(
    gpu: &mut Gpu,
    set_layouts: &[vk::DescriptorSetLayout],
    layout: &BTreeMap<(u32, u32), (vk::DescriptorType, u32)>,
    desc: &RunDescription,
    buffers: &[HostBuffer],
    images: &[DeviceImage],
    samplers: &[vk::Sampler],
) -> Result<Vec<(vk::DescriptorSet, Vec<u32>)>, ReferenceError> {
    let mut per_type: BTreeMap<i32, u32> = BTreeMap::new();
    for &(ty, count) in layout.values() {
        *per_type.entry(ty.as_raw()).or_default() += count;
    }
    let sizes: Vec<vk::DescriptorPoolSize> = per_type
        .iter()
        .map(|(&ty, &n)| {
            vk::DescriptorPoolSize::default()
                .ty(vk::DescriptorType::from_raw(ty))
                .descriptor_count(n)
        })
        .collect();
    let pool_info = vk::DescriptorPoolCreateInfo::default()
        .max_sets(set_layouts.len() as u32)
        .pool_sizes(&sizes);
    // SAFETY: valid device and create info.
    let pool = gpu.own(
        unsafe { gpu.device.create_descriptor_pool(&pool_info, None) }
            .map_err(vk_err("vkCreateDescriptorPool"))?,
    );
    let alloc = vk::DescriptorSetAllocateInfo::default()
        .descriptor_pool(pool)
        .set_layouts(set_layouts);
    // SAFETY: the pool has room for exactly these sets.
    let sets = unsafe { gpu.device.allocate_descriptor_sets(&alloc) }
        .map_err(vk_err("vkAllocateDescriptorSets"))?;
    let infos: Vec<[vk::DescriptorBufferInfo; 1]> = desc
        .buffers
        .iter()
        .zip(buffers)
        .map(|(d, b)| {
            // A dynamic descriptor starts at 0; its offset comes at bind.
            let offset = if d.kind.is_dynamic() { 0 } else { d.offset };
            let range = d.range.unwrap_or(b.size - d.offset);
            [vk::DescriptorBufferInfo::default()
                .buffer(b.buffer)
                .offset(offset)
                .range(range)]
        })
        .collect();
    let mut writes: Vec<vk::WriteDescriptorSet> = desc
        .buffers
        .iter()
        .zip(&infos)
        .map(|(b, info)| {
            vk::WriteDescriptorSet::default()
                .dst_set(sets[b.set as usize])
                .dst_binding(b.binding)
                .dst_array_element(b.element)
                .descriptor_type(descriptor_type(b.kind))
                .buffer_info(info)
        })
        .collect();
    // Every image is in the GENERAL layout (images.rs).
    let image_infos: Vec<[vk::DescriptorImageInfo; 1]> = images
        .iter()
        .map(|i| {
            let mut info =
                vk::DescriptorImageInfo::default().image_layout(vk::ImageLayout::GENERAL);
            if let Some((_, view)) = i.image {
                info = info.image_view(view);
            }
            if let Some(s) = i.sampler {
                info = info.sampler(s);
            }
            [info]
        })
        .collect();
    let texel_views: Vec<[vk::BufferView; 1]> = images
        .iter()
        .map(|i| {
            [i.buffer
                .as_ref()
                .map_or(vk::BufferView::null(), |(_, v)| *v)]
        })
        .collect();
    for ((d, img), (info, view)) in desc
        .images
        .iter()
        .zip(images)
        .zip(image_infos.iter().zip(&texel_views))
    {
        let w = vk::WriteDescriptorSet::default()
            .dst_set(sets[d.set as usize])
            .dst_binding(d.binding)
            .dst_array_element(d.element)
            .descriptor_type(images::descriptor_type(img.kind));
        writes.push(if img.buffer.is_some() {
            w.texel_buffer_view(view)
        } else {
            w.image_info(info)
        });
    }
    let sampler_infos: Vec<[vk::DescriptorImageInfo; 1]> = samplers
        .iter()
        .map(|&s| [vk::DescriptorImageInfo::default().sampler(s)])
        .collect();
    for (d, info) in desc.samplers.iter().zip(&sampler_infos) {
        writes.push(
            vk::WriteDescriptorSet::default()
                .dst_set(sets[d.set as usize])
                .dst_binding(d.binding)
                .dst_array_element(d.element)
                .descriptor_type(vk::DescriptorType::SAMPLER)
                .image_info(info),
        );
    }
    // SAFETY: every write names a binding of its set's layout and a live
    // buffer.
    unsafe { gpu.device.update_descriptor_sets(&writes, &[]) };
    let mut dynamic: BTreeMap<(u32, u32, u32), u32> = BTreeMap::new();
    for b in desc.buffers.iter().filter(|b| b.kind.is_dynamic()) {
        let offset = u32::try_from(b.offset).map_err(|_| ReferenceError::TooLarge {
            what: what(b),
            bytes: b.offset,
        })?;
        dynamic.insert((b.set, b.binding, b.element), offset);
    }
    Ok(sets
        .into_iter()
        .enumerate()
        .map(|(i, set)| {
            let offsets = dynamic
                .range((i as u32, 0, 0)..=(i as u32, u32::MAX, u32::MAX))
                .map(|(_, &o)| o)
                .collect();
            (set, offsets)
        })
        .collect())
}
