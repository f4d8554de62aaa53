//! The translator's identity for the native tier's translation cache
//! (`src/native/disk_cache.rs`, `piece_key`): a hash of every source file
//! of this crate and of the ISA crate, and of the workspace's lock file,
//! so that any change to the code that decides what a translated function
//! computes (or to a dependency's version) gives its entries new names.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

/// The files under `dir`, recursively.
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(list) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in list.filter_map(Result::ok) {
        let path = entry.path();
        if path.is_dir() {
            files(&path, out);
        } else {
            out.push(path);
        }
    }
}

fn main() {
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let sources = [root.join("src"), root.join("../isa/src")];
    let lock = root.join("../Cargo.lock");
    let mut all = Vec::new();
    for dir in &sources {
        files(dir, &mut all);
        println!("cargo:rerun-if-changed={}", dir.display());
    }
    all.push(lock.clone());
    println!("cargo:rerun-if-changed={}", lock.display());
    println!("cargo:rerun-if-changed=build.rs");
    all.sort();
    // Two SipHash states with different leading words: 128 bits of
    // identity (a collision would hand one build another's code).
    let mut h = [DefaultHasher::new(), DefaultHasher::new()];
    1u8.hash(&mut h[1]);
    for path in &all {
        let name = path.strip_prefix(&root).unwrap_or(path);
        let bytes = std::fs::read(path).unwrap_or_default();
        for s in &mut h {
            name.hash(s);
            bytes.hash(s);
        }
    }
    println!(
        "cargo:rustc-env=SPVSASS_TRANSLATOR_SOURCES={:016x}{:016x}",
        h[0].finish(),
        h[1].finish()
    );
}
