//! With the `inproc-glslang` feature, links the static glslang and
//! SPIRV-Tools libraries that Debian's libshaderc_combined.a leaves out
//! (glslang-dev, spirv-tools), so the binary runs where no shaderc is
//! installed (the GPU machine of the long runs).

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var_os("CARGO_FEATURE_INPROC_GLSLANG").is_none() {
        return;
    }
    println!("cargo:rustc-link-search=native=/usr/lib/x86_64-linux-gnu");
    for lib in [
        "glslang",
        "MachineIndependent",
        "GenericCodeGen",
        "OSDependent",
        "OGLCompiler",
        "SPIRV",
        "SPIRV-Tools-opt",
        "SPIRV-Tools",
    ] {
        println!("cargo:rustc-link-lib=static={lib}");
    }
}
