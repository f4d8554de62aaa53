//! The small fixed sections of a cubin: the CUDA information note (the
//! target SM and toolkit version the driver checks), the tool-kit note
//! (who wrote the file) and the call graph (no calls: the four sentinel
//! entries nvcc writes for a kernel without calls). docs/CUBIN.md gives
//! each layout, read from nvcc's cubins.

use crate::target::Arch;

/// Owner name of NVIDIA's notes.
const OWNER: &[u8; 12] = b"NVIDIA Corp\0";
/// Note types nvcc uses.
const NT_CUDA_INFO: u32 = 1000;
const NT_TOOL_KIT: u32 = 2000;
/// The toolkit version the attributes follow (13.0, as `EIATTR_CUDA_API_VERSION`).
pub const TOOLKIT_VERSION: u32 = 0x82;

fn note(kind: u32, desc: &[u8]) -> Vec<u8> {
    let mut n = Vec::new();
    n.extend((OWNER.len() as u32).to_le_bytes());
    n.extend((desc.len() as u32).to_le_bytes());
    n.extend(kind.to_le_bytes());
    n.extend(OWNER);
    n.extend(desc);
    while n.len() % 4 != 0 {
        n.push(0);
    }
    n
}

/// `.note.nv.cuinfo`: version 2, the SM number, the toolkit version.
pub fn cuda_info(arch: Arch) -> Vec<u8> {
    let mut d = Vec::new();
    d.extend(2u16.to_le_bytes());
    // SM numbers are two digits.
    d.extend((arch.sm() as u16).to_le_bytes());
    d.extend(TOOLKIT_VERSION.to_le_bytes());
    note(NT_CUDA_INFO, &d)
}

/// `.note.nv.tkinfo`: a header of six words (version 2, 0, then the
/// offsets of the tool name, its version, its build and its options in the
/// string area that follows, padded with zeros to a whole word).
pub fn tool_kit(version: &str) -> Vec<u8> {
    let strings = ["spvsass", &format!("spvsass {version}"), "", ""];
    let mut area = vec![0u8];
    let mut offsets = Vec::new();
    for s in strings {
        offsets.push(area.len() as u32);
        area.extend(s.as_bytes());
        area.push(0);
    }
    let mut d = Vec::new();
    for w in [2u32, 0].into_iter().chain(offsets) {
        d.extend(w.to_le_bytes());
    }
    d.extend(area);
    // The description's size is a whole number of words, as nvcc's is:
    // nvdisasm refuses a tool-kit note whose size is not ("Invalid note
    // section", docs/CUBIN.md).
    while d.len() % 4 != 0 {
        d.push(0);
    }
    note(NT_TOOL_KIT, &d)
}

/// `.nv.callgraph`: pairs (caller, callee) of symbol indices; a kernel
/// that calls nothing has only nvcc's four sentinel pairs (0, -1..-4).
pub fn callgraph() -> Vec<u8> {
    let mut g = Vec::new();
    for k in 1..=4i32 {
        g.extend(0u32.to_le_bytes());
        g.extend((-k).to_le_bytes());
    }
    g
}

/// `.nv.compat` (SM90 only; nvdisasm refuses an SM90 cubin without it):
/// attribute records in the `.nv.info` format with the values nvcc writes
/// for an SM90 kernel (their meaning is not documented; docs/CUBIN.md).
pub fn compat() -> Vec<u8> {
    let mut c = Vec::new();
    for (attr, value) in [(0x09u8, 0u8), (0x02, 1), (0x05, 5)] {
        c.extend([2, attr, value, 0]);
    }
    c.extend([3, 0x07, 0x01, 0x01]);
    for (attr, value) in [(0x03u8, 0u8), (0x06, 1)] {
        c.extend([2, attr, value, 0]);
    }
    c.extend([4, 0x0b, 8, 0]);
    c.extend([0u8; 8]);
    c
}

#[cfg(test)]
mod tests {
    #[test]
    fn tool_kit_description_is_whole_words() {
        for version in ["0.1.0", "0.1.10", "1.2.3-rc1"] {
            let n = super::tool_kit(version);
            let descsz = u32::from_le_bytes([n[4], n[5], n[6], n[7]]);
            assert_eq!(descsz % 4, 0, "{version}");
            assert_eq!(n.len() as u32, 12 + 12 + descsz, "{version}");
        }
    }
}
