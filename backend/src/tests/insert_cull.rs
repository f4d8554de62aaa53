//! The culling pass between the shader's two selections
//! (`insert_cull.rs`, `compile::select`) on test shaders: what part one
//! leaves it, what it appends, and where part two starts.

use crate::compile::lower;
use crate::from_ir::Selection;
use crate::frontend::ir::Shader;
use crate::frontend::{FrontendOptions, translate, words_from_bytes};
use crate::insert_cull::insert_cull;
use crate::isa::{Op, SpecialReg};
use crate::lower_cull::CullPlan;
use crate::mir::{BlockId, MFunc};
use crate::target::Arch;
use crate::verify::Form;
use cranelift_entity::EntityRef;

/// The IR of test shader `name` (tests/shaders/NAME.spv).
fn shader(name: &str) -> Shader {
    let path = format!("{}/../tests/shaders/{name}.spv", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let words = words_from_bytes(&bytes).expect("test shader is SPIR-V");
    translate(&words, &FrontendOptions::default()).expect("translates")
}

/// Whether `f`'s entry block reads `sr`.
fn reads_special(f: &MFunc, sr: SpecialReg) -> bool {
    f.blocks[BlockId::ENTRY]
        .instrs
        .iter()
        .any(|i| matches!(&i.op, Op::S2R(o) if o.sr == sr))
}

/// A deferred plan (triangle.mesh): part one leaves an empty block that
/// its OpReturn alone branches to; the pass fills it, appends its blocks
/// and registers after part one's, reads the lane id and the mask of the
/// lanes below at the entry, and hands part two an empty block whose one
/// parameter is the invocation each lane plays; part two branches from
/// there, and the whole function verifies.
#[test]
fn deferred_plan_leaves_part_two_a_start() {
    let sh = shader("triangle.mesh");
    let lowered = lower(&sh, true, true).expect("lowers");
    assert_eq!(
        lowered
            .cull
            .as_ref()
            .expect("cullable")
            .as_ref()
            .map(|l| l.plan),
        Some(CullPlan::Deferred)
    );
    let mut selection =
        Selection::part_one(&lowered, Arch::Sm86, false, true, true).expect("part one selects");
    let culling = selection.culling().expect("culling compiled in");
    let entry = culling.entry;
    let (blocks, vregs) = (culling.func.blocks.len(), culling.func.vregs.len());
    let block = &culling.func.blocks[entry];
    assert!(block.instrs.is_empty() && block.succs.is_empty());
    assert_eq!(
        block.preds.len(),
        1,
        "only part one's OpReturn branches there"
    );
    let start = insert_cull(culling).expect("a deferred plan has a part two");
    let f = selection.func();
    assert!(matches!(f.blocks[entry].instrs[0].op, Op::WarpSync(_)));
    assert_eq!(f.blocks[entry].succs.len(), 2, "culling switched on or off");
    assert!(start.from.index() >= blocks && start.played.index() >= vregs);
    let from = &f.blocks[start.from];
    assert_eq!(from.params, vec![start.played]);
    assert!(from.instrs.is_empty() && from.succs.is_empty());
    assert_eq!(from.preds.len(), 2, "survivors and culling switched off");
    assert!(reads_special(f, SpecialReg::LaneId) && reads_special(f, SpecialReg::LtMask));
    let last = f.blocks.len();
    selection.part_two(start).expect("part two selects");
    let f = selection.func();
    assert_eq!(f.blocks[start.from].succs, vec![BlockId::new(last)]);
    let selected = selection.finish().expect("finishes");
    selected.func.verify(Form::Virtual).expect("verifies");
}

/// An epilogue plan (ref_vec3_colour.mesh): the culling code ends in
/// EXIT on both of its paths and there is no part two.
#[test]
fn epilogue_plan_ends_in_the_culling_code() {
    let sh = shader("ref_vec3_colour.mesh");
    let lowered = lower(&sh, true, true).expect("lowers");
    let mut selection =
        Selection::part_one(&lowered, Arch::Sm75, false, true, true).expect("part one selects");
    let culling = selection.culling().expect("culling compiled in");
    assert_eq!(culling.plan, CullPlan::Epilogue);
    let blocks = culling.func.blocks.len();
    assert!(insert_cull(culling).is_none());
    let f = selection.func();
    let exits = f
        .blocks
        .values()
        .skip(blocks)
        .filter(|b| matches!(b.instrs.last().map(|i| &i.op), Some(Op::Exit)))
        .count();
    assert_eq!(exits, 2, "culled and compacted, or switched off");
    let selected = selection.finish().expect("finishes");
    selected.func.verify(Form::Virtual).expect("verifies");
}

/// Without `--shader-cull` selection reserves no culling block and the
/// pass has nothing to do.
#[test]
fn no_culling_without_the_option() {
    let sh = shader("triangle.mesh");
    let lowered = lower(&sh, true, false).expect("lowers");
    let mut selection =
        Selection::part_one(&lowered, Arch::Sm86, false, true, true).expect("selects");
    assert!(selection.culling().is_none());
}
