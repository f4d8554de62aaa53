//! The run description: what to run and with which inputs, as a JSON file
//! (`tests/runs/NAME.json`, documented in docs/RUNS.md). It names no tool:
//! the Vulkan reference runner reads it, and the simulator can read the same
//! file. Paths inside it are relative to the file's own folder.

use super::error::{DescriptionError, ReferenceError};
pub use super::image_inputs::{ImageDescription, SamplerDescription};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// One run: the shaders, the workgroup counts, and the inputs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunDescription {
    /// Free text for the reader; ignored by tools.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    pub stages: Stages,
    /// Workgroup counts of the dispatch or of the mesh-task draw.
    pub groups: [u32; 3],
    /// The colour image of a mesh run (required there, refused for compute).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<ImageSize>,
    /// Multiview: bit i renders view i into image layer i (mesh runs only).
    #[serde(default)]
    pub view_mask: u32,
    #[serde(default)]
    pub cull_mode: CullMode,
    #[serde(default)]
    pub front_face: FrontFace,
    /// Descriptor set 0, one buffer per binding.
    #[serde(default)]
    pub buffers: Vec<BufferDescription>,
    /// The push-constant bytes, from offset 0: the pieces laid end to end.
    #[serde(default)]
    pub push_constants: Vec<Data>,
    /// Images and texel buffers, by set, binding and element.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub images: Vec<ImageDescription>,
    /// Separate samplers, by set, binding and element.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub samplers: Vec<SamplerDescription>,
}

/// Either `compute`, or `mesh` with an optional `task`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Stages {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compute: Option<ShaderRef>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task: Option<ShaderRef>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mesh: Option<ShaderRef>,
}

/// A SPIR-V file and the entry point to run in it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShaderRef {
    pub spirv: PathBuf,
    #[serde(default = "default_entry")]
    pub entry: String,
}

fn is_zero<T: Default + PartialEq>(n: &T) -> bool {
    *n == T::default()
}

fn default_entry() -> String {
    "main".into()
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImageSize {
    pub width: u32,
    pub height: u32,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CullMode {
    #[default]
    None,
    Front,
    Back,
    FrontAndBack,
}

/// Which winding is front-facing, in framebuffer coordinates (y down), as
/// Vulkan defines it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FrontFace {
    #[default]
    CounterClockwise,
    Clockwise,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BufferKind {
    Storage,
    Uniform,
    /// VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC: `offset` is the dynamic
    /// offset given when the set is bound.
    StorageDynamic,
    /// VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC.
    UniformDynamic,
}

impl BufferKind {
    /// A storage buffer (dynamic or not), as the shader sees it.
    pub fn is_storage(self) -> bool {
        matches!(self, BufferKind::Storage | BufferKind::StorageDynamic)
    }

    pub fn is_dynamic(self) -> bool {
        matches!(
            self,
            BufferKind::StorageDynamic | BufferKind::UniformDynamic
        )
    }
}

impl BufferKind {
    /// The most bytes a buffer of this kind may hold (docs/RUNS.md).
    pub fn limit(self) -> u64 {
        if self.is_storage() {
            spvsass_sim::MAX_STORAGE_BUFFER_BYTES
        } else {
            spvsass_sim::MAX_UNIFORM_BUFFER_BYTES
        }
    }
}

/// The most push-constant bytes a run may give.
pub const PUSH_CONSTANT_LIMIT: u64 = spvsass_backend::abi::PUSH_CONSTANT_BYTES as u64;

/// One buffer of descriptor set 0.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BufferDescription {
    /// The descriptor set (default 0).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub set: u32,
    pub binding: u32,
    /// The array element of a descriptor-array binding (default 0).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub element: u32,
    pub kind: BufferKind,
    /// Where the descriptor's range starts in the buffer: the descriptor's
    /// offset, or the dynamic offset of a dynamic kind (default 0).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub offset: u64,
    /// The descriptor's range in bytes (default: to the end).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<u64>,
    /// The initial bytes: the pieces laid end to end.
    pub contents: Vec<Data>,
    /// Report the buffer's bytes after the run.
    #[serde(default)]
    pub read_back: bool,
    /// The read-back words are f32 values that may differ from the
    /// reference by this many ULPs: the sum of the bounds of the float
    /// operations on the way to them (docs/RUNS.md lists the bound of each
    /// op). Absent: the words are compared exactly.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub float_ulps: Option<u32>,
}

/// A piece of initial data. Floats that JSON cannot spell (NaN, infinities,
/// exact bit patterns) are given as `u32` bit patterns.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Data {
    U32(Vec<u32>),
    I32(Vec<i32>),
    F32(Vec<f32>),
    /// Raw bytes of a file (relative to the run description's folder).
    File(PathBuf),
    /// This many zero bytes.
    Zero(u64),
}

