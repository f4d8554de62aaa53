//! The result of a reference run, as written to `DIR/result.json` beside the
//! raw image `DIR/image.rgba32f`; a later comparison reads both back with
//! [`Capture::read`].

use super::error::ReferenceError;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The result format's version, bumped when a field changes meaning.
pub const FORMAT: u32 = 1;
pub const RESULT_FILE: &str = "result.json";
pub const IMAGE_FILE: &str = "image.rgba32f";

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunResult {
    pub format: u32,
    /// The run description's file name without `.json`.
    pub run: String,
    /// The command line that made this result, when a tool records it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    pub device: DeviceInfo,
    pub statistics: Statistics,
    /// The buffers the description asked to read back, by binding.
    pub buffers: Vec<BufferResult>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<ImageResult>,
}

/// Which driver and device produced the result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeviceInfo {
    pub device_name: String,
    pub device_type: String,
    pub vendor_id: u32,
    pub device_id: u32,
    /// The device's Vulkan version, `major.minor.patch`.
    pub api_version: String,
    /// VkPhysicalDeviceDriverProperties: e.g. "NVIDIA" / "580.159.04",
    /// "llvmpipe" / "Mesa 22.3.6 (LLVM 15.0.6)".
    pub driver_name: String,
    pub driver_info: String,
    /// driverVersion decoded the vendor's way, and raw.
    pub driver_version: String,
    pub driver_version_raw: u32,
    pub conformance_version: String,
}

/// Query results; `None` where the device cannot count it (feature absent)
/// or the run has no such stage.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Statistics {
    pub compute_shader_invocations: Option<u64>,
    pub task_shader_invocations: Option<u64>,
    pub mesh_shader_invocations: Option<u64>,
    pub clipping_invocations: Option<u64>,
    pub clipping_primitives: Option<u64>,
    pub fragment_shader_invocations: Option<u64>,
    /// VK_QUERY_TYPE_MESH_PRIMITIVES_GENERATED_EXT.
    pub mesh_primitives_generated: Option<u64>,
}

/// A buffer's bytes after the run, as little-endian 32-bit words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BufferResult {
    /// The descriptor set (0 when absent, as in captures made before sets).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub set: u32,
    pub binding: u32,
    /// The array element (0 when absent).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub element: u32,
    pub words: Vec<u32>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// Where the image is and how it is laid out: `layers` layers one after the
/// other, each `height` rows from the top, each `width` RGBA pixels of four
/// little-endian f32.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImageResult {
    pub file: String,
    pub width: u32,
    pub height: u32,
    pub layers: u32,
    pub format: String,
}

/// A result and its image pixels (RGBA f32, in the file's order).
#[derive(Clone, Debug, PartialEq)]
pub struct Capture {
    pub result: RunResult,
    pub pixels: Vec<f32>,
}

impl Capture {
    /// The RGBA value of pixel (x, y) of `layer`, row 0 at the top.
    pub fn pixel(&self, layer: u32, x: u32, y: u32) -> Option<[f32; 4]> {
        let image = self.result.image.as_ref()?;
        if layer >= image.layers || x >= image.width || y >= image.height {
            return None;
        }
        let i = ((layer as usize * image.height as usize + y as usize) * image.width as usize
            + x as usize)
            * 4;
        let p = self.pixels.get(i..i + 4)?;
        Some([p[0], p[1], p[2], p[3]])
    }

    /// The words of the buffer at `binding` of set 0 (element 0), if it
    /// was read back.
    pub fn buffer(&self, binding: u32) -> Option<&[u32]> {
        self.buffer_at(0, binding, 0)
    }

    /// The words of the buffer at `set`, `binding`, array `element`, if it
    /// was read back.
    pub fn buffer_at(&self, set: u32, binding: u32, element: u32) -> Option<&[u32]> {
        self.result
            .buffers
            .iter()
            .find(|b| (b.set, b.binding, b.element) == (set, binding, element))
            .map(|b| b.words.as_slice())
    }

    /// Writes `result.json` and, for mesh runs, `image.rgba32f` into `dir`.
    pub fn write(&self, dir: &Path) -> Result<(), ReferenceError> {
        // Both files are staged and renamed into place together
        // (`output_files`): a failed write leaves the folder as it was.
        let mut outputs = crate::output_files::Outputs::default();
        let mut write = |name: &str, bytes: &[u8]| outputs.stage(&dir.join(name), bytes);
        let mut json =
            serde_json::to_string_pretty(&self.result).map_err(ReferenceError::EncodeResult)?;
        json.push('\n');
        std::fs::create_dir_all(dir).map_err(|source| ReferenceError::WriteFile {
            path: dir.to_owned(),
            source,
        })?;
        write(RESULT_FILE, json.as_bytes())?;
        if let Some(image) = &self.result.image {
            let bytes: Vec<u8> = self.pixels.iter().flat_map(|f| f.to_le_bytes()).collect();
            write(&image.file, &bytes)?;
        }
        outputs.commit()?;
        Ok(())
    }

