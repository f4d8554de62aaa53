//! The memories a workgroup reads and writes besides its registers and
//! ISBE: global memory (storage buffers, shared by every workgroup of a
//! dispatch), constant banks, and the per-workgroup shared memory and
//! per-lane local memory, zero-filled at launch.
//!
//! Global model: each buffer is mapped at its own 64-bit base address, 4 GiB
//! apart from the next (the first at 4 GiB), so an address computed with a
//! lost carry or a 32-bit wrap lands outside every buffer and is reported,
//! not silently served from a neighbour. Every access must lie in one
//! buffer and be aligned to its size; constant-bank, shared and local
//! accesses are checked the same way against their sizes.

use crate::overlay::Overlay;
use crate::warp::lanes;
use serde::Serialize;
use std::fmt;
use std::sync::Arc;

/// The largest storage buffer a run binds: Vulkan's guaranteed minimum of
/// maxStorageBufferRange (2^27 bytes), which every driver (lavapipe
/// included) accepts. The simulator holds each buffer in host memory and
/// copies it out after the run, so it is checked before anything is
/// allocated (docs/RUNS.md).
pub const MAX_STORAGE_BUFFER_BYTES: u64 = 1 << 27;
/// The largest uniform buffer a run may bind. NVIDIA's
/// maxUniformBufferRange is one constant bank (64 KiB), but the project
/// also compiles uniform blocks declared larger (read with global loads,
/// docs/ABI.md), as devices with a larger range allow; the simulator bounds
/// them like storage buffers.
pub const MAX_UNIFORM_BUFFER_BYTES: u64 = MAX_STORAGE_BUFFER_BYTES;

/// Distance between buffer base addresses, and the first base.
pub const BUFFER_STRIDE: u64 = 1 << 32;

/// The memory an access went to, for errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Space {
    Global,
    Shared,
    Local,
    Constant(u8),
}

impl fmt::Display for Space {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Space::Global => write!(f, "global"),
            Space::Shared => write!(f, "shared"),
            Space::Local => write!(f, "local"),
            Space::Constant(b) => write!(f, "constant bank {b}"),
        }
    }
}

/// Why an access failed; the caller adds the instruction, lane and address.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MemFault {
    #[error("no buffer is mapped there")]
    Unmapped,
    #[error("it runs past the end of its {size:#x}-byte range (which starts at {base:#x})")]
    OutOfBounds { base: u64, size: u64 },
    #[error("it is not aligned to its size")]
    Unaligned,
}

/// Storage buffers, each at its own base address. Copies share the bytes
/// until one of them writes (workgroups that only read buffers run in
/// parallel, each on its own copy, without copying the bytes).
///
/// An overlaid copy (`GlobalMemory::overlaid`) never writes the shared
/// bytes: its accesses go through an `Overlay` that keeps the lines it
/// wrote and records which bytes it read and wrote, so a compute dispatch
/// can run workgroups in parallel and decide afterwards whether their
/// effects equal a run in launch order (`compute_order`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GlobalMemory {
    buffers: Vec<Arc<Vec<u8>>>,
    overlay: Option<Box<Overlay>>,
}

impl GlobalMemory {
    /// Maps `bytes` as a new buffer and returns its base address.
    pub fn map(&mut self, bytes: Vec<u8>) -> u64 {
        self.buffers.push(Arc::new(bytes));
        self.buffers.len() as u64 * BUFFER_STRIDE
    }

    /// Whether no buffer is mapped.
    pub fn is_empty(&self) -> bool {
        self.buffers.is_empty()
    }

    /// The contents of the buffer mapped at `base`.
    pub fn buffer(&self, base: u64) -> Option<&[u8]> {
        let i = self.index(base)?;
        base.is_multiple_of(BUFFER_STRIDE)
            .then(|| self.buffers[i].as_slice())
    }

    /// Moves the contents of the buffer mapped at `base` out, leaving it
    /// empty (copied if a copy of this memory still shares them).
    pub(crate) fn take_buffer(&mut self, base: u64) -> Option<Vec<u8>> {
        let i = self.index(base)?;
        if !base.is_multiple_of(BUFFER_STRIDE) {
            return None;
        }
        let taken = std::mem::take(&mut self.buffers[i]);
        Some(Arc::try_unwrap(taken).unwrap_or_else(|shared| (*shared).clone()))
    }

