//! The compiler's identity for the CLI's compile cache
//! (`src/compile_cache.rs`): a hash of every source file of the crates
//! that decide what a compiled binary holds (frontend, backend, ISA, and
//! this package's library), and of the workspace's lock file, so that any
//! change to the compiler (or to a dependency's version) gives its entries
//! new names.

include!("build_support/source_hash.rs");

fn main() {
    emit_source_hash(
        "SPVSASS_COMPILER_SOURCES",
        &["frontend/src", "backend/src", "isa/src", "build_support"],
        &["src/lib.rs", "Cargo.lock"],
    );
}
