//! Images, samplers and texel buffers in the frontend: the GLSL shaders of
//! tests/shaders/img_*.comp.glsl translate into the IR's image ops with
//! their operands, and what stays out is refused naming the instruction.

use crate::common;

use common::*;
use spvsass_frontend::ir::{ImageDim, ImageInst, ImageOp, Op, Shader, StorageClass, Type};

fn image_insts(shader: &Shader) -> Vec<&ImageInst> {
    ops(shader)
        .into_iter()
        .filter_map(|op| match op {
            Op::Image(i) => Some(&**i),
            _ => None,
        })
        .collect()
}

fn dim_of(shader: &Shader, i: &ImageInst) -> ImageDim {
    match shader.types[i.ty] {
        Type::Image(t) => t.dim,
        ref other => panic!("not an image type: {other:?}"),
    }
}

#[test]
fn texel_buffers_fetch_read_and_write() {
    let sh = shader_of("tests/shaders/img_texel_buffer.comp.spv");
    let images = image_insts(&sh);
    let kinds: Vec<ImageOp> = images.iter().map(|i| i.op).collect();
    assert_eq!(
        kinds,
        [
            ImageOp::Fetch,
            ImageOp::Fetch,
            ImageOp::Write,
            ImageOp::Read
        ]
    );
    assert!(images.iter().all(|i| dim_of(&sh, i) == ImageDim::Buffer));
    assert!(images[2].texel.is_some() && images[2].coord.is_some());
    // The three handles come from UniformConstant variables.
    let handles = sh
        .globals
        .values()
        .filter(|g| g.class == StorageClass::UniformConstant)
        .count();
    assert_eq!(handles, 3);
}

#[test]
fn storage_images_load_store_and_size() {
    let sh = shader_of("tests/shaders/img_storage2d.comp.spv");
    let images = image_insts(&sh);
    let count = |op: ImageOp| images.iter().filter(|i| i.op == op).count();
    assert_eq!(count(ImageOp::Read), 3);
    assert_eq!(count(ImageOp::Write), 3);
    assert_eq!(count(ImageOp::QuerySize), 3);
    assert!(images.iter().all(|i| dim_of(&sh, i) == ImageDim::D2));
}

#[test]
fn sampled_lookups_keep_lod_offset_and_component() {
    let sh = shader_of("tests/shaders/img_sample_lod.comp.spv");
    let images = image_insts(&sh);
    let samples: Vec<_> = images
        .iter()
        .filter(|i| i.op == ImageOp::SampleLod)
        .collect();
    assert_eq!(samples.len(), 3);
    assert!(samples.iter().all(|i| i.lod.is_some()));
    assert_eq!(samples.iter().filter(|i| i.offset.is_some()).count(), 1);
    assert!(
        images
            .iter()
            .any(|i| i.op == ImageOp::Gather { component: 1 })
    );
    // The separate image and sampler are combined.
    assert!(
        ops(&sh)
            .iter()
            .any(|op| matches!(op, Op::SampledImage { .. }))
    );
    let levels = images
        .iter()
        .filter(|i| i.op == ImageOp::QueryLevels)
        .count();
    assert_eq!(levels, 1);
}

#[test]
fn every_shape_translates() {
    let sh = shader_of("tests/shaders/img_shapes.comp.spv");
    let images = image_insts(&sh);
    let dims: Vec<ImageDim> = images.iter().map(|i| dim_of(&sh, i)).collect();
    for d in [ImageDim::D1, ImageDim::D2, ImageDim::D3, ImageDim::Cube] {
        assert!(dims.contains(&d), "{d:?} missing");
    }
    // The shadow sample and the compare gather carry their reference.
    assert_eq!(images.iter().filter(|i| i.dref.is_some()).count(), 2);
    assert_eq!(images.iter().filter(|i| i.grad.is_some()).count(), 1);
    assert_eq!(images.iter().filter(|i| i.sample.is_some()).count(), 1);
    let multisampled = images.iter().any(|i| match sh.types[i.ty] {
        Type::Image(t) => t.multisampled && t.sampled,
        _ => false,
    });
    assert!(multisampled);
}

#[test]
fn image_atomics_go_through_texel_pointers() {
    let sh = shader_of("tests/shaders/img_atomic.comp.spv");
    let pointers = ops(&sh)
        .iter()
        .filter(|op| matches!(op, Op::ImageTexelPointer { .. }))
        .count();
    assert_eq!(pointers, 2);
    let atomics = ops(&sh)
        .iter()
        .filter(|op| matches!(op, Op::Atomic { .. }))
        .count();
    assert_eq!(atomics, 2);
}
