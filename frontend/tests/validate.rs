//! The IR validator catches broken shaders.

use spvsass_frontend::FrontendError;
use spvsass_frontend::ir::{BlockCall, Op, Scalar, Shader, Stage, Type};
use spvsass_frontend::validate;

fn shader() -> Shader {
    Shader::new(Stage::Compute, "main".into())
}

fn invalid_ir(shader: &Shader) -> (String, Option<String>, String) {
    match validate(shader) {
        Err(FrontendError::InvalidIr { block, inst, what }) => (block, inst, what),
        other => panic!("expected InvalidIr, got {other:?}\n{shader}"),
    }
}

#[test]
fn well_formed_shader_passes() {
    let mut s = shader();
    let u32_ty = s.intern_type(Type::Scalar(Scalar::U32));
    let entry = s.new_block(None);
    let next = s.new_block(None);
    let (_, one) = s.append(entry, Op::Const(1), Some(u32_ty), None);
    s.append(
        entry,
        Op::Jump(BlockCall {
            block: next,
            args: vec![one.unwrap()],
        }),
        None,
        None,
    );
    s.add_block_param(next, u32_ty);
    s.append(next, Op::Return, None, None);
    validate(&s).unwrap();
}

#[test]
fn block_without_terminator_is_invalid() {
    let mut s = shader();
    let u32_ty = s.intern_type(Type::Scalar(Scalar::U32));
    let entry = s.new_block(None);
    s.append(entry, Op::Const(1), Some(u32_ty), None);
    let (block, inst, what) = invalid_ir(&s);
    assert_eq!((block.as_str(), inst.as_deref()), ("block0", Some("inst0")));
    assert!(what.contains("does not end in a terminator"), "{what}");
}

#[test]
fn terminator_in_the_middle_is_invalid() {
    let mut s = shader();
    let entry = s.new_block(None);
    s.append(entry, Op::Return, None, None);
    s.append(entry, Op::Return, None, None);
    let (_, inst, what) = invalid_ir(&s);
    assert_eq!(inst.as_deref(), Some("inst0"));
    assert!(what.contains("followed by more instructions"), "{what}");
}

#[test]
fn wrong_argument_count_is_invalid() {
    let mut s = shader();
    let u32_ty = s.intern_type(Type::Scalar(Scalar::U32));
    let entry = s.new_block(None);
    let next = s.new_block(None);
    s.append(
        entry,
        Op::Jump(BlockCall {
            block: next,
            args: vec![],
        }),
        None,
        None,
    );
    s.add_block_param(next, u32_ty);
    s.append(next, Op::Return, None, None);
    let (block, _, what) = invalid_ir(&s);
    assert_eq!(block, "block0");
    assert!(
        what.contains("takes 1 arguments, the jump passes 0"),
        "{what}"
    );
}

#[test]
fn value_defined_outside_the_layout_is_invalid() {
    let mut s = shader();
    let u32_ty = s.intern_type(Type::Scalar(Scalar::U32));
    let entry = s.new_block(None);
    let orphan = s.new_block(None);
    s.layout.retain(|&b| b != orphan);
    let (_, v) = s.append(orphan, Op::Const(1), Some(u32_ty), None);
    let v = v.unwrap();
    s.append(
        entry,
        Op::Unary(spvsass_frontend::ir::UnaryOp::Not, v),
        Some(u32_ty),
        None,
    );
    s.append(entry, Op::Return, None, None);
    let (_, _, what) = invalid_ir(&s);
    assert!(
        what.contains(&format!("{v} is used but not defined")),
        "{what}"
    );
}

#[test]
fn entry_block_with_parameters_is_invalid() {
    let mut s = shader();
    let u32_ty = s.intern_type(Type::Scalar(Scalar::U32));
    let entry = s.new_block(None);
    s.add_block_param(entry, u32_ty);
    s.append(entry, Op::Return, None, None);
    let (_, _, what) = invalid_ir(&s);
    assert!(what.contains("entry block has parameters"), "{what}");
}

fn jump(block: spvsass_frontend::ir::Block) -> Op {
    Op::Jump(BlockCall {
        block,
        args: vec![],
    })
}

#[test]
fn use_not_dominated_by_its_definition_is_invalid() {
    // block0 branches to block1 or block2; block1 defines v, block2 uses it.
    let mut s = shader();
    let bool_ty = s.intern_type(Type::Scalar(Scalar::Bool));
    let u32_ty = s.intern_type(Type::Scalar(Scalar::U32));
    let entry = s.new_block(None);
    let left = s.new_block(None);
    let right = s.new_block(None);
    let (_, cond) = s.append(entry, Op::Const(1), Some(bool_ty), None);
    s.append(
        entry,
        Op::Branch {
            cond: cond.unwrap(),
            then_dest: BlockCall {
                block: left,
                args: vec![],
            },
            else_dest: BlockCall {
                block: right,
                args: vec![],
            },
        },
        None,
        None,
    );
    let (_, v) = s.append(left, Op::Const(7), Some(u32_ty), None);
    s.append(left, Op::Return, None, None);
    let v = v.unwrap();
    s.append(
        right,
        Op::Unary(spvsass_frontend::ir::UnaryOp::Not, v),
        Some(u32_ty),
        None,
    );
    s.append(right, Op::Return, None, None);
    let (block, _, what) = invalid_ir(&s);
    assert_eq!(block, "block2");
    assert!(
        what.contains(&format!("definition of {v} does not dominate")),
        "{what}"
    );
}

#[test]
fn back_edge_to_a_block_without_loop_merge_is_invalid() {
    let mut s = shader();
    let entry = s.new_block(None);
    let body = s.new_block(None);
    s.append(entry, jump(body), None, None);
    s.append(body, jump(body), None, None);
    let (block, _, what) = invalid_ir(&s);
    assert_eq!(block, "block1");
    assert!(what.contains("does not go to a loop header"), "{what}");
}

#[test]
fn operands_of_different_types_are_invalid() {
    let mut s = shader();
    let u32_ty = s.intern_type(Type::Scalar(Scalar::U32));
    let f32_ty = s.intern_type(Type::Scalar(Scalar::F32));
    let entry = s.new_block(None);
    let (_, a) = s.append(entry, Op::Const(1), Some(u32_ty), None);
    let (_, b) = s.append(entry, Op::Const(1), Some(f32_ty), None);
    s.append(
        entry,
        Op::Binary(spvsass_frontend::ir::BinaryOp::IAdd, a.unwrap(), b.unwrap()),
        Some(u32_ty),
        None,
    );
    s.append(entry, Op::Return, None, None);
    let (_, inst, what) = invalid_ir(&s);
    assert_eq!(inst.as_deref(), Some("inst2"));
    assert!(what.contains("do not agree"), "{what}");
}

#[test]
fn branch_on_a_non_boolean_is_invalid() {
    let mut s = shader();
    let u32_ty = s.intern_type(Type::Scalar(Scalar::U32));
    let entry = s.new_block(None);
    let next = s.new_block(None);
    let (_, c) = s.append(entry, Op::Const(1), Some(u32_ty), None);
    let call = BlockCall {
        block: next,
        args: vec![],
    };
    s.append(
        entry,
        Op::Branch {
            cond: c.unwrap(),
            then_dest: call.clone(),
            else_dest: call,
        },
        None,
        None,
    );
    s.append(next, Op::Return, None, None);
    let (_, _, what) = invalid_ir(&s);
    assert!(what.contains("not a boolean scalar"), "{what}");
}