/// The stage set of a checked description.
#[derive(Clone, Debug, PartialEq)]
pub enum Pipeline<'a> {
    Compute(&'a ShaderRef),
    Mesh {
        task: Option<&'a ShaderRef>,
        mesh: &'a ShaderRef,
        image: ImageSize,
    },
}

impl RunDescription {
    /// Reads and checks a run description file.
    pub fn load(path: &Path) -> Result<RunDescription, ReferenceError> {
        let text = std::fs::read_to_string(path).map_err(|source| ReferenceError::ReadFile {
            path: path.to_owned(),
            source,
        })?;
        let desc: RunDescription =
            serde_json::from_str(&text).map_err(|source| ReferenceError::ParseDescription {
                path: path.to_owned(),
                source,
            })?;
        desc.pipeline()
            .map_err(|problem| ReferenceError::InvalidDescription {
                path: path.to_owned(),
                problem,
            })?;
        Ok(desc)
    }

    /// Checks the parts that depend on each other and says which pipeline
    /// the description asks for.
    pub fn pipeline(&self) -> Result<Pipeline<'_>, DescriptionError> {
        if self.groups.contains(&0) {
            return Err(DescriptionError::ZeroGroups(self.groups));
        }
        for i in &self.images {
            i.check()?;
        }
        // Buffers, images and samplers share the slots; a binding holds one
        // kind of descriptor.
        let kinds: Vec<(u32, u32, u32, String)> = self
            .buffers
            .iter()
            .map(|b| (b.set, b.binding, b.element, format!("{:?}", b.kind)))
            .chain(
                self.images
                    .iter()
                    .map(|i| (i.set, i.binding, i.element, format!("{:?}", i.kind))),
            )
            .chain(
                self.samplers
                    .iter()
                    .map(|s| (s.set, s.binding, s.element, "Sampler".to_owned())),
            )
            .collect();
        let mut bindings: Vec<(u32, u32, u32)> = kinds.iter().map(|k| (k.0, k.1, k.2)).collect();
        bindings.sort_unstable();
        if let Some(w) = bindings.windows(2).find(|w| w[0] == w[1]) {
            let (set, binding, element) = w[0];
            return Err(DescriptionError::DuplicateBinding {
                set,
                binding,
                element,
            });
        }
        // Elements of an array binding are all given: a shader indexing the
        // array statically uses every element (no partially bound arrays).
        for w in bindings.windows(2) {
            let ((s0, b0, e0), (s1, b1, e1)) = (w[0], w[1]);
            let first = if (s0, b0) == (s1, b1) { e0 + 1 } else { 0 };
            if e1 != first {
                return Err(DescriptionError::MissingElement {
                    set: s1,
                    binding: b1,
                    element: first,
                });
            }
        }
        if let Some(&(set, binding, _)) = bindings.first().filter(|f| f.2 != 0) {
            return Err(DescriptionError::MissingElement {
                set,
                binding,
                element: 0,
            });
        }
        for (set, binding, _, kind) in &kinds {
            let other = kinds
                .iter()
                .find(|o| (o.0, o.1) == (*set, *binding) && o.3 != *kind);
            if let Some(o) = other {
                return Err(DescriptionError::MixedKinds {
                    set: *set,
                    binding: *binding,
                    kinds: format!("{kind} and {}", o.3),
                });
            }
        }
        let s = &self.stages;
        match (&s.compute, &s.task, &s.mesh) {
            (Some(c), None, None) => {
                if self.image.is_some() {
                    return Err(DescriptionError::ImageForCompute);
                }
                if self.view_mask != 0 {
                    return Err(DescriptionError::ViewMaskForCompute);
                }
                Ok(Pipeline::Compute(c))
            }
            (None, task, Some(mesh)) => {
                let image = self.image.ok_or(DescriptionError::MissingImage)?;
                if image.width == 0 || image.height == 0 {
                    return Err(DescriptionError::EmptyImage(image.width, image.height));
                }
                Ok(Pipeline::Mesh {
                    task: task.as_ref(),
                    mesh,
                    image,
                })
            }
            (None, Some(_), None) => Err(DescriptionError::TaskWithoutMesh),
            (None, None, None) => Err(DescriptionError::NoStage),
            (Some(_), _, _) => Err(DescriptionError::ComputeWithMesh),
        }
    }

    /// Image layers: one per view of the view mask (the highest set bit
    /// decides), or one without multiview.
    pub fn layers(&self) -> u32 {
        32 - self.view_mask.leading_zeros().min(31)
    }
}

