//! Bounds on what the command line asks for, checked before anything is
//! allocated or written: buffer sizes, the files read into buffers, draw
//! counts, and outputs that would overwrite one another.

use spvsass::sim::{MAX_STORAGE_BUFFER_BYTES, MAX_UNIFORM_BUFFER_BYTES};
use std::path::{Component, Path, PathBuf};

/// `--buffer B=SIZE`: a storage buffer's size, at most
/// `MAX_STORAGE_BUFFER_BYTES`.
pub fn buffer_size(size: u64) -> Result<usize, String> {
    if size > MAX_STORAGE_BUFFER_BYTES {
        return Err(format!(
            "a storage buffer of {size} bytes: at most {MAX_STORAGE_BUFFER_BYTES} \
             (Vulkan's guaranteed maxStorageBufferRange)"
        ));
    }
    usize::try_from(size).map_err(|_| format!("a storage buffer of {size} bytes is too large"))
}

/// What a file read into a run's inputs may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputKind {
    Storage,
    Uniform,
    Push,
}

impl InputKind {
    fn limit(self) -> u64 {
        match self {
            InputKind::Storage => MAX_STORAGE_BUFFER_BYTES,
            InputKind::Uniform => MAX_UNIFORM_BUFFER_BYTES,
            InputKind::Push => u64::from(spvsass::backend::abi::PUSH_CONSTANT_BYTES),
        }
    }

    fn name(self) -> &'static str {
        match self {
            InputKind::Storage => "storage buffer",
            InputKind::Uniform => "uniform buffer",
            InputKind::Push => "push constant block",
        }
    }
}

/// Reads the file at `path` into a buffer of `kind`, refusing one larger
/// than the buffer may be without reading more than that (a device such as
/// /dev/zero has no size to check first).
pub fn read_input(path: &Path, kind: InputKind) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let cannot = |e: std::io::Error| format!("cannot read {}: {e}", path.display());
    let limit = kind.limit();
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| {
            // Room for the whole file at once (`Take` hides its size from
            // `read_to_end`, which would grow the vector from empty: a
            // 32 MiB input took 0.1 s to read).
            let size = f.metadata().map_or(0, |m| m.len()).min(limit + 1);
            bytes.reserve_exact(usize::try_from(size).unwrap_or(0));
            f.take(limit + 1).read_to_end(&mut bytes)
        })
        .map_err(cannot)?;
    if bytes.len() as u64 > limit {
        return Err(format!(
            "{}: more than the {limit} bytes a {} may hold",
            path.display(),
            kind.name()
        ));
    }
    Ok(bytes)
}

/// The workgroup count of `--emit methods --groups X,Y,Z`: the product,
/// at most the 2^22 workgroups of a draw.
pub fn draw_count(groups: [u32; 3]) -> Result<u32, String> {
    let total = groups
        .iter()
        .fold(1u64, |a, &g| a.saturating_mul(u64::from(g)));
    let limit = spvsass::backend::limits::MAX_DRAW_GROUPS_TOTAL;
    u32::try_from(total)
        .ok()
        .filter(|&n| n <= limit)
        .ok_or_else(|| {
            format!(
                "--groups {}x{}x{}: {total} workgroups, more than a draw may have ({limit})",
                groups[0], groups[1], groups[2]
            )
        })
}

/// Refuses two outputs of one command that name the same file (compared
/// as absolute paths with `.` and `..` resolved, without following links).
pub fn distinct_outputs(outputs: &[(String, &Path)]) -> Result<(), String> {
    let mut seen: Vec<(PathBuf, &str)> = Vec::new();
    for (option, path) in outputs {
        let key = normalized(path);
        if let Some((_, first)) = seen.iter().find(|(k, _)| *k == key) {
            return Err(format!(
                "{first} and {option} both write {}",
                path.display()
            ));
        }
        seen.push((key, option));
    }
    Ok(())
}

fn normalized(path: &Path) -> PathBuf {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_owned());
    let mut out = PathBuf::new();
    for c in absolute.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffer_sizes_past_the_limit_are_refused() {
        assert_eq!(buffer_size(64), Ok(64));
        assert_eq!(buffer_size(1 << 27), Ok(1 << 27));
        assert!(buffer_size(99_999_999_999_999).is_err_and(|e| e.contains("at most 134217728")));
    }

    #[test]
    fn endless_and_oversized_files_are_refused_after_the_limit() {
        let e = read_input(Path::new("/dev/zero"), InputKind::Push);
        assert_eq!(
            e,
            Err("/dev/zero: more than the 256 bytes a push constant block may hold".into())
        );
        let e = read_input(Path::new("/dev/zero"), InputKind::Uniform);
        assert!(e.is_err_and(|m| m.contains("more than the 134217728 bytes a uniform buffer")));
    }

    #[test]
    fn draw_counts_do_not_wrap() {
        assert_eq!(draw_count([4, 2, 1]), Ok(8));
        assert!(draw_count([65536, 65536, 1]).is_err());
        assert!(draw_count([u32::MAX, u32::MAX, u32::MAX]).is_err());
        assert!(draw_count([(1 << 22) + 1, 1, 1]).is_err());
    }

    #[test]
    fn outputs_naming_one_file_are_refused() {
        let a = Path::new("out/a.bin");
        let same = Path::new("out/../out/./a.bin");
        let other = Path::new("out/b.bin");
        let err = distinct_outputs(&[("--image".into(), a), ("--raw".into(), same)]);
        assert_eq!(
            err,
            Err("--image and --raw both write out/../out/./a.bin".into())
        );
        assert_eq!(
            distinct_outputs(&[("--image".into(), a), ("--raw".into(), other)]),
            Ok(())
        );
    }
}
