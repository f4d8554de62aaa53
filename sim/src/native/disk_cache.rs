//! The translation cache on disk (ARCHITECTURE.md, "Native tier"): the
//! host code of a translated function, kept in a directory across runs so
//! that a program run again skips Cranelift, as a driver's shader cache
//! skips its compiler (Mesa's lavapipe keeps one by default). The CLI's
//! compile cache keeps its entries, compiled binaries, in the same files
//! (`load` and `store`, public as `spvsass_sim::cache_files`; the root
//! package's `src/compile_cache.rs`).
//!
//! A function's code is kept under two names, each a SHA-256 key over
//! everything the code depends on:
//! - this format's version and the crate's version;
//! - Cranelift's version (another compiler may make other code);
//! - the target: its triple, Cranelift's shared settings and the host ISA
//!   settings (which host instructions the code may use: a directory
//!   shared by two machines never hands one the other's code);
//! - and either (`piece_key`) the text of the segments and the piece of
//!   them the function holds, with the translator's identity (a hash of
//!   this crate's and the ISA crate's sources and the lock file, made by
//!   `build.rs`), known before any IR is built; or (`key`) the function's
//!   Cranelift IR (its `Hash`, over every instruction, constant and
//!   block), which states the whole computation, the emitter's choices
//!   included. `compile.rs` looks up the first, then builds the IR and
//!   looks up the second.
//!
//! The file holds the code's alignment and bytes and, last, the SHA-256
//! of the key and both, so a truncated or damaged file (or one written for
//! another key) is a miss; only a regular file of at most an entry's
//! largest size is read. Code with relocations (none is made today: the
//! functions call nothing) is not kept. Every failure to read or write is
//! a miss or a skipped store: the cache never fails a run.
//!
//! The check sum catches damage, not tampering: whoever can write the
//! directory can run code in the process. So the directory is made
//! readable and writable by its owner alone, and one that others may
//! write (group or world write permission) is not used at all.
//!
//! Entries are written to a temporary file and renamed into place, so
//! concurrent runs see whole entries or none. A hit touches its entry's
//! modification time when that is over an hour old, and a store whose key starts with a zero byte (one
//! in 256) trims the directory: beyond `MAX_ENTRIES` entries it removes
//! the least recently used down to three quarters of that, and it removes
//! temporary files a killed run left more than an hour ago. So the
//! directory stays near `MAX_ENTRIES` entries.

use cranelift_codegen::ir::Function;
use cranelift_codegen::isa::TargetIsa;
use sha2::{Digest, Sha256};
use std::fmt::Write as _;
use std::hash::{Hash, Hasher};
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// The entry format (the first bytes of every file).
const MAGIC: &[u8; 8] = b"SPVNAT01";

/// How the names of temporary files begin (an entry being written).
const TEMPORARY: &str = ".entry";

/// Entries kept at most (about 10 KiB each for a typical kernel).
pub(crate) const MAX_ENTRIES: usize = 4096;

/// Bytes of code an entry may hold: a larger file is not read.
const MAX_CODE: usize = 16 << 20;

/// Bytes of an entry besides its code: the magic, alignment, length and
/// check sum.
const FRAME: usize = MAGIC.len() + 4 + 4 + 32;

/// An entry's name: the SHA-256 of what its code depends on.
pub type Key = [u8; 32];

/// The key of `func` compiled for `isa`: SHA-256 over what every key
/// covers (`common`) and the function's `Hash` (Cranelift's own
/// incremental cache keys a function the same way).
pub(crate) fn key(isa: &dyn TargetIsa, func: &Function) -> Key {
    let mut h = common("ir", isa, 64 << 10);
    func.stencil.hash(&mut h);
    Sha256::digest(&h.0).into()
}

/// The key of the function `compile.rs` makes of `what` (the segments and
/// the piece of them it holds) for `isa`, without building its IR:
/// SHA-256 over what every key covers (`common`), the translator's
/// sources (`SPVSASS_TRANSLATOR_SOURCES`, a hash of this crate's and the
/// ISA crate's source files and the lock file, made by `build.rs`), the
/// segments' `text_digest` and the text of `piece`. A hit under this key
/// skips the IR as well as the compile; an entry is stored under both
/// keys, so a change to the sources that leaves the IR as it was still
/// finds the code under `key`.
pub(crate) fn piece_key(isa: &dyn TargetIsa, segments: &Key, piece: &dyn std::fmt::Debug) -> Key {
    let mut h = common("piece", isa, 1 << 10);
    env!("SPVSASS_TRANSLATOR_SOURCES").hash(&mut h);
    segments.hash(&mut h);
    // Writing into the buffer cannot fail.
    let _ = write!(h, "{piece:?}");
    Sha256::digest(&h.0).into()
}

