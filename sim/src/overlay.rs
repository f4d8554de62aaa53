//! A workgroup's private view of global memory during a parallel attempt
//! (`compute_order`): the dispatch's bytes, read-only, under the lines this
//! workgroup wrote, with the bytes it read and wrote recorded. A warp's
//! run between two barriers views its workgroup's shared and global
//! memory the same way (`warp_phases`).
//!
//! Granularity: 64-byte lines with a mask of the bytes read and of the
//! bytes written, so workgroups writing neighbouring words (one result
//! each) do not conflict. Every access is at most 16 bytes and aligned to
//! its size (`memory::range` checks that first), so it lies in one line.
//! A line only read is a mask, 8 bytes; a written line keeps a copy of its
//! 64 bytes.

use rustc_hash::FxHashMap;

/// Bytes per line.
const LINE: u64 = 64;

/// A line this workgroup wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Line {
    /// The line's bytes as this workgroup sees them: the dispatch's, with
    /// its writes (bytes past the end of the buffer stay zero: no access
    /// reaches them).
    bytes: [u8; LINE as usize],
    /// The bytes it wrote.
    written: u64,
}

impl Line {
    /// Copies the written bytes into `to`, the buffer from this line's
    /// first byte on.
    pub(crate) fn copy_written(&self, to: &mut [u8]) {
        if self.written == u64::MAX {
            to[..LINE as usize].copy_from_slice(&self.bytes);
            return;
        }
        // Run by run of written bytes.
        let mut mask = self.written;
        while mask != 0 {
            let start = mask.trailing_zeros();
            let run = (!(mask >> start)).trailing_zeros();
            let (a, b) = (start as usize, (start + run) as usize);
            to[a..b].copy_from_slice(&self.bytes[a..b]);
            mask &= !((u64::MAX >> (64 - run)) << start);
        }
    }
}

/// What one workgroup read and wrote, by global address / [`LINE`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Overlay {
    /// Bytes it read before writing them itself: what it took from the
    /// memory it started with.
    read: FxHashMap<u64, u64>,
    written: FxHashMap<u64, Line>,
}

thread_local! {
    /// The sizes of this thread's last overlay's maps (lines read, lines
    /// written), which the next one starts with: a dispatch's workgroups
    /// mostly touch as many lines each, and maps grown from empty spent
    /// about a tenth of a worker's time rehashing in the copy benchmark.
    static LAST_SIZES: std::cell::Cell<(usize, usize)> = const { std::cell::Cell::new((0, 0)) };
}

impl Overlay {
    /// An empty overlay with room for as many lines as this thread's last
    /// (`Overlay::done`).
    pub(crate) fn sized_like_last() -> Overlay {
        let (read, written) = LAST_SIZES.with(std::cell::Cell::get);
        Overlay {
            read: FxHashMap::with_capacity_and_hasher(read, Default::default()),
            written: FxHashMap::with_capacity_and_hasher(written, Default::default()),
        }
    }

    /// Notes this overlay's sizes for this thread's next
    /// (`sized_like_last`).
    pub(crate) fn done(&self) {
        LAST_SIZES.with(|s| s.set((self.read.len(), self.written.len())));
    }
}

/// The line of an address, the byte in it and the mask of `n` bytes there.
/// Accesses lie within one line: the ISA's are aligned and at most 16
/// bytes, the texture unit's 32-byte header reads are aligned to 32.
fn split(addr: u64, n: u32) -> (u64, usize, u64) {
    let at = (addr % LINE) as usize;
    debug_assert!(
        (1..=LINE as u32).contains(&n) && at + n as usize <= LINE as usize,
        "an access within one line"
    );
    (addr / LINE, at, (u64::MAX >> (64 - n)) << at)
}

