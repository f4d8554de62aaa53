//! What the runner must know about a shader before handing it to a driver:
//! that its entry point exists and that the run binds every buffer the
//! shader uses, of the kind it declares (drivers are not required to
//! survive a bad module or a missing descriptor, so both are checked here
//! first), and, for a mesh shader, how its Location-0 colour reaches the
//! fragment shader.

use super::description::{BufferKind, RunDescription};
use super::error::ReferenceError;
use rspirv::dr::{Instruction, Module, Operand};
use rspirv::spirv::{Decoration, ExecutionModel, Op, StorageClass};
use std::path::{Path, PathBuf};

/// How the mesh shader's Location-0 output is declared; it picks the
/// pass-through fragment shader.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColourOutput {
    /// No Location-0 output: covered pixels are painted opaque white.
    Absent,
    /// A per-vertex vec4, interpolated (smooth, perspective-correct).
    PerVertex,
    /// A `perprimitiveEXT` vec4, constant over each primitive.
    PerPrimitive,
}

/// A loaded SPIR-V file with its words, for vkCreateShaderModule.
pub struct Spirv {
    pub path: PathBuf,
    pub words: Vec<u32>,
    module: Module,
}

impl Spirv {
    pub fn load(path: &Path) -> Result<Spirv, ReferenceError> {
        let bytes = std::fs::read(path).map_err(|source| ReferenceError::ReadFile {
            path: path.to_owned(),
            source,
        })?;
        let invalid = |reason: String| ReferenceError::InvalidSpirv {
            path: path.to_owned(),
            reason,
        };
        // The frontend's loader: it checks instruction bounds (rspirv
        // panics on truncated modules) and accepts OpExecutionModeId.
        // Words in host order (either byte order is accepted), as drivers
        // take them.
        let words =
            spvsass_frontend::words_from_bytes(&bytes).map_err(|e| invalid(e.to_string()))?;
        let module = spvsass_frontend::load_words(&words).map_err(|e| invalid(e.to_string()))?;
        Ok(Spirv {
            path: path.to_owned(),
            words,
            module,
        })
    }

    /// Whether the module declares `capability`.
    pub fn declares(&self, capability: rspirv::spirv::Capability) -> bool {
        self.module
            .capabilities
            .iter()
            .any(|c| matches!(c.operands.first(), Some(Operand::Capability(k)) if *k == capability))
    }

    /// The entry point `name` of execution model `model`, as its
    /// OpEntryPoint instruction.
    pub fn entry_point(
        &self,
        model: ExecutionModel,
        name: &str,
    ) -> Result<&Instruction, ReferenceError> {
        self.module
            .entry_points
            .iter()
            .find(|ep| {
                matches!(ep.operands.first(), Some(Operand::ExecutionModel(m)) if *m == model)
                    && matches!(ep.operands.get(2), Some(Operand::LiteralString(s)) if s == name)
            })
            .ok_or_else(|| ReferenceError::EntryPointNotFound {
                path: self.path.clone(),
                model: model_name(model),
                entry: name.to_owned(),
            })
    }

    /// Checks that `desc` binds every buffer a function of the module
    /// uses, at its set and binding and of its kind (storage or uniform,
    /// dynamic or not).
    pub fn check_buffers(&self, desc: &RunDescription) -> Result<(), ReferenceError> {
        for (id, set, binding, kind) in self.used_buffers() {
            let problem = |given: Option<BufferKind>| ReferenceError::BufferInterface {
                path: self.path.clone(),
                id,
                set,
                binding,
                declared: kind,
                given,
            };
            let given = desc
                .buffers
                .iter()
                .find(|b| b.set == set && b.binding == binding);
            match given {
                None => return Err(problem(None)),
                Some(b) if b.kind.is_storage() != kind.is_storage() => {
                    return Err(problem(Some(b.kind)));
                }
                Some(_) => {}
            }
        }
        // Images, texel buffers and samplers (UniformConstant variables
        // with a binding) need a descriptor too.
        for (id, set, binding) in self.used_uniform_constants() {
            let given = desc
                .images
                .iter()
                .any(|i| (i.set, i.binding) == (set, binding))
                || desc
                    .samplers
                    .iter()
                    .any(|s| (s.set, s.binding) == (set, binding));
            if !given {
                return Err(ReferenceError::ImageInterface {
                    path: self.path.clone(),
                    id,
                    set,
                    binding,
                });
            }
        }
        Ok(())
    }

