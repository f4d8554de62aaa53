//! The CLI's compile cache (ARCHITECTURE.md, "Compile cache"): a command
//! that runs a SPIR-V shader (`run`, `draw`, `reference`'s simulator side)
//! keeps the binary it compiled, and the warnings the compile gave, in the
//! translation cache's directory, under a SHA-256 key over everything the
//! binary depends on. Running the same shader again then reads the binary
//! instead of compiling it, as a driver's shader cache hands back a
//! pipeline it compiled before (Mesa's disk cache keeps whole compiled
//! shaders).
//!
//! The key covers the entry format, the package's version, the compiler's
//! sources (`SPVSASS_COMPILER_SOURCES`, made by `build.rs`: frontend,
//! backend, ISA, the library and the lock file), every compile option (the
//! text of `Options`, so a field added later is covered without a change
//! here) and the SPIR-V's bytes. The entry files are the translation
//! cache's (`spvsass_sim::cache_files`: a check sum over key and payload,
//! written whole or not at all); the payload is the warnings' text and
//! the binary's bytes (`Binary::to_bytes`). A payload that does not parse
//! back is a miss; a binary is stored only if its bytes read back as the
//! same binary. A failed compile stores nothing. While `SPVSASS_PRINT`
//! asks for the IR after each pass, the cache is not used (a hit would
//! print none).

use sha2::{Digest, Sha256};
use spvsass::Options;
use spvsass::backend::binary::Binary;
use spvsass_sim::cache_files::{self, Key};
use std::path::Path;

/// The entry format (first in every key).
const FORMAT: &[u8] = b"spvsass compile cache 1";

/// The alignment entries are filed with (the entry files keep one for
/// host code; a binary's bytes need none).
const ALIGNMENT: u32 = 1;

/// The key of compiling `spirv` (a file's bytes) with `options`.
pub(crate) fn key(spirv: &[u8], options: &Options) -> Key {
    let mut h = Sha256::new();
    for part in [
        FORMAT,
        env!("CARGO_PKG_VERSION").as_bytes(),
        env!("SPVSASS_COMPILER_SOURCES").as_bytes(),
        format!("{options:?}").as_bytes(),
        spirv,
    ] {
        h.update((part.len() as u64).to_le_bytes());
        h.update(part);
    }
    h.finalize().into()
}

/// The binary and warnings filed under `key` in `dir`, if it holds a
/// whole entry that parses.
pub(crate) fn load(dir: &Path, key: &Key) -> Option<(Binary, Vec<String>)> {
    let entry = cache_files::load(dir, key)?;
    if entry.alignment != ALIGNMENT {
        return None;
    }
    parse(&entry.code)
}

/// Files `binary` and its compile's `warnings` (their text) under `key` in
/// `dir`, if its bytes read back as the same binary; a failure to write
/// leaves the cache as it was.
pub(crate) fn store(dir: &Path, key: &Key, binary: &Binary, warnings: &[String]) {
    let mut payload = Vec::new();
    payload.extend_from_slice(&(warnings.len() as u32).to_le_bytes());
    for w in warnings {
        payload.extend_from_slice(&(w.len() as u32).to_le_bytes());
        payload.extend_from_slice(w.as_bytes());
    }
    payload.extend_from_slice(&binary.to_bytes());
    if parse(&payload).is_some_and(|(b, w)| b == *binary && w == warnings) {
        cache_files::store(dir, key, ALIGNMENT, &payload);
    }
}

