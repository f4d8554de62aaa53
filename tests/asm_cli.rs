//! `spvsass asm`: a listing in, a binary out that `disasm` prints back the
//! same; errors name the file, line and column.

use std::process::{Command, Output};

fn spvsass(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_spvsass"))
        .args(args)
        .output()
        .expect("spvsass runs")
}

fn tmp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("spvsass-asm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

const SOURCE: &str = "\
.workgroup 32, 1, 1
        S2R R0, SR_LANEID ;
        LDC.64 R2, c[0x0][0x0] ;
        IMAD.WIDE.U32 R2, R0, 0x4, R2 ;
        STG.E [R2.64], R0 ; [B------:R0:W-:-:S01]
        EXIT ;
";

#[test]
fn asm_then_disasm_gives_the_program_back() {
    let (src, bin) = (tmp("lanes.sass"), tmp("lanes.bin"));
    std::fs::write(&src, SOURCE).expect("write source");
    let o = spvsass(&["asm", src.to_str().unwrap(), "-o", bin.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = spvsass(&["disasm", bin.to_str().unwrap(), "--ctrl"]);
    assert!(o.status.success());
    let out = String::from_utf8(o.stdout).expect("utf-8");
    assert!(out.starts_with("// spvsass sm86 compute shader, local_size (32, 1, 1)\n// registers: 4 GPRs, 5 instructions\n"), "{out}");
    assert!(
        out.contains("/*0020*/ IMAD.WIDE.U32 R2, R0, 0x4, R2 ;"),
        "{out}"
    );
    assert!(out.contains("/*0030*/ STG.E [R2.64], R0 ;"), "{out}");
    assert!(out.contains("[B------:R0:W-:-:S01]"), "{out}");
}

#[test]
fn asm_error_names_file_line_and_column() {
    let (src, bin) = (tmp("bad.sass"), tmp("bad.bin"));
    std::fs::write(&src, "EXIT ;\n  IADD3 R1, R2, R3, P0 ;\n").expect("write source");
    let o = spvsass(&["asm", src.to_str().unwrap(), "-o", bin.to_str().unwrap()]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("bad.sass: line 2, column 21: expected a register, immediate or constant-bank operand, found `P0`"),
        "{err}"
    );
    assert!(!bin.exists(), "no binary on error");
}