    /// The UniformConstant variables with a binding some function uses:
    /// id, descriptor set and binding.
    fn used_uniform_constants(&self) -> Vec<(u32, u32, u32)> {
        let used: std::collections::HashSet<u32> = self
            .module
            .functions
            .iter()
            .flat_map(|f| f.blocks.iter().flat_map(|b| &b.instructions))
            .flat_map(|i| &i.operands)
            .filter_map(|o| match o {
                Operand::IdRef(id) => Some(*id),
                _ => None,
            })
            .collect();
        self.module
            .types_global_values
            .iter()
            .filter(|v| v.class.opcode == Op::Variable)
            .filter(|v| {
                v.operands.first() == Some(&Operand::StorageClass(StorageClass::UniformConstant))
            })
            .filter_map(|v| {
                let id = v.result_id?;
                let binding = self.decorated(id, Decoration::Binding)?;
                used.contains(&id).then(|| {
                    (
                        id,
                        self.decorated(id, Decoration::DescriptorSet).unwrap_or(0),
                        binding,
                    )
                })
            })
            .collect()
    }

    /// The buffer variables some function uses: id, descriptor set,
    /// binding and kind.
    fn used_buffers(&self) -> Vec<(u32, u32, u32, BufferKind)> {
        let used: std::collections::HashSet<u32> = self
            .module
            .functions
            .iter()
            .flat_map(|f| f.blocks.iter().flat_map(|b| &b.instructions))
            .flat_map(|i| &i.operands)
            .filter_map(|o| match o {
                Operand::IdRef(id) => Some(*id),
                _ => None,
            })
            .collect();
        self.module
            .types_global_values
            .iter()
            .filter(|v| v.class.opcode == Op::Variable)
            .filter_map(|v| {
                let id = v.result_id?;
                if !used.contains(&id) {
                    return None;
                }
                let ptr = self.def(v.result_type?)?;
                let (class, pointee) = match ptr.operands.as_slice() {
                    [Operand::StorageClass(c), Operand::IdRef(t)] => (*c, *t),
                    _ => return None,
                };
                let block = self.strip_array(pointee);
                let kind = match class {
                    StorageClass::StorageBuffer => BufferKind::Storage,
                    StorageClass::Uniform if self.has(block, Decoration::BufferBlock) => {
                        BufferKind::Storage
                    }
                    StorageClass::Uniform => BufferKind::Uniform,
                    _ => return None,
                };
                let set = self.decorated(id, Decoration::DescriptorSet).unwrap_or(0);
                let binding = self.decorated(id, Decoration::Binding).unwrap_or(0);
                Some((id, set, binding, kind))
            })
            .collect()
    }

    /// Finds the mesh entry point's Location-0 output: a variable decorated
    /// Location 0, or a block member decorated Location 0.
    pub fn colour_output(&self, entry: &str) -> Result<ColourOutput, ReferenceError> {
        let ep = self.entry_point(ExecutionModel::MeshEXT, entry)?;
        let interface = ep.operands.iter().skip(3).filter_map(|o| match o {
            Operand::IdRef(id) => Some(*id),
            _ => None,
        });
        for var in interface {
            let Some(pointee) = self.output_pointee(var) else {
                continue;
            };
            // Mesh outputs are arrays over vertices or primitives.
            let element = self.strip_array(pointee);
            if self.decorated(var, Decoration::Location) == Some(0) {
                self.check_vec4(element, var)?;
                return Ok(self.kind(self.has(var, Decoration::PerPrimitiveEXT)));
            }
            if let Some(member) = self.member_with_location0(element) {
                let member_type = self.member_type(element, member);
                match member_type {
                    Some(t) => self.check_vec4(t, var)?,
                    None => return Err(self.unsupported(var)),
                }
                let per_primitive = self.has(var, Decoration::PerPrimitiveEXT)
                    || self.member_has(element, member, Decoration::PerPrimitiveEXT);
                return Ok(self.kind(per_primitive));
            }
        }
        Ok(ColourOutput::Absent)
    }