    /// Zero-fills the buffer mapped at `base` (a new allocation, so copies
    /// that shared its bytes keep theirs).
    pub(crate) fn zero(&mut self, base: u64) {
        if let Some(i) = self.index(base) {
            self.buffers[i] = Arc::new(vec![0; self.buffers[i].len()]);
        }
    }

    /// Whether any buffer but the one at `except` was written since this
    /// memory was copied from `before` (a written buffer no longer shares
    /// its bytes with the copy; one written with the bytes it held counts
    /// as written too).
    pub(crate) fn written_since(&self, before: &GlobalMemory, except: u64) -> bool {
        let except = self.index(except);
        self.buffers.len() != before.buffers.len()
            || self
                .buffers
                .iter()
                .zip(&before.buffers)
                .enumerate()
                .any(|(i, (now, then))| Some(i) != except && !Arc::ptr_eq(now, then))
    }

    /// A copy that reads these bytes and keeps its own effects in an empty
    /// overlay.
    pub(crate) fn overlaid(&self) -> GlobalMemory {
        GlobalMemory {
            buffers: self.buffers.clone(),
            overlay: Some(Box::new(Overlay::sized_like_last())),
        }
    }

    /// What an overlaid copy did (nothing for a plain one).
    pub(crate) fn into_overlay(self) -> Overlay {
        let overlay = self.overlay.map(|o| *o).unwrap_or_default();
        overlay.done();
        overlay
    }

    /// Writes the bytes `overlay` wrote (taken from an overlaid copy of
    /// this memory) into these buffers.
    pub(crate) fn apply(&mut self, overlay: &Overlay) {
        // Buffer by buffer (a workgroup writes one or a few), each made
        // this memory's own once.
        let mut touched: Vec<usize> = Vec::new();
        for (addr, _) in overlay.written_lines() {
            // Every line was read through this memory's buffers, so it
            // lies in one of them.
            if let Some(i) = self.index(addr)
                && !touched.contains(&i)
            {
                touched.push(i);
            }
        }
        for i in touched {
            let base = (i as u64 + 1) * BUFFER_STRIDE;
            let bytes = Arc::make_mut(&mut self.buffers[i]);
            for (addr, line) in overlay.written_lines() {
                if addr.wrapping_sub(base) < BUFFER_STRIDE {
                    line.copy_written(&mut bytes[(addr - base) as usize..]);
                }
            }
        }
    }

    /// Whether this memory, an overlaid copy, wrote a byte that `later`,
    /// an overlay over the bytes this copy started from, read (a plain
    /// memory holds its writes in its bytes: no).
    pub(crate) fn wrote_read_of(&self, later: &Overlay) -> bool {
        self.overlay
            .as_ref()
            .is_some_and(|o| o.wrote_read_of(later))
    }

    /// Takes on the effects of `later`, an overlay over the bytes this
    /// memory reads (for an overlaid copy: those it started from), which
    /// read none of this memory's writes (`wrote_read_of`).
    pub(crate) fn take(&mut self, later: Overlay) {
        match &mut self.overlay {
            None => self.apply(&later),
            Some(o) => o.absorb(later),
        }
    }

    /// For an `n`-byte access by each lane of `mask` at `addrs[lane]`: the
    /// buffer that every one of them lies in, in bounds and aligned, or
    /// `None` (no lane, or one that faults or lies in another buffer: the
    /// caller then takes the lanes one by one, which reports the first
    /// fault). For `read_lanes` and `write_lanes`.
    pub(crate) fn lanes_buffer(&self, mask: u32, addrs: &[u64; 32], n: u32) -> Option<usize> {
        let first = addrs.get(mask.trailing_zeros() as usize)?;
        let i = self.index(*first)?;
        let base = (i as u64 + 1) * BUFFER_STRIDE;
        lanes_fit(mask, addrs, base, self.buffers[i].len(), n).then_some(i)
    }

    /// Reads, in lane order, the `n` bytes each lane of `mask` reads at
    /// `addrs[lane]` into `out[lane]`, all in buffer `i` (`lanes_buffer`).
    pub(crate) fn read_lanes(
        &mut self,
        i: usize,
        mask: u32,
        addrs: &[u64; 32],
        n: u32,
        out: &mut [[u8; 16]; 32],
    ) {
        let base = (i as u64 + 1) * BUFFER_STRIDE;
        read_lanes(
            &mut self.overlay,
            &self.buffers[i],
            base,
            mask,
            addrs,
            n,
            out,
        );
    }