impl Overlay {
    /// Reads the `n` bytes at global address `addr`, which lie at `start`
    /// in `buffer` (bounds and alignment already checked).
    pub(crate) fn read<'a>(
        &'a mut self,
        addr: u64,
        buffer: &'a [u8],
        start: usize,
        n: u32,
    ) -> &'a [u8] {
        let (key, at, mask) = split(addr, n);
        match self.written.get(&key) {
            Some(line) => {
                let from_memory = mask & !line.written;
                if from_memory != 0 {
                    *self.read.entry(key).or_default() |= from_memory;
                }
                &line.bytes[at..at + n as usize]
            }
            None => {
                *self.read.entry(key).or_default() |= mask;
                &buffer[start..start + n as usize]
            }
        }
    }

    /// The `n` bytes at `addr` (as for [`Overlay::read`]) for a write, or
    /// with `atomic` for a read-modify-write.
    pub(crate) fn cell(
        &mut self,
        addr: u64,
        buffer: &[u8],
        start: usize,
        n: u32,
        atomic: bool,
    ) -> &mut [u8] {
        let (key, at, mask) = split(addr, n);
        let line = self.written.entry(key).or_insert_with(|| {
            let first = start - at;
            let end = buffer.len().min(first + LINE as usize);
            let mut bytes = [0; LINE as usize];
            bytes[..end - first].copy_from_slice(&buffer[first..end]);
            Line { bytes, written: 0 }
        });
        let from_memory = mask & !line.written;
        if atomic && from_memory != 0 {
            *self.read.entry(key).or_default() |= from_memory;
        }
        line.written |= mask;
        &mut line.bytes[at..at + n as usize]
    }

    /// Whether `later` (an overlay over the same bytes as this one's)
    /// read a byte this one wrote.
    pub(crate) fn wrote_read_of(&self, later: &Overlay) -> bool {
        later.read.iter().any(|(key, read)| {
            self.written
                .get(key)
                .is_some_and(|line| line.written & read != 0)
        })
    }

    /// Takes on the effects of `later`, an overlay over the same bytes
    /// that ran after this one's effects and read none of its writes
    /// (`wrote_read_of`): its reads are reads of the bytes this one
    /// started from, and its writes land over this one's.
    pub(crate) fn absorb(&mut self, later: Overlay) {
        for (key, read) in later.read {
            *self.read.entry(key).or_default() |= read;
        }
        for (key, line) in later.written {
            match self.written.get_mut(&key) {
                Some(mine) => {
                    line.copy_written(&mut mine.bytes);
                    mine.written |= line.written;
                }
                None => {
                    self.written.insert(key, line);
                }
            }
        }
    }

    /// The written lines, by the global address of their first byte.
    pub(crate) fn written_lines(&self) -> impl Iterator<Item = (u64, &Line)> {
        self.written.iter().map(|(&key, line)| (key * LINE, line))
    }
}

/// Lines per page of `Written`: 32 KiB of memory, 4 KiB of masks.
const PAGE_LINES: u64 = 512;

/// The bytes a run of workgroups wrote, line by line: a mask per line, in
/// pages of `PAGE_LINES` lines, so that the map a whole dispatch's writes
/// fill stays small (a 32 MiB output is 1024 pages, where a map of lines
/// held 524,288 entries, and every commit's lookups missed the cache).
#[derive(Debug, Default)]
pub(crate) struct Written {
    pages: FxHashMap<u64, Box<[u64; PAGE_LINES as usize]>>,
}

impl Written {
    /// Whether `overlay` read a byte written here.
    pub(crate) fn read_by(&self, overlay: &Overlay) -> bool {
        !self.pages.is_empty()
            && overlay.read.iter().any(|(key, read)| {
                self.pages
                    .get(&(key / PAGE_LINES))
                    .is_some_and(|page| page[(key % PAGE_LINES) as usize] & read != 0)
            })
    }

    /// Adds the bytes `overlay` wrote.
    pub(crate) fn add(&mut self, overlay: &Overlay) {
        for (key, line) in &overlay.written {
            let page = self
                .pages
                .entry(key / PAGE_LINES)
                .or_insert_with(|| Box::new([0; PAGE_LINES as usize]));
            page[(key % PAGE_LINES) as usize] |= line.written;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{LINE, Line};
    use proptest::prelude::*;

    proptest! {
        /// A line's written bytes land where they were written, whatever
        /// the runs of its mask, and no other byte changes.
        #[test]
        fn copy_written_copies_exactly_the_written_bytes(written in any::<u64>(), seed in any::<u8>()) {
            let bytes: [u8; LINE as usize] = std::array::from_fn(|b| seed.wrapping_add(b as u8) | 1);
            let line = Line { bytes, written };
            let mut to = vec![0u8; LINE as usize];
            line.copy_written(&mut to);
            for (b, &got) in to.iter().enumerate() {
                let want = if written >> b & 1 != 0 { bytes[b] } else { 0 };
                prop_assert_eq!(got, want, "byte {}", b);
            }
        }
    }

    /// The edge masks: none, all, and single bytes at both ends.
    #[test]
    fn copy_written_edges() {
        let bytes: [u8; LINE as usize] = std::array::from_fn(|b| b as u8 + 1);
        for written in [0, u64::MAX, 1, 1 << 63, u64::MAX >> 1, u64::MAX << 1] {
            let mut to = vec![0u8; LINE as usize];
            Line { bytes, written }.copy_written(&mut to);
            let want: Vec<u8> = (0..64)
                .map(|b| if written >> b & 1 != 0 { bytes[b] } else { 0 })
                .collect();
            assert_eq!(to, want, "{written:#x}");
        }
    }
}
