//! Frontend time per corpus shader: bytes → words → rspirv module →
//! inlining, translation, SSA construction → validation, i.e. everything
//! `spvsass_frontend::translate` does after the file is read.
//!
//! `cargo bench -p spvsass-frontend --bench frontend`

use criterion::{Criterion, criterion_group, criterion_main};
use spvsass_frontend::{FrontendOptions, translate, words_from_bytes};
use std::hint::black_box;
use std::path::PathBuf;

/// Every corpus module with its file name, in name order. The module with
/// two entry points is benchmarked on "scale".
fn corpus() -> Vec<(String, Vec<u8>, FrontendOptions)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/shaders");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/shaders exists")
        .map(|e| e.expect("readable directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "spv"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let bytes = std::fs::read(&path).expect("readable shader");
            let entry = (name == "two_entry_points.comp.spv").then(|| "scale".to_string());
            let options = FrontendOptions {
                entry,
                ..Default::default()
            };
            (name, bytes, options)
        })
        .collect()
}

fn frontend(c: &mut Criterion) {
    let mut group = c.benchmark_group("frontend");
    for (name, bytes, options) in corpus() {
        group.bench_function(&name, |b| {
            b.iter(|| {
                let words = words_from_bytes(black_box(&bytes)).expect("corpus is SPIR-V");
                translate(&words, black_box(&options)).expect("corpus translates")
            })
        });
    }
    group.finish();
}

criterion_group!(benches, frontend);
criterion_main!(benches);
