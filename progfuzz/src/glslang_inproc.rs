//! GLSL source to SPIR-V inside this process, through shaderc
//! (the `inproc-glslang` feature). glslangValidator rebuilds its built-in
//! symbol tables in every process, which cost about 90% of the CPU of a
//! run; shaderc builds them once per process. Same target as the
//! glslangValidator path: Vulkan 1.3, no optimisation.

use std::cell::RefCell;

thread_local! {
    static COMPILER: RefCell<Option<shaderc::Compiler>> = const { RefCell::new(None) };
}

/// Compiles `src`, a shader of `stage` (`comp`, `task` or `mesh`, the
/// stage names of glslangValidator's `-S`), to SPIR-V words; the error is
/// shaderc's message.
pub fn compile(src: &str, stage: &str) -> Result<Vec<u32>, String> {
    let kind = match stage {
        "comp" => shaderc::ShaderKind::Compute,
        "task" => shaderc::ShaderKind::Task,
        "mesh" => shaderc::ShaderKind::Mesh,
        other => return Err(format!("no shader stage {other}")),
    };
    COMPILER.with(|c| {
        let mut c = c.borrow_mut();
        if c.is_none() {
            *c = Some(shaderc::Compiler::new().map_err(|e| e.to_string())?);
        }
        let compiler = c.as_ref().expect("created above");
        let mut options = shaderc::CompileOptions::new().map_err(|e| e.to_string())?;
        options.set_target_env(
            shaderc::TargetEnv::Vulkan,
            shaderc::EnvVersion::Vulkan1_3 as u32,
        );
        options.set_optimization_level(shaderc::OptimizationLevel::Zero);
        let artifact = compiler
            .compile_into_spirv(src, kind, "program", "main", Some(&options))
            .map_err(|e| e.to_string())?;
        Ok(artifact.as_binary().to_vec())
    })
}
