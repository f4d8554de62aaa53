//! Random valid instructions survive encode → decode → print → assemble →
//! encode bit-identically. An instruction is made from a valid opcode (any
//! op, any operand form) with every other bit random; the decoder turns it
//! into a valid instruction, whose encoding is the canonical word.

use proptest::prelude::*;
use spvsass_isa::asm::assemble;
use spvsass_isa::isa::{Ctrl, InstWord, Instr, OPCODES, OpcodeKind, field};

/// The decoder's opcodes of one kind (from the op table).
fn opcodes(kind: OpcodeKind) -> Vec<u16> {
    OPCODES
        .iter()
        .filter(|&&(k, _)| k == kind)
        .map(|&(_, o)| o)
        .collect()
}

/// An ALU opcode (low 9 bits) in any operand form 1..=5, or a fixed-form
/// opcode (all 12 bits).
fn opcode() -> impl Strategy<Value = u16> {
    let (alu, fixed) = (opcodes(OpcodeKind::Alu), opcodes(OpcodeKind::Fixed));
    prop_oneof![
        (0..alu.len(), 1u16..=5).prop_map(move |(i, form)| alu[i] | form << 9),
        (0..fixed.len()).prop_map(move |i| fixed[i]),
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
