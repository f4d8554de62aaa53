//! Generates the per-op hardware truth programs of tests/data/op_truth
//! (docs/CUBIN.md, "Per-op truth"): for every ALU op of the op table, a
//! compute program that runs random modifier combinations of the op
//! (decoded from random instruction words, as the round-trip property test
//! makes them) on random and edge-case inputs, one variant after another,
//! and stores each lane's result. For each op NAME it writes NAME.asm (the
//! program), NAME.bin (assembled), NAME.in (the inputs) and NAME.json (the
//! run description). `spvsass reference NAME.json --driver cuda` captures
//! what the GPU computes; tests/op_truth.rs checks the simulator against
//! the captures.
//!
//! Usage: cargo run -p spvsass-isa --example op_truth_gen -- OUTDIR [smNN]
//!
//! Every instruction waits for every scoreboard and stalls 15 cycles, so the
//! captures test the ops' semantics, not the scheduler.

use spvsass_isa::asm::assemble;
use spvsass_isa::isa::{
    Alu, AluVisitorMut, Dst, InstWord, Instr, Latency, OPCODES, OpcodeKind, PredSrc, Reg, RegFile,
    SrcRef, field,
};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

/// Lanes per variant: one workgroup.
const LANES: u32 = 128;
/// Random instruction words tried per opcode and operand form.
const TRIES: u64 = 40;
/// Variants kept per op (distinct listings).
const VARIANTS: usize = 24;
/// Input blocks for MUFU (one for the others), whose precision is measured
/// statistically.
const MUFU_REPEATS: u32 = 6;

/// SplitMix64: the same stream on every machine.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn u32(&mut self) -> u32 {
        self.next() as u32
    }
    fn below(&mut self, n: u32) -> u32 {
        (self.next() % u64::from(n)) as u32
    }
}

const SPECIALS: [u32; 16] = [
    0x0000_0000,
    0x8000_0000,
    0x7f80_0000,
    0xff80_0000,
    0x7fc0_0000,
    0x7f80_0001,
    0x0000_0001,
    0x807f_ffff,
    0x3f80_0000,
    0xbf80_0000,
    0x3f00_0000,
    0x0080_0000,
    0x7f7f_ffff,
    0x4040_0000,
    0xffff_ffff,
    0x7fff_ffff,
];

/// One input word of kind `k` (lane-dependent mix of integers and floats).
fn word(rng: &mut Rng, k: u32) -> u32 {
    match k {
        0 | 7 => rng.u32(),
        1 => (rng.below(81) as i32 - 40) as u32,
        2 => {
            let sign = rng.below(2) << 31;
            let exp = 127 + rng.below(61) - 30;
            sign | exp << 23 | (rng.u32() & 0x7f_ffff)
        }
        3 => SPECIALS[rng.below(SPECIALS.len() as u32) as usize],
        4 => {
            let v = (rng.below(2001) as f32 - 1000.0)
                + [0.0, 0.5, 0.25, 0.75, 0.499_999_97][rng.below(5) as usize];
            v.to_bits()
        }
        5 => rng.below(70),
        _ => match rng.below(3) {
            0 => SPECIALS[rng.below(SPECIALS.len() as u32) as usize],
            1 => rng.u32(),
            _ => (rng.below(200) as f32 * 0.37 - 37.0).to_bits(),
        },
    }
}

/// The four input words (three sources and the predicate word) of `lane`
/// under `seed`.
fn inputs(seed: u64, lane: u32) -> [u32; 4] {
    let mut rng = Rng(seed ^ (u64::from(lane) << 32));
    let k = lane % 8;
    [
        word(&mut rng, k),
        word(&mut rng, k),
        word(&mut rng, k),
        rng.below(2),
    ]
}

