//! 64-bit atomics on a storage buffer (backend/src/from_ir/mem_atomics.rs):
//! tests/shaders/atomics64.comp has all 32 lanes hit the same words with
//! add, exchange, compare-exchange, signed and unsigned min/max, and, or,
//! xor, and an add whose result is unused (RED.E.ADD.64). The simulator
//! runs a warp's atomics in lane order, so each lane's old value and the
//! final words are those of serial execution in lane order.

use crate::common;

use spvsass::backend::target::Arch;
use spvsass::sim::ComputeInputs;

/// The lanes' operands: both halves busy, signs mixed, one repeated value
/// so compare-exchange succeeds more than once.
fn operands() -> Vec<u64> {
    (0..32u64)
        .map(|i| match i {
            3 => 0x0000_0001_0000_0000,
            4 => 0x0000_0001_0000_0001,
            _ => i.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (i << 60),
        })
        .collect()
}

const INIT_U: [u64; 8] = [
    0xffff_ffff_0000_0001,
    7,
    0x0000_0001_0000_0000, // lane 3's operand: its CAS succeeds
    u64::MAX,
    u64::MAX,
    0,
    0x5555_5555_aaaa_aaaa,
    0xffff_ffff_ffff_fff0,
];
const INIT_S: [i64; 2] = [0, 0];

/// Serial execution in lane order: (final u, final s, olds by op).
fn expected() -> ([u64; 8], [i64; 2], Vec<u64>) {
    let (mut u, mut s) = (INIT_U, INIT_S);
    let mut old = vec![0u64; 9 * 32];
    for (i, &x) in operands().iter().enumerate() {
        old[i] = u[0];
        u[0] = u[0].wrapping_add(x);
        old[i + 32] = u[1];
        u[1] = x;
        old[i + 64] = u[2];
        if u[2] == x {
            u[2] = x.wrapping_add(1);
        }
        old[i + 96] = s[0] as u64;
        s[0] = s[0].min(x as i64);
        old[i + 128] = s[1] as u64;
        s[1] = s[1].max(x as i64);
        old[i + 160] = u[3];
        u[3] = u[3].min(x);
        old[i + 192] = u[4];
        u[4] &= x;
        old[i + 224] = u[5];
        u[5] |= x;
        old[i + 256] = u[6];
        u[6] ^= x;
        u[7] = u[7].wrapping_add(x);
    }
    (u, s, old)
}

fn u64s(b: &[u8]) -> Vec<u64> {
    b.chunks_exact(8)
        .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
        .collect()
}

fn check(arch: Arch) {
    let compiled = common::compile("atomics64.comp", arch);
    let listing = spvsass::listing(&compiled.binary, false).unwrap_or_else(|e| panic!("{e}"));
    for form in [
        "ATOMG.E.ADD.64 ",
        "ATOMG.E.CAS.64 ",
        "ATOMG.E.MIN.S64 ",
        "RED.E.ADD.64 ",
    ] {
        assert!(listing.contains(form), "no {form} in\n{listing}");
    }
    let mut mem: Vec<u8> = INIT_U.iter().flat_map(|v| v.to_le_bytes()).collect();
    mem.extend(INIT_S.iter().flat_map(|v| v.to_le_bytes()));
    let v: Vec<u8> = operands().iter().flat_map(|v| v.to_le_bytes()).collect();
    let inputs = ComputeInputs {
        buffers: [(0, mem), (1, v), (2, vec![0; 8 * 9 * 32])]
            .into_iter()
            .collect(),
        ..Default::default()
    };
    let run = spvsass::Dispatch::new(&compiled.binary, [1, 1, 1])
        .inputs(inputs)
        .run()
        .unwrap_or_else(|e| panic!("{e}"));
    let (u, s, old) = expected();
    let m = u64s(&run.buffers[&0]);
    assert_eq!(&m[..8], &u, "final unsigned words");
    assert_eq!(&m[8..], &s.map(|x| x as u64), "final signed words");
    let got = u64s(&run.buffers[&2]);
    let ops = [
        "add", "exch", "cas", "smin", "smax", "umin", "and", "or", "xor",
    ];
    for (k, op) in ops.iter().enumerate() {
        assert_eq!(
            &got[32 * k..32 * k + 32],
            &old[32 * k..32 * k + 32],
            "old values of {op}"
        );
    }
}

#[test]
fn sm86() {
    check(Arch::Sm86);
}

#[test]
fn sm75() {
    check(Arch::Sm75);
}
