//! The compiler's identity for the CLI's compile cache
//! (`src/compile_cache.rs`): a hash of every source file of the crates
//! that decide what a compiled binary holds (frontend, backend, ISA, and
//! this package's library), and of the workspace's lock file, so that any
//! change to the compiler (or to a dependency's version) gives its entries
//! new names.

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
    let sources = ["frontend/src", "backend/src", "isa/src"].map(|d| root.join(d));
    let mut all = Vec::new();
    for dir in &sources {
        files(dir, &mut all);
        println!("cargo:rerun-if-changed={}", dir.display());
    }
    for file in ["src/lib.rs", "Cargo.lock"] {
        all.push(root.join(file));
        println!("cargo:rerun-if-changed={}", root.join(file).display());
    }
    println!("cargo:rerun-if-changed=build.rs");
    all.sort();
    // Two SipHash states with different leading words: 128 bits of
    // identity (a collision would hand one build another's binary).
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
        "cargo:rustc-env=SPVSASS_COMPILER_SOURCES={:016x}{:016x}",
        h[0].finish(),
        h[1].finish()
    );
}
