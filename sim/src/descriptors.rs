//! The driver side of the resource ABI (`spvsass_isa::abi`,
//! `descriptor_set`, docs/ABI.md): a dispatch's or draw's buffers mapped
//! in global memory, their descriptors written into each set's memory and
//! the sets' addresses into the root table, set 0's first sixteen
//! bindings also into the root table's buffer entries and (uniform
//! buffers) constant banks 1..=16, as the compiler's fast paths read them;
//! images, texel buffers and samplers placed by `texture::host` with their
//! handles in the sets' descriptors (docs/TEXTURES.md).

use crate::dispatch::ComputeInputs;
use crate::error::SimError;
use crate::memory::Resources;
use crate::texture::host::{self, ImageKind, Placed};
use spvsass_isa::abi::{self, AbiError, RootTable};
use spvsass_isa::binary::Resource;
use spvsass_isa::descriptor_set::{
    Descriptor, DescriptorSets, MAX_ARRAY_ELEMENTS, MAX_SET_BINDINGS,
};
use std::collections::BTreeMap;

/// Where a buffer is bound: descriptor set, binding and array element.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Slot {
    pub set: u32,
    pub binding: u32,
    pub element: u32,
}

impl std::fmt::Display for Slot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "set {} binding {}", self.set, self.binding)?;
        if self.element != 0 {
            write!(f, "[{}]", self.element)?;
        }
        Ok(())
    }
}

/// What a descriptor says the buffer is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BufferKind {
    Storage,
    Uniform,
}

/// A buffer bound at any set, binding and array element.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoundBuffer {
    pub slot: Slot,
    pub kind: BufferKind,
    pub bytes: Vec<u8>,
    /// Where the descriptor's range starts in the buffer: the descriptor's
    /// offset plus any dynamic offset (a multiple of 16, as the compiler
    /// assumes of buffer bases).
    pub offset: u64,
    /// The range's size; `None` to the end of the buffer.
    pub range: Option<u64>,
}

/// Alignment the compiler assumes of every buffer base (docs/ABI.md).
pub const OFFSET_ALIGN: u64 = 16;

/// A uniform buffer in a constant bank shows at most this much.
const BANK_BYTES: u64 = 1 << 16;

/// Where [`bind`] mapped the buffers, for [`read_back`].
#[derive(Clone, Debug, Default)]
pub(crate) struct Bases {
    /// The storage buffers of `ComputeInputs::buffers`, by binding.
    buffers: BTreeMap<u32, u64>,
    /// The storage buffers of `ComputeInputs::bound`, by slot.
    bound: BTreeMap<Slot, u64>,
    /// Where the images went, and which are read back.
    images: Placed,
    storage_images: Vec<Slot>,
}

