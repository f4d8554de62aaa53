//! Bad input gives a precise error, never a panic.

use crate::common;

use common::*;
use rspirv::spirv::{Capability, ExecutionMode, ExecutionModel};
use spvsass_frontend::{FrontendError, FrontendOptions, translate, words_from_bytes};

const POINT: &str = "tests/shaders/point.mesh.spv";

fn options(entry: Option<&str>) -> FrontendOptions {
    FrontendOptions {
        entry: entry.map(str::to_string),
        ..Default::default()
    }
}

fn translate_words(words: &[u32]) -> Result<spvsass_frontend::ir::Shader, FrontendError> {
    translate(words, &FrontendOptions::default())
}

#[test]
fn empty_input_is_not_spirv() {
    assert!(matches!(
        translate_words(&[]),
        Err(FrontendError::NotSpirv { .. })
    ));
    assert!(matches!(
        words_from_bytes(&[]),
        Err(FrontendError::NotSpirv { .. })
    ));
}

#[test]
fn wrong_magic_is_not_spirv() {
    let mut words = words_of(POINT);
    words[0] = 0xdead_beef;
    let err = translate_words(&words).unwrap_err();
    assert!(matches!(err, FrontendError::NotSpirv { .. }), "{err:?}");
    assert!(err.to_string().contains("magic"), "{err}");

    let mut bytes = std::fs::read(repo_path(POINT)).unwrap();
    bytes[0] ^= 0xff;
    assert!(matches!(
        words_from_bytes(&bytes),
        Err(FrontendError::NotSpirv { .. })
    ));
}

#[test]
fn bytes_that_are_not_whole_words_are_not_spirv() {
    let mut bytes = std::fs::read(repo_path(POINT)).unwrap();
    bytes.pop();
    let err = words_from_bytes(&bytes).unwrap_err();
    assert!(
        err.to_string().contains("whole number of 32-bit words"),
        "{err}"
    );
}

#[test]
fn big_endian_bytes_give_the_same_words() {
    let little = std::fs::read(repo_path(POINT)).unwrap();
    let big: Vec<u8> = little
        .chunks(4)
        .flat_map(|w| w.iter().rev().copied())
        .collect();
    assert_eq!(
        words_from_bytes(&big).unwrap(),
        words_from_bytes(&little).unwrap()
    );
}

#[test]
fn byte_swapped_words_still_translate() {
    let words: Vec<u32> = words_of(POINT).iter().map(|w| w.swap_bytes()).collect();
    assert!(translate_words(&words).is_ok());
}

#[test]
fn truncated_module_is_an_error() {
    let words = words_of(POINT);
    let err = translate_words(&words[..words.len() / 2]).unwrap_err();
    assert!(
        matches!(err, FrontendError::InvalidBinary { .. }),
        "{err:?}"
    );
}

#[test]
fn every_truncation_is_an_error() {
    let words = words_of(POINT);
    for len in 0..words.len() {
        assert!(
            translate_words(&words[..len]).is_err(),
            "{len} words translated"
        );
    }
}

#[test]
fn corrupted_words_never_panic() {
    let words = words_of("tests/shaders/triangle.mesh.spv");
    for index in 5..words.len() {
        for flip in [0x1, 0x10, 0x100, 0x1_0000, 0x8000_0000, 0xffff_ffff] {
            let mut bad = words.clone();
            bad[index] ^= flip;
            // Any result will do, as long as it is not a panic.
            let _ = translate_words(&bad);
        }
    }
}

#[test]
fn unsupported_opcode_names_the_opcode_its_id_and_its_text() {
    let err = translate_file("frontend/tests/data/dpdx.comp.spv").unwrap_err();
    let FrontendError::Unsupported {
        opcode,
        result_id,
        text,
        ..
    } = &err
    else {
        panic!("{err:?}");
    };
    assert_eq!(opcode, "OpDPdx");
    assert_eq!(*result_id, Some(42));
    // As `spirv-dis --raw-id` prints it.
    assert_eq!(text, "%42 = OpDPdx %4 %5");
    let message = err.to_string();
    assert!(
        message.contains("OpDPdx %42") && message.contains("fragment"),
        "{message}"
    );
}

