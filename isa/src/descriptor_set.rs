//! The memory of a descriptor set, as compiled code reads it and a driver
//! (the simulator, `sim/src/descriptors.rs`) writes it; docs/ABI.md,
//! "Descriptor sets", describes it and how it differs from NVK.
//!
//! ```text
//! +0      binding table: for binding b = 0..n, a u32 at 4·b: the byte offset
//!         (from the set's base) of the binding's first descriptor
//! ...     padding to 16 bytes
//! +T      the null descriptor (16 zero bytes): where absent bindings point
//! +T+16   each binding's descriptors in binding order, DESCRIPTOR bytes
//!         apart (array element i at the binding's offset + 16·i)
//! ```
//!
//! A buffer descriptor (storage or uniform, dynamic or not) is its base
//! address (u64, 16-byte aligned) at +0, its size in bytes (u32) at +8 and
//! a reserved zero word at +12: NVK's `nvk_buffer_address`. Every
//! descriptor takes one 16-byte slot whatever its kind.

use std::collections::BTreeMap;

/// Bytes of one binding-table entry.
pub const TABLE_ENTRY: u32 = 4;
/// Bytes between consecutive descriptors of a binding (one slot).
pub const DESCRIPTOR: u32 = 16;
/// Where a buffer descriptor holds its base address (u64).
pub const BUFFER_ADDRESS: u32 = 0;
/// Where a buffer descriptor holds its size in bytes (u32).
pub const BUFFER_SIZE: u32 = 8;

/// Bindings of a set are 0..MAX_SET_BINDINGS: the binding table is
/// indexed by binding number, so a module, binary or run naming a larger
/// one is refused before a table is laid out (docs/ABI.md). Vulkan sets
/// no bound on binding numbers; applications number them densely from 0.
pub const MAX_SET_BINDINGS: u32 = 1 << 16;

/// Elements of a descriptor array are 0..MAX_ARRAY_ELEMENTS (16 MiB of
/// descriptors for one binding): a run binding a larger element is
/// refused before the set's memory is laid out.
pub const MAX_ARRAY_ELEMENTS: u32 = 1 << 20;

/// Where binding `binding`'s entry of the binding table is (binding below
/// [`MAX_SET_BINDINGS`]).
pub fn table_entry(binding: u32) -> u32 {
    TABLE_ENTRY * binding
}

/// One descriptor as a driver writes it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Descriptor {
    /// An array element nothing was written to: all zero, so an access
    /// through it faults at address 0.
    #[default]
    Null,
    /// A storage or uniform buffer: the bound range's first byte (the
    /// buffer's address plus the descriptor's offset and any dynamic
    /// offset) and its size.
    Buffer { address: u64, size: u32 },
    /// An image, sampler, combined image-sampler or texel buffer: the
    /// handle (texture header index in bits 0..19, sampler index in bits
    /// 20..31; docs/TEXTURES.md) at +0, the rest zero.
    Handle(u32),
    /// A multisampled storage image: the handle with log2 of its sample
    /// grid in bits 20..23 at +0, the sample map at +4 (NVK's form;
    /// docs/TEXTURES.md, "Multisampled images").
    StorageMultisample { handle: u32, sample_map: u32 },
}

impl Descriptor {
    fn bytes(&self) -> [u8; DESCRIPTOR as usize] {
        let mut b = [0; DESCRIPTOR as usize];
        match *self {
            Descriptor::Null => {}
            Descriptor::Buffer { address, size } => {
                let (a, s) = (BUFFER_ADDRESS as usize, BUFFER_SIZE as usize);
                b[a..a + 8].copy_from_slice(&address.to_le_bytes());
                b[s..s + 4].copy_from_slice(&size.to_le_bytes());
            }
            Descriptor::Handle(handle) => b[..4].copy_from_slice(&handle.to_le_bytes()),
            Descriptor::StorageMultisample { handle, sample_map } => {
                b[..4].copy_from_slice(&handle.to_le_bytes());
                b[4..8].copy_from_slice(&sample_map.to_le_bytes());
            }
        }
        b
    }
}

/// The descriptor sets a driver writes: per set, per binding, the
/// descriptors by array element. The simulator's `bind` and the CUDA
/// reference runner both fill one, so the two lay sets out alike.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DescriptorSets {
    sets: BTreeMap<u32, BTreeMap<u32, Vec<Descriptor>>>,
}

impl DescriptorSets {
    /// Puts `descriptor` at `set`, `binding` and array `element`, the
    /// elements before it null where nothing was placed (the caller has
    /// checked the numbers against [`MAX_SET_BINDINGS`] and
    /// [`MAX_ARRAY_ELEMENTS`]).
    pub fn place(&mut self, set: u32, binding: u32, element: u32, descriptor: Descriptor) {
        let list = self
            .sets
            .entry(set)
            .or_default()
            .entry(binding)
            .or_default();
        if list.len() <= element as usize {
            list.resize(element as usize + 1, Descriptor::Null);
        }
        list[element as usize] = descriptor;
    }