/// Lays the pieces end to end; `what` names the destination in errors.
/// More than `limit` bytes in all is an error, found before the piece that
/// passes it is allocated or read.
pub fn resolve_data(
    pieces: &[Data],
    base: &Path,
    what: &str,
    limit: u64,
) -> Result<Vec<u8>, ReferenceError> {
    let mut bytes = Vec::new();
    for piece in pieces {
        let size = match piece {
            Data::U32(v) => 4 * v.len() as u64,
            Data::I32(v) => 4 * v.len() as u64,
            Data::F32(v) => 4 * v.len() as u64,
            Data::Zero(n) => *n,
            // A file that cannot be read is reported below.
            Data::File(p) => std::fs::metadata(base.join(p)).map_or(0, |m| m.len()),
        };
        let total = (bytes.len() as u64).saturating_add(size);
        if total > limit {
            return Err(ReferenceError::OverLimit {
                what: what.to_owned(),
                bytes: total,
                limit,
            });
        }
        match piece {
            Data::U32(v) => bytes.extend(v.iter().flat_map(|x| x.to_le_bytes())),
            Data::I32(v) => bytes.extend(v.iter().flat_map(|x| x.to_le_bytes())),
            Data::F32(v) => bytes.extend(v.iter().flat_map(|x| x.to_le_bytes())),
            Data::Zero(n) => {
                let n = usize::try_from(*n).map_err(|_| ReferenceError::TooLarge {
                    what: what.to_owned(),
                    bytes: *n,
                })?;
                bytes.resize(bytes.len() + n, 0);
            }
            Data::File(p) => {
                // Read no more than the limit allows: a device such as
                // /dev/zero has no size to check first.
                use std::io::Read;
                let path = base.join(p);
                let room = limit - bytes.len() as u64;
                let mut data = Vec::new();
                std::fs::File::open(&path)
                    .and_then(|f| f.take(room + 1).read_to_end(&mut data))
                    .map_err(|source| ReferenceError::ReadFile { path, source })?;
                if bytes.len() as u64 + data.len() as u64 > limit {
                    return Err(ReferenceError::OverLimit {
                        what: what.to_owned(),
                        bytes: bytes.len() as u64 + data.len() as u64,
                        limit,
                    });
                }
                bytes.extend(data);
            }
        }
    }
    if bytes.len() % 4 != 0 {
        return Err(ReferenceError::UnalignedData {
            what: what.to_owned(),
            bytes: bytes.len(),
        });
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(json: &str) -> Result<(), DescriptionError> {
        let desc: RunDescription = serde_json::from_str(json).expect("well-formed JSON");
        desc.pipeline().map(|_| ())
    }

    const COMPUTE: &str = r#"{"compute": {"spirv": "a.spv"}}"#;
    const MESH: &str = r#"{"mesh": {"spirv": "m.spv"}}"#;

    fn with(stages: &str, rest: &str) -> String {
        format!(r#"{{"stages": {stages}, "groups": [1, 1, 1]{rest}}}"#)
    }

    #[test]
    fn compute_and_mesh_descriptions_are_accepted() {
        assert_eq!(check(&with(COMPUTE, "")), Ok(()));
        let image = r#", "image": {"width": 8, "height": 4}, "view_mask": 5"#;
        assert_eq!(check(&with(MESH, image)), Ok(()));
    }

    #[test]
    fn parts_that_do_not_fit_are_named() {
        let cases = [
            (with("{}", ""), DescriptionError::NoStage),
            (
                with(r#"{"compute": {"spirv": "a"}, "mesh": {"spirv": "b"}}"#, ""),
                DescriptionError::ComputeWithMesh,
            ),
            (
                with(r#"{"task": {"spirv": "t"}}"#, ""),
                DescriptionError::TaskWithoutMesh,
            ),
            (with(MESH, ""), DescriptionError::MissingImage),
            (
                with(MESH, r#", "image": {"width": 0, "height": 4}"#),
                DescriptionError::EmptyImage(0, 4),
            ),
            (
                with(COMPUTE, r#", "image": {"width": 1, "height": 1}"#),
                DescriptionError::ImageForCompute,
            ),
            (
                with(COMPUTE, r#", "view_mask": 1"#),
                DescriptionError::ViewMaskForCompute,
            ),
            (
                r#"{"stages": {"compute": {"spirv": "a"}}, "groups": [1, 0, 1]}"#.to_owned(),
                DescriptionError::ZeroGroups([1, 0, 1]),
            ),
            (
                with(
                    COMPUTE,
                    r#", "buffers": [
                        {"binding": 2, "kind": "storage", "contents": [{"zero": 4}]},
                        {"binding": 2, "kind": "uniform", "contents": [{"zero": 4}]}]"#,
                ),
                DescriptionError::DuplicateBinding {
                    set: 0,
                    binding: 2,
                    element: 0,
                },
            ),
            (
                with(
                    COMPUTE,
                    r#", "buffers": [
                        {"set": 1, "binding": 2, "kind": "storage", "contents": [{"zero": 4}]},
                        {"set": 1, "binding": 2, "element": 1, "kind": "uniform",
                         "contents": [{"zero": 4}]}]"#,
                ),
                DescriptionError::MixedKinds {
                    set: 1,
                    binding: 2,
                    kinds: "Storage and Uniform".into(),
                },
            ),
        ];
        for (json, want) in cases {
            assert_eq!(check(&json), Err(want), "{json}");
        }
    }

    #[test]
    fn images_and_samplers_share_the_slots_with_buffers() {
        let image = r#"{"binding": 1, "kind": "combined", "format": "r8_unorm", "dim": "2d",
                        "width": 1, "sampler": {"min_filter": "linear"}}"#;
        assert_eq!(
            check(&with(COMPUTE, &format!(r#", "images": [{image}]"#))),
            Ok(())
        );
        let with_buffer = format!(
            r#", "images": [{image}],
                "buffers": [{{"binding": 1, "element": 1, "kind": "storage", "contents": [{{"zero": 4}}]}}]"#
        );
        assert_eq!(
            check(&with(COMPUTE, &with_buffer)),
            Err(DescriptionError::MixedKinds {
                set: 0,
                binding: 1,
                kinds: "Storage and Combined".into()
            })
        );
        let no_sampler = r#", "images": [{"binding": 0, "kind": "combined", "format": "r8_unorm",
                                           "dim": "2d", "width": 1}]"#;
        assert_eq!(
            check(&with(COMPUTE, no_sampler)),
            Err(DescriptionError::Image {
                set: 0,
                binding: 0,
                element: 0,
                problem: "a combined image-sampler, and only it, has a `sampler`"
            })
        );
        let sampler_twice = r#", "samplers": [{"binding": 0}, {"binding": 0}]"#;
        assert_eq!(
            check(&with(COMPUTE, sampler_twice)),
            Err(DescriptionError::DuplicateBinding {
                set: 0,
                binding: 0,
                element: 0
            })
        );
        let bad_format = with(
            COMPUTE,
            r#", "images": [{"binding": 0, "kind": "sampled", "format": "bc1", "dim": "2d", "width": 1}]"#,
        );
        let e = serde_json::from_str::<RunDescription>(&bad_format).err();
        assert!(e.is_some_and(|e| {
            e.to_string()
                .contains("unknown or unsupported format `bc1`")
        }));
    }

    #[test]
    fn unknown_fields_are_refused() {
        let json = with(COMPUTE, r#", "view_masks": 1"#);
        let e = serde_json::from_str::<RunDescription>(&json).err();
        assert!(e.is_some_and(|e| e.to_string().contains("unknown field `view_masks`")));
    }

    #[test]
    fn data_pieces_are_laid_end_to_end() {
        let pieces = [
            Data::U32(vec![1, 0xdead_beef]),
            Data::I32(vec![-1]),
            Data::F32(vec![1.5]),
            Data::Zero(4),
        ];
        let bytes = resolve_data(&pieces, Path::new("."), "test", 1024).expect("resolves");
        let words: Vec<u32> = bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        assert_eq!(words, [1, 0xdead_beef, u32::MAX, 1.5f32.to_bits(), 0]);
    }

    #[test]
    fn partial_words_and_missing_files_are_errors() {
        let odd = resolve_data(
            &[Data::Zero(3)],
            Path::new("."),
            "buffer at binding 1",
            1024,
        );
        assert_eq!(
            odd.err().map(|e| e.to_string()).as_deref(),
            Some("buffer at binding 1: 3 bytes is not a whole number of 32-bit words")
        );
        let missing = resolve_data(
            &[Data::File("no/such/file.bin".into())],
            Path::new("base"),
            "x",
            1024,
        );
        assert!(missing.err().is_some_and(|e| {
            e.to_string()
                .starts_with("cannot read base/no/such/file.bin")
        }));
    }

    #[test]
    fn data_past_the_limit_is_refused_before_it_is_allocated() {
        // 10^12 zero bytes: refused, not allocated.
        let huge = resolve_data(
            &[Data::Zero(1_000_000_000_000)],
            Path::new("."),
            "buffer at binding 0",
            BufferKind::Storage.limit(),
        );
        assert_eq!(
            huge.err().map(|e| e.to_string()).as_deref(),
            Some(
                "buffer at binding 0: 1000000000000 bytes or more, past the limit of 134217728 (docs/RUNS.md)"
            )
        );
        // The pieces count together.
        let pieces = [Data::Zero(1 << 27), Data::U32(vec![1])];
        let e = resolve_data(&pieces, Path::new("."), "u", BufferKind::Uniform.limit()).err();
        assert!(e.is_some_and(|e| e.to_string().starts_with("u: 134217732 bytes or more")));
        let push = [Data::Zero(132)];
        assert!(
            resolve_data(&push, Path::new("."), "push constants", PUSH_CONSTANT_LIMIT).is_err()
        );
        let endless = [Data::File("/dev/zero".into())];
        let e = resolve_data(
            &endless,
            Path::new("/"),
            "push constants",
            PUSH_CONSTANT_LIMIT,
        );
        assert!(e.err().is_some_and(|e| {
            e.to_string()
                .starts_with("push constants: 129 bytes or more")
        }));
    }

    #[test]
    fn layers_follow_the_highest_view() {
        let mut desc: RunDescription =
            serde_json::from_str(&with(MESH, r#", "image": {"width": 1, "height": 1}"#))
                .expect("parses");
        assert_eq!(desc.layers(), 1);
        desc.view_mask = 0b101;
        assert_eq!(desc.layers(), 3);
    }
}
