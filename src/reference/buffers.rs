//! Buffers in host-visible, coherent memory: the description's storage and
//! uniform buffers, and the staging buffer the image is copied into. Host
//! memory keeps upload and read-back to a map and a copy; speed is not the
//! point of a reference run.

use super::device::Gpu;
use super::error::{ReferenceError, vk_err};
use ash::vk;

pub struct HostBuffer {
    pub buffer: vk::Buffer,
    memory: vk::DeviceMemory,
    pub size: u64,
}

impl HostBuffer {
    /// A buffer of `size` bytes, zero-filled, then `data` copied to its start.
    pub fn new(
        gpu: &mut Gpu,
        usage: vk::BufferUsageFlags,
        size: u64,
        data: &[u8],
        what: &str,
    ) -> Result<HostBuffer, ReferenceError> {
        if size == 0 {
            return Err(ReferenceError::EmptyBuffer {
                what: what.to_owned(),
            });
        }
        let info = vk::BufferCreateInfo::default()
            .size(size)
            .usage(usage)
            .sharing_mode(vk::SharingMode::EXCLUSIVE);
        // SAFETY: a valid device and create info.
        let buffer = gpu.own(
            unsafe { gpu.device.create_buffer(&info, None) }.map_err(vk_err("vkCreateBuffer"))?,
        );
        // SAFETY: the buffer was just made on this device.
        let req = unsafe { gpu.device.get_buffer_memory_requirements(buffer) };
        let type_index = gpu.memory_type(
            req.memory_type_bits,
            vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT,
            what,
        )?;
        let alloc = vk::MemoryAllocateInfo::default()
            .allocation_size(req.size)
            .memory_type_index(type_index);
        // SAFETY: a memory type the device offers for this buffer.
        let memory = gpu.own(
            unsafe { gpu.device.allocate_memory(&alloc, None) }
                .map_err(vk_err("vkAllocateMemory"))?,
        );
        // SAFETY: fresh memory of a suitable type and size, bound once.
        unsafe { gpu.device.bind_buffer_memory(buffer, memory, 0) }
            .map_err(vk_err("vkBindBufferMemory"))?;
        let b = HostBuffer {
            buffer,
            memory,
            size,
        };
        b.with_mapped(gpu, |bytes| {
            bytes.fill(0);
            let n = data.len().min(bytes.len());
            bytes[..n].copy_from_slice(&data[..n]);
        })?;
        Ok(b)
    }

    /// The buffer's bytes; call after the work that wrote them has finished
    /// and a barrier made its writes visible to the host.
    pub fn read(&self, gpu: &Gpu) -> Result<Vec<u8>, ReferenceError> {
        let mut out = Vec::new();
        self.with_mapped(gpu, |bytes| out = bytes.to_vec())?;
        Ok(out)
    }

    fn with_mapped(&self, gpu: &Gpu, f: impl FnOnce(&mut [u8])) -> Result<(), ReferenceError> {
        let len = usize::try_from(self.size).map_err(|_| ReferenceError::TooLarge {
            what: "buffer".into(),
            bytes: self.size,
        })?;
        // SAFETY: host-visible memory bound to this buffer, not mapped
        // elsewhere; the device is not using it (callers wait for the fence).
        unsafe {
            let ptr = gpu
                .device
                .map_memory(self.memory, 0, self.size, vk::MemoryMapFlags::empty())
                .map_err(vk_err("vkMapMemory"))?;
            f(std::slice::from_raw_parts_mut(ptr.cast::<u8>(), len));
            gpu.device.unmap_memory(self.memory);
        }
        Ok(())
    }
}