#[test]
fn builder_module_with_a_derivative_is_rejected_by_name() {
    let mut dot = 0;
    let words = compute_module(|b| {
        let float = b.type_float(32, None);
        let vec2 = b.type_vector(float, 2);
        let one = b.constant_bit32(float, 1.0f32.to_bits());
        let v = b.constant_composite(vec2, [one, one]);
        dot = b.d_pdy(vec2, None, v).unwrap();
        b.ret().unwrap();
    });
    let message = translate_words(&words).unwrap_err().to_string();
    assert!(
        message.contains("OpDPdy") && message.contains(&format!("%{dot}")),
        "{message}"
    );
}

#[test]
fn implicit_lod_sampling_is_refused_at_the_instruction() {
    let mut sample = 0;
    let words = compute_module(|b| {
        let float = b.type_float(32, None);
        let vec2 = b.type_vector(float, 2);
        let vec4 = b.type_vector(float, 4);
        let image = b.type_image(
            float,
            rspirv::spirv::Dim::Dim2D,
            0,
            0,
            0,
            1,
            rspirv::spirv::ImageFormat::Unknown,
            None,
        );
        let sampled = b.type_sampled_image(image);
        let ptr = b.type_pointer(None, rspirv::spirv::StorageClass::UniformConstant, sampled);
        let var = b.variable(
            ptr,
            None,
            rspirv::spirv::StorageClass::UniformConstant,
            None,
        );
        let one = b.constant_bit32(float, 1.0f32.to_bits());
        let coord = b.constant_composite(vec2, [one, one]);
        let handle = b.load(sampled, None, var, None, []).unwrap();
        sample = b
            .image_sample_implicit_lod(vec4, None, handle, coord, None, [])
            .unwrap();
        b.ret().unwrap();
    });
    let err = translate_words(&words).unwrap_err();
    let FrontendError::Unsupported {
        opcode, result_id, ..
    } = &err
    else {
        panic!("{err:?}");
    };
    assert_eq!(
        (opcode.as_str(), *result_id),
        ("OpImageSampleImplicitLod", Some(sample))
    );
    assert!(err.to_string().contains("derivatives"), "{err}");
}

#[test]
fn self_referential_buffer_reference_is_unsupported_not_a_hang() {
    let err = translate_file("frontend/tests/data/linked_list.comp.spv").unwrap_err();
    let FrontendError::Unsupported { opcode, what, .. } = &err else {
        panic!("{err:?}");
    };
    assert!(opcode.starts_with("OpType"), "{err}");
    assert!(what.contains("recursive types"), "{err}");
}

