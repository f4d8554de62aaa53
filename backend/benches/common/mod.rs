//! What the compile benchmarks share: the corpus shaders that compile, the
//! whole compile they time, and a generated shader of any size.

use rspirv::binary::Assemble;
use rspirv::dr::{Builder, Operand};
use spirv::{
    AddressingModel, BuiltIn, Capability, Decoration, ExecutionMode, ExecutionModel,
    FunctionControl, MemoryModel, StorageClass,
};
use spvsass_backend::compile::{BackendOptions, Compiled, compile};
use spvsass_backend::frontend::{FrontendOptions, translate, words_from_bytes};

/// The whole compile: bytes to words, translation and validation,
/// optimisation, register allocation, scheduling and encoding.
pub fn compile_bytes(bytes: &[u8]) -> Result<Compiled, String> {
    let words = words_from_bytes(bytes).map_err(|e| e.to_string())?;
    let shader = translate(&words, &FrontendOptions::default()).map_err(|e| e.to_string())?;
    compile(&shader, &BackendOptions::default()).map_err(|e| e.to_string())
}

/// The corpus shaders (tests/shaders/*.spv) that compile with the default
/// options, by file name, in name order.
pub fn corpus() -> Vec<(String, Vec<u8>)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/shaders");
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .expect("tests/shaders")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "spv"))
        .filter_map(|p| {
            let bytes = std::fs::read(&p).ok()?;
            compile_bytes(&bytes).ok()?;
            let name = p.file_stem()?.to_string_lossy().into_owned();
            Some((name, bytes))
        })
        .collect();
    out.sort();
    out
}

/// Sizes of the generated shader, in sections: 1×, 10×, 100× (the
/// issue's scaling points) and 1000×.
pub const SCALES: [u32; 4] = [1, 10, 100, 1000];

/// A compute shader of `units` identical straight-line sections, each
/// loading four words of a storage buffer, mixing them with multiplies,
/// XORs, shifts and adds into a running sum, and storing the sum after
/// the loaded words: no value but the thread's base index and the sum
/// outlives a section, so the compile work per section is the same and
/// compile time should grow linearly in `units`.
pub fn scaling_shader(units: u32) -> Vec<u8> {
    let mut b = Builder::new();
    b.set_version(1, 3);
    b.capability(Capability::Shader);
    b.memory_model(AddressingModel::Logical, MemoryModel::GLSL450);
    let void = b.type_void();
    let fn_ty = b.type_function(void, []);
    let uint = b.type_int(32, 0);
    let uvec3 = b.type_vector(uint, 3);
    let in_ptr = b.type_pointer(None, StorageClass::Input, uvec3);
    let rta = b.type_runtime_array(uint);
    let block = b.type_struct([rta]);
    let buf_ptr = b.type_pointer(None, StorageClass::StorageBuffer, block);
    let elem_ptr = b.type_pointer(None, StorageClass::StorageBuffer, uint);
    b.decorate(rta, Decoration::ArrayStride, [Operand::LiteralBit32(4)]);
    b.member_decorate(block, 0, Decoration::Offset, [Operand::LiteralBit32(0)]);
    b.decorate(block, Decoration::Block, []);
    let gid = b.variable(in_ptr, None, StorageClass::Input, None);
    b.decorate(
        gid,
        Decoration::BuiltIn,
        [Operand::BuiltIn(BuiltIn::GlobalInvocationId)],
    );
    let buf = b.variable(buf_ptr, None, StorageClass::StorageBuffer, None);
    b.decorate(buf, Decoration::DescriptorSet, [Operand::LiteralBit32(0)]);
    b.decorate(buf, Decoration::Binding, [Operand::LiteralBit32(0)]);
    let c = |b: &mut Builder, v: u32| b.constant_bit32(uint, v);
    let zero = c(&mut b, 0);
    let main = b
        .begin_function(void, None, FunctionControl::NONE, fn_ty)
        .expect("function");
    b.begin_block(None).expect("block");
    let g = b.load(uvec3, None, gid, None, []).expect("load");
    let x = b.composite_extract(uint, None, g, [0]).expect("extract");
    let base = {
        let four = c(&mut b, 4);
        b.i_mul(uint, None, x, four).expect("mul")
    };
    let mut sum = x;
    for u in 0..units {
        let mut words = Vec::new();
        for k in 0..4 {
            let off = c(&mut b, u * 4 + k);
            let i = b.i_add(uint, None, base, off).expect("add");
            let p = b
                .access_chain(elem_ptr, None, buf, [zero, i])
                .expect("chain");
            words.push(b.load(uint, None, p, None, []).expect("load"));
        }
        let m = c(&mut b, 2 * u + 3);
        let s = c(&mut b, u % 31 + 1);
        let a = b.i_mul(uint, None, words[0], m).expect("mul");
        let x1 = b.bitwise_xor(uint, None, a, words[1]).expect("xor");
        let sh = b.shift_left_logical(uint, None, words[2], s).expect("shl");
        let o = b.bitwise_and(uint, None, x1, sh).expect("and");
        let t = b.i_add(uint, None, o, words[3]).expect("add");
        sum = b.i_add(uint, None, sum, t).expect("add");
        let out = {
            // Past every loaded word: an index equal to a load's would be
            // one value after CSE, live from that load to this store, and
            // register pressure would grow with the shader.
            let off = c(&mut b, 4 * units + u);
            let i = b.i_add(uint, None, base, off).expect("add");
            b.access_chain(elem_ptr, None, buf, [zero, i])
                .expect("chain")
        };
        b.store(out, sum, None, []).expect("store");
    }
    b.ret().expect("return");
    b.end_function().expect("end");
    b.entry_point(ExecutionModel::GLCompute, main, "main", [gid, buf]);
    b.execution_mode(main, ExecutionMode::LocalSize, [64, 1, 1]);
    b.module()
        .assemble()
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect()
}
