//! Output files written whole or not at all. A command stages each file it
//! writes (`-o`, `--out`, `--image`, `--raw`, `reference --out`) as a
//! temporary file in the target's own folder, and renames them over their
//! targets only once the whole command has succeeded ([`Outputs::commit`]).
//! A command that fails, or a write that fails half-way, leaves every
//! existing file as it was and no half-written one behind: the temporary
//! files are deleted when the [`Outputs`] is dropped.
//!
//! The files are not flushed to disk (`fsync`) before the rename: the
//! rename is what keeps a failed or killed command from leaving half a
//! file, and only a crash of the whole machine could still lose a file
//! just written, as with compilers and linkers, which do not flush either.
//! The flush cost about a millisecond per file, a twentieth of a short
//! `spvsass run` on many cores (BENCHMARKS.md, "Less serial time").

use std::io::Write;
use std::path::{Path, PathBuf};
use tempfile::NamedTempFile;

/// Why an output could not be written.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    #[error("cannot write {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path} is written twice by one command")]
    Twice { path: PathBuf },
}

/// The files a command has staged, in the order it staged them.
#[derive(Debug, Default)]
pub struct Outputs {
    staged: Vec<(NamedTempFile, PathBuf)>,
}

impl Outputs {
    /// Writes `bytes` to a temporary file beside `path`; `path` itself is
    /// untouched until [`Outputs::commit`].
    pub fn stage(&mut self, path: &Path, bytes: &[u8]) -> Result<(), OutputError> {
        if self.staged.iter().any(|(_, p)| p == path) {
            return Err(OutputError::Twice {
                path: path.to_owned(),
            });
        }
        let error = |source| OutputError::Write {
            path: path.to_owned(),
            source,
        };
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let mut file = tempfile::Builder::new()
            .prefix(".spvsass-")
            .tempfile_in(dir)
            .map_err(error)?;
        file.write_all(bytes).map_err(error)?;
        keep_permissions(&file, path).map_err(error)?;
        self.staged.push((file, path.to_owned()));
        Ok(())
    }

    /// Renames every staged file over its target, in staging order.
    pub fn commit(self) -> Result<(), OutputError> {
        for (file, path) in self.staged {
            file.persist(&path).map_err(|e| OutputError::Write {
                path,
                source: e.error,
            })?;
        }
        Ok(())
    }
}

/// Gives the temporary file (created private, 0600) the permissions the
/// file it replaces has, or those a new file gets (0666 less the umask,
/// read from a file created for the purpose: the umask cannot be read
/// without changing it).
#[cfg(unix)]
fn keep_permissions(file: &NamedTempFile, path: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let permissions = match std::fs::metadata(path) {
        Ok(m) => m.permissions(),
        Err(_) => {
            let probe = tempfile::Builder::new()
                .prefix(".spvsass-mode-")
                .permissions(std::fs::Permissions::from_mode(0o666))
                .tempfile_in(file.path().parent().unwrap_or(Path::new(".")))?;
            probe.as_file().metadata()?.permissions()
        }
    };
    file.as_file().set_permissions(permissions)
}

/// Elsewhere a replaced file keeps its permissions; a new one has the
/// temporary file's.
#[cfg(not(unix))]
fn keep_permissions(file: &NamedTempFile, path: &Path) -> std::io::Result<()> {
    match std::fs::metadata(path) {
        Ok(m) => file.as_file().set_permissions(m.permissions()),
        Err(_) => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_changes_before_commit_and_everything_after() {
        let dir = tempfile::tempdir().expect("dir");
        let old = dir.path().join("old.bin");
        let new = dir.path().join("new.bin");
        std::fs::write(&old, b"old").expect("write");
        let mut outputs = Outputs::default();
        outputs.stage(&old, b"replaced").expect("stage");
        outputs.stage(&new, b"fresh").expect("stage");
        assert_eq!(std::fs::read(&old).expect("read"), b"old");
        assert!(!new.exists());
        outputs.commit().expect("commit");
        assert_eq!(std::fs::read(&old).expect("read"), b"replaced");
        assert_eq!(std::fs::read(&new).expect("read"), b"fresh");
        // Only the two files: no temporary file is left.
        assert_eq!(std::fs::read_dir(dir.path()).expect("list").count(), 2);
    }

    #[test]
    fn dropping_the_outputs_leaves_no_file_behind() {
        let dir = tempfile::tempdir().expect("dir");
        let old = dir.path().join("old.bin");
        std::fs::write(&old, b"old").expect("write");
        let mut outputs = Outputs::default();
        outputs.stage(&old, b"replaced").expect("stage");
        outputs
            .stage(&dir.path().join("new.bin"), b"x")
            .expect("stage");
        drop(outputs);
        assert_eq!(std::fs::read(&old).expect("read"), b"old");
        assert_eq!(std::fs::read_dir(dir.path()).expect("list").count(), 1);
    }

    #[test]
    fn a_path_staged_twice_is_refused() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("a");
        let mut outputs = Outputs::default();
        outputs.stage(&path, b"1").expect("stage");
        let e = outputs.stage(&path, b"2").err().map(|e| e.to_string());
        assert_eq!(
            e,
            Some(format!(
                "{} is written twice by one command",
                path.display()
            ))
        );
    }

    #[test]
    fn a_missing_folder_is_an_error_naming_the_file() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("no/such/dir/out.bin");
        let e = Outputs::default()
            .stage(&path, b"1")
            .err()
            .map(|e| e.to_string());
        assert!(
            e.as_deref()
                .is_some_and(|m| m.starts_with(&format!("cannot write {}: ", path.display()))),
            "{e:?}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_replaced_file_keeps_its_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("script");
        std::fs::write(&path, b"old").expect("write");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o750)).expect("chmod");
        let mut outputs = Outputs::default();
        outputs.stage(&path, b"new").expect("stage");
        outputs.commit().expect("commit");
        let mode = std::fs::metadata(&path).expect("meta").permissions().mode();
        assert_eq!(mode & 0o777, 0o750);
    }
}
