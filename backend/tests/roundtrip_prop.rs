//! Random valid instructions survive encode → decode → print → assemble →
//! encode bit-identically. An instruction is made from a valid opcode (any
//! op, any operand form) with every other bit random; the decoder turns it
//! into a valid instruction, whose encoding is the canonical word.

use proptest::prelude::*;
use spvsass_backend::asm::assemble;
use spvsass_backend::isa::{Ctrl, InstWord, Instr, field};

/// ALU opcodes (low 9 bits), each in every operand form 1..=5.
const ALU: [u16; 37] = [
    0x002, 0x010, 0x024, 0x00c, 0x00b, 0x021, 0x020, 0x023, 0x007, 0x012, 0x019, 0x106, 0x105,
    0x025, 0x027, 0x017, 0x100, 0x101, 0x109, 0x01b, 0x016, 0x01a, 0x011, 0x009, 0x008, 0x108,
    0x104, 0x107, 0x148, 0x029, 0x028, 0x02b, 0x02a, 0x110, 0x111, 0x112, 0x113,
];
/// Fixed-form opcodes (all 12 bits).
const FIXED: [u16; 33] = [
    0x919, 0x805, 0x927, 0x923, 0x947, 0x945, 0x941, 0x94d, 0x918, 0x980, 0x984, 0x983, 0x385,
    0x388, 0x387, 0x9a8, 0x3a9, 0x38c, 0x38d, 0x98e, 0xb82, 0xb1d, 0x992, 0x81c, 0x389, 0x589,
    0x989, 0xf89, 0x806, 0x3a1, 0x3c4, 0x919, 0x94d,
];

fn opcode() -> impl Strategy<Value = u16> {
    prop_oneof![
        (0..ALU.len(), 1u16..=5).prop_map(|(i, form)| ALU[i] | form << 9),
        (0..FIXED.len()).prop_map(|i| FIXED[i]),
    ]
}

fn ctrl() -> impl Strategy<Value = Ctrl> {
    let sb = prop_oneof![0u8..6, Just(7u8)];
    (1u8..16, any::<bool>(), sb.clone(), sb, 0u8..64).prop_map(
        |(stall, yield_, write_sb, read_sb, wait)| Ctrl {
            stall,
            yield_,
            write_sb,
            read_sb,
            wait,
            reuse: 0,
        },
    )
}

/// A decodable instruction at byte address `pc`, with its canonical word.
fn instruction() -> impl Strategy<Value = (u32, Instr)> {
    (opcode(), any::<[u32; 4]>(), ctrl(), 0u32..64).prop_filter_map(
        "the random fields decode and re-encode",
        |(op, bits, ctrl, slot)| {
            let pc = slot * 16;
            let mut w = InstWord::from_words(bits);
            w.set(field::OPCODE, u64::from(op));
            let mut ins = Instr::decode(&w, pc).ok()?;
            ins.ctrl = ctrl;
            ins.encode(pc).ok()?;
            Some((pc, ins))
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]
    #[test]
    fn encode_decode_print_assemble_encode(case in instruction()) {
        let (pc, ins) = case;
        let word = ins.encode(pc).expect("filtered to encodable");
        let decoded = Instr::decode(&word, pc).expect("a canonical word decodes");
        prop_assert_eq!(decoded, ins);
        // Assemble at the same address: branch targets print absolute.
        let nops = "NOP ;\n".repeat((pc / 16) as usize);
        let text = format!("{nops}{decoded} {}\n", decoded.ctrl);
        let assembled = assemble(&text).map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
        let again = assembled.instrs[(pc / 16) as usize];
        prop_assert_eq!(again.encode(pc).expect("encodes"), word, "{}", text);
    }
}
