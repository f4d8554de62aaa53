//! Comments point to the repository's own documents (docs/, ARCHITECTURE.md),
//! never to files outside it: the background notes the project started
//! from are not part of a checkout, so a citation of them cannot be
//! followed. The facts they gave are in docs/HARDWARE.md with their public
//! sources.

use std::path::{Path, PathBuf};

/// Marks of a citation of a document outside the repository. Each is
/// assembled from parts so that this file does not match itself.
fn outside_marks() -> Vec<String> {
    vec![
        ["nvidia", "-facts"].concat(),
        ["facts ", "§"].concat(),
        ["seed ", "00"].concat(),
        ["seeds ", "00"].concat(),
        ["shared/", "reference"].concat(),
        ["shared/", "seeds"].concat(),
    ]
}

/// The Rust sources of the workspace, build outputs left out.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        if name == "target" || name.to_string_lossy().starts_with('.') {
            continue;
        }
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn no_source_file_cites_a_document_outside_the_repository() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["src", "tests", "benches", "frontend", "backend", "sim"] {
        rust_files(&root.join(dir), &mut files);
    }
    assert!(
        files.len() > 100,
        "found only {} .rs files under {}",
        files.len(),
        root.display()
    );
    let marks = outside_marks();
    let mut found = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        for (n, line) in text.lines().enumerate() {
            let lower = line.to_lowercase();
            if marks.iter().any(|m| lower.contains(m.as_str())) {
                let rel = file.strip_prefix(root).unwrap_or(file);
                found.push(format!("{}:{}: {}", rel.display(), n + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "comments cite documents outside the repository (state the fact in docs/ \
         and point there):\n{}",
        found.join("\n")
    );
}
