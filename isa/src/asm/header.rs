//! The binary container's fields as assembler directives (docs/ISA.md,
//! "Assembler directives"): `directives` prints them for `disasm --ctrl`,
//! `Header::directive` parses them back, so a listing with control bits
//! assembles to its binary byte for byte.

use super::AsmErrorKind;
use crate::binary::{
    Binary, ComputeState, MeshState, MeshTopology, Resource, ResourceAccess, ResourceKind, Stage,
    TaskState,
};
use crate::target::Arch;
use std::fmt::Write;

/// What the directives of a source set; `None` leaves the field to the
/// defaults of a bare compute program.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Header {
    pub stage: Option<Stage>,
    pub registers: Option<u32>,
    pub mesh: Option<MeshState>,
    pub task: Option<TaskState>,
    pub compute: Option<ComputeState>,
    pub sph: Option<[u32; 32]>,
    pub gs_sph: Option<[u32; 32]>,
    pub resources: Vec<Resource>,
}

/// The directives that describe `b` beyond its code, one per line.
pub fn directives(b: &Binary) -> String {
    let mut s = String::new();
    let [x, y, z] = b.workgroup_size;
    // Writing into a String cannot fail.
    let _ = writeln!(s, ".arch {}", b.arch);
    let _ = writeln!(s, ".stage {}", b.stage.name());
    let _ = writeln!(s, ".workgroup {x}, {y}, {z}");
    let _ = writeln!(s, ".registers {}", b.num_gprs);
    if let Some(m) = &b.mesh {
        let _ = writeln!(
            s,
            ".mesh {}, {}, {}, {}, {}",
            m.topology.name(),
            m.max_vertices,
            m.max_primitives,
            m.shared_mem_lines,
            m.clip_distances
        );
        let _ = writeln!(s, ".vertex_attrs{}", hex_list(&m.vertex_attrs));
        let _ = writeln!(s, ".primitive_attrs{}", hex_list(&m.primitive_attrs));
    }
    if let Some(c) = &b.compute {
        let _ = writeln!(s, ".compute {}, {}", c.shared_bytes, c.local_bytes);
    }
    if let Some(t) = &b.task {
        let _ = writeln!(s, ".task {}, {}", t.payload_bytes, t.shared_lines);
    }
    for (name, words) in [(".sph", &b.sph), (".gs_sph", &b.gs_sph)] {
        if let Some(w) = words {
            let _ = writeln!(s, "{name}{}", hex_list(w));
        }
    }
    for r in &b.resources {
        let kind = match r.kind {
            ResourceKind::StorageBuffer => "storage",
            ResourceKind::UniformBuffer => "uniform",
            ResourceKind::Image => "image",
        };
        let array = match r.array {
            None => "single".to_string(),
            Some(0) => "runtime".to_string(),
            Some(n) => n.to_string(),
        };
        let access = match r.access {
            ResourceAccess::RootTable => "root".to_string(),
            ResourceAccess::ConstantBank(n) => format!("bank {n}"),
            ResourceAccess::Descriptor => "descriptor".to_string(),
        };
        let _ = writeln!(
            s,
            ".resource {}, {}, {kind}, {array}, {access}",
            r.set, r.binding
        );
    }
    s
}

/// ` 0x1, 0x2, ...`, or nothing for an empty list.
fn hex_list<T: Copy + Into<u32>>(words: &[T]) -> String {
    let parts: Vec<String> = words.iter().map(|&w| format!("{:#x}", w.into())).collect();
    if parts.is_empty() {
        String::new()
    } else {
        format!(" {}", parts.join(", "))
    }
}

/// The comma-separated values after a directive's name, trimmed (none for
/// an empty value).
fn values(value: &str) -> Vec<&str> {
    if value.trim().is_empty() {
        return Vec::new();
    }
    value.split(',').map(str::trim).collect()
}

fn number(s: &str) -> Option<u32> {
    match s.strip_prefix("0x") {
        Some(hex) => u32::from_str_radix(hex, 16).ok(),
        None => s.parse().ok(),
    }
}

/// A directive's value that does not read: which directive, what it
/// expects and what was there.
fn bad(directive: &str, expected: &'static str, found: &str) -> AsmErrorKind {
    AsmErrorKind::BadDirectiveValue {
        directive: directive.to_string(),
        expected,
        found: found.trim().to_string(),
    }
}

/// `n` numbers, or the error naming what the directive expects.
fn numbers<const N: usize>(
    name: &str,
    value: &str,
    expected: &'static str,
) -> Result<[u32; N], AsmErrorKind> {
    let v: Option<Vec<u32>> = values(value).into_iter().map(number).collect();
    v.and_then(|v| v.try_into().ok())
        .ok_or_else(|| bad(name, expected, value))
}

fn words32(name: &str, value: &str) -> Result<[u32; 32], AsmErrorKind> {
    numbers::<32>(name, value, "32 words")
}

