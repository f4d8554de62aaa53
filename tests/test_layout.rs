//! The workspace's test binaries. A crate whose Cargo.toml says
//! `autotests = false` builds one test binary from its tests/main.rs, and
//! Cargo then ignores any test file that main.rs does not name: this test
//! finds such files in every member of the workspace.

use std::path::Path;

/// The workspace members, read from the root Cargo.toml's `members` list.
fn members(root: &Path) -> Vec<String> {
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let list = manifest
        .split_once("members = [")
        .and_then(|(_, rest)| rest.split_once(']'))
        .expect("the root Cargo.toml lists its workspace members")
        .0;
    list.split(',')
        .map(|m| m.trim().trim_matches('"').to_string())
        .filter(|m| !m.is_empty())
        .collect()
}

#[test]
fn every_test_file_is_a_module() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut crates = vec![".".to_string()];
    crates.extend(members(root));
    assert!(crates.len() > 2, "members: {crates:?}");
    let mut checked = 0;
    let mut missing = Vec::new();
    for krate in &crates {
        let dir = root.join(krate);
        let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
        if !manifest.contains("\nautotests = false\n") {
            continue;
        }
        let main = std::fs::read_to_string(dir.join("tests/main.rs"))
            .unwrap_or_else(|e| panic!("{krate}/tests/main.rs: {e}"));
        let declared: Vec<&str> = main
            .lines()
            .filter_map(|l| l.strip_prefix("mod ")?.strip_suffix(';'))
            .collect();
        for entry in std::fs::read_dir(dir.join("tests")).unwrap() {
            let path = entry.unwrap().path();
            let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else {
                continue;
            };
            if path.extension().is_some_and(|e| e == "rs") && stem != "main" {
                checked += 1;
                if !declared.contains(&stem) {
                    missing.push(format!("{krate}/tests/{stem}.rs"));
                }
            }
        }
    }
    assert!(checked > 50, "only {checked} test files found");
    assert!(
        missing.is_empty(),
        "test files not named in their crate's tests/main.rs, so never built: {missing:?}"
    );
}