/// The SHA-256 of `what`'s text (`{:?}`): the segments, which every
/// piece's key covers, formatted and hashed once per translation however
/// many pieces it has.
pub(crate) fn text_digest(what: &dyn std::fmt::Debug) -> Key {
    let mut h = Gather(Vec::with_capacity(16 << 10));
    // Writing into the buffer cannot fail.
    let _ = write!(h, "{what:?}");
    Sha256::digest(&h.0).into()
}

/// What every key covers, gathered into a buffer of `capacity` bytes for
/// one SHA-256 at the end (hashing the many small writes one by one costs
/// more): this format's version, which key it is, the crate's and
/// Cranelift's versions and the target's settings.
fn common(kind: &str, isa: &dyn TargetIsa, capacity: usize) -> Gather {
    let mut h = Gather(Vec::with_capacity(capacity));
    MAGIC.hash(&mut h);
    kind.hash(&mut h);
    env!("CARGO_PKG_VERSION").hash(&mut h);
    cranelift_codegen::VERSION.hash(&mut h);
    isa.name().hash(&mut h);
    isa.triple().hash(&mut h);
    isa.flags().hash(&mut h);
    isa.isa_flags_hash_key().hash(&mut h);
    h
}

/// A `Hasher`, and a `fmt::Write`, that keeps what it is given.
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

impl std::fmt::Write for Gather {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0.extend_from_slice(s.as_bytes());
        Ok(())
    }
}

/// A cached function's code.
pub struct Cached {
    pub alignment: u32,
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

/// Whether `dir` may hold entries: no one but its owner may write it.
#[cfg(unix)]
fn private(dir: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(dir).is_ok_and(|m| m.is_dir() && m.permissions().mode() & 0o022 == 0)
}

#[cfg(not(unix))]
fn private(dir: &Path) -> bool {
    dir.is_dir()
}

/// Makes `dir` (and its parents) if missing, the last readable and
/// writable by its owner alone.
fn make(dir: &Path) -> std::io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)
}

/// The entry of `key`, if `dir` holds a whole one (its modification time
/// then set to now: `trim` removes the least recently used).
pub fn load(dir: &Path, key: &Key) -> Option<Cached> {
    use std::io::Read;
    if !private(dir) {
        return None;
    }
    // Looked at before it is opened: opening a FIFO would wait for a
    // writer.
    let at = path(dir, key);
    let meta = std::fs::metadata(&at).ok()?;
    if !meta.is_file() || meta.len() > (MAX_CODE + FRAME) as u64 {
        return None;
    }
    let file = std::fs::File::open(&at).ok()?;
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take((MAX_CODE + FRAME) as u64)
        .read_to_end(&mut bytes)
        .ok()?;
    let cached = parse(key, &bytes)?;
    // Best effort: a hit that cannot touch its entry is still a hit.
    if stale(&meta, std::time::SystemTime::now())
        && let Ok(f) = std::fs::File::options().write(true).open(&at)
    {
        let _ = f.set_modified(std::time::SystemTime::now());
    }
    Some(cached)
}

/// Whether a hit on an entry last modified as `meta` says should touch
/// it: when that was over `TOUCH_AFTER` before `now` (or cannot be read,
/// or lies ahead). The least recently used order `trim` goes by is then
/// right to within that time, and a program run again and again does
/// not write its entries' times on every run (three system calls per
/// entry, a tenth of a hit).
fn stale(meta: &std::fs::Metadata, now: std::time::SystemTime) -> bool {
    meta.modified()
        .ok()
        .and_then(|m| now.duration_since(m).ok())
        .is_none_or(|age| age > TOUCH_AFTER)
}

/// How old an entry's modification time may get before a hit sets it
/// again.
const TOUCH_AFTER: std::time::Duration = std::time::Duration::from_secs(3600);

/// An entry's code, if `bytes` is a whole entry of `key`.
fn parse(key: &Key, bytes: &[u8]) -> Option<Cached> {
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
        alignment,
        code: code.to_vec(),
    })
}