    /// Writes, in lane order, the `n` bytes of `data[lane]` for each lane of
    /// `mask` at `addrs[lane]`, all in buffer `i` (`lanes_buffer`).
    pub(crate) fn write_lanes(
        &mut self,
        i: usize,
        mask: u32,
        addrs: &[u64; 32],
        n: u32,
        data: &[[u8; 16]; 32],
    ) {
        let base = (i as u64 + 1) * BUFFER_STRIDE;
        write_lanes(
            &mut self.overlay,
            &mut self.buffers[i],
            base,
            mask,
            addrs,
            n,
            data,
        );
    }

    fn index(&self, addr: u64) -> Option<usize> {
        let i = (addr / BUFFER_STRIDE).checked_sub(1)? as usize;
        (i < self.buffers.len()).then_some(i)
    }

    /// The buffer and byte range an `n`-byte access at `addr` covers.
    fn locate(&self, addr: u64, n: u32) -> Result<(usize, usize), MemFault> {
        let i = self.index(addr).ok_or(MemFault::Unmapped)?;
        let base = (i as u64 + 1) * BUFFER_STRIDE;
        let start = range(addr - base, n, self.buffers[i].len()).map_err(|f| match f {
            MemFault::OutOfBounds { size, .. } => MemFault::OutOfBounds { base, size },
            f => f,
        })?;
        Ok((i, start))
    }

    /// The `n` bytes at `addr`. Mutable because an overlaid copy records
    /// the read.
    pub fn read(&mut self, addr: u64, n: u32) -> Result<&[u8], MemFault> {
        let (i, start) = self.locate(addr, n)?;
        Ok(read_at(&mut self.overlay, &self.buffers[i], addr, start, n))
    }

    pub fn write(&mut self, addr: u64, bytes: &[u8]) -> Result<(), MemFault> {
        let n = bytes.len() as u32;
        let (i, start) = self.locate(addr, n)?;
        let cell = cell_at(
            &mut self.overlay,
            &mut self.buffers[i],
            addr,
            start,
            n,
            false,
        );
        copy_access(cell, bytes);
        Ok(())
    }

    /// The `n` bytes at `addr`, for a read-modify-write.
    pub(crate) fn cell(&mut self, addr: u64, n: u32) -> Result<&mut [u8], MemFault> {
        let (i, start) = self.locate(addr, n)?;
        Ok(cell_at(
            &mut self.overlay,
            &mut self.buffers[i],
            addr,
            start,
            n,
            true,
        ))
    }
}

/// Constant banks `c[0]` .. `c[17]`: uniform buffers, push constants and
/// driver constants, as the binary's bindings place them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConstantBanks {
    banks: Vec<Vec<u8>>,
}

impl ConstantBanks {
    /// Sets the contents of `bank` (programs reach banks below
    /// `OpLdc::BANKS`).
    pub fn set(&mut self, bank: u8, bytes: Vec<u8>) {
        let i = usize::from(bank);
        if self.banks.len() <= i {
            self.banks.resize(i + 1, Vec::new());
        }
        self.banks[i] = bytes;
    }

    pub fn read(&self, bank: u8, offset: u64, n: u32) -> Result<&[u8], MemFault> {
        let bytes = self
            .banks
            .get(usize::from(bank))
            .map_or(&[][..], Vec::as_slice);
        let start = range(offset, n, bytes.len())?;
        Ok(&bytes[start..start + n as usize])
    }
}

/// What a dispatch provides to its workgroups: global memory and constant
/// banks (shared by all), and the sizes of the memories each workgroup gets
/// its own zeroed copy of.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Resources {
    pub global: GlobalMemory,
    pub constants: ConstantBanks,
    /// Shared memory per workgroup, in bytes.
    pub shared_bytes: u32,
    /// Local memory per lane, in bytes.
    pub local_bytes: u32,
    /// The texture header and sampler pools (docs/TEXTURES.md).
    pub textures: crate::texture::TexturePools,
}

/// The memories one workgroup owns while it runs.
pub(crate) struct WorkgroupMemory {
    pub shared: SharedMemory,
    /// Per lane.
    pub local: Vec<Vec<u8>>,
}

impl WorkgroupMemory {
    pub fn new(resources: &Resources, lanes: u32) -> WorkgroupMemory {
        WorkgroupMemory {
            shared: SharedMemory::new(resources.shared_bytes),
            local: vec![vec![0; resources.local_bytes as usize]; lanes as usize],
        }
    }
}

