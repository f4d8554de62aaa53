//! SSA construction: promoted variables, OpPhi, block parameters.

use crate::common;

use common::*;
use rspirv::dr::Builder;
use rspirv::spirv::{SelectionControl, StorageClass as Sc};
use spvsass_frontend::ir::{Block, Op, Shader, StorageClass, Value};
use spvsass_frontend::{FrontendError, FrontendOptions, translate};

fn translate_words(words: &[u32]) -> Result<Shader, FrontendError> {
    translate(words, &FrontendOptions::default())
}

/// The arguments the jump ending `from` passes to `to`.
fn args_to(shader: &Shader, from: Block, to: Block) -> Vec<Value> {
    match shader.terminator(from) {
        Some(Op::Jump(call)) if call.block == to => call.args.clone(),
        Some(Op::Branch { then_dest, .. }) if then_dest.block == to => then_dest.args.clone(),
        Some(Op::Branch { else_dest, .. }) if else_dest.block == to => else_dest.args.clone(),
        other => panic!("{from} does not jump to {to}: {other:?}"),
    }
}

/// The value stored to the one Private variable of the shader.
fn stored_to_private(shader: &Shader) -> Value {
    let values: Vec<_> = stores(shader)
        .into_iter()
        .filter(|&(_, gv, _)| shader.globals[gv].class == StorageClass::Private)
        .map(|(v, _, _)| v)
        .collect();
    let [v] = values[..] else {
        panic!("one store to a Private variable expected: {shader}")
    };
    v
}

/// `if (c) x = 1; else x = 2;` with `x` read at the merge, written either as
/// a promoted variable or with an OpPhi.
fn diamond(use_phi: bool) -> Vec<u32> {
    compute_module(|b: &mut Builder| {
        let uint = b.type_int(32, 0);
        let boolean = b.type_bool();
        let fn_ptr = b.type_pointer(None, Sc::Function, uint);
        let private_ptr = b.type_pointer(None, Sc::Private, uint);
        let out = b.variable(private_ptr, None, Sc::Private, None);
        let cond = b.constant_true(boolean);
        let one = b.constant_bit32(uint, 1);
        let two = b.constant_bit32(uint, 2);
        let x = b.variable(fn_ptr, None, Sc::Function, None);
        let (then_label, else_label, merge) = (b.id(), b.id(), b.id());
        b.selection_merge(merge, SelectionControl::NONE).unwrap();
        b.branch_conditional(cond, then_label, else_label, [])
            .unwrap();
        for (label, value) in [(then_label, one), (else_label, two)] {
            b.begin_block(Some(label)).unwrap();
            if !use_phi {
                b.store(x, value, None, []).unwrap();
            }
            b.branch(merge).unwrap();
        }
        b.begin_block(Some(merge)).unwrap();
        let result = if use_phi {
            b.phi(uint, None, [(one, then_label), (two, else_label)])
                .unwrap()
        } else {
            b.load(uint, None, x, None, []).unwrap()
        };
        b.store(out, result, None, []).unwrap();
        b.ret().unwrap();
    })
}

fn check_diamond(shader: &Shader) {
    let [_, then_block, else_block, merge] = shader.layout[..] else {
        panic!("four blocks expected: {shader}");
    };
    let [param] = shader.blocks[merge].params[..] else {
        panic!("the merge block must have one parameter: {shader}");
    };
    assert_eq!(stored_to_private(shader), param);
    let from_then = args_to(shader, then_block, merge);
    let from_else = args_to(shader, else_block, merge);
    assert_eq!(
        from_then
            .iter()
            .map(|&v| shader.const_value(v))
            .collect::<Vec<_>>(),
        [Some(1)]
    );
    assert_eq!(
        from_else
            .iter()
            .map(|&v| shader.const_value(v))
            .collect::<Vec<_>>(),
        [Some(2)]
    );
}

#[test]
fn variable_written_in_both_arms_becomes_a_merge_parameter() {
    let shader = translate_words(&diamond(false)).unwrap();
    check_diamond(&shader);
    assert_eq!(function_globals(&shader), 0);
}

#[test]
fn phi_becomes_a_block_parameter() {
    check_diamond(&translate_words(&diamond(true)).unwrap());
}

#[test]
fn phi_without_a_value_for_a_predecessor_is_malformed() {
    let words = compute_module(|b: &mut Builder| {
        let uint = b.type_int(32, 0);
        let boolean = b.type_bool();
        let cond = b.constant_true(boolean);
        let one = b.constant_bit32(uint, 1);
        let (then_label, else_label, merge) = (b.id(), b.id(), b.id());
        b.selection_merge(merge, SelectionControl::NONE).unwrap();
        b.branch_conditional(cond, then_label, else_label, [])
            .unwrap();
        for label in [then_label, else_label] {
            b.begin_block(Some(label)).unwrap();
            b.branch(merge).unwrap();
        }
        b.begin_block(Some(merge)).unwrap();
        b.phi(uint, None, [(one, then_label)]).unwrap();
        b.ret().unwrap();
    });
    let err = translate_words(&words).unwrap_err();
    assert!(
        matches!(err, FrontendError::Malformed { ref opcode, .. } if opcode == "OpPhi"),
        "{err}"
    );
    assert!(err.to_string().contains("no incoming value"), "{err}");
}

