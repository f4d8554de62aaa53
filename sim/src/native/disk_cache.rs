//! The translation cache on disk (ARCHITECTURE.md, "Native tier"): the
//! host code of a translated function, kept in a directory across runs so
//! that a program run again skips Cranelift, as a driver's shader cache
//! skips its compiler (Mesa's lavapipe keeps one by default).
//!
//! An entry is named by a SHA-256 key over everything the code depends on:
//! - this format's version and the crate's version;
//! - Cranelift's version (another compiler may make other code);
//! - the target: its triple, Cranelift's shared settings and the host ISA
//!   settings (which host instructions the code may use: a directory
//!   shared by two machines never hands one the other's code);
//! - the function's Cranelift IR (its `Hash`, over every instruction,
//!   constant and block), which states the whole computation, the
//!   emitter's choices included: a change to the translator that changes
//!   the code changes the key.
//!
//! The file holds the code's alignment and bytes and, last, the SHA-256
//! of the key and both, so a truncated or damaged file (or one written for
//! another key) is a miss. Code with relocations (none is made today: the
//! functions call nothing) is not kept. Every failure to read or write is
//! a miss or a skipped store: the cache never fails a run.
//!
//! Entries are written to a temporary file and renamed into place, so
//! concurrent runs see whole entries or none. The directory is kept under
//! `MAX_ENTRIES` entries: a store whose key starts with a zero byte (one
//! in 256) removes the oldest entries beyond three quarters of it.

use cranelift_codegen::ir::Function;
use cranelift_codegen::isa::TargetIsa;
use sha2::{Digest, Sha256};
use std::fmt::Write as _;
use std::hash::{Hash, Hasher};
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// The entry format (the first bytes of every file).
const MAGIC: &[u8; 8] = b"SPVNAT01";

/// Entries kept at most (about 10 KiB each for a typical kernel).
pub(crate) const MAX_ENTRIES: usize = 4096;

/// Bytes of code an entry may hold: a larger file is not read.
const MAX_CODE: usize = 16 << 20;

/// An entry's name: the SHA-256 of what its code depends on.
pub(crate) type Key = [u8; 32];

/// The key of `func` compiled for `isa`: SHA-256 over the versions and
/// the target's settings and the function's `Hash` (Cranelift's own
/// incremental cache keys a function the same way), gathered into one
/// buffer first (hashing its many small writes one by one costs more).
pub(crate) fn key(isa: &dyn TargetIsa, func: &Function) -> Key {
    let mut h = Gather(Vec::with_capacity(64 << 10));
    MAGIC.hash(&mut h);
    env!("CARGO_PKG_VERSION").hash(&mut h);
    cranelift_codegen::VERSION.hash(&mut h);
    isa.name().hash(&mut h);
    isa.triple().hash(&mut h);
    isa.flags().hash(&mut h);
    isa.isa_flags_hash_key().hash(&mut h);
    func.stencil.hash(&mut h);
    Sha256::digest(&h.0).into()
}

/// A `Hasher` that keeps what it is given, for one SHA-256 at the end.
struct Gather(Vec<u8>);

impl Hasher for Gather {
    fn write(&mut self, bytes: &[u8]) {
        self.0.extend_from_slice(bytes);
    }

    /// Never asked: the key is the SHA-256 of the bytes.
    fn finish(&self) -> u64 {
        0
    }
}

/// A cached function's code.
pub(crate) struct Cached {
    pub alignment: u64,
    pub code: Vec<u8>,
}

/// Where the entry of `key` lives in `dir`.
fn path(dir: &Path, key: &Key) -> PathBuf {
    let mut name = String::with_capacity(68);
    for b in key {
        let _ = write!(name, "{b:02x}");
    }
    name.push_str(".bin");
    dir.join(name)
}

/// The check sum closing an entry.
fn check(key: &Key, alignment: u32, code: &[u8]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(key);
    h.update(alignment.to_le_bytes());
    h.update(code);
    h.finalize().into()
}

/// The entry of `key`, if `dir` holds a whole one.
pub(crate) fn load(dir: &Path, key: &Key) -> Option<Cached> {
    let bytes = std::fs::read(path(dir, key)).ok()?;
    let rest = bytes.strip_prefix(MAGIC.as_slice())?;
    let (alignment, rest) = rest.split_first_chunk::<4>()?;
    let (len, rest) = rest.split_first_chunk::<4>()?;
    let len = u32::from_le_bytes(*len) as usize;
    if len > MAX_CODE || rest.len() != len + 32 {
        return None;
    }
    let (code, sum) = rest.split_at(len);
    let alignment = u32::from_le_bytes(*alignment);
    if check(key, alignment, code).as_slice() != sum || !alignment.is_power_of_two() {
        return None;
    }
    Some(Cached {
        alignment: u64::from(alignment),
        code: code.to_vec(),
    })
}

/// Keeps `code` as the entry of `key` in `dir` (made if missing); a
/// failure leaves the cache as it was.
pub(crate) fn store(dir: &Path, key: &Key, alignment: u32, code: &[u8]) {
    if code.len() > MAX_CODE || std::fs::create_dir_all(dir).is_err() {
        return;
    }
    let mut bytes = Vec::with_capacity(code.len() + 48);
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&alignment.to_le_bytes());
    bytes.extend_from_slice(&(code.len() as u32).to_le_bytes());
    bytes.extend_from_slice(code);
    bytes.extend_from_slice(&check(key, alignment, code));
    let written = tempfile::Builder::new()
        .prefix(".entry")
        .tempfile_in(dir)
        .and_then(|mut file| {
            file.write_all(&bytes)?;
            file.persist(path(dir, key)).map_err(|e| e.error)
        });
    if written.is_ok() && key[0] == 0 {
        trim(dir, MAX_ENTRIES);
    }
}

/// Removes the oldest entries of `dir` (by modification time, then name)
/// once it holds more than `max`, down to three quarters of `max`.
pub(crate) fn trim(dir: &Path, max: usize) {
    let Ok(list) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<(std::time::SystemTime, PathBuf)> = list
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().ends_with(".bin"))
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .collect();
    if entries.len() <= max {
        return;
    }
    entries.sort();
    let remove = entries.len() - max * 3 / 4;
    for (_, path) in entries.into_iter().take(remove) {
        let _ = std::fs::remove_file(path);
    }
}