    fn kind(&self, per_primitive: bool) -> ColourOutput {
        if per_primitive {
            ColourOutput::PerPrimitive
        } else {
            ColourOutput::PerVertex
        }
    }

    fn unsupported(&self, var: u32) -> ReferenceError {
        ReferenceError::UnsupportedColourOutput {
            path: self.path.clone(),
            id: var,
        }
    }

    fn def(&self, id: u32) -> Option<&Instruction> {
        self.module
            .types_global_values
            .iter()
            .find(|i| i.result_id == Some(id))
    }

    /// The pointee type of an Output-storage global variable.
    fn output_pointee(&self, var: u32) -> Option<u32> {
        let v = self.def(var)?;
        if v.class.opcode != Op::Variable {
            return None;
        }
        let ptr = self.def(v.result_type?)?;
        match ptr.operands.as_slice() {
            [
                Operand::StorageClass(StorageClass::Output),
                Operand::IdRef(t),
            ] => Some(*t),
            _ => None,
        }
    }

    fn strip_array(&self, ty: u32) -> u32 {
        match self.def(ty) {
            Some(i) if matches!(i.class.opcode, Op::TypeArray | Op::TypeRuntimeArray) => {
                match i.operands.first() {
                    Some(Operand::IdRef(e)) => *e,
                    _ => ty,
                }
            }
            _ => ty,
        }
    }

    fn check_vec4(&self, ty: u32, var: u32) -> Result<(), ReferenceError> {
        let vec4_f32 = self.def(ty).is_some_and(|v| {
            v.class.opcode == Op::TypeVector
                && matches!(
                    v.operands.as_slice(),
                    [Operand::IdRef(c), Operand::LiteralBit32(4)]
                        if self.def(*c).is_some_and(|f| f.class.opcode == Op::TypeFloat
                            && matches!(f.operands.first(), Some(Operand::LiteralBit32(32))))
                )
        });
        if vec4_f32 {
            Ok(())
        } else {
            Err(self.unsupported(var))
        }
    }

    /// The first literal of `OpDecorate target decoration literal`.
    fn decorated(&self, target: u32, decoration: Decoration) -> Option<u32> {
        self.module
            .annotations
            .iter()
            .find_map(|a| match (a.class.opcode, a.operands.as_slice()) {
                (
                    Op::Decorate,
                    [
                        Operand::IdRef(t),
                        Operand::Decoration(d),
                        Operand::LiteralBit32(v),
                        ..,
                    ],
                ) if *t == target && *d == decoration => Some(*v),
                _ => None,
            })
    }

    fn has(&self, target: u32, decoration: Decoration) -> bool {
        self.module.annotations.iter().any(|a| {
            a.class.opcode == Op::Decorate
                && matches!(a.operands.as_slice(),
                    [Operand::IdRef(t), Operand::Decoration(d), ..] if *t == target && *d == decoration)
        })
    }

    fn member_with_location0(&self, ty: u32) -> Option<u32> {
        self.module
            .annotations
            .iter()
            .find_map(|a| match (a.class.opcode, a.operands.as_slice()) {
                (
                    Op::MemberDecorate,
                    [
                        Operand::IdRef(t),
                        Operand::LiteralBit32(m),
                        Operand::Decoration(Decoration::Location),
                        Operand::LiteralBit32(0),
                    ],
                ) if *t == ty => Some(*m),
                _ => None,
            })
    }

    fn member_has(&self, ty: u32, member: u32, decoration: Decoration) -> bool {
        self.module.annotations.iter().any(|a| {
            a.class.opcode == Op::MemberDecorate
                && matches!(a.operands.as_slice(),
                    [Operand::IdRef(t), Operand::LiteralBit32(m), Operand::Decoration(d), ..]
                        if *t == ty && *m == member && *d == decoration)
        })
    }

    fn member_type(&self, ty: u32, member: u32) -> Option<u32> {
        let s = self.def(ty)?;
        match s.operands.get(usize::try_from(member).ok()?) {
            Some(Operand::IdRef(t)) if s.class.opcode == Op::TypeStruct => Some(*t),
            _ => None,
        }
    }
}