#[test]
fn variable_stored_in_one_arm_passes_the_old_value_from_the_other() {
    let words = compute_module(|b: &mut Builder| {
        let uint = b.type_int(32, 0);
        let boolean = b.type_bool();
        let fn_ptr = b.type_pointer(None, Sc::Function, uint);
        let private_ptr = b.type_pointer(None, Sc::Private, uint);
        let out = b.variable(private_ptr, None, Sc::Private, None);
        let cond = b.constant_true(boolean);
        let seven = b.constant_bit32(uint, 7);
        let nine = b.constant_bit32(uint, 9);
        let x = b.variable(fn_ptr, None, Sc::Function, Some(seven));
        let (then_label, merge) = (b.id(), b.id());
        b.selection_merge(merge, SelectionControl::NONE).unwrap();
        b.branch_conditional(cond, then_label, merge, []).unwrap();
        b.begin_block(Some(then_label)).unwrap();
        b.store(x, nine, None, []).unwrap();
        b.branch(merge).unwrap();
        b.begin_block(Some(merge)).unwrap();
        let result = b.load(uint, None, x, None, []).unwrap();
        b.store(out, result, None, []).unwrap();
        b.ret().unwrap();
    });
    let shader = translate_words(&words).unwrap();
    let [entry, then_block, merge] = shader.layout[..] else {
        panic!("{shader}")
    };
    let konst = |vals: Vec<Value>| {
        vals.iter()
            .map(|&v| shader.const_value(v))
            .collect::<Vec<_>>()
    };
    assert_eq!(konst(args_to(&shader, entry, merge)), [Some(7)], "{shader}");
    assert_eq!(
        konst(args_to(&shader, then_block, merge)),
        [Some(9)],
        "{shader}"
    );
    assert_eq!(args_to(&shader, entry, then_block), []);
}

#[test]
fn load_of_a_never_stored_variable_is_undef() {
    let words = compute_module(|b: &mut Builder| {
        let uint = b.type_int(32, 0);
        let fn_ptr = b.type_pointer(None, Sc::Function, uint);
        let private_ptr = b.type_pointer(None, Sc::Private, uint);
        let out = b.variable(private_ptr, None, Sc::Private, None);
        let x = b.variable(fn_ptr, None, Sc::Function, None);
        let value = b.load(uint, None, x, None, []).unwrap();
        b.store(out, value, None, []).unwrap();
        b.ret().unwrap();
    });
    let shader = translate_words(&words).unwrap();
    let stored = stored_to_private(&shader);
    assert_eq!(
        shader.def_inst(stored).map(|d| &d.op),
        Some(&Op::Undef),
        "{shader}"
    );
    assert_eq!(function_globals(&shader), 0);
}

#[test]
fn variable_used_through_an_access_chain_stays_in_memory() {
    let words = compute_module(|b: &mut Builder| {
        let uint = b.type_int(32, 0);
        let four = b.constant_bit32(uint, 4);
        let zero = b.constant_bit32(uint, 0);
        let array = b.type_array(uint, four);
        let fn_array_ptr = b.type_pointer(None, Sc::Function, array);
        let fn_uint_ptr = b.type_pointer(None, Sc::Function, uint);
        let a = b.variable(fn_array_ptr, None, Sc::Function, None);
        let element = b.access_chain(fn_uint_ptr, None, a, [zero]).unwrap();
        b.store(element, four, None, []).unwrap();
        b.ret().unwrap();
    });
    let shader = translate_words(&words).unwrap();
    assert_eq!(function_globals(&shader), 1, "{shader}");
    let [(value, gv, _)] = stores(&shader)[..] else {
        panic!("{shader}")
    };
    assert_eq!(shader.globals[gv].class, StorageClass::Function);
    assert_eq!(shader.const_value(value), Some(4));
}

#[test]
fn dead_merge_block_after_two_returns_is_kept() {
    let words = compute_module(|b: &mut Builder| {
        let boolean = b.type_bool();
        let cond = b.constant_true(boolean);
        let (then_label, else_label, merge) = (b.id(), b.id(), b.id());
        b.selection_merge(merge, SelectionControl::NONE).unwrap();
        b.branch_conditional(cond, then_label, else_label, [])
            .unwrap();
        for label in [then_label, else_label] {
            b.begin_block(Some(label)).unwrap();
            b.ret().unwrap();
        }
        b.begin_block(Some(merge)).unwrap();
        b.unreachable().unwrap();
    });
    let shader = translate_words(&words).unwrap();
    assert_eq!(shader.layout.len(), 4);
    assert_eq!(shader.terminator(shader.layout[3]), Some(&Op::Unreachable));
}