/// A workgroup's shared memory. An overlaid copy (`SharedMemory::overlaid`)
/// never writes the bytes it shares with the workgroup's: as for global
/// memory, its accesses go through an `Overlay` that keeps what it wrote
/// and records what it read, so one warp's run between two barriers can
/// go beside the other warps' and be kept only if it equals the run in
/// turns (`warp_phases.rs`). Shared-memory addresses are byte offsets.
#[derive(Clone, Debug, Default)]
pub(crate) struct SharedMemory {
    bytes: Arc<Vec<u8>>,
    overlay: Option<Box<Overlay>>,
}

impl SharedMemory {
    /// `n` zeroed bytes.
    pub(crate) fn new(n: u32) -> SharedMemory {
        SharedMemory {
            bytes: Arc::new(vec![0; n as usize]),
            overlay: None,
        }
    }

    /// A copy that reads these bytes and keeps its own effects in an empty
    /// overlay.
    pub(crate) fn overlaid(&self) -> SharedMemory {
        SharedMemory {
            bytes: Arc::clone(&self.bytes),
            overlay: Some(Box::default()),
        }
    }

    /// What an overlaid copy did (nothing for a plain one).
    pub(crate) fn into_overlay(self) -> Overlay {
        self.overlay.map(|o| *o).unwrap_or_default()
    }

    /// Writes the bytes `overlay` wrote (taken from an overlaid copy of
    /// this memory) into it.
    pub(crate) fn apply(&mut self, overlay: &Overlay) {
        let bytes = Arc::make_mut(&mut self.bytes);
        for (addr, line) in overlay.written_lines() {
            line.copy_written(&mut bytes[addr as usize..]);
        }
    }

    /// The `n` bytes at `addr` (mutable because an overlaid copy records
    /// the read).
    pub(crate) fn read(&mut self, addr: u64, n: u32) -> Result<&[u8], MemFault> {
        let start = range(addr, n, self.bytes.len())?;
        Ok(read_at(&mut self.overlay, &self.bytes, addr, start, n))
    }

    pub(crate) fn write(&mut self, addr: u64, data: &[u8]) -> Result<(), MemFault> {
        let n = data.len() as u32;
        let start = range(addr, n, self.bytes.len())?;
        copy_access(
            cell_at(&mut self.overlay, &mut self.bytes, addr, start, n, false),
            data,
        );
        Ok(())
    }

    /// Whether an `n`-byte access by each lane of `mask` at `addrs[lane]`
    /// lies in bounds and aligned (else the caller takes the lanes one by
    /// one, which reports the first fault). For `read_lanes` and
    /// `write_lanes`.
    pub(crate) fn lanes_fit(&self, mask: u32, addrs: &[u64; 32], n: u32) -> bool {
        lanes_fit(mask, addrs, 0, self.bytes.len(), n)
    }

    /// Reads, in lane order, the `n` bytes each lane of `mask` reads at
    /// `addrs[lane]` into `out[lane]` (`lanes_fit`).
    pub(crate) fn read_lanes(
        &mut self,
        mask: u32,
        addrs: &[u64; 32],
        n: u32,
        out: &mut [[u8; 16]; 32],
    ) {
        read_lanes(&mut self.overlay, &self.bytes, 0, mask, addrs, n, out);
    }

    /// Writes, in lane order, the `n` bytes of `data[lane]` for each lane of
    /// `mask` at `addrs[lane]` (`lanes_fit`).
    pub(crate) fn write_lanes(
        &mut self,
        mask: u32,
        addrs: &[u64; 32],
        n: u32,
        data: &[[u8; 16]; 32],
    ) {
        write_lanes(&mut self.overlay, &mut self.bytes, 0, mask, addrs, n, data);
    }

    /// The `n` bytes at `addr`, for a read-modify-write.
    pub(crate) fn cell(&mut self, addr: u64, n: u32) -> Result<&mut [u8], MemFault> {
        let start = range(addr, n, self.bytes.len())?;
        Ok(cell_at(
            &mut self.overlay,
            &mut self.bytes,
            addr,
            start,
            n,
            true,
        ))
    }
}

// The accesses global and shared memory share: `bytes` is a buffer (or
// the shared memory) whose first byte is at address `base`, read through
// `overlay` where the memory is an overlaid copy.

