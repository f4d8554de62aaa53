//! The compiled shader as a file: a small versioned container holding the
//! shader program header, the encoded code and the state a draw needs.
//! Layout (all little-endian u32 words), documented in docs/BINARY.md:
//!
//! ```text
//! magic "SPVSASS\0" (2 words), version, arch (75/86/89/90), stage (0 task,
//! 1 mesh, 2 compute), workgroup x, y, z, registers used,
//! mesh state present (0/1) [topology (1 points, 2 lines, 3 triangles),
//!   max vertices, max primitives, shared memory lines, clip distance count,
//!   n per-vertex components, their SPH addresses,
//!   n per-primitive components, their SPH addresses],
//! compute stage only: shared bytes per workgroup, local bytes per invocation,
//! task state present (0/1) [payload bytes],
//! SPH word count (0 or 32), SPH words, code word count, code words,
//! GEOMETRY header word count (0 or 32), its words,
//! resource count, per resource: set, binding, kind (0 storage buffer,
//!   1 uniform buffer), array length (0xffffffff none, 0 runtime-sized),
//!   access (0 root table, 1 constant bank, 2 descriptor in set memory)
//! ```

use crate::target::Arch;

/// The shader stage a program runs as (the frontend has its own `Stage`
/// for the SPIR-V entry point; the backend maps one onto the other).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    Task,
    Mesh,
    Compute,
}

impl Stage {
    pub fn name(self) -> &'static str {
        match self {
            Stage::Task => "task",
            Stage::Mesh => "mesh",
            Stage::Compute => "compute",
        }
    }
}

/// The primitive type a mesh shader emits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MeshTopology {
    Points,
    Lines,
    Triangles,
}

impl MeshTopology {
    pub fn vertices_per_primitive(self) -> u32 {
        match self {
            MeshTopology::Points => 1,
            MeshTopology::Lines => 2,
            MeshTopology::Triangles => 3,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            MeshTopology::Points => "points",
            MeshTopology::Lines => "lines",
            MeshTopology::Triangles => "triangles",
        }
    }
}

pub const MAGIC: [u8; 8] = *b"SPVSASS\0";
pub const VERSION: u32 = 4;

/// What a mesh draw needs beyond the code: the output topology and the
/// attribute layout the SPH describes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeshState {
    pub topology: MeshTopology,
    pub max_vertices: u32,
    pub max_primitives: u32,
    pub shared_mem_lines: u32,
    /// Per-vertex output components (SPH addresses), ascending.
    pub vertex_attrs: Vec<u16>,
    /// Per-primitive output components (SPH addresses), ascending.
    pub primitive_attrs: Vec<u16>,
    /// How many of the clip/cull distance words (0x2c0..0x2e0) are clip
    /// distances; the written ones after them are cull distances. The
    /// draw's per-plane clip or cull operation, which a driver programs
    /// from the shader (SET_USER_CLIP_OP style state, not the SPH).
    pub clip_distances: u32,
}

/// What launching mesh workgroups from a task shader needs: the size of
/// the payload it hands over (from 0x20 of its output ATTR region).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskState {
    pub payload_bytes: u32,
    /// Lines of the task shader's shared memory, after the payload.
    pub shared_lines: u32,
}

/// What a compute dispatch allocates per workgroup and per invocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ComputeState {
    pub shared_bytes: u32,
    pub local_bytes: u32,
}

/// What a resource of the module's interface is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResourceKind {
    StorageBuffer,
    UniformBuffer,
    /// An image, sampler, combined image-sampler or texel-buffer
    /// descriptor (its first word is a handle; docs/ABI.md).
    Image,
}

/// How the compiled code reaches a resource (docs/ABI.md): the three ways
/// a driver must provide it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResourceAccess {
    /// The root table's set-0 buffer entry.
    RootTable,
    /// A constant bank (set-0 uniform buffers).
    ConstantBank(u8),
    /// Its descriptor in the set's memory.
    Descriptor,
}

