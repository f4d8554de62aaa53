//! Malformed composite instructions (issue 18's mutated inputs) are
//! `FrontendError::Malformed` naming the opcode and result id, never a
//! panic later on: constituent counts, indices past a scalar, indices out
//! of range, shuffle components past both vectors.

use crate::common;

use common::*;
use spvsass_frontend::{FrontendError, FrontendOptions, translate};

/// Translates a compute module built by `body` (which returns the id the
/// error must name) and returns the error's opcode, result id and text.
fn malformed(body: impl FnOnce(&mut rspirv::dr::Builder) -> u32) -> (String, Option<u32>, String) {
    let mut id = 0;
    let words = compute_module(|b| {
        id = body(b);
        b.ret().unwrap();
    });
    let err = translate(&words, &FrontendOptions::default()).unwrap_err();
    let message = err.to_string();
    let FrontendError::Malformed {
        opcode, result_id, ..
    } = err
    else {
        panic!("{message}");
    };
    assert_eq!(result_id, Some(id), "{message}");
    (opcode, result_id, message)
}

fn vec2(b: &mut rspirv::dr::Builder) -> (u32, u32, u32) {
    let float = b.type_float(32, None);
    let vec2 = b.type_vector(float, 2);
    let one = b.constant_bit32(float, 1.0f32.to_bits());
    (float, vec2, one)
}

#[test]
fn too_many_constituents_for_a_vector() {
    let (opcode, _, message) = malformed(|b| {
        let (_, vec2, one) = vec2(b);
        b.composite_construct(vec2, None, [one, one, one]).unwrap()
    });
    assert_eq!(opcode, "OpCompositeConstruct");
    assert!(message.contains("3 components, f32x2 has 2"), "{message}");
}

#[test]
fn too_many_constituents_for_a_constant_array() {
    let (opcode, _, message) = malformed(|b| {
        let (float, _, one) = vec2(b);
        let uint = b.type_int(32, 0);
        let two = b.constant_bit32(uint, 2);
        let array = b.type_array(float, two);
        let c = b.constant_composite(array, [one, one, one]);
        b.composite_extract(float, None, c, [0]).unwrap();
        c
    });
    assert_eq!(opcode, "OpConstantComposite");
    assert!(message.contains("3 constituents"), "{message}");
}

#[test]
fn an_extra_index_past_a_scalar() {
    let (opcode, _, message) = malformed(|b| {
        let (float, vec2, one) = vec2(b);
        let v = b.composite_construct(vec2, None, [one, one]).unwrap();
        b.composite_extract(float, None, v, [0, 0]).unwrap()
    });
    assert_eq!(opcode, "OpCompositeExtract");
    assert!(message.contains("past a scalar"), "{message}");
}

#[test]
fn an_out_of_range_constant_index() {
    let (opcode, _, message) = malformed(|b| {
        let (float, vec2, one) = vec2(b);
        let v = b.composite_construct(vec2, None, [one, one]).unwrap();
        b.composite_extract(float, None, v, [5]).unwrap()
    });
    assert_eq!(opcode, "OpCompositeExtract");
    assert!(
        message.contains("index 0 is 5, past the 2 parts"),
        "{message}"
    );
    let (opcode, _, _) = malformed(|b| {
        let (_, vec2, one) = vec2(b);
        let v = b.composite_construct(vec2, None, [one, one]).unwrap();
        b.composite_insert(vec2, None, one, v, [2]).unwrap()
    });
    assert_eq!(opcode, "OpCompositeInsert");
}

#[test]
fn a_shuffle_component_past_both_vectors() {
    let (opcode, _, message) = malformed(|b| {
        let (_, vec2, one) = vec2(b);
        let v = b.composite_construct(vec2, None, [one, one]).unwrap();
        b.vector_shuffle(vec2, None, v, v, [4, 0]).unwrap()
    });
    assert_eq!(opcode, "OpVectorShuffle");
    assert!(message.contains("component 4"), "{message}");
}

#[test]
fn an_extracted_component_of_the_wrong_type() {
    let (opcode, _, message) = malformed(|b| {
        let (_, vec2, one) = vec2(b);
        let uint = b.type_int(32, 0);
        let v = b.composite_construct(vec2, None, [one, one]).unwrap();
        b.composite_extract(uint, None, v, [1]).unwrap()
    });
    assert_eq!(opcode, "OpCompositeExtract");
    assert!(message.contains("the result has type u32"), "{message}");
}
