// The identity of some source files, for the build scripts of the root
// package (the compile cache's `SPVSASS_COMPILER_SOURCES`) and of the
// simulator (the translation cache's `SPVSASS_TRANSLATOR_SOURCES`): both
// `include!` this file. A cache key over the hash gives every change to
// those files (or to a dependency's version, through the lock file) new
// entry names.

/// The files under `dir`, recursively.
fn files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
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

/// Sets the compile-time environment variable `name` to a 128-bit hash of
/// the files under the directories `dirs` and of the files `single`
/// (paths relative to the package's root), asking Cargo to run the build
/// script again when any of them changes.
fn emit_source_hash(name: &str, dirs: &[&str], single: &[&str]) {
    use std::hash::{Hash, Hasher};
    let root = std::path::PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let mut all = Vec::new();
    for dir in dirs {
        files(&root.join(dir), &mut all);
        println!("cargo:rerun-if-changed={}", root.join(dir).display());
    }
    for file in single {
        all.push(root.join(file));
        println!("cargo:rerun-if-changed={}", root.join(file).display());
    }
    println!("cargo:rerun-if-changed=build.rs");
    all.sort();
    // Two SipHash states with different leading words: 128 bits of
    // identity (a collision would hand one build another's entries).
    let mut h = [
        std::collections::hash_map::DefaultHasher::new(),
        std::collections::hash_map::DefaultHasher::new(),
    ];
    1u8.hash(&mut h[1]);
    for path in &all {
        let name = path.strip_prefix(&root).unwrap_or(path);
        let bytes = std::fs::read(path).unwrap_or_default();
        for s in &mut h {
            name.hash(s);
            bytes.hash(s);
        }
    }
    println!("cargo:rustc-env={name}={:016x}{:016x}", h[0].finish(), h[1].finish());
}
