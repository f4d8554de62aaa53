//! The image, texel-buffer and sampler flags of `spvsass run`
//! (docs/TEXTURES.md has the layout and formats):
//!
//! - `--texture [S.]B[[E]]=KIND:FORMAT:DIM:W[xH[xD]]:FILE` binds an image
//!   or texel buffer: KIND `sampled`, `combined`, `storage`,
//!   `uniform_texel_buffer` or `storage_texel_buffer`; FORMAT a Vulkan
//!   format name (`r8g8b8a8_unorm`); DIM `1d`, `2d`, `3d`, `cube`,
//!   `1d_array`, `2d_array`, `cube_array` or `buffer`; FILE the texels in
//!   the simulator's layout (one level, one sample), or a PNG (`.png`,
//!   R8G8B8A8 formats, W×H taken from the file when the size is `png`).
//! - `--sampler [S.]B[[E]]=OPTIONS` binds a separate sampler, or gives a
//!   combined image-sampler at the same slot its sampler: a comma list of
//!   `nearest`/`linear` (both filters), `repeat`/`mirror`/`clamp`/`border`
//!   (all three address modes), `unnormalized`.
//!
//! Storage images and storage texel buffers are written back with
//! `--out S.B=FILE` (the texels, in the same layout). With `--reference`
//! the same flags become the run description's images and samplers
//! (`describe`).

use spvsass::reference::{Data, ImageDescription, SamplerDescription};
use spvsass::sim::Slot;
use spvsass::sim::texture::host::{
    BoundImage, BoundSampler, ImageDim, ImageKind, ImageShape, SamplerState,
};
use spvsass::sim::texture::{Filter, Format, Wrap};
use std::path::PathBuf;

/// One `--texture`.
#[derive(Clone, Debug)]
pub struct TextureArg {
    pub kind: ImageKind,
    pub format: Format,
    pub dim: ImageDim,
    /// `None`: from the PNG.
    pub size: Option<[u32; 3]>,
    pub file: PathBuf,
}

impl TextureArg {
    /// Whether the run writes this image back (`--out`).
    pub fn is_storage(&self) -> bool {
        matches!(
            self.kind,
            ImageKind::Storage | ImageKind::StorageTexelBuffer
        )
    }
}

/// A snake_case enumerant through its serde name.
fn enumerant<T: serde::de::DeserializeOwned>(s: &str, what: &str) -> Result<T, String> {
    serde_json::from_value(serde_json::Value::String(s.to_string()))
        .map_err(|_| format!("'{s}' is not a {what}"))
}

pub fn parse_texture(s: &str) -> Result<(Slot, TextureArg), String> {
    let (slot, rest) = super::split_binding(s)?;
    let parts: Vec<&str> = rest.splitn(5, ':').collect();
    let [kind, format, dim, size, file] = parts[..] else {
        return Err(format!(
            "expected KIND:FORMAT:DIM:WxHxD:FILE after '=', got '{rest}'"
        ));
    };
    let size = if size == "png" {
        None
    } else {
        let mut whd = [1u32; 3];
        let dims: Vec<&str> = size.split('x').collect();
        if dims.len() > 3 {
            return Err(format!("'{size}' is not W, WxH or WxHxD"));
        }
        for (i, d) in dims.iter().enumerate() {
            whd[i] = d
                .parse()
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| format!("'{d}' is not an image size"))?;
        }
        Some(whd)
    };
    Ok((
        slot,
        TextureArg {
            kind: enumerant(
                kind,
                "descriptor kind (sampled, combined, storage, uniform_texel_buffer, storage_texel_buffer)",
            )?,
            format: Format::from_name(format)
                .ok_or_else(|| format!("'{format}' is not a supported format"))?,
            dim: enumerant(
                dim,
                "dimension (1d, 2d, 3d, cube, 1d_array, 2d_array, cube_array, buffer)",
            )?,
            size,
            file: PathBuf::from(file),
        },
    ))
}

pub fn parse_sampler(s: &str) -> Result<(Slot, SamplerState), String> {
    let (slot, rest) = super::split_binding(s)?;
    let mut state = SamplerState::default();
    for option in rest.split(',') {
        match option.trim() {
            "nearest" => (state.mag_filter, state.min_filter) = (Filter::Nearest, Filter::Nearest),
            "linear" => (state.mag_filter, state.min_filter) = (Filter::Linear, Filter::Linear),
            "repeat" => state.address = [Wrap::Repeat; 3],
            "mirror" => state.address = [Wrap::MirroredRepeat; 3],
            "clamp" => state.address = [Wrap::ClampToEdge; 3],
            "border" => state.address = [Wrap::ClampToBorder; 3],
            "unnormalized" => state.unnormalized_coordinates = true,
            other => {
                return Err(format!(
                    "'{other}' is not a sampler option (nearest, linear, repeat, mirror, clamp, border, unnormalized)"
                ));
            }
        }
    }
    Ok((slot, state))
}