/// Keeps `code` as the entry of `key` in `dir` (made if missing); a
/// failure leaves the cache as it was.
pub fn store(dir: &Path, key: &Key, alignment: u32, code: &[u8]) {
    if code.len() > MAX_CODE || make(dir).is_err() || !private(dir) {
        return;
    }
    let mut bytes = Vec::with_capacity(code.len() + 48);
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&alignment.to_le_bytes());
    bytes.extend_from_slice(&(code.len() as u32).to_le_bytes());
    bytes.extend_from_slice(code);
    bytes.extend_from_slice(&check(key, alignment, code));
    let written = tempfile::Builder::new()
        .prefix(TEMPORARY)
        .tempfile_in(dir)
        .and_then(|mut file| {
            file.write_all(&bytes)?;
            file.persist(path(dir, key)).map_err(|e| e.error)
        });
    if written.is_ok() && key[0] == 0 {
        trim(dir, MAX_ENTRIES);
    }
}

/// Removes the least recently used entries of `dir` (by modification
/// time, then name) once it holds more than `max`, down to three quarters
/// of `max`, and temporary files older than an hour (left by a run that
/// was killed while storing).
pub(crate) fn trim(dir: &Path, max: usize) {
    let Ok(list) = std::fs::read_dir(dir) else {
        return;
    };
    let now = std::time::SystemTime::now();
    let mut entries: Vec<(std::time::SystemTime, PathBuf)> = Vec::new();
    for e in list.filter_map(Result::ok) {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some(modified) = e.metadata().ok().and_then(|m| m.modified().ok()) else {
            continue;
        };
        if name.ends_with(".bin") {
            entries.push((modified, e.path()));
        } else if name.starts_with(TEMPORARY)
            && now
                .duration_since(modified)
                .is_ok_and(|age| age.as_secs() > 3600)
        {
            let _ = std::fs::remove_file(e.path());
        }
    }
    if entries.len() <= max {
        return;
    }
    entries.sort();
    let remove = entries.len() - max * 3 / 4;
    for (_, path) in entries.into_iter().take(remove) {
        let _ = std::fs::remove_file(path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cranelift_codegen::ir::{AbiParam, InstBuilder, Signature, UserFuncName, types};
    use cranelift_codegen::isa::{CallConv, OwnedTargetIsa};
    use cranelift_codegen::settings::{self, Configurable};
    use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};

    /// A function of one pointer argument that returns, adding `n` to it
    /// first if `n` is not zero.
    fn function(n: i64) -> Function {
        let host = isa(&[], &[]);
        let mut sig = Signature::new(CallConv::SystemV);
        sig.params.push(AbiParam::new(types::I64));
        let mut func = Function::with_name_signature(UserFuncName::default(), sig);
        let mut ctx = FunctionBuilderContext::new();
        let mut b = FunctionBuilder::new(&mut func, &mut ctx);
        let block = b.create_block();
        b.append_block_params_for_function_params(block);
        b.switch_to_block(block);
        if n != 0 {
            let p = b.block_params(block)[0];
            b.ins().iadd_imm_s(p, n);
        }
        b.ins().return_(&[]);
        b.seal_all_blocks();
        b.finalize(host.frontend_config());
        func
    }

    /// The host's ISA with the shared `settings` and the ISA `flags`.
    fn isa(settings: &[(&str, &str)], flags: &[(&str, &str)]) -> OwnedTargetIsa {
        let mut shared = settings::builder();
        for (name, value) in settings {
            shared.set(name, value).expect("a shared setting");
        }
        let mut host = cranelift_native::builder().expect("a host ISA");
        for (name, value) in flags {
            host.set(name, value).expect("an ISA setting");
        }
        host.finish(settings::Flags::new(shared)).expect("an ISA")
    }

    #[test]
    fn the_key_covers_the_function_the_settings_and_the_host() {
        let base = isa(&[("opt_level", "speed")], &[]);
        let key0 = key(&*base, &function(0));
        assert_eq!(
            key(&*base, &function(0)),
            key0,
            "the same input, the same key"
        );
        let others = [
            ("another function", key(&*base, &function(1))),
            (
                "opt_level",
                key(&*isa(&[("opt_level", "none")], &[]), &function(0)),
            ),
            (
                "the verifier",
                key(
                    &*isa(&[("opt_level", "speed"), ("enable_verifier", "false")], &[]),
                    &function(0),
                ),
            ),
        ];
        for (what, other) in others {
            assert_ne!(other, key0, "{what}");
        }
        #[cfg(target_arch = "x86_64")]
        {
            // Code for a host without AVX is other code.
            let no_avx = isa(&[("opt_level", "speed")], &[("has_avx", "false")]);
            assert_ne!(key(&*no_avx, &function(0)), key0, "an ISA flag");
        }
    }

    #[test]
    fn the_piece_key_covers_the_piece_and_the_host() {
        let base = isa(&[("opt_level", "speed")], &[]);
        let segments = text_digest(&"segments");
        let key0 = piece_key(&*base, &segments, &[true, false]);
        assert_eq!(piece_key(&*base, &segments, &[true, false]), key0);
        assert_ne!(piece_key(&*base, &segments, &[true, true]), key0);
        let other = text_digest(&"Segments");
        assert_ne!(piece_key(&*base, &other, &[true, false]), key0);
        let none = isa(&[("opt_level", "none")], &[]);
        assert_ne!(piece_key(&*none, &segments, &[true, false]), key0);
        assert_ne!(key(&*base, &function(0)), key0, "the two kinds of key");
    }

    /// A hit sets its entry's modification time when it is over an hour
    /// old (so `trim` keeps what was used lately), and leaves a recent one
    /// as it is.
    #[test]
    fn a_hit_touches_only_an_entry_not_touched_for_an_hour() {
        use std::time::{Duration, SystemTime};
        let dir = tempfile::tempdir().expect("a temporary directory");
        let dir = dir.path();
        let k: Key = [9; 32];
        store(dir, &k, 16, &[0xc3]);
        let at = path(dir, &k);
        let set = |age: u64| {
            let f = std::fs::File::options()
                .write(true)
                .open(&at)
                .expect("entry");
            f.set_modified(SystemTime::now() - Duration::from_secs(age))
                .expect("set time");
        };
        let age = || {
            let m = std::fs::metadata(&at)
                .expect("entry")
                .modified()
                .expect("time");
            SystemTime::now().duration_since(m).unwrap_or_default()
        };
        set(2 * 3600);
        assert!(load(dir, &k).is_some());
        assert!(age() < Duration::from_secs(600), "touched: {:?} old", age());
        set(1800);
        assert!(load(dir, &k).is_some());
        assert!(age() >= Duration::from_secs(1800), "left: {:?} old", age());
    }

    #[test]
    fn a_stored_entry_loads_whole_and_a_damaged_one_not() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let dir = dir.path();
        let k: Key = [7; 32];
        let code: Vec<u8> = (0..200u8).collect();
        store(dir, &k, 16, &code);
        let hit = load(dir, &k).expect("a hit");
        assert_eq!((hit.alignment, hit.code.as_slice()), (16, code.as_slice()));
        assert!(load(dir, &[8; 32]).is_none(), "another key");
        let entry = path(dir, &k);
        let whole = std::fs::read(&entry).expect("the entry");
        for at in [0, 9, 13, 20, whole.len() - 1] {
            let mut damaged = whole.clone();
            damaged[at] ^= 1;
            std::fs::write(&entry, &damaged).expect("written");
            assert!(load(dir, &k).is_none(), "byte {at} changed");
        }
        std::fs::write(&entry, &whole).expect("written");
        assert!(load(dir, &k).is_some());
    }

    #[cfg(unix)]
    #[test]
    fn only_a_private_regular_file_of_an_entry_size_is_read() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("a temporary directory");
        let dir = dir.path();
        let k: Key = [3; 32];
        // A FIFO would block a read until someone writes it.
        let made = std::process::Command::new("mkfifo")
            .arg(path(dir, &k))
            .status()
            .expect("mkfifo runs");
        assert!(made.success());
        assert!(load(dir, &k).is_none(), "a FIFO");
        std::fs::remove_file(path(dir, &k)).expect("removed");
        std::fs::create_dir(path(dir, &k)).expect("a directory");
        assert!(load(dir, &k).is_none(), "a directory");
        std::fs::remove_dir(path(dir, &k)).expect("removed");
        let huge = std::fs::File::create(path(dir, &k)).expect("created");
        huge.set_len((MAX_CODE + FRAME + 1) as u64).expect("sized");
        assert!(load(dir, &k).is_none(), "a file larger than any entry");
        std::fs::remove_file(path(dir, &k)).expect("removed");
        store(dir, &k, 16, &[1, 2, 3]);
        assert!(load(dir, &k).is_some());
        let mode = |m: u32| std::fs::Permissions::from_mode(m);
        std::fs::set_permissions(dir, mode(0o777)).expect("chmod");
        assert!(load(dir, &k).is_none(), "a directory others may write");
        store(dir, &[4; 32], 16, &[1]);
        assert!(!path(dir, &[4; 32]).exists(), "nothing stored there");
        std::fs::set_permissions(dir, mode(0o700)).expect("chmod");
        assert!(load(dir, &k).is_some());
    }

    #[test]
    fn a_made_directory_is_private() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let cache = dir.path().join("a").join("cache");
        store(&cache, &[1; 32], 16, &[0x90]);
        assert!(private(&cache));
        assert!(load(&cache, &[1; 32]).is_some());
    }
}
