//! Assembler errors name the line, the column and what was wrong.

use spvsass_isa::asm::{AsmErrorKind, assemble};

macro_rules! errors {
    ($($name:ident: $src:literal => $line:literal : $col:literal, $msg:literal;)*) => {$(
        #[test]
        fn $name() {
            let e = assemble($src).expect_err("bad source");
            assert_eq!((e.line, e.column), ($line, $col), "{e}");
            assert_eq!(e.to_string(), $msg);
        }
    )*};
}

errors! {
    unknown_op: "NOP ;\n  FOO R1 ;\n" => 2:3, "line 2, column 3: unknown instruction `FOO`";
    bad_register: "MOV R1, R300 ;\n" => 1:9, "line 1, column 9: expected a register, immediate or constant-bank operand, found `R300`";
    bad_predicate: "ISETP.LT.AND P0, PT, R1, R2, P9 ;\n" => 1:30, "line 1, column 30: expected a predicate, found `P9`";
    operand_count: "MOV R1 ;\n" => 1:1, "line 1, column 1: `MOV` takes 2 operands, found 1";
    unknown_modifier: "MOV.X R1, R2 ;\n" => 1:1, "line 1, column 1: `MOV` does not take the modifier `.X`";
    missing_modifier: "SHF.U32 R1, R2, R3, R4 ;\n" => 1:1, "line 1, column 1: `SHF` needs one of the modifiers .L or .R";
    missing_semicolon: "EXIT\n" => 1:5, "line 1, column 5: missing `;` at the end of the instruction";
    unknown_label: "BRA nowhere ;\n" => 1:5, "line 1, column 5: unknown label `nowhere`";
    duplicate_label: "a:\nNOP ;\na:\n" => 3:1, "line 3, column 1: label `a` is defined twice";
    bad_ctrl: "NOP ; [B------:R-:W9:-:S01]\n" => 1:7, "line 1, column 7: bad control bits `[B------:R-:W9:-:S01]` (expected the form [B------:R-:W-:-:S01])";
    unencodable: "LDG.E.64 R5, [R2.64] ;\n" => 1:1, "line 1, column 1: the instruction cannot be encoded: R5 cannot start a group of 2 registers (it must be a multiple of 2)";
    two_constants: "FFMA R1, R2, c[0x0][0x0], 0x1 ;\n" => 1:1, "line 1, column 1: the instruction cannot be encoded: operand cannot be encoded: the instruction needs a register source";
    // Found by the listing mutations (tests/input_mutations.rs): a bank
    // past the 5-bit field, an offset inside a word.
    constant_bank_past_the_field: "IADD3 R1, R2, c[0x50][0x0], RZ ;\n" => 1:1, "line 1, column 1: the instruction cannot be encoded: constant bank 0x50 does not fit its field";
    constant_offset_inside_a_word: "IADD3 R1, R2, c[0x0][0x6], RZ ;\n" => 1:1, "line 1, column 1: the instruction cannot be encoded: constant-bank offset (not a whole word) 0x6 does not fit its field";
    bad_arch: ".arch sm99\n" => 1:1, "line 1, column 1: `.arch` expects sm75, sm86, sm89 or sm90, found `sm99`";
    unknown_directive: "NOP ;\n  .colour red\n" => 2:3, "line 2, column 3: bad directive `.colour red` (known: .arch, .workgroup, .stage, .registers, .mesh, .vertex_attrs, .primitive_attrs, .compute, .task, .sph, .gs_sph, .resource)";
    bad_stage: ".stage vertex\n" => 1:1, "line 1, column 1: `.stage` expects task, mesh or compute, found `vertex`";
    bad_mesh_topology: ".stage mesh\n.mesh quads, 3, 1, 0, 0\n" => 2:1, "line 2, column 1: `.mesh` expects TOPOLOGY, MAX_VERTICES, MAX_PRIMITIVES, SHARED_LINES, CLIP_DISTANCES, found `quads, 3, 1, 0, 0`";
    attrs_before_mesh: ".stage mesh\n.vertex_attrs 0x70\n" => 2:1, "line 2, column 1: `.vertex_attrs` must follow `.mesh`";
    short_sph: ".stage mesh\n.sph 0x1, 0x2\n" => 2:1, "line 2, column 1: `.sph` expects 32 words, found `0x1, 0x2`";
    bad_resource_access: ".resource 0, 1, storage, single, bank x\n" => 1:1, "line 1, column 1: `.resource` expects SET, BINDING, storage|uniform|image, single|runtime|N, root|bank N|descriptor, found `0, 1, storage, single, bank x`";
    mesh_state_on_a_compute_stage: ".workgroup 32, 1, 1\n.mesh points, 1, 1, 0, 0\nEXIT ;\n" => 2:1, "line 2, column 1: `.mesh` needs `.stage mesh` (the stage is compute)";
    task_state_on_a_mesh_stage: ".stage mesh\n.task 16, 0\n" => 2:1, "line 2, column 1: `.task` needs `.stage task` (the stage is mesh)";
    bad_guard: "@R1 EXIT ;\n" => 1:2, "line 1, column 2: expected a guard predicate, found `R1`";
}

#[test]
fn listing_comments_addresses_and_labels_are_accepted() {
    let a = assemble(
        "// header\n.workgroup 4, 2, 1\ntop:\n        /*0000*/ @!P0 BRA top ; // loop\n        /*0010*/ EXIT ; [B------:R-:W-:Y:S05]\n",
    )
    .expect("assembles");
    assert_eq!(a.workgroup_size, [4, 2, 1]);
    assert_eq!(a.instrs.len(), 2);
    assert_eq!(a.instrs[0].to_string(), "@!P0 BRA 0x0 ;");
    assert_eq!(a.instrs[1].ctrl.stall, 5);
    assert!(a.instrs[1].ctrl.yield_);
    assert!(matches!(
        assemble("MOV R1, R2 ; junk\n").map_err(|e| e.kind),
        Err(AsmErrorKind::BadCtrl(_))
    ));
}

/// A modifier may appear twice when two fields each take one: `TLD4.B.B` is
/// the bindless form gathering the blue component (found by the round-trip
/// property test in CI). A repeat nothing takes is still an error.
#[test]
fn a_repeated_modifier_is_taken_once_per_field() {
    let a = assemble("TLD4.B.B.2D R0, R4, R2, R6, 0xf ;\n").expect("assembles");
    assert_eq!(a.instrs[0].to_string(), "TLD4.B.B.2D R0, R4, R2, R6, 0xf ;");
    let a = assemble("TLD4.B.R.2D R0, R4, R2, R6, 0xf ;\n").expect("assembles");
    assert_eq!(a.instrs[0].to_string(), "TLD4.B.R.2D R0, R4, R2, R6, 0xf ;");
    let e = assemble("SHF.L.L.U32 R1, R2, R3, R4 ;\n").expect_err("one .L too many");
    assert_eq!(
        e.to_string(),
        "line 1, column 1: `SHF` does not take the modifier `.L`"
    );
}