/// The images and samplers of a run, read from their files.
pub fn bound(
    textures: &[(Slot, TextureArg)],
    samplers: &[(Slot, SamplerState)],
) -> Result<(Vec<BoundImage>, Vec<BoundSampler>), String> {
    let mut images = Vec::new();
    for (slot, t) in textures {
        let bytes = std::fs::read(&t.file).map_err(|e| format!("{}: {e}", t.file.display()))?;
        let png = t
            .file
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("png"));
        let (size, bytes) = if png {
            let (w, h, texels) = spvsass::sim::texture::host::png_rgba8(&bytes)
                .map_err(|e| format!("{}: {e}", t.file.display()))?;
            (t.size.unwrap_or([w, h, 1]), texels)
        } else {
            let size = t
                .size
                .ok_or_else(|| format!("{slot}: a size of 'png' needs a .png file"))?;
            (size, bytes)
        };
        let sampler = samplers.iter().find(|(s, _)| s == slot).map(|(_, st)| *st);
        if t.kind == ImageKind::Combined && sampler.is_none() {
            return Err(format!(
                "{slot}: a combined image-sampler needs --sampler {slot}=..."
            ));
        }
        images.push(BoundImage {
            slot: *slot,
            kind: t.kind,
            shape: ImageShape {
                format: t.format,
                dim: t.dim,
                width: size[0],
                height: size[1],
                depth: size[2],
                levels: 1,
                samples: 1,
            },
            bytes,
            sampler: if t.kind == ImageKind::Combined {
                sampler
            } else {
                None
            },
            offset: 0,
        });
    }
    let separate = samplers
        .iter()
        .filter(|(s, _)| {
            !textures
                .iter()
                .any(|(t, a)| t == s && a.kind == ImageKind::Combined)
        })
        .map(|(slot, state)| BoundSampler {
            slot: *slot,
            state: *state,
        })
        .collect();
    Ok((images, separate))
}

/// The images and samplers of `--texture` and `--sampler` as a run
/// description's (docs/RUNS.md, "Images and samplers"), for
/// `run --reference`: the same files, one level, storage images read back
/// so that the comparison covers them. Paths stay the command line's
/// (the description's base is the working directory).
pub fn describe(
    textures: &[(Slot, TextureArg)],
    samplers: &[(Slot, SamplerState)],
) -> Result<(Vec<ImageDescription>, Vec<SamplerDescription>), String> {
    let mut images = Vec::new();
    for (slot, t) in textures {
        let png = t
            .file
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("png"));
        let sampler = samplers.iter().find(|(s, _)| s == slot).map(|(_, st)| *st);
        if t.kind == ImageKind::Combined && sampler.is_none() {
            return Err(format!(
                "{slot}: a combined image-sampler needs --sampler {slot}=..."
            ));
        }
        let size = match (png, t.size) {
            // A run description's PNG gives its own size.
            (true, _) => None,
            (false, Some(size)) => Some(size),
            (false, None) => return Err(format!("{slot}: a size of 'png' needs a .png file")),
        };
        images.push(ImageDescription {
            set: slot.set,
            binding: slot.binding,
            element: slot.element,
            kind: t.kind,
            format: t.format,
            dim: t.dim,
            width: size.map(|s| s[0]),
            height: size.map(|s| s[1]),
            depth: size.map_or(1, |s| s[2]),
            levels: 1,
            samples: 1,
            contents: if png {
                Vec::new()
            } else {
                vec![Data::File(t.file.clone())]
            },
            png: png.then(|| t.file.clone()),
            sampler: (t.kind == ImageKind::Combined).then_some(sampler).flatten(),
            read_back: t.is_storage(),
            offset: 0,
        });
    }
    let separate = samplers
        .iter()
        .filter(|(s, _)| {
            !textures
                .iter()
                .any(|(t, a)| t == s && a.kind == ImageKind::Combined)
        })
        .map(|(slot, state)| SamplerDescription {
            set: slot.set,
            binding: slot.binding,
            element: slot.element,
            sampler: *state,
        })
        .collect();
    Ok((images, separate))
}
