//! The image files: raw RGBA32F in file order and 8-bit PNG with clamping
//! and rounding, read back with the png decoder.

use crate::raster_common;

use raster_common::*;
use spvsass_sim::image::{png, raw_rgba32f};
use spvsass_sim::raster::{Framebuffer, RenderState, render};
use spvsass_sim::{Attributes, MeshDraw};

/// Three points: (1, 0) layer 0 with an out-of-range colour, (0, 1)
/// layer 0, (1, 1) layer 1; a 2×2 image of 2 layers.
fn image() -> Framebuffer {
    let s = RenderState {
        width: 2,
        height: 2,
        layers: 2,
        ..RenderState::default()
    };
    // Pixel centres of the 2×2 image in NDC: ±0.5.
    let p = |x: f32, y: f32, c| coloured(with_position([x, y, 0.0, 1.0]), c);
    let mut d: MeshDraw = draw(
        "points",
        &[&[0], &[1], &[2]],
        vec![
            p(0.5, -0.5, [2.0, -1.0, 0.5, 0.25]),
            p(-0.5, 0.5, [0.0, 1.0, 0.0, 1.0]),
            p(0.5, 0.5, [0.0, 0.0, 1.0, 1.0]),
        ],
    );
    let layer = |l| Attributes {
        layer: Some(l),
        ..Attributes::default()
    };
    d.workgroups[0].primitives = vec![layer(0), layer(0), layer(1)];
    render(&d, &s).expect("renders")
}

#[test]
fn raw_is_little_endian_rgba32f_rows_from_the_top_layer_after_layer() {
    let raw = raw_rgba32f(&image());
    assert_eq!(raw.len(), 2 * 2 * 2 * 16);
    let px = |i: usize| -> [f32; 4] {
        std::array::from_fn(|c| {
            let o = i * 16 + c * 4;
            f32::from_le_bytes(raw[o..o + 4].try_into().unwrap())
        })
    };
    assert_eq!(px(0), [0.0; 4]);
    assert_eq!(px(1), [2.0, -1.0, 0.5, 0.25], "layer 0, row 0, column 1");
    assert_eq!(px(2), [0.0, 1.0, 0.0, 1.0], "layer 0, row 1, column 0");
    assert_eq!(px(7), [0.0, 0.0, 1.0, 1.0], "layer 1, row 1, column 1");
    assert_eq!(&raw[16..20], &[0, 0, 0, 0x40], "2.0 little-endian");
}

#[test]
fn png_stacks_layers_and_clamps_and_rounds_to_8_bits() {
    let bytes = png(&image()).unwrap();
    let mut reader = ::png::Decoder::new(std::io::Cursor::new(bytes))
        .read_info()
        .unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!((info.width, info.height), (2, 4));
    assert_eq!(info.color_type, ::png::ColorType::Rgba);
    assert_eq!(info.bit_depth, ::png::BitDepth::Eight);
    let px = |i: usize| &buf[i * 4..i * 4 + 4];
    // 0.5 * 255 = 127.5 rounds to 128; 0.25 * 255 = 63.75 to 64.
    assert_eq!(px(1), [255, 0, 128, 64]);
    assert_eq!(px(2), [0, 255, 0, 255]);
    assert_eq!(px(7), [0, 0, 255, 255]);
    assert_eq!(px(0), [0, 0, 0, 0]);
}