fn model_name(model: ExecutionModel) -> &'static str {
    match model {
        ExecutionModel::GLCompute => "GLCompute",
        ExecutionModel::TaskEXT => "TaskEXT",
        ExecutionModel::MeshEXT => "MeshEXT",
        _ => "other",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shader(name: &str) -> Spirv {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/shaders")
            .join(name);
        Spirv::load(&path).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn per_vertex_colour_is_found() {
        let s = shader("triangle.mesh.spv");
        assert_eq!(s.colour_output("main").ok(), Some(ColourOutput::PerVertex));
    }

    #[test]
    fn per_primitive_colour_is_found() {
        let s = shader("ref_quads.mesh.spv");
        assert_eq!(
            s.colour_output("main").ok(),
            Some(ColourOutput::PerPrimitive)
        );
    }

    #[test]
    fn no_location_0_output_is_absent() {
        let s = shader("point.mesh.spv");
        assert_eq!(s.colour_output("main").ok(), Some(ColourOutput::Absent));
    }

    #[test]
    fn a_colour_that_is_not_a_vec4_is_refused() {
        let s = shader("ref_vec3_colour.mesh.spv");
        let e = s.colour_output("main").err().map(|e| e.to_string());
        assert!(
            e.as_deref()
                .is_some_and(|m| m.contains("is not a vec4 of 32-bit floats")),
            "{e:?}"
        );
    }

    fn compute_desc(buffers: &str) -> RunDescription {
        let json = format!(
            r#"{{"stages": {{"compute": {{"spirv": "a.spv"}}}}, "groups": [1, 1, 1],
                "buffers": [{buffers}]}}"#
        );
        serde_json::from_str(&json).expect("description")
    }

    #[test]
    fn buffers_the_shader_uses_must_be_bound_with_their_kind() {
        // ref_add.comp: storage buffers at bindings 0, 2 and 3, a uniform
        // buffer at 1.
        let s = shader("ref_add.comp.spv");
        let storage = |b: u32| {
            format!(r#"{{"binding": {b}, "kind": "storage", "contents": [{{"zero": 4}}]}}"#)
        };
        let uniform = |b: u32| {
            format!(r#"{{"binding": {b}, "kind": "uniform", "contents": [{{"zero": 16}}]}}"#)
        };
        let check = |buffers: &[String]| {
            s.check_buffers(&compute_desc(&buffers.join(",")))
                .err()
                .map(|e| e.to_string())
        };
        assert_eq!(
            check(&[storage(0), uniform(1), storage(2), storage(3)]),
            None
        );
        let missing = check(&[storage(0), storage(2), storage(3)]);
        assert!(
            missing.as_deref().is_some_and(|m| m.ends_with(
                "uses a uniform buffer at set 0 binding 1 (id %53), but the run binds none there"
            )),
            "{missing:?}"
        );
        let wrong = check(&[storage(0), storage(1), storage(2), storage(3)]);
        assert!(
            wrong
                .as_deref()
                .is_some_and(|m| m.ends_with("but the run binds a storage buffer there")),
            "{wrong:?}"
        );
    }

    #[test]
    fn a_missing_entry_point_is_named() {
        let s = shader("ref_add.comp.spv");
        let e = s.entry_point(ExecutionModel::GLCompute, "other").err();
        assert_eq!(
            e.map(|e| e.to_string())
                .as_deref()
                .and_then(|m| m.split(": ").last()),
            Some("no GLCompute entry point named `other`")
        );
        // The right name but another stage is not a match either.
        assert!(s.entry_point(ExecutionModel::MeshEXT, "main").is_err());
    }

    #[test]
    fn a_truncated_module_is_an_error_not_a_panic() {
        let dir = std::env::temp_dir().join(format!("spvsass-interface-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("truncated.spv");
        let whole = shader("ref_add.comp.spv").words;
        // Cut inside the first instruction of three words or more.
        let mut at = 5;
        while whole[at] >> 16 < 3 {
            at += (whole[at] >> 16) as usize;
        }
        let bytes: Vec<u8> = whole[..=at].iter().flat_map(|w| w.to_le_bytes()).collect();
        std::fs::write(&path, bytes).expect("write");
        let e = Spirv::load(&path).err().map(|e| e.to_string());
        assert!(
            e.as_deref()
                .is_some_and(|m| m.contains("not a SPIR-V module")),
            "{e:?}"
        );
    }
}
