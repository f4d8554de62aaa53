//! MUFU's functions against the hardware's results
//! (tests/data/mufu: 4096 points of each dense sweep and 4096 random bit
//! patterns per function, README there; the double seeds RCP64H and
//! RSQ64H on their high words, from an H200). Per function: the share of
//! inputs where `OpMufu::eval` gives the hardware's bits, and the largest
//! difference in ULPs elsewhere (docs/ISA.md, "MUFU").

use spvsass::backend::isa::{Dst, MufuOp, OpMufu, Reg, Src};
use spvsass::compare::ulp_distance;

/// (input bits, H100 result bits) pairs.
fn pairs(bytes: &[u8]) -> Vec<(u32, u32)> {
    bytes
        .chunks_exact(8)
        .map(|c| {
            let w = |i: usize| u32::from_le_bytes([c[i], c[i + 1], c[i + 2], c[i + 3]]);
            (w(0), w(4))
        })
        .collect()
}

/// Asserts at least `floor` per 100,000 inputs bit-exact and every other
/// result within `bound` ULPs (NaN only where the hardware gives NaN).
fn check(op: MufuOp, bytes: &[u8], floor: usize, bound: u64) {
    let mufu = OpMufu {
        dst: Dst::Reg(Reg::Phys(0)),
        src: Src::reg(Reg::Phys(1)),
        op,
    };
    let data = pairs(bytes);
    assert_eq!(data.len(), 8192, "{}: sample size", op.name());
    let mut same = 0;
    let mut worst = (0u64, 0u32, 0u32, 0u32);
    for &(x, gpu) in &data {
        let sim = mufu.eval(x);
        same += usize::from(sim == gpu);
        let d = ulp_distance(sim, gpu);
        if d > worst.0 {
            worst = (d, x, gpu, sim);
        }
    }
    let (d, x, gpu, sim) = worst;
    let report = format!(
        "MUFU.{}: {same}/{} bit-exact; largest difference {d} ULP at input {x:#010x}: \
         H100 {gpu:#010x}, model {sim:#010x}",
        op.name(),
        data.len()
    );
    eprintln!("{report}");
    assert!(
        same * 100_000 >= floor * data.len(),
        "{report}: below {floor}/100000"
    );
    assert!(d <= bound, "{report}: over {bound} ULP");
}

macro_rules! mufu_tests {
    ($($name:ident: $op:expr, $floor:expr, $bound:expr;)*) => {
        $(
            #[test]
            fn $name() {
                let bytes = include_bytes!(concat!(
                    env!("CARGO_MANIFEST_DIR"),
                    "/tests/data/mufu/",
                    stringify!($name),
                    ".bin"
                ));
                check($op, bytes, $floor, $bound);
            }
        )*
    };
}

// Floors (per 100,000) and bounds: what the model achieves on the sample.
mufu_tests! {
    rcp: MufuOp::Rcp, 100_000, 0;
    rsq: MufuOp::Rsq, 100_000, 0;
    sqrt: MufuOp::Sqrt, 100_000, 0;
    ex2: MufuOp::Ex2, 100_000, 0;
    lg2: MufuOp::Lg2, 100_000, 0;
    sin: MufuOp::Sin, 100_000, 0;
    cos: MufuOp::Cos, 100_000, 0;
    rcp64h: MufuOp::Rcp64h, 100_000, 0;
    rsq64h: MufuOp::Rsq64h, 100_000, 0;
}
