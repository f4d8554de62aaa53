//! Function calls are inlined: pointer parameters become the caller's
//! variables (and are promoted), every call gets its own copy, results
//! flow through block parameters, recursion is rejected.

use crate::common;

use common::*;
use rspirv::binary::Assemble;
use rspirv::dr::Builder;
use rspirv::spirv::{
    AddressingModel, Capability, ExecutionMode, ExecutionModel, FunctionControl, MemoryModel,
    StorageClass,
};
use spvsass_frontend::FrontendError;
use spvsass_frontend::ir::{BinaryOp, Op, StorageClass as Class};

/// A compute module whose `main` body is written by `body`, given the
/// builder and the id of `add_to(ptr: *Function u32, x: u32) -> u32`,
/// which does `*ptr += x; return *ptr;`, and a Private u32 variable.
fn module_with_helper(body: impl FnOnce(&mut Builder, u32, u32, u32)) -> Vec<u32> {
    let mut b = Builder::new();
    b.set_version(1, 6);
    b.capability(Capability::Shader);
    b.memory_model(AddressingModel::Logical, MemoryModel::GLSL450);
    let void = b.type_void();
    let uint = b.type_int(32, 0);
    let ptr = b.type_pointer(None, StorageClass::Function, uint);
    let private_ptr = b.type_pointer(None, StorageClass::Private, uint);
    let out = b.variable(private_ptr, None, StorageClass::Private, None);
    let helper_ty = b.type_function(uint, vec![ptr, uint]);
    let helper = b
        .begin_function(uint, None, FunctionControl::NONE, helper_ty)
        .unwrap();
    let p = b.function_parameter(ptr).unwrap();
    let x = b.function_parameter(uint).unwrap();
    b.begin_block(None).unwrap();
    let old = b.load(uint, None, p, None, []).unwrap();
    let sum = b.i_add(uint, None, old, x).unwrap();
    b.store(p, sum, None, []).unwrap();
    b.ret_value(sum).unwrap();
    b.end_function().unwrap();

    let main_ty = b.type_function(void, vec![]);
    let main = b
        .begin_function(void, None, FunctionControl::NONE, main_ty)
        .unwrap();
    b.begin_block(None).unwrap();
    body(&mut b, helper, uint, out);
    b.end_function().unwrap();
    b.entry_point(ExecutionModel::GLCompute, main, "main", []);
    b.execution_mode(main, ExecutionMode::LocalSize, [1, 1, 1]);
    b.module().assemble()
}

#[test]
fn pointer_parameters_are_promoted_and_each_call_is_inlined() {
    let words = module_with_helper(|b, helper, uint, out| {
        let ptr = b.type_pointer(None, StorageClass::Function, uint);
        let var = b.variable(ptr, None, StorageClass::Function, None);
        let one = b.constant_bit32(uint, 1);
        let two = b.constant_bit32(uint, 2);
        b.store(var, one, None, []).unwrap();
        b.function_call(uint, None, helper, [var, two]).unwrap();
        let r = b.function_call(uint, None, helper, [var, two]).unwrap();
        b.store(out, r, None, []).unwrap();
        b.ret().unwrap();
    });
    let shader = translate_words_ok(&words);
    assert_eq!(function_globals(&shader), 0, "{shader}");
    let adds: Vec<_> = ops(&shader)
        .into_iter()
        .filter_map(|op| match op {
            Op::Binary(BinaryOp::IAdd, a, b) => Some((*a, *b)),
            _ => None,
        })
        .collect();
    assert_eq!(adds.len(), 2, "{shader}");
    // The second call adds to what the first one left in the variable.
    let first_sum = insts(&shader)
        .into_iter()
        .find(|&i| matches!(shader.insts[i].op, Op::Binary(BinaryOp::IAdd, ..)))
        .and_then(|i| shader.insts[i].result)
        .unwrap();
    assert_eq!(adds[1].0, first_sum, "{shader}");
    assert_eq!(shader.const_value(adds[0].0), Some(1));
    let stored: Vec<_> = stores(&shader)
        .into_iter()
        .filter(|&(_, gv, _)| shader.globals[gv].class == Class::Private)
        .map(|(v, ..)| v)
        .collect();
    let second_sum = insts(&shader)
        .into_iter()
        .filter(|&i| matches!(shader.insts[i].op, Op::Binary(BinaryOp::IAdd, ..)))
        .nth(1)
        .and_then(|i| shader.insts[i].result)
        .unwrap();
    assert_eq!(stored, [second_sum]);
}

