//! A workgroup's private view of global memory during a parallel attempt:
//! the dispatch's initial bytes, read-only, under the lines this
//! workgroup wrote, with the bytes it read and wrote recorded.
//!
//! Granularity: 64-byte lines, each with a mask of the bytes read and of
//! the bytes written, so workgroups writing neighbouring words (one result
//! each) do not conflict. Every access is at most 16 bytes and aligned to
//! its size (`memory::range` checks that first), so it lies in one line.

use rustc_hash::FxHashMap;

/// Bytes per line.
const LINE: u64 = 64;

/// How an access uses the bytes it covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Access {
    Read,
    Write,
    /// An atomic: it reads the old value and writes the new one.
    ReadWrite,
}

/// One line of global memory as a workgroup sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Line {
    /// The initial bytes, with this workgroup's writes (bytes past the end
    /// of the buffer stay zero: no access reaches them).
    bytes: [u8; LINE as usize],
    /// Bytes read before this workgroup wrote them: what it took from the
    /// memory it started with.
    read: u64,
    /// Bytes this workgroup wrote.
    written: u64,
}

impl Line {
    /// Copies the written bytes into `to`, the buffer from this line's
    /// first byte on.
    pub(crate) fn copy_written(&self, to: &mut [u8]) {
        let mut mask = self.written;
        while mask != 0 {
            let b = mask.trailing_zeros() as usize;
            to[b] = self.bytes[b];
            mask &= mask - 1;
        }
    }
}

/// The lines a workgroup touched, by global address / [`LINE`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Overlay {
    lines: FxHashMap<u64, Line>,
}

impl Overlay {
    /// The `n` bytes at global address `addr`, which lie at `start` in
    /// `buffer` (bounds and alignment already checked), recording `access`.
    pub(crate) fn access(
        &mut self,
        addr: u64,
        buffer: &[u8],
        start: usize,
        n: u32,
        access: Access,
    ) -> &mut [u8] {
        let at = (addr % LINE) as usize;
        debug_assert!(
            at + n as usize <= LINE as usize,
            "an access within one line"
        );
        let line = self.lines.entry(addr / LINE).or_insert_with(|| {
            let first = start - at;
            let end = buffer.len().min(first + LINE as usize);
            let mut bytes = [0; LINE as usize];
            bytes[..end - first].copy_from_slice(&buffer[first..end]);
            Line {
                bytes,
                read: 0,
                written: 0,
            }
        });
        let mask = (u64::MAX >> (64 - n)) << at;
        if access != Access::Write {
            line.read |= mask & !line.written;
        }
        if access != Access::Read {
            line.written |= mask;
        }
        &mut line.bytes[at..at + n as usize]
    }

    /// The lines with written bytes, by the global address of their first
    /// byte.
    pub(crate) fn written_lines(&self) -> impl Iterator<Item = (u64, &Line)> {
        self.lines
            .iter()
            .filter(|(_, line)| line.written != 0)
            .map(|(&key, line)| (key * LINE, line))
    }
}

/// The bytes a run of workgroups wrote, line by line.
#[derive(Debug, Default)]
pub(crate) struct Written {
    lines: FxHashMap<u64, u64>,
}

impl Written {
    /// Whether `overlay` read a byte written here.
    pub(crate) fn read_by(&self, overlay: &Overlay) -> bool {
        overlay.lines.iter().any(|(key, line)| {
            line.read != 0 && self.lines.get(key).is_some_and(|w| w & line.read != 0)
        })
    }

    /// Adds the bytes `overlay` wrote.
    pub(crate) fn add(&mut self, overlay: &Overlay) {
        for (key, line) in &overlay.lines {
            if line.written != 0 {
                *self.lines.entry(*key).or_default() |= line.written;
            }
        }
    }
}
