//! The translated IR computes what the GLSL source says: a small
//! interpreter runs one invocation of a compute shader over 32-bit integer
//! IR and collects what it stores to its buffer.

use crate::common;

use common::*;
use spvsass_frontend::ir::{BinaryOp, BlockCall, BuiltIn, CmpOp, Op, Shader, Value};
use std::collections::HashMap;

/// Runs invocation `index` of `shader`; returns the (element, value) pairs
/// stored through access chains, the last index being the element.
fn run(shader: &Shader, index: u32) -> Vec<(u64, u64)> {
    let mut vals: HashMap<Value, u64> = HashMap::new();
    let mut stored = Vec::new();
    let mut block = shader.entry_block();
    for _step in 0..100_000 {
        let mut next: Option<&BlockCall> = None;
        for &inst in &shader.blocks[block].insts {
            let data = &shader.insts[inst];
            let get = |v: &Value| vals[v];
            let result = match &data.op {
                Op::Const(bits) => Some(*bits),
                // Any value will do; a recognisable one shows if it leaks
                // into a result.
                Op::Undef => Some(0xdead_beef),
                Op::VarAddr(_) | Op::AccessChain { .. } => Some(0),
                Op::Load { ptr } => match pointer_target(shader, *ptr) {
                    (_, Some(BuiltIn::LocalInvocationIndex)) => Some(u64::from(index)),
                    other => panic!("load from {other:?}"),
                },
                Op::Store { ptr, value } => {
                    let Some(Op::AccessChain { indices, .. }) =
                        shader.def_inst(*ptr).map(|d| &d.op)
                    else {
                        panic!("store through {ptr}");
                    };
                    stored.push((get(indices.last().unwrap()), get(value)));
                    None
                }
                Op::Binary(op, a, b) => Some(binary(*op, get(a) as u32, get(b) as u32)),
                Op::Cmp(op, a, b) => Some(compare(*op, get(a) as u32, get(b) as u32) as u64),
                Op::Select {
                    cond,
                    if_true,
                    if_false,
                } => Some(if get(cond) != 0 {
                    get(if_true)
                } else {
                    get(if_false)
                }),
                Op::Jump(call) => {
                    next = Some(call);
                    None
                }
                Op::Branch {
                    cond,
                    then_dest,
                    else_dest,
                } => {
                    next = Some(if get(cond) != 0 { then_dest } else { else_dest });
                    None
                }
                Op::Switch {
                    selector,
                    default,
                    cases,
                } => {
                    let v = get(selector);
                    next = Some(
                        cases
                            .iter()
                            .find(|(lit, _)| *lit == v)
                            .map_or(default, |(_, c)| c),
                    );
                    None
                }
                Op::Return => return stored,
                other => panic!("the interpreter does not know {other:?}"),
            };
            if let (Some(v), Some(r)) = (data.result, result) {
                vals.insert(v, r);
            }
        }
        let call = next.expect("the block ends in a jump");
        // Block arguments are read before any parameter is written.
        let args: Vec<u64> = call.args.iter().map(|a| vals[a]).collect();
        for (&param, arg) in shader.blocks[call.block].params.iter().zip(args) {
            vals.insert(param, arg);
        }
        block = call.block;
    }
    panic!("invocation {index} runs forever");
}

fn binary(op: BinaryOp, a: u32, b: u32) -> u64 {
    u64::from(match op {
        BinaryOp::IAdd => a.wrapping_add(b),
        BinaryOp::ISub => a.wrapping_sub(b),
        BinaryOp::IMul => a.wrapping_mul(b),
        BinaryOp::And => a & b,
        BinaryOp::Or => a | b,
        BinaryOp::Xor => a ^ b,
        BinaryOp::Shl => a << (b & 31),
        BinaryOp::ShrLogical => a >> (b & 31),
        other => panic!("the interpreter does not know {other:?}"),
    })
}

fn compare(op: CmpOp, a: u32, b: u32) -> bool {
    match op {
        CmpOp::IEq => a == b,
        CmpOp::INe => a != b,
        CmpOp::ULt => a < b,
        CmpOp::ULe => a <= b,
        CmpOp::UGt => a > b,
        CmpOp::UGe => a >= b,
        other => panic!("the interpreter does not know {other:?}"),
    }
}

/// frontend/tests/data/loop.comp.glsl in Rust.
fn loop_model(n: u32) -> u32 {
    let mut acc = 0u32;
    for k in 0..n {
        if k & 1 == 0 {
            acc = acc.wrapping_add(k);
        } else {
            acc ^= k.wrapping_mul(3);
        }
    }
    acc
}

/// frontend/tests/data/nested.comp.glsl in Rust.
fn nested_model(n: u32) -> u32 {
    let mut acc = 1u32;
    for a in 0..n {
        if a == 5 {
            continue;
        }
        let mut b = a;
        while b != 0 {
            acc = acc.wrapping_mul(3).wrapping_add(b);
            b >>= 1;
        }
        if acc > 100_000 {
            acc &= 0xffff;
        }
        if a > 40 {
            break;
        }
    }
    acc
}

#[test]
fn loop_computes_what_the_source_says() {
    let shader = shader_of("frontend/tests/data/loop.comp.spv");
    for n in 0..64 {
        let want = vec![(u64::from(n), u64::from(loop_model(n)))];
        assert_eq!(run(&shader, n), want, "invocation {n}\n{shader}");
    }
}

#[test]
fn nested_loops_compute_what_the_source_says() {
    let shader = shader_of("frontend/tests/data/nested.comp.spv");
    for n in 0..64 {
        let want = vec![(u64::from(n), u64::from(nested_model(n)))];
        assert_eq!(run(&shader, n), want, "invocation {n}\n{shader}");
    }
}

/// frontend/tests/data/switch_calls.comp.glsl in Rust.
fn switch_calls_model(i: u32) -> u32 {
    let classify = |v: u32| -> u32 {
        let r = match v & 7 {
            0 => 3,
            1 => 2,
            2 | 3 => 10,
            6 if v > 32 => return 7,
            6 => 60,
            _ => 100,
        };
        r + (v >> 3)
    };
    classify(i) + 2 * i
}

#[test]
fn inlined_switch_and_inout_calls_compute_what_the_source_says() {
    let shader = shader_of("frontend/tests/data/switch_calls.comp.spv");
    assert!(
        ops(&shader)
            .iter()
            .any(|op| matches!(op, Op::Switch { .. }))
    );
    for n in 0..64 {
        let want = vec![(u64::from(n), u64::from(switch_calls_model(n)))];
        assert_eq!(run(&shader, n), want, "invocation {n}\n{shader}");
    }
}
