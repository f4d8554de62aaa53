//! Choosing the entry point and reading its execution model and execution
//! modes (workgroup size, mesh output limits and topology).

use super::FrontendOptions;
use super::module_info::ModuleInfo;
use super::operands::{Operands, malformed};
use crate::FrontendError;
use crate::ir::{MeshInfo, MeshTopology, Stage};
use rspirv::dr::{Instruction, Operand};
use spirv::{ExecutionMode, ExecutionModel};

pub(super) struct EntryPoint<'m> {
    pub inst: &'m Instruction,
    pub stage: Stage,
    pub function: u32,
    pub name: String,
    /// The global variables it declares it uses.
    pub interface: Vec<u32>,
}

struct Declared<'m> {
    inst: &'m Instruction,
    model: ExecutionModel,
    function: u32,
    name: &'m str,
}

fn declared(inst: &Instruction) -> Result<Declared<'_>, FrontendError> {
    let mut ops = Operands::new(inst);
    let model = match ops.any("execution model")? {
        Operand::ExecutionModel(m) => *m,
        other => return Err(ops.wrong_kind("execution model", other)),
    };
    let function = ops.id("entry point function")?;
    let name = ops.string("name")?;
    Ok(Declared {
        inst,
        model,
        function,
        name,
    })
}

/// Picks the entry point named in `options`, or the only one.
pub(super) fn select<'m>(
    info: &ModuleInfo<'m>,
    options: &FrontendOptions,
) -> Result<EntryPoint<'m>, FrontendError> {
    let all = info
        .module
        .entry_points
        .iter()
        .map(declared)
        .collect::<Result<Vec<_>, _>>()?;
    let available = || all.iter().map(|e| e.name.to_string()).collect::<Vec<_>>();
    let mut candidates: Vec<&Declared> = match &options.entry {
        Some(name) => all.iter().filter(|e| e.name == name).collect(),
        None => all.iter().collect(),
    };
    let chosen = match (candidates.len(), &options.entry) {
        (1, _) => candidates.remove(0),
        (0, None) => return Err(FrontendError::NoEntryPoint),
        (0, Some(name)) => {
            return Err(FrontendError::EntryPointNotFound {
                name: name.clone(),
                available: available(),
            });
        }
        // Several entry points, or one name declared for several models.
        _ => {
            return Err(FrontendError::AmbiguousEntryPoint {
                available: available(),
            });
        }
    };

    let stage = match chosen.model {
        ExecutionModel::MeshEXT => Stage::Mesh,
        ExecutionModel::TaskEXT => Stage::Task,
        ExecutionModel::GLCompute => Stage::Compute,
        other => {
            return Err(FrontendError::UnsupportedExecutionModel {
                entry: chosen.name.to_string(),
                model: format!("{other:?}"),
            });
        }
    };
    let mut ops = Operands::new(chosen.inst);
    ops.any("execution model")?;
    ops.id("entry point function")?;
    ops.string("name")?;
    let interface = ops.rest_ids("interface variable")?;
    Ok(EntryPoint {
        inst: chosen.inst,
        stage,
        function: chosen.function,
        name: chosen.name.to_string(),
        interface,
    })
}

/// What the execution modes of an entry point say.
pub(super) struct Modes {
    pub workgroup_size: [u32; 3],
    pub mesh: Option<MeshInfo>,
}

pub(super) fn read_modes(info: &ModuleInfo, entry: &EntryPoint) -> Result<Modes, FrontendError> {
    let mut local_size = None;
    let mut max_vertices = None;
    let mut max_primitives = None;
    let mut topology = None;
    for inst in &info.module.execution_modes {
        let mut ops = Operands::new(inst);
        if ops.id("entry point")? != entry.function {
            continue;
        }
        let mode = match ops.any("execution mode")? {
            Operand::ExecutionMode(m) => *m,
            other => return Err(ops.wrong_kind("execution mode", other)),
        };
        match mode {
            ExecutionMode::LocalSize => {
                let size = ops.rest_literals("LocalSize size")?;
                local_size = Some(three(inst, &size)?);
            }
            ExecutionMode::LocalSizeId => {
                let ids = ops.rest_ids("LocalSizeId size")?;
                let size = ids
                    .iter()
                    .map(|&id| {
                        info.u32_constant(id).ok_or_else(|| {
                            malformed(
                                inst,
                                format!("LocalSizeId operand %{id} is not an integer constant"),
                            )
                        })
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                local_size = Some(three(inst, &size)?);
            }
            ExecutionMode::OutputVertices => max_vertices = Some(ops.literal("vertex count")?),
            ExecutionMode::OutputPrimitivesEXT => {
                max_primitives = Some(ops.literal("primitive count")?)
            }
            ExecutionMode::OutputPoints => topology = Some(MeshTopology::Points),
            ExecutionMode::OutputLinesEXT => topology = Some(MeshTopology::Lines),
            ExecutionMode::OutputTrianglesEXT => topology = Some(MeshTopology::Triangles),
            // Float controls, derivative groups, subgroup-size hints and the
            // like do not change what this compiler generates.
            _ => {}
        }
    }

    // A WorkgroupSize built-in constant overrides LocalSize (SPIR-V spec,
    // "WorkgroupSize"); glslang makes one for local_size_*_id.
    if let Some(id) = info
        .decorations
        .id_with_builtin(spirv::BuiltIn::WorkgroupSize)
    {
        local_size = Some(workgroup_size_constant(info, id)?);
    }

    let missing = |mode: &str| FrontendError::MissingExecutionMode {
        entry: entry.name.clone(),
        mode: mode.to_string(),
    };
    let workgroup_size = local_size.ok_or_else(|| missing("LocalSize"))?;
    let mesh = match entry.stage {
        Stage::Mesh => Some(MeshInfo {
            topology: topology
                .ok_or_else(|| missing("OutputPoints, OutputLinesEXT or OutputTrianglesEXT"))?,
            max_vertices: max_vertices.ok_or_else(|| missing("OutputVertices"))?,
            max_primitives: max_primitives.ok_or_else(|| missing("OutputPrimitivesEXT"))?,
        }),
        Stage::Task | Stage::Compute => None,
    };
    Ok(Modes {
        workgroup_size,
        mesh,
    })
}

fn three(inst: &Instruction, size: &[u32]) -> Result<[u32; 3], FrontendError> {
    match *size {
        [x, y, z] if x > 0 && y > 0 && z > 0 => Ok([x, y, z]),
        _ => Err(malformed(
            inst,
            format!("workgroup size {size:?} is not three non-zero numbers"),
        )),
    }
}

fn workgroup_size_constant(info: &ModuleInfo, id: u32) -> Result<[u32; 3], FrontendError> {
    let Some(inst) = info.def(id) else {
        return Err(FrontendError::Malformed {
            opcode: "OpDecorate".into(),
            result_id: None,
            what: format!("the WorkgroupSize built-in %{id} is not a constant"),
            text: format!("OpDecorate %{id} BuiltIn WorkgroupSize"),
        });
    };
    if !matches!(
        inst.class.opcode,
        spirv::Op::ConstantComposite | spirv::Op::SpecConstantComposite
    ) {
        return Err(malformed(
            inst,
            "a WorkgroupSize built-in must be a composite constant",
        ));
    }
    let size = Operands::new(inst)
        .rest_ids("component")?
        .iter()
        .map(|&c| {
            info.u32_constant(c).ok_or_else(|| {
                malformed(inst, format!("component %{c} is not an integer constant"))
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    three(inst, &size)
}