/// A payload's binary and warnings.
fn parse(payload: &[u8]) -> Option<(Binary, Vec<String>)> {
    fn take<'a>(rest: &mut &'a [u8], n: usize) -> Option<&'a [u8]> {
        let (head, tail) = rest.split_at_checked(n)?;
        *rest = tail;
        Some(head)
    }
    fn word(rest: &mut &[u8]) -> Option<usize> {
        let bytes = take(rest, 4)?;
        Some(u32::from_le_bytes(bytes.try_into().ok()?) as usize)
    }
    let mut rest = payload;
    let count = word(&mut rest)?;
    // Each warning takes at least its length word.
    if count > rest.len() / 4 {
        return None;
    }
    let mut warnings = Vec::with_capacity(count);
    for _ in 0..count {
        let n = word(&mut rest)?;
        warnings.push(String::from_utf8(take(&mut rest, n)?.to_vec()).ok()?);
    }
    let binary = Binary::from_bytes(rest).ok()?;
    Some((binary, warnings))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SPIR-V of a small compute shader, and its binary.
    fn compiled() -> (Vec<u8>, Binary, Vec<String>) {
        let spirv = std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/benches/data/alu_heavy.comp.spv"
        ))
        .expect("the bundled kernel");
        let words = spvsass::frontend::words_from_bytes(&spirv).expect("SPIR-V");
        let options = Options {
            arch: Some(spvsass::backend::target::Arch::DEFAULT),
            ..Options::default()
        };
        let c = spvsass::compile(&words, &options).expect("it compiles");
        let warnings = c.warnings.iter().map(|w| w.to_string()).collect();
        (spirv, c.binary, warnings)
    }

    /// The key changes with the SPIR-V and with any option, and only then.
    #[test]
    fn the_key_covers_the_spirv_and_every_option() {
        let (spirv, _, _) = compiled();
        let base = key(&spirv, &Options::default());
        assert_eq!(key(&spirv, &Options::default()), base);
        let mut other = spirv.clone();
        other[40] ^= 1;
        assert_ne!(key(&other, &Options::default()), base, "the SPIR-V");
        let options = [
            Options {
                entry: Some("main".into()),
                ..Options::default()
            },
            Options {
                task_present: true,
                ..Options::default()
            },
            Options {
                shader_cull: true,
                ..Options::default()
            },
            Options {
                no_statistics: true,
                ..Options::default()
            },
            Options {
                for_cuda: true,
                ..Options::default()
            },
            Options {
                spec_constants: vec![(0, spvsass::frontend::SpecValue::Int(1))],
                ..Options::default()
            },
        ];
        for o in &options {
            assert_ne!(key(&spirv, o), base, "{o:?}");
        }
    }

    /// A stored binary loads back equal, with its warnings; a damaged
    /// payload or another key is a miss.
    #[test]
    fn a_stored_binary_loads_back_and_a_damaged_one_not() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let dir = dir.path();
        let (spirv, binary, _) = compiled();
        let k = key(&spirv, &Options::default());
        assert!(load(dir, &k).is_none(), "nothing stored yet");
        let warnings = vec!["one warning".to_string(), String::new()];
        store(dir, &k, &binary, &warnings);
        let (back, said) = load(dir, &k).expect("a hit");
        assert_eq!(back, binary);
        assert_eq!(said, warnings);
        assert!(load(dir, &key(&spirv[..spirv.len() - 4], &Options::default())).is_none());
        // A payload that is not a binary, filed whole under the key.
        cache_files::store(dir, &k, ALIGNMENT, &[0, 0, 0, 0, 1, 2, 3]);
        assert!(load(dir, &k).is_none(), "not a binary");
        cache_files::store(dir, &k, ALIGNMENT, &[9, 0, 0, 0]);
        assert!(load(dir, &k).is_none(), "warnings cut short");
    }

    /// The CLI's loading of a shader compiles it once and then takes the
    /// binary from the cache: what is filed under the shader's key is what
    /// the next run gets.
    #[test]
    fn a_shader_run_again_takes_its_binary_from_the_cache() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let (spirv, binary, _) = compiled();
        let path = Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/benches/data/alu_heavy.comp.spv"
        ));
        let options = Options {
            arch: Some(spvsass::backend::target::Arch::DEFAULT),
            ..Options::default()
        };
        let first = crate::load_binary_cached(path, &options, Some(dir.path())).expect("loads");
        assert_eq!(first, binary, "compiled as without a cache");
        let k = key(&spirv, &options);
        assert_eq!(
            load(dir.path(), &k).map(|(b, _)| b),
            Some(binary.clone()),
            "filed"
        );
        // Another shader's binary filed under this shader's key.
        let other_path = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/data/copy.comp.spv");
        let other_words = spvsass::frontend::words_from_bytes(
            &std::fs::read(other_path).expect("the bundled kernel"),
        )
        .expect("SPIR-V");
        let other = spvsass::compile(&other_words, &options)
            .expect("compiles")
            .binary;
        assert_ne!(other, binary);
        store(dir.path(), &k, &other, &[]);
        let again = crate::load_binary_cached(path, &options, Some(dir.path())).expect("loads");
        assert_eq!(again, other, "the second load is the cache's");
        // Without a cache, the compile.
        assert_eq!(
            crate::load_binary_cached(path, &options, None).expect("loads"),
            binary
        );
    }
}
