//! The translator's identity for the native tier's translation cache
//! (`src/native/disk_cache.rs`, `piece_key`): a hash of every source file
//! of this crate and of the ISA crate, and of the workspace's lock file,
//! so that any change to the code that decides what a translated function
//! computes (or to a dependency's version) gives its entries new names.

include!("../build_support/source_hash.rs");

fn main() {
    emit_source_hash(
        "SPVSASS_TRANSLATOR_SOURCES",
        &["src", "../isa/src", "../build_support"],
        &["../Cargo.lock"],
    );
}