/// Makes an op's operands the harness registers: sources R2, R3, R4, the
/// result R5 (or P1), and reports the predicate it reads.
struct Harness;
impl<'a> AluVisitorMut<'a> for Harness {
    type Out = (RegFile, Option<u8>);
    fn visit<const N: usize, O: Alu<N>>(self, op: &'a mut O) -> Self::Out {
        let live = op.live_srcs();
        for (i, s) in op.srcs_mut().iter_mut().enumerate().take(live) {
            s.src = SrcRef::Reg(Reg::Phys(2 + i as u8));
        }
        *op.dst_mut() = match O::DST {
            RegFile::Gpr => Dst::Reg(Reg::Phys(5)),
            RegFile::Pred => Dst::Reg(Reg::Phys(1)),
        };
        let pred = op.pred().reg.and_then(|r| r.phys());
        (O::DST, pred)
    }
}

/// A variant: the op's listing and what the harness must add around it.
struct Variant {
    text: String,
    dst: RegFile,
    pred: Option<u8>,
    variable: bool,
}

/// Random decodable variants of the ALU op with 9-bit opcode `opc`.
fn variants(opc: u16, seed: u64) -> BTreeMap<String, Vec<Variant>> {
    let mut by_mnemonic: BTreeMap<String, Vec<Variant>> = BTreeMap::new();
    let mut rng = Rng(seed);
    for form in 1u16..=5 {
        for _ in 0..TRIES {
            let bits = [rng.u32(), rng.u32(), rng.u32(), rng.u32()];
            let mut w = InstWord::from_words(bits);
            w.set(field::OPCODE, u64::from(opc | form << 9));
            let Ok(mut ins) = Instr::decode(&w, 0) else {
                continue;
            };
            ins.guard = PredSrc::TRUE;
            let Some((dst, pred)) = ins.op.alu_mut(Harness) else {
                continue;
            };
            if ins.encode(0).is_err() {
                continue;
            }
            let text = ins.to_string();
            // The text must assemble back to the same instruction.
            match assemble(&text) {
                Ok(a) if a.instrs.first().map(|i| (i.guard, i.op)) == Some((ins.guard, ins.op)) => {
                }
                _ => continue,
            }
            let list = by_mnemonic.entry(ins.op.mnemonic().to_owned()).or_default();
            if list.len() < VARIANTS && !list.iter().any(|v| v.text == text) {
                list.push(Variant {
                    text,
                    dst,
                    pred,
                    variable: matches!(ins.op.latency(), Latency::Variable { .. }),
                });
            }
        }
    }
    by_mnemonic
}

const WAIT_ALL: &str = "[B012345:R-:W-:-:S15]";
const LOAD: &str = "[B012345:R-:W0:-:S15]";
const STORE: &str = "[B012345:R1:W-:-:S15]";
const VAR: &str = "[B012345:R-:W2:-:S15]";

