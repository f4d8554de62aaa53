//! Image files from a rendered [`Framebuffer`]: PNG for looking at, raw
//! RGBA32F for exact comparison.

use crate::raster::Framebuffer;

#[derive(Debug, thiserror::Error)]
pub enum ImageError {
    #[error("cannot encode the PNG image: {0}")]
    Png(#[from] png::EncodingError),
}

/// An 8-bit RGBA PNG: each component clamped to [0, 1] and rounded to
/// the nearest of 0..255 (NaN gives 0). Layers are stacked top to bottom,
/// so the PNG is W wide and H × layers high.
pub fn png(image: &Framebuffer) -> Result<Vec<u8>, ImageError> {
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, image.width(), image.height() * image.layers());
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let data: Vec<u8> = image
        .pixels()
        .iter()
        .flatten()
        // `as u8` saturates and maps NaN to 0.
        .map(|&c| (c.clamp(0.0, 1.0) * 255.0).round() as u8)
        .collect();
    let mut writer = encoder.write_header()?;
    writer.write_image_data(&data)?;
    writer.finish()?;
    Ok(bytes)
}

/// Raw RGBA32F: little-endian floats, row 0 at the top, layer after layer.
pub fn raw_rgba32f(image: &Framebuffer) -> Vec<u8> {
    image
        .pixels()
        .iter()
        .flatten()
        .flat_map(|c| c.to_le_bytes())
        .collect()
}
