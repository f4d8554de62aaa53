//! Helpers shared by the frontend's integration tests.
#![allow(dead_code)] // Each test crate uses its own subset.

use spvsass_frontend::ir::{
    BuiltIn, GlobalVar, Inst, Op, Shader, StorageClass, Type, TypeId, Value, ValueDef,
};
use spvsass_frontend::{FrontendError, FrontendOptions, translate, words_from_bytes};
use std::path::PathBuf;

/// A file of the repository, relative to its root.
pub fn repo_path(relative: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(relative)
}

pub fn words_of(relative: &str) -> Vec<u32> {
    let path = repo_path(relative);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    words_from_bytes(&bytes).unwrap()
}

/// Translates a .spv file of the repository with the default options.
pub fn translate_file(relative: &str) -> Result<Shader, FrontendError> {
    translate(&words_of(relative), &FrontendOptions::default())
}

pub fn shader_of(relative: &str) -> Shader {
    translate_file(relative).unwrap_or_else(|e| panic!("{relative}: {e}"))
}

/// Every instruction of the shader in layout order.
pub fn insts(shader: &Shader) -> Vec<Inst> {
    shader
        .layout
        .iter()
        .flat_map(|&b| shader.blocks[b].insts.iter().copied())
        .collect()
}

pub fn ops(shader: &Shader) -> Vec<&Op> {
    insts(shader)
        .into_iter()
        .map(|i| &shader.insts[i].op)
        .collect()
}

/// The global a pointer value is (or points into), with the type of the
/// pointee and the built-in of the struct member or variable it reaches.
pub fn pointer_target(shader: &Shader, ptr: Value) -> (GlobalVar, Option<BuiltIn>) {
    match &shader
        .def_inst(ptr)
        .expect("a pointer is an instruction result")
        .op
    {
        Op::VarAddr(gv) => (*gv, shader.globals[*gv].builtin),
        Op::AccessChain { base, indices } => {
            let (gv, mut builtin) = pointer_target(shader, *base);
            let mut ty = pointee(shader, *base);
            for &index in indices {
                ty = match &shader.types[ty] {
                    Type::Array { elem, .. } => *elem,
                    Type::Vector { scalar, .. } => find_type(shader, &Type::Scalar(*scalar)),
                    Type::Matrix { column, .. } => *column,
                    Type::Struct { members, .. } => {
                        let i = shader.const_value(index).expect("struct index is constant");
                        let member = &members[i as usize];
                        builtin = builtin.or(member.builtin);
                        member.ty
                    }
                    other => panic!("access chain into {other:?}"),
                };
            }
            (gv, builtin)
        }
        other => panic!("{ptr} is not a pointer but {other:?}"),
    }
}

pub fn pointee(shader: &Shader, ptr: Value) -> TypeId {
    match shader.value_type(ptr) {
        Type::Pointer { pointee, .. } => *pointee,
        other => panic!("{ptr} has type {other:?}"),
    }
}

fn find_type(shader: &Shader, ty: &Type) -> TypeId {
    shader
        .types
        .iter()
        .find(|(_, t)| *t == ty)
        .map(|(id, _)| id)
        .expect("type is interned")
}

/// The pointers every Store writes through, with their targets.
pub fn stores(shader: &Shader) -> Vec<(Value, GlobalVar, Option<BuiltIn>)> {
    ops(shader)
        .into_iter()
        .filter_map(|op| match op {
            Op::Store { ptr, value } => {
                let (gv, builtin) = pointer_target(shader, *ptr);
                Some((*value, gv, builtin))
            }
            _ => None,
        })
        .collect()
}

pub fn global_with_builtin(shader: &Shader, builtin: BuiltIn) -> Option<GlobalVar> {
    shader
        .globals
        .iter()
        .find(|(_, g)| g.builtin == Some(builtin))
        .map(|(gv, _)| gv)
}

pub fn function_globals(shader: &Shader) -> usize {
    shader
        .globals
        .values()
        .filter(|g| g.class == StorageClass::Function)
        .count()
}

pub fn is_param(shader: &Shader, v: Value) -> bool {
    matches!(shader.values[v].def, ValueDef::Param(..))
}

/// A module with one entry point "main" of `model` (capability Shader, plus
/// MeshShadingEXT for task and mesh), its execution modes, and the body
/// `body` writes into the function's first block (it must end its blocks).
pub fn build_module(
    model: rspirv::spirv::ExecutionModel,
    modes: &[(rspirv::spirv::ExecutionMode, &[u32])],
    body: impl FnOnce(&mut rspirv::dr::Builder),
) -> Vec<u32> {
    use rspirv::binary::Assemble;
    use rspirv::spirv::{
        AddressingModel, Capability, ExecutionModel, FunctionControl, MemoryModel,
    };
    let mut b = rspirv::dr::Builder::new();
    b.set_version(1, 6);
    b.capability(Capability::Shader);
    if matches!(model, ExecutionModel::MeshEXT | ExecutionModel::TaskEXT) {
        b.capability(Capability::MeshShadingEXT);
    }
    b.memory_model(AddressingModel::Logical, MemoryModel::GLSL450);
    let void = b.type_void();
    let fn_ty = b.type_function(void, vec![]);
    let main = b
        .begin_function(void, None, FunctionControl::NONE, fn_ty)
        .unwrap();
    b.begin_block(None).unwrap();
    body(&mut b);
    b.end_function().unwrap();
    b.entry_point(model, main, "main", []);
    for (mode, params) in modes {
        b.execution_mode(main, *mode, params);
    }
    b.module().assemble()
}

/// A GLCompute module with LocalSize 1 1 1.
pub fn compute_module(body: impl FnOnce(&mut rspirv::dr::Builder)) -> Vec<u32> {
    use rspirv::spirv::{ExecutionMode, ExecutionModel};
    build_module(
        ExecutionModel::GLCompute,
        &[(ExecutionMode::LocalSize, &[1, 1, 1])],
        body,
    )
}
