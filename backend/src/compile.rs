//! The compilation pipeline, written as a plain list of passes. With
//! `print_passes` set, the machine IR is captured after each pass.

use crate::assign_regs::assign_regs;
use crate::binary::{Binary, MeshState};
use crate::calc_instr_deps::calc_instr_deps;
use crate::error::BackendError;
use crate::from_ir::select;
use crate::isa::Instr;
use crate::layout::layout;
use crate::program;
use crate::sph::{ShaderType, Sph};
use crate::target::Arch;
use spvsass_frontend::ir::{Shader, Stage};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BackendOptions {
    pub arch: Arch,
    /// A task shader feeds this mesh shader (its SPH type is TESSELLATION
    /// instead of VERTEX, nvidia-facts.md §2).
    pub task_present: bool,
    /// Capture the machine IR after every pass.
    pub print_passes: bool,
}

impl Default for BackendOptions {
    fn default() -> Self {
        BackendOptions {
            arch: Arch::DEFAULT,
            task_present: false,
            print_passes: false,
        }
    }
}

/// A compiled shader: the binary, its instructions (decoded form) and the
/// pass dumps that were asked for.
#[derive(Clone, Debug)]
pub struct Compiled {
    pub binary: Binary,
    pub instrs: Vec<Instr>,
    pub pass_dumps: Vec<(&'static str, String)>,
}

pub fn compile(sh: &Shader, opts: &BackendOptions) -> Result<Compiled, BackendError> {
    let mut dumps = Vec::new();
    let mut dump = |name: &'static str, text: &dyn Fn() -> String| {
        if opts.print_passes {
            dumps.push((name, text()));
        }
    };
    if sh.stage != Stage::Mesh {
        return Err(BackendError::Unsupported {
            what: format!("{} shaders (issues [C] and [D])", sh.stage.name()),
            opcode: "OpEntryPoint".into(),
            spirv_id: None,
        });
    }
    let mesh_info = sh.mesh.ok_or_else(|| BackendError::Invalid {
        what: "a mesh shader without output modes".into(),
        spirv_id: None,
    })?;
    if sh.invocations() > 32 {
        return Err(BackendError::Unsupported {
            what: format!(
                "workgroups of {} invocations (over one warp: issue [D])",
                sh.invocations()
            ),
            opcode: "OpExecutionMode LocalSize".into(),
            spirv_id: None,
        });
    }

    // The pipeline.
    let selected = select(sh, opts.arch)?;
    let mut func = selected.func;
    dump("select", &|| func.to_string());
    let num_gprs = assign_regs(&mut func)?;
    dump("assign_regs", &|| func.to_string());
    let mut instrs = layout(&func);
    dump("layout", &|| program::listing(&instrs, false));
    calc_instr_deps(&mut instrs);
    dump("calc_instr_deps", &|| program::listing(&instrs, true));
    let code = program::encode(&instrs)?;

    let mesh = MeshState {
        topology: mesh_info.topology,
        max_vertices: mesh_info.max_vertices,
        max_primitives: mesh_info.max_primitives,
        shared_mem_lines: 0,
        vertex_attrs: selected.vertex_attrs,
        primitive_attrs: Vec::new(),
    };
    let shader_type = if opts.task_present {
        ShaderType::Tessellation
    } else {
        ShaderType::Vertex
    };
    let sph = Sph::mesh(&mesh, shader_type);
    let binary = Binary {
        arch: opts.arch,
        stage: sh.stage,
        workgroup_size: sh.workgroup_size,
        num_gprs,
        mesh: Some(mesh),
        sph: Some(sph.0),
        code,
    };
    Ok(Compiled {
        binary,
        instrs,
        pass_dumps: dumps,
    })
}