fn main() {
    let mut args = std::env::args().skip(1);
    let out = PathBuf::from(args.next().expect("usage: op_truth_gen OUTDIR [smNN]"));
    let arch = args.next().unwrap_or_else(|| "sm90".into());
    std::fs::create_dir_all(&out).expect("create OUTDIR");
    let mut all: BTreeMap<String, Vec<Variant>> = BTreeMap::new();
    for (i, &(kind, opc)) in OPCODES.iter().enumerate() {
        if kind != OpcodeKind::Alu {
            continue;
        }
        for (m, vs) in variants(opc, 0x5eed_0000 + i as u64) {
            let list = all.entry(m).or_default();
            for v in vs {
                if list.len() < VARIANTS && !list.iter().any(|x| x.text == v.text) {
                    list.push(v);
                }
            }
        }
    }
    let mut index = String::new();
    for (name, vs) in &all {
        let repeats = if name == "MUFU" { MUFU_REPEATS } else { 1 };
        let mut asm = String::new();
        let mut input = Vec::new();
        let mut n = 0u32;
        writeln!(
            asm,
            "// {name}: generated by isa/examples/op_truth_gen.rs; each variant reads"
        )
        .unwrap();
        writeln!(
            asm,
            "// 4 words per lane from binding 0 and writes 1 word per lane to binding 1."
        )
        .unwrap();
        writeln!(asm, ".arch {arch}\n.workgroup {LANES}, 1, 1").unwrap();
        // S2R is variable-latency: it releases scoreboard 2, which the next
        // instruction waits for.
        writeln!(asm, "S2R R0, SR_TID.X ; {VAR}").unwrap();
        for line in [
            "IMAD.U32 R1, R0, 0x10, RZ ;",
            "IADD3 R8, R1, c[0x0][0xa0], RZ ;",
            "ISETP.GE.U32.AND P0, PT, R8, R1, PT ;",
            "SEL R9, RZ, 0x1, P0 ;",
            "IADD3 R9, R9, c[0x0][0xa4], RZ ;",
            "IMAD.U32 R1, R0, 0x4, RZ ;",
            "IADD3 R10, R1, c[0x0][0xb0], RZ ;",
            "ISETP.GE.U32.AND P0, PT, R10, R1, PT ;",
            "SEL R11, RZ, 0x1, P0 ;",
            "IADD3 R11, R11, c[0x0][0xb4], RZ ;",
        ] {
            writeln!(asm, "{line} {WAIT_ALL}").unwrap();
        }
        for r in 0..repeats {
            // One block of inputs per repeat, read by every variant.
            let seed = u64::from(r) * 0x1_0000 + 0x7ab1e;
            for lane in 0..LANES {
                for w in inputs(seed, lane) {
                    input.extend_from_slice(&w.to_le_bytes());
                }
            }
            for v in vs {
                writeln!(asm, "// variant {n} inputs {r}: {}", v.text).unwrap();
                let (inb, outb) = (r * LANES * 16, n * LANES * 4);
                for k in 0..4 {
                    let reg = [2, 3, 4, 6][k as usize];
                    writeln!(asm, "LDG.E R{reg}, [R8.64+{:#x}] ; {LOAD}", inb + 4 * k).unwrap();
                }
                if let Some(p) = v.pred {
                    writeln!(asm, "ISETP.NE.U32.AND P{p}, PT, R6, RZ, PT ; {WAIT_ALL}").unwrap();
                }
                let ctrl = if v.variable { VAR } else { WAIT_ALL };
                writeln!(asm, "{} {ctrl}", v.text).unwrap();
                if v.dst == RegFile::Pred {
                    writeln!(asm, "SEL R5, RZ, 0x1, !P1 ; {WAIT_ALL}").unwrap();
                }
                writeln!(asm, "STG.E [R10.64+{outb:#x}], R5 ; {STORE}").unwrap();
                n += 1;
            }
        }
        writeln!(asm, "EXIT ; {WAIT_ALL}").unwrap();
        let binary = assemble(&asm)
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .to_binary()
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let file = name.to_lowercase();
        std::fs::write(out.join(format!("{file}.asm")), &asm).unwrap();
        std::fs::write(out.join(format!("{file}.bin")), binary.to_bytes()).unwrap();
        std::fs::write(out.join(format!("{file}.in")), &input).unwrap();
        // The raw instructions, for `nvdisasm -b SM90` on the GPU machine.
        let text: Vec<u8> = binary.code.iter().flat_map(|w| w.to_le_bytes()).collect();
        std::fs::write(out.join(format!("{file}.text")), text).unwrap();
        let json = format!(
            "{{\n  \"comment\": \"per-op truth for {name}: {n} variants x {LANES} lanes \
             (isa/examples/op_truth_gen.rs, docs/CUBIN.md)\",\n  \"stages\": {{ \"compute\": \
             {{ \"spirv\": \"{file}.bin\" }} }},\n  \"groups\": [1, 1, 1],\n  \"buffers\": [\n    \
             {{ \"binding\": 0, \"kind\": \"storage\", \"contents\": [ {{ \"file\": \"{file}.in\" }} ] }},\n    \
             {{ \"binding\": 1, \"kind\": \"storage\", \"contents\": [ {{ \"zero\": {} }} ], \"read_back\": true }}\n  ]\n}}\n",
            n * LANES * 4
        );
        std::fs::write(out.join(format!("{file}.json")), json).unwrap();
        writeln!(index, "{name} {n}").unwrap();
    }
    std::fs::write(out.join("index.txt"), index).unwrap();
}