/// The `n` bytes at `start` of `bytes`, address `addr`.
fn read_at<'a>(
    overlay: &'a mut Option<Box<Overlay>>,
    bytes: &'a [u8],
    addr: u64,
    start: usize,
    n: u32,
) -> &'a [u8] {
    match overlay {
        None => &bytes[start..start + n as usize],
        Some(o) => o.read(addr, bytes, start, n),
    }
}

/// The `n` bytes at `start` of `bytes`, address `addr`, to write (with
/// `atomic`, read too).
fn cell_at<'a>(
    overlay: &'a mut Option<Box<Overlay>>,
    bytes: &'a mut Arc<Vec<u8>>,
    addr: u64,
    start: usize,
    n: u32,
    atomic: bool,
) -> &'a mut [u8] {
    match overlay {
        None => &mut Arc::make_mut(bytes)[start..start + n as usize],
        Some(o) => o.cell(addr, bytes, start, n, atomic),
    }
}

/// Whether an `n`-byte access by each lane of `mask` at `addrs[lane]`
/// lies in the `len` bytes from `base`, aligned.
fn lanes_fit(mask: u32, addrs: &[u64; 32], base: u64, len: usize, n: u32) -> bool {
    let (len, n) = (len as u64, u64::from(n));
    lanes(mask).all(|l| {
        let at = addrs[l].wrapping_sub(base);
        at.is_multiple_of(n) && at < len && len - at >= n
    })
}

/// Reads, in lane order, the `n` bytes each lane of `mask` reads at
/// `addrs[lane]` into `out[lane]` (all in `bytes`: `lanes_fit`).
fn read_lanes(
    overlay: &mut Option<Box<Overlay>>,
    bytes: &[u8],
    base: u64,
    mask: u32,
    addrs: &[u64; 32],
    n: u32,
    out: &mut [[u8; 16]; 32],
) {
    let m = n as usize;
    match overlay {
        None => {
            for l in lanes(mask) {
                let at = (addrs[l] - base) as usize;
                copy_access(&mut out[l][..m], &bytes[at..at + m]);
            }
        }
        Some(o) => {
            for l in lanes(mask) {
                let at = (addrs[l] - base) as usize;
                copy_access(&mut out[l][..m], o.read(addrs[l], bytes, at, n));
            }
        }
    }
}

/// Writes, in lane order, the `n` bytes of `data[lane]` for each lane of
/// `mask` at `addrs[lane]` (all in `bytes`: `lanes_fit`).
fn write_lanes(
    overlay: &mut Option<Box<Overlay>>,
    bytes: &mut Arc<Vec<u8>>,
    base: u64,
    mask: u32,
    addrs: &[u64; 32],
    n: u32,
    data: &[[u8; 16]; 32],
) {
    let m = n as usize;
    match overlay {
        None => {
            let bytes = Arc::make_mut(bytes);
            for l in lanes(mask) {
                let at = (addrs[l] - base) as usize;
                copy_access(&mut bytes[at..at + m], &data[l][..m]);
            }
        }
        Some(o) => {
            for l in lanes(mask) {
                let at = (addrs[l] - base) as usize;
                copy_access(o.cell(addrs[l], bytes, at, n, false), &data[l][..m]);
            }
        }
    }
}

/// The first byte of an `n`-byte access at `offset` in `len` bytes, after
/// the alignment and bounds checks.
pub(crate) fn range(offset: u64, n: u32, len: usize) -> Result<usize, MemFault> {
    if !offset.is_multiple_of(u64::from(n)) {
        return Err(MemFault::Unaligned);
    }
    if offset
        .checked_add(u64::from(n))
        .is_none_or(|end| end > len as u64)
    {
        return Err(MemFault::OutOfBounds {
            base: 0,
            size: len as u64,
        });
    }
    Ok(offset as usize)
}

/// Copies an access's bytes (`src` and `dst` of one of the access sizes)
/// with a move of fixed size where the size is a word or more, rather
/// than a call to `memcpy`.
#[inline(always)]
pub(crate) fn copy_access(dst: &mut [u8], src: &[u8]) {
    match src.len() {
        4 => dst[..4].copy_from_slice(&src[..4]),
        8 => dst[..8].copy_from_slice(&src[..8]),
        16 => dst[..16].copy_from_slice(&src[..16]),
        _ => dst.copy_from_slice(src),
    }
}
