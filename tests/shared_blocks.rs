//! Explicitly laid out Workgroup blocks (WorkgroupMemoryExplicitLayoutKHR)
//! in task and mesh shaders, whose shared memory is in the ISBE
//! (backend/src/from_ir/shared.rs): the blocks alias from the first byte
//! of shared memory, 8- and 16-bit members are accessed at their width,
//! atomics work on their 32-bit words. Each draw runs for sm75 and sm86 in
//! the simulator and its buffer is checked value by value; what is still
//! unsupported is refused by name.

use crate::common;

use spvsass::backend::target::Arch;
use spvsass::sim::ComputeInputs;

fn words_of(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// Draws one workgroup of `mesh` (launched by one workgroup of `task` when
/// given) for `arch`, storage buffer 0 holding `words` zero words; returns
/// buffer 0 afterwards.
fn draw_buffer(task: Option<&str>, mesh: &str, arch: Arch, words: usize) -> Vec<u32> {
    let t = task.map(|t| common::compile(t, arch));
    let options = spvsass::Options {
        arch: Some(arch),
        task_present: task.is_some(),
        ..Default::default()
    };
    let m = spvsass::compile(&common::shader_words(mesh), &options)
        .unwrap_or_else(|e| panic!("{mesh} on {arch}: {e}"));
    let inputs = ComputeInputs {
        buffers: [(0, vec![0; 4 * words])].into_iter().collect(),
        ..Default::default()
    };
    let run = spvsass::Draw::new(t.as_ref().map(|t| &t.binary), &m.binary, [1, 1, 1])
        .inputs(inputs)
        .run()
        .unwrap_or_else(|e| panic!("{mesh} on {arch}: {e}"));
    words_of(&run.buffers[&0])
}

/// The word invocation i of d_workgroup_block.mesh writes through block A.
fn f(i: u32) -> u32 {
    i.wrapping_mul(2654435761) ^ 0x5a5a_5a5a
}

fn check_mesh_blocks(arch: Arch) {
    let o = draw_buffer(None, "d_workgroup_block.mesh", arch, 160);
    for i in 0..32u32 {
        let u = i as usize;
        let w = f(i);
        assert_eq!(o[u], w, "{arch}: uvec2 view, word {i}");
        assert_eq!(o[32 + u], (w >> 8) & 0xff, "{arch}: byte 1 of word {i}");
        assert_eq!(o[64 + u], w >> 16, "{arch}: high half of word {i}");
        assert_eq!(
            o[96 + u],
            ((w as i32) >> 24) as u32,
            "{arch}: signed top byte of word {i}"
        );
        // After neighbouring lanes' 8-bit stores into words 0..8 and
        // 16-bit stores into words 16..32.
        let after = match i {
            0..8 => u32::from_le_bytes([0, 1, 2, 3].map(|k| (4 * i + k + 100) as u8)),
            8..16 => w,
            _ => {
                let h = |k: u32| k * 1000 + 7;
                h(2 * i - 32) | h(2 * i - 31) << 16
            }
        };
        assert_eq!(o[128 + u], after, "{arch}: word {i} after narrow stores");
    }
}

#[test]
fn mesh_shader_blocks_alias_at_every_width_sm86() {
    check_mesh_blocks(Arch::Sm86);
}

#[test]
fn mesh_shader_blocks_alias_at_every_width_sm75() {
    check_mesh_blocks(Arch::Sm75);
}

/// d_workgroup_block_counts.task: atomics on a block's words, read back
/// through the aliasing word and byte views into the payload, which the
/// mesh shader writes out.
fn check_task_counts(arch: Arch) {
    let o = draw_buffer(
        Some("d_workgroup_block_counts.task"),
        "d_workgroup_block_counts.mesh",
        arch,
        18,
    );
    let total: u32 = (0..32).sum();
    // Bin k: the invocations k, k + 8, k + 16, k + 24 add 1, 2, 3, 4.
    let mut words = vec![total];
    words.extend([10; 8]);
    assert_eq!(o[..9], words, "{arch}: total and histogram");
    let low: Vec<u32> = words.iter().map(|w| w & 0xff).collect();
    assert_eq!(o[9..], low, "{arch}: low bytes");
}

#[test]
fn task_shader_block_atomics_sm86() {
    check_task_counts(Arch::Sm86);
}

#[test]
fn task_shader_block_atomics_sm75() {
    check_task_counts(Arch::Sm75);
}

/// A 64-bit atomic on a block (task/mesh shared memory has 32-bit emulated
/// atomics only) is refused, naming the instruction.
#[test]
fn a_64_bit_atomic_on_a_task_shader_block_is_refused() {
    let err = spvsass::compile(
        &common::shader_words("d_workgroup_block_atomic64.task"),
        &spvsass::Options::default(),
    )
    .expect_err("refused");
    let msg = err.to_string();
    assert!(
        msg.contains("OpAtomicIAdd")
            && msg.contains("atomics on a scalar other than a 32-bit one in an explicitly laid out Workgroup block"),
        "{msg}"
    );
}