#[test]
fn unknown_extension_is_rejected_by_name() {
    let mut words = compute_module(|b| b.ret().unwrap());
    // Add `OpExtension "SPV_NV_ray_tracing"` after the header: 19 bytes of
    // name and a terminating zero in 5 words, plus the opcode word.
    let mut name = b"SPV_NV_ray_tracing".to_vec();
    name.resize(20, 0);
    let mut inst = vec![(6 << 16) | 10];
    inst.extend(
        name.chunks(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
    );
    words.splice(5..5, inst);
    assert_eq!(
        translate_words(&words).unwrap_err(),
        FrontendError::UnsupportedExtension("SPV_NV_ray_tracing".into())
    );
}

#[test]
fn unknown_capability_is_rejected_by_name() {
    let mut words = compute_module(|b| b.ret().unwrap());
    // Add "OpCapability Kernel" after the header.
    words.splice(5..5, [(2 << 16) | 17, Capability::Kernel as u32]);
    assert_eq!(
        translate_words(&words).unwrap_err(),
        FrontendError::UnsupportedCapability("Kernel".into())
    );
}

#[test]
fn fragment_shaders_are_rejected() {
    let words = build_module(ExecutionModel::Fragment, &[], |b| b.ret().unwrap());
    let err = translate_words(&words).unwrap_err();
    assert_eq!(
        err,
        FrontendError::UnsupportedExecutionModel {
            entry: "main".into(),
            model: "Fragment".into()
        }
    );
    assert!(err.to_string().contains("Fragment"));
}

#[test]
fn mesh_shader_needs_its_output_modes() {
    let words = build_module(
        ExecutionModel::MeshEXT,
        &[
            (ExecutionMode::LocalSize, &[1, 1, 1]),
            (ExecutionMode::OutputPoints, &[]),
        ],
        |b| b.ret().unwrap(),
    );
    let err = translate_words(&words).unwrap_err();
    assert!(
        matches!(err, FrontendError::MissingExecutionMode { .. }),
        "{err:?}"
    );
}

#[test]
fn missing_local_size_is_an_error() {
    let words = build_module(ExecutionModel::GLCompute, &[], |b| b.ret().unwrap());
    let err = translate_words(&words).unwrap_err();
    assert_eq!(
        err,
        FrontendError::MissingExecutionMode {
            entry: "main".into(),
            mode: "LocalSize".into()
        }
    );
}

#[test]
fn literal_local_size_is_read() {
    let words = build_module(
        ExecutionModel::GLCompute,
        &[(ExecutionMode::LocalSize, &[8, 4, 2])],
        |b| b.ret().unwrap(),
    );
    assert_eq!(translate_words(&words).unwrap().workgroup_size, [8, 4, 2]);
}

/// A module with two GLCompute entry points, "first" and "second".
fn two_entry_points() -> Vec<u32> {
    use rspirv::binary::Assemble;
    use rspirv::spirv::{AddressingModel, FunctionControl, MemoryModel};
    let mut b = rspirv::dr::Builder::new();
    b.capability(Capability::Shader);
    b.memory_model(AddressingModel::Logical, MemoryModel::GLSL450);
    let void = b.type_void();
    let fn_ty = b.type_function(void, vec![]);
    for (name, size) in [("first", 1), ("second", 2)] {
        let f = b
            .begin_function(void, None, FunctionControl::NONE, fn_ty)
            .unwrap();
        b.begin_block(None).unwrap();
        b.ret().unwrap();
        b.end_function().unwrap();
        b.entry_point(ExecutionModel::GLCompute, f, name, []);
        b.execution_mode(f, ExecutionMode::LocalSize, [size, 1, 1]);
    }
    b.module().assemble()
}

#[test]
fn several_entry_points_need_a_name() {
    let err = translate(&two_entry_points(), &options(None)).unwrap_err();
    assert_eq!(
        err,
        FrontendError::AmbiguousEntryPoint {
            available: vec!["first".into(), "second".into()]
        }
    );
    let message = err.to_string();
    assert!(
        message.contains("\"first\"") && message.contains("\"second\""),
        "{message}"
    );
}

#[test]
fn entry_point_is_chosen_by_name() {
    let shader = translate(&two_entry_points(), &options(Some("second"))).unwrap();
    assert_eq!(shader.entry_name, "second");
    assert_eq!(shader.workgroup_size, [2, 1, 1]);
}

#[test]
fn unknown_entry_point_name_lists_the_available_ones() {
    let err = translate(&two_entry_points(), &options(Some("third"))).unwrap_err();
    assert_eq!(
        err,
        FrontendError::EntryPointNotFound {
            name: "third".into(),
            available: vec!["first".into(), "second".into()],
        }
    );
}

#[test]
fn module_without_entry_point_is_an_error() {
    use rspirv::binary::Assemble;
    let mut b = rspirv::dr::Builder::new();
    b.capability(Capability::Shader);
    b.memory_model(
        rspirv::spirv::AddressingModel::Logical,
        rspirv::spirv::MemoryModel::GLSL450,
    );
    let words = b.module().assemble();
    assert_eq!(
        translate_words(&words).unwrap_err(),
        FrontendError::NoEntryPoint
    );
}

/// A long chain of blocks between a store and a load of a promoted
/// variable: SSA construction must not recurse once per block (a stack
/// overflow aborts the process, it cannot be caught as an error).
#[test]
fn long_block_chains_do_not_overflow_the_stack() {
    let words = compute_module(|b| {
        let uint = b.type_int(32, 0);
        let ptr = b.type_pointer(None, rspirv::spirv::StorageClass::Function, uint);
        let var = b.variable(ptr, None, rspirv::spirv::StorageClass::Function, None);
        let seven = b.constant_bit32(uint, 7);
        b.store(var, seven, None, []).unwrap();
        for _ in 0..16_000 {
            let next = b.id();
            b.branch(next).unwrap();
            b.begin_block(Some(next)).unwrap();
        }
        b.load(uint, None, var, None, []).unwrap();
        b.ret().unwrap();
    });
    translate_words(&words).unwrap();
}

/// As above with a chain of if/else diamonds, each storing to the
/// variable on one side: every merge block needs a parameter, and reading
/// the variable at the end walks back through all of them.
#[test]
fn long_chains_of_merges_do_not_overflow_the_stack() {
    let words = compute_module(|b| {
        let uint = b.type_int(32, 0);
        let boolean = b.type_bool();
        let ptr = b.type_pointer(None, rspirv::spirv::StorageClass::Function, uint);
        let var = b.variable(ptr, None, rspirv::spirv::StorageClass::Function, None);
        let seven = b.constant_bit32(uint, 7);
        let yes = b.constant_true(boolean);
        b.store(var, seven, None, []).unwrap();
        // 5000 diamonds: 15001 blocks, under the 16384 limit.
        for _ in 0..5000 {
            let (then, other, merge) = (b.id(), b.id(), b.id());
            b.selection_merge(merge, rspirv::spirv::SelectionControl::NONE)
                .unwrap();
            b.branch_conditional(yes, then, other, []).unwrap();
            b.begin_block(Some(then)).unwrap();
            b.store(var, seven, None, []).unwrap();
            b.branch(merge).unwrap();
            b.begin_block(Some(other)).unwrap();
            b.branch(merge).unwrap();
            b.begin_block(Some(merge)).unwrap();
        }
        b.load(uint, None, var, None, []).unwrap();
        b.ret().unwrap();
    });
    translate_words(&words).unwrap();
}

#[test]
fn too_many_blocks_is_an_error() {
    let words = compute_module(|b| {
        for _ in 0..17_000 {
            let next = b.id();
            b.branch(next).unwrap();
            b.begin_block(Some(next)).unwrap();
        }
        b.ret().unwrap();
    });
    let err = translate_words(&words).unwrap_err();
    assert!(
        matches!(&err, FrontendError::Unsupported { opcode, .. } if opcode == "OpFunction"),
        "{err:?}"
    );
}

#[test]
fn deeply_nested_types_are_an_error() {
    let words = compute_module(|b| {
        let uint = b.type_int(32, 0);
        let two = b.constant_bit32(uint, 2);
        let mut ty = uint;
        for _ in 0..100 {
            ty = b.type_array(ty, two);
        }
        let ptr = b.type_pointer(None, rspirv::spirv::StorageClass::Function, ty);
        let var = b.variable(ptr, None, rspirv::spirv::StorageClass::Function, None);
        b.load(ty, None, var, None, []).unwrap();
        b.ret().unwrap();
    });
    let err = translate_words(&words).unwrap_err();
    assert!(err.to_string().contains("nested deeper than 64"), "{err}");
}