    /// Reads back what [`Capture::write`] wrote.
    pub fn read(dir: &Path) -> Result<Capture, ReferenceError> {
        let read = |path: &Path| {
            std::fs::read(path).map_err(|source| ReferenceError::ReadFile {
                path: path.to_owned(),
                source,
            })
        };
        let path = dir.join(RESULT_FILE);
        let result: RunResult = serde_json::from_slice(&read(&path)?)
            .map_err(|source| ReferenceError::ParseResult { path, source })?;
        let mut pixels = Vec::new();
        if let Some(image) = &result.image {
            let path = dir.join(&image.file);
            let bytes = read(&path)?;
            let expected =
                image.width as usize * image.height as usize * image.layers as usize * 16;
            if bytes.len() != expected {
                return Err(ReferenceError::ImageSize {
                    path,
                    bytes: bytes.len(),
                    expected,
                });
            }
            pixels = bytes
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect();
        }
        Ok(Capture { result, pixels })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn capture() -> Capture {
        let (width, height, layers) = (3, 2, 2);
        // Pixel (x, y) of layer l holds (x, y, l, 1).
        let mut pixels = Vec::new();
        for l in 0..layers {
            for y in 0..height {
                for x in 0..width {
                    pixels.extend([x as f32, y as f32, l as f32, 1.0]);
                }
            }
        }
        let device = DeviceInfo {
            device_name: "test device".into(),
            device_type: "CPU".into(),
            vendor_id: 0x10de,
            device_id: 1,
            api_version: "1.3.0".into(),
            driver_name: "test".into(),
            driver_info: "0.1".into(),
            driver_version: "580.159.4.0".into(),
            driver_version_raw: 0x9127_c100,
            conformance_version: "1.3.0.0".into(),
        };
        Capture {
            result: RunResult {
                format: FORMAT,
                run: "test".into(),
                command: Some("spvsass reference test.json --out x".into()),
                device,
                statistics: Statistics {
                    fragment_shader_invocations: Some(6),
                    ..Default::default()
                },
                buffers: vec![
                    BufferResult {
                        set: 0,
                        binding: 3,
                        element: 0,
                        words: vec![1, u32::MAX],
                    },
                    BufferResult {
                        set: 2,
                        binding: 1,
                        element: 4,
                        words: vec![7],
                    },
                ],
                image: Some(ImageResult {
                    file: IMAGE_FILE.into(),
                    width,
                    height,
                    layers,
                    format: "rgba32f".into(),
                }),
            },
            pixels,
        }
    }

    #[test]
    fn pixels_are_addressed_by_layer_then_row_from_the_top() {
        let c = capture();
        assert_eq!(c.pixel(1, 2, 1), Some([2.0, 1.0, 1.0, 1.0]));
        assert_eq!(c.pixel(0, 0, 1), Some([0.0, 1.0, 0.0, 1.0]));
        assert_eq!(c.pixel(2, 0, 0), None);
        assert_eq!(c.pixel(0, 3, 0), None);
        assert_eq!(c.buffer(3), Some(&[1, u32::MAX][..]));
        assert_eq!(c.buffer(0), None);
    }

    #[test]
    fn a_written_capture_reads_back_the_same() {
        let dir = std::env::temp_dir().join(format!("spvsass-capture-{}", std::process::id()));
        let c = capture();
        c.write(&dir).unwrap_or_else(|e| panic!("{e}"));
        let bytes = std::fs::read(dir.join(IMAGE_FILE)).expect("image written");
        assert_eq!(bytes.len(), 3 * 2 * 2 * 16);
        assert_eq!(Capture::read(&dir).ok(), Some(c));
        // A short image file is an error naming both sizes.
        std::fs::write(dir.join(IMAGE_FILE), &bytes[..16]).expect("write");
        let e = Capture::read(&dir).err().map(|e| e.to_string());
        assert!(
            e.as_deref()
                .is_some_and(|m| m.ends_with("16 bytes, but the result's image size needs 192")),
            "{e:?}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
