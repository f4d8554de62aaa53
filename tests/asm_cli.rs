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

/// Each lane stores its index to buffer 0 (root table 0xa0), with the
/// assembler's default control bits: the IMAD reads the S2R's result
/// without waiting on a scoreboard (the S2R sets none).
const UNSCHEDULED: &str = "\
.workgroup 32, 1, 1
        S2R R0, SR_LANEID ;
        LDC.64 R2, c[0x0][0xa0] ;
        IMAD.WIDE.U32 R2, R0, 0x4, R2 ;
        STG.E [R2.64], R0 ;
        EXIT ;
";

/// `run` checks the control bits by default; `--check-ctrl off` runs the
/// program as written.
#[test]
fn run_reports_a_control_bit_hazard_unless_check_ctrl_is_off() {
    let (src, bin) = (tmp("hazard.sass"), tmp("hazard.bin"));
    std::fs::write(&src, UNSCHEDULED).expect("write source");
    let o = spvsass(&["asm", src.to_str().unwrap(), "-o", bin.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = tmp("hazard.out");
    let out_arg = format!("0.0={}", out.display());
    let args = [
        "run",
        bin.to_str().unwrap(),
        "--buffer",
        "0.0=128",
        "--out",
        &out_arg,
    ];
    let o = spvsass(&args);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(
            "control bits: /*0020*/ `IMAD.WIDE.U32 R2, R0, 0x4, R2 ;` reads R0 (lane 0), \
             which /*0000*/ `S2R R0, SR_LANEID ;` writes late, without waiting on a write \
             scoreboard (it sets none)"
        ),
        "{err}"
    );
    let o = spvsass(&[&args[..], &["--check-ctrl", "off"]].concat());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let words = std::fs::read(&out).expect("output written");
    assert_eq!(&words[4..8], &1u32.to_le_bytes(), "lane 1 wrote its index");
}