impl Header {
    /// Applies the directive `name value`; `arch` and `workgroup` are the
    /// assembler's own fields.
    pub(super) fn directive(
        &mut self,
        name: &str,
        value: &str,
        arch: &mut Arch,
        workgroup: &mut [u32; 3],
    ) -> Result<(), AsmErrorKind> {
        match name {
            ".arch" => {
                *arch = value
                    .trim()
                    .parse()
                    .map_err(|_| bad(name, "sm75, sm86, sm89 or sm90", value))?;
            }
            ".workgroup" => *workgroup = numbers::<3>(name, value, "X, Y, Z")?,
            ".stage" => {
                self.stage = Some(match value.trim() {
                    "task" => Stage::Task,
                    "mesh" => Stage::Mesh,
                    "compute" => Stage::Compute,
                    _ => return Err(bad(name, "task, mesh or compute", value)),
                });
            }
            ".registers" => self.registers = Some(numbers::<1>(name, value, "a count")?[0]),
            ".mesh" => {
                let expected =
                    "TOPOLOGY, MAX_VERTICES, MAX_PRIMITIVES, SHARED_LINES, CLIP_DISTANCES";
                let v = values(value);
                let (Some(&topology), Some(rest)) = (v.first(), v.get(1..)) else {
                    return Err(bad(name, expected, value));
                };
                let topology = match topology {
                    "points" => MeshTopology::Points,
                    "lines" => MeshTopology::Lines,
                    "triangles" => MeshTopology::Triangles,
                    _ => return Err(bad(name, expected, value)),
                };
                let n: Option<Vec<u32>> = rest.iter().map(|s| number(s)).collect();
                let Some(
                    [
                        max_vertices,
                        max_primitives,
                        shared_mem_lines,
                        clip_distances,
                    ],
                ) = n.and_then(|n| <[u32; 4]>::try_from(n).ok())
                else {
                    return Err(bad(name, expected, value));
                };
                let (vertex_attrs, primitive_attrs) = self
                    .mesh
                    .take()
                    .map(|m| (m.vertex_attrs, m.primitive_attrs))
                    .unwrap_or_default();
                self.mesh = Some(MeshState {
                    topology,
                    max_vertices,
                    max_primitives,
                    shared_mem_lines,
                    vertex_attrs,
                    primitive_attrs,
                    clip_distances,
                });
            }
            ".vertex_attrs" | ".primitive_attrs" => {
                let list: Option<Vec<u16>> = values(value)
                    .into_iter()
                    .map(|s| number(s).and_then(|n| u16::try_from(n).ok()))
                    .collect();
                let list = list.ok_or_else(|| bad(name, "SPH addresses", value))?;
                let Some(m) = self.mesh.as_mut() else {
                    return Err(AsmErrorKind::DirectiveOrder {
                        directive: name.to_string(),
                        after: ".mesh",
                    });
                };
                if name == ".vertex_attrs" {
                    m.vertex_attrs = list;
                } else {
                    m.primitive_attrs = list;
                }
            }
            ".compute" => {
                let [shared_bytes, local_bytes] =
                    numbers::<2>(name, value, "SHARED_BYTES, LOCAL_BYTES")?;
                self.compute = Some(ComputeState {
                    shared_bytes,
                    local_bytes,
                });
            }
            ".task" => {
                let [payload_bytes, shared_lines] =
                    numbers::<2>(name, value, "PAYLOAD_BYTES, SHARED_LINES")?;
                self.task = Some(TaskState {
                    payload_bytes,
                    shared_lines,
                });
            }
            ".sph" => self.sph = Some(words32(name, value)?),
            ".gs_sph" => self.gs_sph = Some(words32(name, value)?),
            ".resource" => self.resources.push(resource(name, value)?),
            _ => {
                return Err(AsmErrorKind::BadDirective(
                    format!("{name} {value}").trim().into(),
                ));
            }
        }
        Ok(())
    }
}

/// `.resource SET, BINDING, KIND, ARRAY, ACCESS`.
fn resource(name: &str, value: &str) -> Result<Resource, AsmErrorKind> {
    let expected = "SET, BINDING, storage|uniform|image, single|runtime|N, root|bank N|descriptor";
    let err = || bad(name, expected, value);
    let [set, binding, kind, array, access] = values(value)[..] else {
        return Err(err());
    };
    Ok(Resource {
        set: number(set).ok_or_else(err)?,
        binding: number(binding).ok_or_else(err)?,
        kind: match kind {
            "storage" => ResourceKind::StorageBuffer,
            "uniform" => ResourceKind::UniformBuffer,
            "image" => ResourceKind::Image,
            _ => return Err(err()),
        },
        array: match array {
            "single" => None,
            "runtime" => Some(0),
            n => Some(number(n).filter(|&n| n > 0).ok_or_else(err)?),
        },
        access: match access {
            "root" => ResourceAccess::RootTable,
            "descriptor" => ResourceAccess::Descriptor,
            bank => {
                let n = bank.strip_prefix("bank ").and_then(number);
                ResourceAccess::ConstantBank(n.and_then(|n| u8::try_from(n).ok()).ok_or_else(err)?)
            }
        },
    })
}