#[test]
fn recursion_is_rejected_at_the_call() {
    // main calls f, f calls itself.
    let mut b = Builder::new();
    b.set_version(1, 6);
    b.capability(Capability::Shader);
    b.memory_model(AddressingModel::Logical, MemoryModel::GLSL450);
    let void = b.type_void();
    let fn_ty = b.type_function(void, vec![]);
    let f = b.id();
    b.begin_function(void, Some(f), FunctionControl::NONE, fn_ty)
        .unwrap();
    b.begin_block(None).unwrap();
    let inner = b.function_call(void, None, f, []).unwrap();
    b.ret().unwrap();
    b.end_function().unwrap();
    let main = b
        .begin_function(void, None, FunctionControl::NONE, fn_ty)
        .unwrap();
    b.begin_block(None).unwrap();
    b.function_call(void, None, f, []).unwrap();
    b.ret().unwrap();
    b.end_function().unwrap();
    b.entry_point(ExecutionModel::GLCompute, main, "main", []);
    b.execution_mode(main, ExecutionMode::LocalSize, [1, 1, 1]);
    let err = translate_words(&b.module().assemble()).unwrap_err();
    let FrontendError::Unsupported {
        opcode, result_id, ..
    } = &err
    else {
        panic!("{err:?}");
    };
    assert_eq!(
        (opcode.as_str(), *result_id),
        ("OpFunctionCall", Some(inner))
    );
    assert!(err.to_string().contains("recursive"), "{err}");
}

#[test]
fn the_old_call_test_module_now_inlines() {
    let shader = shader_of("frontend/tests/data/call.comp.spv");
    // helper() has one empty block: main is its entry, the inlined body
    // and the continuation, all plain jumps to a return.
    assert!(shader.layout.len() >= 2);
    assert!(ops(&shader).iter().all(|op| !matches!(op, Op::Unreachable)));
}

fn translate_words_ok(words: &[u32]) -> spvsass_frontend::ir::Shader {
    translate_words(words).unwrap_or_else(|e| panic!("{e}"))
}

fn translate_words(words: &[u32]) -> Result<spvsass_frontend::ir::Shader, FrontendError> {
    spvsass_frontend::translate(words, &Default::default())
}

#[test]
fn a_callee_variable_initializer_applies_at_every_call() {
    // counter() { var c: u32 = 5; c = c + 1; return c; }, called in a loop:
    // the variable moves to main's first block, yet every iteration's call
    // must start from 5 again.
    let mut b = Builder::new();
    b.set_version(1, 6);
    b.capability(Capability::Shader);
    b.memory_model(AddressingModel::Logical, MemoryModel::GLSL450);
    let void = b.type_void();
    let uint = b.type_int(32, 0);
    let boolean = b.type_bool();
    let ptr = b.type_pointer(None, StorageClass::Function, uint);
    let private_ptr = b.type_pointer(None, StorageClass::Private, uint);
    let out = b.variable(private_ptr, None, StorageClass::Private, None);
    let zero = b.constant_bit32(uint, 0);
    let one = b.constant_bit32(uint, 1);
    let two = b.constant_bit32(uint, 2);
    let five = b.constant_bit32(uint, 5);
    let counter_ty = b.type_function(uint, vec![]);
    let counter = b
        .begin_function(uint, None, FunctionControl::NONE, counter_ty)
        .unwrap();
    b.begin_block(None).unwrap();
    let c = b.variable(ptr, None, StorageClass::Function, Some(five));
    let v = b.load(uint, None, c, None, []).unwrap();
    let next = b.i_add(uint, None, v, one).unwrap();
    b.store(c, next, None, []).unwrap();
    b.ret_value(next).unwrap();
    b.end_function().unwrap();
    let main_ty = b.type_function(void, vec![]);
    let main = b
        .begin_function(void, None, FunctionControl::NONE, main_ty)
        .unwrap();
    let (header, body, cont, merge) = (b.id(), b.id(), b.id(), b.id());
    let entry = b.begin_block(None).unwrap();
    b.branch(header).unwrap();
    b.begin_block(Some(header)).unwrap();
    let i_next = b.id();
    let i = b.phi(uint, None, [(zero, entry), (i_next, cont)]).unwrap();
    b.loop_merge(merge, cont, rspirv::spirv::LoopControl::NONE, [])
        .unwrap();
    b.branch(body).unwrap();
    b.begin_block(Some(body)).unwrap();
    let r = b.function_call(uint, None, counter, []).unwrap();
    b.store(out, r, None, []).unwrap();
    b.branch(cont).unwrap();
    b.begin_block(Some(cont)).unwrap();
    b.i_add(uint, Some(i_next), i, one).unwrap();
    let again = b.u_less_than(boolean, None, i_next, two).unwrap();
    b.branch_conditional(again, header, merge, []).unwrap();
    b.begin_block(Some(merge)).unwrap();
    b.ret().unwrap();
    b.end_function().unwrap();
    b.entry_point(ExecutionModel::GLCompute, main, "main", []);
    b.execution_mode(main, ExecutionMode::LocalSize, [1, 1, 1]);
    let shader = translate_words_ok(&b.module().assemble());
    // The callee's increment adds 1 to the constant 5, not to a value
    // carried around the loop.
    let increments: Vec<_> = ops(&shader)
        .into_iter()
        .filter_map(|op| match op {
            Op::Binary(BinaryOp::IAdd, a, b) if shader.const_value(*b) == Some(1) => {
                Some(shader.const_value(*a))
            }
            _ => None,
        })
        .collect();
    assert!(increments.contains(&Some(5)), "{shader}");
    assert_eq!(increments.len(), 2, "{shader}");
}