/// Binds `inputs` as the ABI places them: every buffer mapped in global
/// memory (`buffers` first, in binding order), each set's memory after
/// them, the push constants, set addresses and set-0 entries in `root`,
/// set-0 uniform buffers below binding 16 as constant banks. Each set's
/// binding table covers the bindings the shaders `used` name, so one
/// nothing is bound to reads the null descriptor (and faults at address
/// 0). The caller writes `root` to the root bank once it holds the rest.
pub(crate) fn bind(
    inputs: ComputeInputs,
    used: &[Resource],
    root: &mut RootTable,
    resources: &mut Resources,
) -> Result<Bases, SimError> {
    root.set_push_constants(&inputs.push_constants)?;
    let plain = |kind| {
        move |(binding, bytes): (u32, Vec<u8>)| BoundBuffer {
            slot: Slot {
                set: 0,
                binding,
                element: 0,
            },
            kind,
            bytes,
            offset: 0,
            range: None,
        }
    };
    let mut all: Vec<BoundBuffer> = inputs
        .buffers
        .into_iter()
        .map(plain(BufferKind::Storage))
        .collect();
    let from_map = all.len();
    all.extend(inputs.uniforms.into_iter().map(plain(BufferKind::Uniform)));
    all.extend(inputs.bound);
    let mut seen = std::collections::BTreeSet::new();
    let image_slots = inputs.images.iter().map(|i| i.slot);
    let sampler_slots = inputs.samplers.iter().map(|s| s.slot);
    let slots: Vec<Slot> = all
        .iter()
        .map(|b| b.slot)
        .chain(image_slots)
        .chain(sampler_slots)
        .collect();
    if let Some(twice) = slots.iter().find(|s| !seen.insert(**s)) {
        return Err(SimError::BoundTwice {
            slot: twice.to_string(),
        });
    }
    // Sizes are checked before any buffer is mapped.
    for b in &all {
        let (kind, limit) = match b.kind {
            BufferKind::Storage => ("storage", crate::memory::MAX_STORAGE_BUFFER_BYTES),
            BufferKind::Uniform => ("uniform", crate::memory::MAX_UNIFORM_BUFFER_BYTES),
        };
        let bytes = b.bytes.len() as u64;
        if bytes > limit {
            return Err(SimError::BufferTooLarge {
                kind,
                binding: b.slot.binding,
                bytes,
                limit,
            });
        }
    }
    let mut bases = Bases::default();
    let mut sets = DescriptorSets::default();
    for (i, b) in all.into_iter().enumerate() {
        let len = b.bytes.len() as u64;
        let end = match b.range {
            Some(r) => b.offset.checked_add(r),
            None => Some(len),
        };
        let Some(end) = end.filter(|&e| b.offset <= e && e <= len) else {
            return Err(SimError::BindingRange {
                slot: b.slot.to_string(),
                offset: b.offset,
                range: b.range,
                size: len,
            });
        };
        if !b.offset.is_multiple_of(OFFSET_ALIGN) {
            return Err(SimError::BindingOffset {
                slot: b.slot.to_string(),
                offset: b.offset,
            });
        }
        check_slot(b.slot)?;
        let size = end - b.offset;
        let bank = (b.kind == BufferKind::Uniform).then(|| {
            let bank_end = (b.offset + size.min(BANK_BYTES)) as usize;
            b.bytes[b.offset as usize..bank_end].to_vec()
        });
        let base = resources.global.map(b.bytes);
        let address = base + b.offset;
        let Slot {
            set,
            binding,
            element,
        } = b.slot;
        if set == 0 && element == 0 && binding < abi::MAX_BINDINGS {
            root.set_buffer(binding, address, size)?;
            if let (Some(bytes), Some(bank)) = (bank, abi::uniform_bank(binding)) {
                resources.constants.set(bank, bytes);
            }
        }
        let size = u32::try_from(size).map_err(|_| AbiError::BufferTooLarge { binding, size })?;
        sets.place(set, binding, element, Descriptor::Buffer { address, size });
        if b.kind == BufferKind::Storage {
            if i < from_map {
                bases.buffers.insert(binding, base);
            } else {
                bases.bound.insert(b.slot, base);
            }
        }
    }
    let placed = host::place(&inputs.images, &inputs.samplers, &mut resources.global)?;
    resources.textures = placed.pools;
    for &(slot, handle) in &placed.handles {
        check_slot(slot)?;
        let sample_map = placed.sample_maps.iter().find(|(s, _)| *s == slot);
        let descriptor = match sample_map {
            Some(&(_, sample_map)) => Descriptor::StorageMultisample { handle, sample_map },
            None => Descriptor::Handle(handle),
        };
        sets.place(slot.set, slot.binding, slot.element, descriptor);
    }
    bases.storage_images = inputs
        .images
        .iter()
        .filter(|i| matches!(i.kind, ImageKind::Storage | ImageKind::StorageTexelBuffer))
        .map(|i| i.slot)
        .collect();
    bases.images = placed;
    let used: Vec<(u32, u32)> = used.iter().map(|r| (r.set, r.binding)).collect();
    for (set, memory) in sets.memories(&used) {
        let address = resources.global.map(memory);
        root.set_set_address(set, address)?;
    }
    Ok(bases)
}

/// Refuses a slot past the set, binding or array element a set's memory
/// can hold (`AbiError`).
fn check_slot(slot: Slot) -> Result<(), SimError> {
    if slot.set >= abi::MAX_SETS {
        return Err(AbiError::Set(slot.set).into());
    }
    if slot.binding >= MAX_SET_BINDINGS {
        return Err(AbiError::SetBinding(slot.binding).into());
    }
    if slot.element >= MAX_ARRAY_ELEMENTS {
        return Err(AbiError::ArrayElement(slot.element).into());
    }
    Ok(())
}

/// The buffers and images a run gives back, by binding or slot.
pub(crate) type ReadBack = (
    BTreeMap<u32, Vec<u8>>,
    BTreeMap<Slot, Vec<u8>>,
    BTreeMap<Slot, Vec<u8>>,
);

/// Every storage buffer's final contents: those of
/// `ComputeInputs::buffers` by binding, those of `ComputeInputs::bound` by
/// slot (whole buffers, not only the descriptors' ranges); and every
/// storage image's and storage texel buffer's, by slot.
pub(crate) fn read_back(bases: &Bases, resources: &mut Resources) -> ReadBack {
    let images = bases
        .storage_images
        .iter()
        .filter_map(|&s| Some((s, host::read_back(&bases.images, s, &resources.global)?)))
        .collect();
    // The buffers are moved out of the memory rather than copied, but for
    // a base that two entries name (`bind` maps one per entry), copied.
    let mut named: BTreeMap<u64, usize> = BTreeMap::new();
    for &base in bases.buffers.values().chain(bases.bound.values()) {
        *named.entry(base).or_default() += 1;
    }
    let global = &mut resources.global;
    let mut bytes = |base: u64| match named[&base] {
        1 => global.take_buffer(base).unwrap_or_default(),
        _ => global.buffer(base).unwrap_or_default().to_vec(),
    };
    (
        bases
            .buffers
            .iter()
            .map(|(&b, &base)| (b, bytes(base)))
            .collect(),
        bases
            .bound
            .iter()
            .map(|(&s, &base)| (s, bytes(base)))
            .collect(),
        images,
    )
}
