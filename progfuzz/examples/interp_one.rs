//! Interprets a compute SPIR-V file with buffers filled by a pattern and
//! prints the first words of each buffer (a debugging aid).
fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("a .spv path");
    let words: usize = args.next().map_or(64, |s| s.parse().unwrap());
    let bytes = std::fs::read(path).unwrap();
    let w = spvsass::frontend::words_from_bytes(&bytes).unwrap();
    let shader = spvsass::frontend::translate(&w, &Default::default()).unwrap();
    let fill = |b: u32, i: usize| {
        let mut x = (u64::from(b) << 32 | i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        x ^= x >> 29;
        x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x ^= x >> 32;
        ((x % 512) as f32 / 64.0 - 4.0).to_bits()
    };
    let inputs = spvsass_progfuzz::oracle::inputs_for(&shader, 1024, &fill);
    let out =
        spvsass_interp::run_compute(&shader, [1, 1, 1], &inputs, &Default::default()).unwrap();
    for (b, bytes) in out {
        let v: Vec<f32> = bytes
            .chunks(4)
            .take(words)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        println!("{b}: {v:?}");
    }
}
