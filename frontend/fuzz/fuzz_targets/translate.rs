//! Any bytes: not SPIR-V, truncated, corrupt or adversarial modules must
//! give an error, never a panic, a hang or unbounded memory. Seed it with
//! the corpus (tests/shaders/*.spv) so that it starts from real modules.

#![no_main]

use libfuzzer_sys::fuzz_target;
use spvsass_frontend::{FrontendOptions, translate, words_from_bytes};

fuzz_target!(|data: &[u8]| {
    if let Ok(words) = words_from_bytes(data) {
        let _ = translate(&words, &FrontendOptions::default());
    }
});
