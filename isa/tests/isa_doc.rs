//! docs/ISA.md and the ISA definition agree: every op has a row in the
//! Ops table, each row's example assembles to that op with one of the
//! row's opcodes and prints back unchanged, and the table has no row for
//! an op the definition lacks.

use spvsass_isa::asm::assemble;
use spvsass_isa::isa::{MNEMONICS, field};
use std::collections::BTreeSet;

const DOC: &str = include_str!("../../docs/ISA.md");

/// The cells of a table row, with `\\|` unescaped.
fn cells(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut chars = line.trim().trim_start_matches('|').chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                cur.push('|');
                chars.next();
            }
            '|' => out.push(std::mem::take(&mut cur).trim().to_string()),
            c => cur.push(c),
        }
    }
    out
}

/// The rows of the Ops table.
fn op_rows() -> Vec<Vec<String>> {
    DOC.lines()
        .skip_while(|l| !l.starts_with("| op | text | example | opcode"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(cells)
        .collect()
}

fn check_row(op: &str) {
    let rows = op_rows();
    let row = rows
        .iter()
        .find(|r| r[0] == op)
        .unwrap_or_else(|| panic!("docs/ISA.md has no row for {op}"));
    let example = row[2].trim_matches('`');
    let asm = assemble(&format!("{example} ;\n")).unwrap_or_else(|e| panic!("{op}: {e}"));
    let ins = asm.instrs[0];
    assert_eq!(ins.op.mnemonic(), op, "the example is another op");
    assert_eq!(ins.to_string(), format!("{example} ;"));
    let full = ins.encode(0).expect("encodes").get(field::OPCODE);
    let listed: Vec<u64> = row[3]
        .split(['/', ' '])
        .filter_map(|t| u64::from_str_radix(t.trim().strip_prefix("0x")?, 16).ok())
        .collect();
    assert!(
        listed.iter().any(|&o| o == full || o == full & 0x1ff),
        "{op}: the example encodes opcode {full:#05x}, the doc says {}",
        row[3]
    );
}

/// One test per op of the table (a module per op, a test per mnemonic),
/// and one that the doc's table has exactly the table's ops.
macro_rules! rows {
    ($($V:ident [$($mn:ident)+])*) => {
        $(
            #[allow(non_snake_case)]
            mod $V {
                $(
                    #[test]
                    fn $mn() {
                        super::check_row(stringify!($mn));
                    }
                )+
            }
        )*

        #[test]
        fn the_table_has_exactly_the_ops_of_the_definition() {
            let defined: BTreeSet<&str> = MNEMONICS.iter().copied().collect();
            let rows = op_rows();
            let documented: BTreeSet<&str> = rows.iter().map(|r| r[0].as_str()).collect();
            assert_eq!(documented, defined);
            assert_eq!(rows.len(), defined.len(), "an op has two rows");
        }
    };
}

spvsass_isa::for_each_op!(rows);
