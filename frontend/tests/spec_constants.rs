//! Specialization constants: defaults, user overrides by SpecId, and
//! overrides that do not fit.

use crate::common;

use common::*;
use spvsass_frontend::ir::{Op, Shader, Type};
use spvsass_frontend::{FrontendError, FrontendOptions, SpecValue, translate};

const SPEC_OPS: &str = "tests/shaders/spec_constant_ops.comp.spv";
const QUANTIZE: &str = "tests/shaders/spec_op_quantize.comp.spv";

fn with_specs(path: &str, specs: &[(u32, &str)]) -> Result<Shader, FrontendError> {
    let options = FrontendOptions {
        entry: None,
        spec_constants: specs
            .iter()
            .map(|&(id, v)| (id, v.parse::<SpecValue>().unwrap()))
            .collect(),
    };
    translate(&words_of(path), &options)
}

fn shared_array_len(shader: &Shader) -> Option<u32> {
    shader.types.values().find_map(|t| match t {
        Type::Array { len, .. } => *len,
        _ => None,
    })
}

/// The constants of `shader` with type `ty`, as bits.
fn constants(shader: &Shader, ty: &Type) -> Vec<u64> {
    insts(shader)
        .into_iter()
        .filter_map(|i| {
            let d = &shader.insts[i];
            match (&d.op, d.result) {
                (Op::Const(bits), Some(v)) if shader.value_type(v) == ty => Some(*bits),
                _ => None,
            }
        })
        .collect()
}

#[test]
fn defaults_apply_without_overrides() {
    let shader = shader_of(SPEC_OPS);
    // local_size_x_id = 0 defaults to 1; TILE = 8 gives 8 * 8 + 1.
    assert_eq!(shader.workgroup_size, [1, 1, 1]);
    assert_eq!(shared_array_len(&shader), Some(65));
    let gain = constants(&shader, &Type::Scalar(spvsass_frontend::ir::Scalar::F32));
    assert!(gain.contains(&u64::from(1.5f32.to_bits())), "{gain:x?}");
}

#[test]
fn overrides_change_sizes_and_values() {
    let shader = with_specs(SPEC_OPS, &[(0, "64"), (1, "4"), (2, "true"), (3, "2.5")]).unwrap();
    assert_eq!(shader.workgroup_size, [64, 1, 1]);
    // The spec-constant expression TILE * TILE + 1 is re-evaluated.
    assert_eq!(shared_array_len(&shader), Some(17));
    let floats = constants(&shader, &Type::Scalar(spvsass_frontend::ir::Scalar::F32));
    assert!(floats.contains(&u64::from(2.5f32.to_bits())), "{floats:x?}");
    let bools = constants(&shader, &Type::Scalar(spvsass_frontend::ir::Scalar::Bool));
    assert_eq!(bools, [1]);
}

#[test]
fn the_last_override_of_a_spec_id_wins() {
    let shader = with_specs(SPEC_OPS, &[(1, "2"), (1, "3")]).unwrap();
    assert_eq!(shared_array_len(&shader), Some(10));
}

#[test]
fn spec_constant_op_select_and_composite_extract_follow_overrides() {
    // second = CompositeExtract(pair{count, flag ? count * 3 : 0}, 1).
    let u32_ty = Type::Scalar(spvsass_frontend::ir::Scalar::U32);
    let default = shader_of(QUANTIZE);
    assert!(constants(&default, &u32_ty).contains(&12));
    let off = with_specs(QUANTIZE, &[(7, "5"), (8, "false")]).unwrap();
    let on = with_specs(QUANTIZE, &[(7, "5")]).unwrap();
    assert!(constants(&on, &u32_ty).contains(&15));
    assert!(!constants(&off, &u32_ty).contains(&15));
}

#[test]
fn unknown_spec_id_is_an_error() {
    assert_eq!(
        with_specs(SPEC_OPS, &[(42, "1")]).unwrap_err(),
        FrontendError::Specialization {
            spec_id: 42,
            what: "no specialization constant has this SpecId".into()
        }
    );
}

#[test]
fn override_that_does_not_fit_is_an_error() {
    // SpecId 1 is a 32-bit signed int, 2 a bool.
    for (id, value) in [(1, "4294967296"), (2, "7"), (1, "1.5")] {
        let err = with_specs(SPEC_OPS, &[(id, value)]).unwrap_err();
        assert!(
            matches!(err, FrontendError::Specialization { spec_id, .. } if spec_id == id),
            "{id}={value}: {err:?}"
        );
    }
}

#[test]
fn spec_values_parse() {
    assert_eq!("true".parse::<SpecValue>(), Ok(SpecValue::Bool(true)));
    assert_eq!("-12".parse::<SpecValue>(), Ok(SpecValue::Int(-12)));
    assert_eq!("0x10".parse::<SpecValue>(), Ok(SpecValue::Int(16)));
    assert_eq!("2.5".parse::<SpecValue>(), Ok(SpecValue::Float(2.5)));
    assert!("twelve".parse::<SpecValue>().is_err());
}