    /// Every set's memory ([`set_memory`]) by set number: the sets
    /// something was placed in and those `used` names (set, binding),
    /// each with a binding table covering the bindings `used` names in it.
    pub fn memories(mut self, used: &[(u32, u32)]) -> Vec<(u32, Vec<u8>)> {
        for &(set, _) in used {
            self.sets.entry(set).or_default();
        }
        self.sets
            .iter()
            .map(|(&set, bindings)| {
                let table = used
                    .iter()
                    .filter(|(s, _)| *s == set)
                    .map(|(_, b)| b + 1)
                    .max()
                    .unwrap_or(0);
                (set, set_memory(bindings, table))
            })
            .collect()
    }
}

/// The bytes of a set's memory holding `bindings` (each binding's
/// descriptors by array element), with a binding table covering at least
/// bindings `0..min_table` (bindings a shader may name but nothing binds
/// point at the null descriptor).
pub fn set_memory(bindings: &BTreeMap<u32, Vec<Descriptor>>, min_table: u32) -> Vec<u8> {
    let entries = bindings
        .keys()
        .next_back()
        .map_or(0, |&b| b + 1)
        .max(min_table);
    let table_end = (entries * TABLE_ENTRY).next_multiple_of(DESCRIPTOR);
    let null = table_end;
    let mut mem = vec![0u8; (null + DESCRIPTOR) as usize];
    for b in 0..entries {
        let at = table_entry(b) as usize;
        mem[at..at + 4].copy_from_slice(&null.to_le_bytes());
    }
    for (&b, descriptors) in bindings {
        let first = mem.len() as u32;
        let at = table_entry(b) as usize;
        mem[at..at + 4].copy_from_slice(&first.to_le_bytes());
        for d in descriptors {
            mem.extend_from_slice(&d.bytes());
        }
    }
    mem
}

#[cfg(test)]
mod tests {
    use super::*;

    fn word(m: &[u8], at: u32) -> u32 {
        let at = at as usize;
        u32::from_le_bytes(m[at..at + 4].try_into().unwrap())
    }

    #[test]
    fn bindings_are_found_through_the_table() {
        let buf = |address| Descriptor::Buffer { address, size: 64 };
        let set = BTreeMap::from([
            (1, vec![buf(0x1_0000_0000)]),
            (3, vec![Descriptor::Null, buf(0x2_0000_0000)]),
        ]);
        let m = set_memory(&set, 6);
        // Six entries (24 bytes) padded to 32, the null descriptor at 32.
        assert_eq!(word(&m, table_entry(0)), 32);
        assert_eq!(word(&m, table_entry(2)), 32);
        assert_eq!(word(&m, table_entry(5)), 32);
        assert_eq!(&m[32..48], &[0; 16]);
        let one = word(&m, table_entry(1));
        assert_eq!(one, 48);
        assert_eq!(word(&m, one + BUFFER_ADDRESS + 4), 1);
        assert_eq!(word(&m, one + BUFFER_SIZE), 64);
        let three = word(&m, table_entry(3));
        assert_eq!(three, 64);
        assert_eq!(&m[64..80], &[0; 16]);
        assert_eq!(word(&m, three + DESCRIPTOR + BUFFER_ADDRESS + 4), 2);
        assert_eq!(m.len(), 96);
    }

    #[test]
    fn handles_take_the_first_word_of_their_slot() {
        let set = BTreeMap::from([(0, vec![Descriptor::Handle(0x0030_0002)])]);
        let m = set_memory(&set, 1);
        // One entry padded to 16, the null descriptor at 16, binding 0 at 32.
        assert_eq!(word(&m, table_entry(0)), 32);
        assert_eq!(word(&m, 32), 0x0030_0002);
        assert_eq!(&m[36..48], &[0; 12]);
    }

    #[test]
    fn placed_sets_and_used_ones_get_their_memory() {
        let mut sets = DescriptorSets::default();
        sets.place(2, 1, 2, Descriptor::Handle(7));
        // Set 0 only named by the shader (binding 3): a table of four
        // null entries; set 2: binding 1's elements 0 and 1 null.
        let memories = sets.memories(&[(0, 3), (2, 0)]);
        let numbers: Vec<u32> = memories.iter().map(|(set, _)| *set).collect();
        assert_eq!(numbers, [0, 2]);
        let zero = &memories[0].1;
        assert_eq!(zero.len(), 32);
        assert!((0..4).all(|b| word(zero, table_entry(b)) == 16));
        let two = &memories[1].1;
        let first = word(two, table_entry(1));
        assert_eq!(&two[first as usize..first as usize + 32], &[0; 32]);
        assert_eq!(word(two, first + 2 * DESCRIPTOR), 7);
        assert_eq!(two.len() as u32, first + 3 * DESCRIPTOR);
    }
}