/// One binding the module's code uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resource {
    pub set: u32,
    pub binding: u32,
    pub kind: ResourceKind,
    /// `None` for a single descriptor, `Some(0)` for a runtime-sized
    /// descriptor array, `Some(n)` for an array of n.
    pub array: Option<u32>,
    pub access: ResourceAccess,
}

impl std::fmt::Display for Resource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match self.kind {
            ResourceKind::StorageBuffer => "storage buffer",
            ResourceKind::UniformBuffer => "uniform buffer",
            ResourceKind::Image => "image or sampler",
        };
        write!(f, "set {} binding {}: {kind}", self.set, self.binding)?;
        match self.array {
            None => {}
            Some(0) => write!(f, "[]")?,
            Some(n) => write!(f, "[{n}]")?,
        }
        match self.access {
            ResourceAccess::RootTable => write!(f, " (root table)"),
            ResourceAccess::ConstantBank(b) => write!(f, " (constant bank {b})"),
            ResourceAccess::Descriptor => write!(f, " (descriptor in set memory)"),
        }
    }
}

/// A compiled shader.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Binary {
    pub arch: Arch,
    pub stage: Stage,
    pub workgroup_size: [u32; 3],
    pub num_gprs: u32,
    pub mesh: Option<MeshState>,
    pub task: Option<TaskState>,
    pub compute: Option<ComputeState>,
    pub sph: Option<[u32; 32]>,
    /// Encoded instructions, four words each.
    pub code: Vec<u32>,
    /// The passthrough GEOMETRY header of a mesh shader with per-primitive
    /// outputs, stored after the code (docs/HARDWARE.md, "Shader program
    /// header").
    pub gs_sph: Option<[u32; 32]>,
    /// The buffers the code uses, by set and binding.
    pub resources: Vec<Resource>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BinaryError {
    #[error("not a spvsass binary (bad magic)")]
    BadMagic,
    #[error("unsupported spvsass binary version {0} (this build reads version {VERSION})")]
    Version(u32),
    #[error("truncated spvsass binary: {0} missing")]
    Truncated(&'static str),
    #[error("invalid {field} {value} in spvsass binary")]
    BadValue { field: &'static str, value: u32 },
    #[error("{0} trailing bytes after the spvsass binary")]
    Trailing(usize),
    #[error("{field} {value} in spvsass binary exceeds the limit of {limit} ({property})")]
    Limit {
        field: &'static str,
        value: u64,
        limit: u64,
        property: &'static str,
    },
}

fn stage_code(s: Stage) -> u32 {
    match s {
        Stage::Task => 0,
        Stage::Mesh => 1,
        Stage::Compute => 2,
    }
}

fn topology_code(t: MeshTopology) -> u32 {
    match t {
        MeshTopology::Points => 1,
        MeshTopology::Lines => 2,
        MeshTopology::Triangles => 3,
    }
}

impl Binary {
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w: Vec<u32> = vec![self.arch.sm(), stage_code(self.stage)];
        w.extend(self.workgroup_size);
        w.push(self.num_gprs);
        match &self.mesh {
            None => w.push(0),
            Some(m) => {
                w.extend([
                    1,
                    topology_code(m.topology),
                    m.max_vertices,
                    m.max_primitives,
                    m.shared_mem_lines,
                    m.clip_distances,
                ]);
                for list in [&m.vertex_attrs, &m.primitive_attrs] {
                    w.push(list.len() as u32);
                    w.extend(list.iter().map(|&a| u32::from(a)));
                }
            }
        }
        // Only compute binaries carry it, so mesh binaries are unchanged.
        if self.stage == Stage::Compute {
            let c = self.compute.unwrap_or(ComputeState {
                shared_bytes: 0,
                local_bytes: 0,
            });
            w.extend([c.shared_bytes, c.local_bytes]);
        }
        match &self.task {
            None => w.push(0),
            Some(t) => w.extend([1, t.payload_bytes, t.shared_lines]),
        }
        push_sph(&mut w, &self.sph);
        w.push(self.code.len() as u32);
        w.extend(&self.code);
        push_sph(&mut w, &self.gs_sph);
        w.push(self.resources.len() as u32);
        for r in &self.resources {
            let (access, bank) = match r.access {
                ResourceAccess::RootTable => (0, 0),
                ResourceAccess::ConstantBank(b) => (1, u32::from(b)),
                ResourceAccess::Descriptor => (2, 0),
            };
            w.extend([
                r.set,
                r.binding,
                match r.kind {
                    ResourceKind::StorageBuffer => 0,
                    ResourceKind::UniformBuffer => 1,
                    ResourceKind::Image => 2,
                },
                r.array.unwrap_or(u32::MAX),
                access | bank << 8,
            ]);
        }
        let mut out = MAGIC.to_vec();
        out.extend(VERSION.to_le_bytes());
        out.extend(w.iter().flat_map(|x| x.to_le_bytes()));
        out
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Binary, BinaryError> {
        if bytes.len() < 8 || bytes[..8] != MAGIC {
            return Err(BinaryError::BadMagic);
        }
        let mut r = Reader { bytes: &bytes[8..] };
        let version = r.word("version")?;
        if version != VERSION {
            return Err(BinaryError::Version(version));
        }
        let sm = r.word("arch")?;
        let arch = Arch::from_sm(sm).ok_or(BinaryError::BadValue {
            field: "arch",
            value: sm,
        })?;
        let stage = match r.word("stage")? {
            0 => Stage::Task,
            1 => Stage::Mesh,
            2 => Stage::Compute,
            v => {
                return Err(BinaryError::BadValue {
                    field: "stage",
                    value: v,
                });
            }
        };
        let workgroup_size = [
            r.word("workgroup size")?,
            r.word("workgroup size")?,
            r.word("workgroup size")?,
        ];
        let num_gprs = r.word("register count")?;
        let mesh = match r.word("mesh state flag")? {
            0 => None,
            1 => {
                let topology = match r.word("topology")? {
                    1 => MeshTopology::Points,
                    2 => MeshTopology::Lines,
                    3 => MeshTopology::Triangles,
                    v => {
                        return Err(BinaryError::BadValue {
                            field: "topology",
                            value: v,
                        });
                    }
                };
                let max_vertices = r.word("max vertices")?;
                let max_primitives = r.word("max primitives")?;
                let shared_mem_lines = r.word("shared memory lines")?;
                let clip_distances = r.word("clip distance count")?;
                let vertex_attrs = r.attr_list()?;
                let primitive_attrs = r.attr_list()?;
                Some(MeshState {
                    topology,
                    max_vertices,
                    max_primitives,
                    shared_mem_lines,
                    vertex_attrs,
                    primitive_attrs,
                    clip_distances,
                })
            }
            v => {
                return Err(BinaryError::BadValue {
                    field: "mesh state flag",
                    value: v,
                });
            }
        };
        let compute = match stage {
            Stage::Compute => Some(ComputeState {
                shared_bytes: r.word("shared bytes")?,
                local_bytes: r.word("local bytes")?,
            }),
            _ => None,
        };
        let task = match r.word("task state flag")? {
            0 => None,
            1 => Some(TaskState {
                payload_bytes: r.word("payload bytes")?,
                shared_lines: r.word("task shared memory lines")?,
            }),
            v => {
                return Err(BinaryError::BadValue {
                    field: "task state flag",
                    value: v,
                });
            }
        };
        let sph = r.sph("SPH size", "SPH")?;
        let n = r.word("code size")?;
        if n % 4 != 0 {
            return Err(BinaryError::BadValue {
                field: "code size (not whole instructions)",
                value: n,
            });
        }
        let code = r.words(n as usize, "code")?;
        let gs_sph = r.sph("GEOMETRY header size", "GEOMETRY header")?;
        let count = r.word("resource count")?;
        let mut resources = Vec::new();
        for _ in 0..count {
            let set = r.word("resource set")?;
            if set >= crate::abi::MAX_SETS {
                return Err(BinaryError::BadValue {
                    field: "resource set",
                    value: set,
                });
            }
            let binding = r.word("resource binding")?;
            if binding >= crate::descriptor_set::MAX_SET_BINDINGS {
                return Err(BinaryError::BadValue {
                    field: "resource binding",
                    value: binding,
                });
            }
            let kind = match r.word("resource kind")? {
                0 => ResourceKind::StorageBuffer,
                1 => ResourceKind::UniformBuffer,
                2 => ResourceKind::Image,
                v => {
                    return Err(BinaryError::BadValue {
                        field: "resource kind",
                        value: v,
                    });
                }
            };
            let array = match r.word("resource array length")? {
                u32::MAX => None,
                n => Some(n),
            };
            let access = match r.word("resource access")? {
                0 => ResourceAccess::RootTable,
                v if v & 0xff == 1 && v >> 8 <= 0xff => {
                    ResourceAccess::ConstantBank((v >> 8) as u8)
                }
                2 => ResourceAccess::Descriptor,
                v => {
                    return Err(BinaryError::BadValue {
                        field: "resource access",
                        value: v,
                    });
                }
            };
            resources.push(Resource {
                set,
                binding,
                kind,
                array,
                access,
            });
        }
        if !r.bytes.is_empty() {
            return Err(BinaryError::Trailing(r.bytes.len()));
        }
        let binary = Binary {
            arch,
            stage,
            workgroup_size,
            num_gprs,
            mesh,
            task,
            compute,
            sph,
            code,
            gs_sph,
            resources,
        };
        binary.check_limits()?;
        Ok(binary)
    }

    /// Checks the header fields that size what a run allocates against
    /// the hardware's limits (`crate::limits`, docs/BINARY.md), so a
    /// corrupt binary is refused when it is read, naming the field, and
    /// never allocates gigabytes. The compiler checks what it writes the
    /// same way.
    pub fn check_limits(&self) -> Result<(), BinaryError> {
        use crate::limits::*;
        let within = |field, value: u64, limit: u32, property| {
            if value > u64::from(limit) {
                return Err(BinaryError::Limit {
                    field,
                    value,
                    limit: u64::from(limit),
                    property,
                });
            }
            Ok(())
        };
        let invocations = self
            .workgroup_size
            .iter()
            .fold(1u64, |a, &n| a.saturating_mul(u64::from(n)));
        if invocations == 0 {
            return Err(BinaryError::BadValue {
                field: "workgroup size (a zero side)",
                value: 0,
            });
        }
        let (max_invocations, property) = match self.stage {
            Stage::Compute => (
                crate::limits::MAX_COMPUTE_INVOCATIONS,
                "maxComputeWorkGroupInvocations",
            ),
            Stage::Task | Stage::Mesh => (
                MAX_INVOCATIONS,
                "maxTaskWorkGroupInvocations / maxMeshWorkGroupInvocations",
            ),
        };
        within(
            "workgroup invocations",
            invocations,
            max_invocations,
            property,
        )?;
        within("register count", self.num_gprs.into(), MAX_GPRS, "R0..R254")?;
        if let Some(m) = &self.mesh {
            within(
                "max vertices",
                m.max_vertices.into(),
                MAX_OUTPUT_VERTICES,
                "maxMeshOutputVertices",
            )?;
            within(
                "max primitives",
                m.max_primitives.into(),
                MAX_OUTPUT_PRIMITIVES,
                "maxMeshOutputPrimitives",
            )?;
            within(
                "shared memory lines",
                m.shared_mem_lines.into(),
                MAX_MESH_SHARED_BYTES.div_ceil(crate::isbe_layout::LINE),
                "maxMeshSharedMemorySize",
            )?;
            within(
                "clip distance count",
                m.clip_distances.into(),
                MAX_CLIP_CULL_DISTANCES,
                "maxClipDistances",
            )?;
            for list in [&m.vertex_attrs, &m.primitive_attrs] {
                within(
                    "attribute count",
                    list.len() as u64,
                    MAX_OUTPUT_COMPONENTS * 2,
                    "maxMeshOutputComponents and the built-ins",
                )?;
            }
            let vertices =
                crate::isbe_layout::AttrLayout::new(0, m.vertex_attrs.clone(), m.max_vertices);
            let primitives =
                crate::isbe_layout::AttrLayout::new(0, m.primitive_attrs.clone(), m.max_primitives);
            within(
                "mesh output memory",
                u64::from(vertices.size()) + u64::from(primitives.size()),
                MAX_OUTPUT_MEMORY,
                "maxMeshOutputMemorySize",
            )?;
        }
        if let Some(c) = &self.compute {
            within(
                "shared bytes",
                c.shared_bytes.into(),
                MAX_COMPUTE_SHARED_BYTES,
                "maxComputeSharedMemorySize",
            )?;
            within(
                "local bytes",
                c.local_bytes.into(),
                MAX_LOCAL_BYTES,
                "local memory per thread",
            )?;
        }
        if let Some(t) = &self.task {
            within(
                "payload bytes",
                t.payload_bytes.into(),
                MAX_PAYLOAD_BYTES,
                "maxTaskPayloadSize",
            )?;
            within(
                "task shared memory lines",
                t.shared_lines.into(),
                MAX_TASK_SHARED_BYTES.div_ceil(crate::isbe_layout::LINE),
                "maxTaskSharedMemorySize",
            )?;
        }
        for sph in [&self.sph, &self.gs_sph].into_iter().flatten() {
            let local = crate::sph::Sph(*sph).get(crate::sph::bits::LOCAL_MEMORY_LOW);
            within(
                "SPH local memory size",
                local.into(),
                MAX_LOCAL_BYTES,
                "local memory per thread",
            )?;
        }
        Ok(())
    }
}

fn push_sph(w: &mut Vec<u32>, sph: &Option<[u32; 32]>) {
    match sph {
        None => w.push(0),
        Some(s) => {
            w.push(32);
            w.extend(s);
        }
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
}

impl Reader<'_> {
    fn word(&mut self, what: &'static str) -> Result<u32, BinaryError> {
        let (head, rest) = self
            .bytes
            .split_first_chunk::<4>()
            .ok_or(BinaryError::Truncated(what))?;
        self.bytes = rest;
        Ok(u32::from_le_bytes(*head))
    }

    fn words(&mut self, n: usize, what: &'static str) -> Result<Vec<u32>, BinaryError> {
        if self.bytes.len() / 4 < n {
            return Err(BinaryError::Truncated(what));
        }
        (0..n).map(|_| self.word(what)).collect()
    }

    /// A header: its word count (0 or 32), then its words.
    fn sph(
        &mut self,
        size: &'static str,
        what: &'static str,
    ) -> Result<Option<[u32; 32]>, BinaryError> {
        match self.word(size)? {
            0 => Ok(None),
            32 => {
                let mut s = [0u32; 32];
                for x in &mut s {
                    *x = self.word(what)?;
                }
                Ok(Some(s))
            }
            v => Err(BinaryError::BadValue {
                field: size,
                value: v,
            }),
        }
    }

    fn attr_list(&mut self) -> Result<Vec<u16>, BinaryError> {
        let n = self.word("attribute count")?;
        let words = self.words(n as usize, "attribute list")?;
        words
            .into_iter()
            .map(|a| {
                u16::try_from(a).map_err(|_| BinaryError::BadValue {
                    field: "attribute address",
                    value: a,
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small valid compute binary: one EXIT-sized instruction of zeros.
    fn compute() -> Binary {
        Binary {
            arch: Arch::from_sm(86).expect("sm86"),
            stage: Stage::Compute,
            workgroup_size: [64, 1, 1],
            num_gprs: 8,
            mesh: None,
            task: None,
            compute: Some(ComputeState {
                shared_bytes: 1024,
                local_bytes: 16,
            }),
            sph: None,
            code: vec![0; 4],
            gs_sph: None,
            resources: Vec::new(),
        }
    }

    fn mesh() -> Binary {
        Binary {
            stage: Stage::Mesh,
            workgroup_size: [32, 1, 1],
            mesh: Some(MeshState {
                topology: MeshTopology::Triangles,
                max_vertices: 64,
                max_primitives: 126,
                shared_mem_lines: 2,
                vertex_attrs: vec![0x70, 0x74, 0x78, 0x7c],
                primitive_attrs: Vec::new(),
                clip_distances: 0,
            }),
            compute: None,
            sph: Some([0; 32]),
            ..compute()
        }
    }

    /// The error reading `binary` back after `corrupt` changed it.
    fn read_corrupted(binary: Binary, corrupt: impl FnOnce(&mut Binary)) -> String {
        let mut b = binary;
        corrupt(&mut b);
        match Binary::from_bytes(&b.to_bytes()) {
            Ok(_) => "read".into(),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn valid_binaries_read_back() {
        for b in [compute(), mesh()] {
            assert_eq!(Binary::from_bytes(&b.to_bytes()), Ok(b));
        }
    }

    /// A binary, how to corrupt it, and the start of the error.
    type Case = (Binary, fn(&mut Binary), &'static str);

    #[test]
    fn header_fields_past_the_limits_are_refused_by_name() {
        let cases: [Case; 9] = [
            (
                compute(),
                |b| b.compute.as_mut().expect("c").shared_bytes = u32::MAX,
                "shared bytes 4294967295 in spvsass binary exceeds the limit of 49152 (maxComputeSharedMemorySize)",
            ),
            (
                compute(),
                |b| b.compute.as_mut().expect("c").local_bytes = 1 << 30,
                "local bytes 1073741824 in spvsass binary exceeds the limit of 524288",
            ),
            (
                compute(),
                |b| b.workgroup_size = [u32::MAX, u32::MAX, 1],
                "workgroup invocations 18446744065119617025 in spvsass binary exceeds the limit of 1024",
            ),
            (compute(), |b| b.num_gprs = 256, "register count 256"),
            (
                mesh(),
                |b| b.workgroup_size = [129, 1, 1],
                "workgroup invocations 129",
            ),
            (
                mesh(),
                |b| b.mesh.as_mut().expect("m").max_vertices = u32::MAX,
                "max vertices 4294967295 in spvsass binary exceeds the limit of 256",
            ),
            (
                mesh(),
                |b| b.mesh.as_mut().expect("m").shared_mem_lines = 1 << 24,
                "shared memory lines 16777216 in spvsass binary exceeds the limit of 224",
            ),
            (
                mesh(),
                |b| b.sph = Some([u32::MAX; 32]),
                "SPH local memory size 16777215",
            ),
            (
                Binary {
                    stage: Stage::Task,
                    mesh: None,
                    task: Some(TaskState {
                        payload_bytes: 1 << 31,
                        shared_lines: 0,
                    }),
                    ..mesh()
                },
                |_| {},
                "payload bytes 2147483648 in spvsass binary exceeds the limit of 16384",
            ),
        ];
        for (binary, corrupt, want) in cases {
            let got = read_corrupted(binary, corrupt);
            assert!(got.starts_with(want), "{got}");
        }
    }

    #[test]
    fn a_zero_workgroup_side_is_refused() {
        let got = read_corrupted(compute(), |b| b.workgroup_size = [0, 1, 1]);
        assert_eq!(
            got,
            "invalid workgroup size (a zero side) 0 in spvsass binary"
        );
    }
}
