//! Translation of one SPIR-V entry point into an [`ir::Shader`].
//!
//! The work is split by concern: the module-level indexes
//! ([`module_info`], [`decorations`]), the entry point and its modes
//! ([`entry_point`]), then types, constants and global variables, which are
//! translated on first use, and the function body ([`body`]) with
//! function-local variables promoted to SSA values ([`promote`], [`ssa`]).
//!
//! Everything that must dominate the whole function — constants, the
//! addresses of variables (`Op::VarAddr`), the `Undef` read from a
//! never-stored local variable — goes into the *prologue*: the front of the
//! entry block, before the instructions of SPIR-V's first block. Each is
//! emitted once, when first used.

mod arith;
mod atomics;
mod body;
mod builtins;
mod capabilities;
mod cfg;
mod composites;
mod constants;
mod decorations;
mod entry_point;
mod ext_inst;
mod fuse_copy;
mod globals;
mod images;
mod inline;
mod memory;
mod module_info;
mod operands;
mod promote;
mod spec;
mod ssa;
mod subgroup;
mod types;

use crate::FrontendError;
use crate::ir::{self, GlobalVar, Op, Shader, TypeId, Value};
use cfg::Cfg;
use module_info::ModuleInfo;
use operands::{malformed, undefined_id};
use rspirv::dr::{self, Instruction};
use rustc_hash::{FxHashMap, FxHashSet};
pub use spec::SpecValue;

/// What to translate.
#[derive(Clone, Debug, Default)]
pub struct FrontendOptions {
    /// The entry point's name; `None` picks the module's only entry point.
    pub entry: Option<String>,
    /// Values for specialization constants, by SpecId (a later pair for
    /// the same SpecId wins); the others keep their defaults.
    pub spec_constants: Vec<(u32, SpecValue)>,
}

pub(crate) fn translate_module(
    module: &dr::Module,
    options: &FrontendOptions,
) -> Result<Shader, FrontendError> {
    capabilities::check_capabilities(module)?;
    capabilities::check_extensions(module)?;
    let info = ModuleInfo::new(module, &options.spec_constants)?;
    let entry = entry_point::select(&info, options)?;
    let modes = entry_point::read_modes(&info, &entry)?;
    let function = module
        .functions
        .iter()
        .find(|f| f.def.as_ref().and_then(|d| d.result_id) == Some(entry.function))
        .ok_or_else(|| {
            malformed(
                entry.inst,
                format!(
                    "entry point \"{}\" names %{}, which is not a function",
                    entry.name, entry.function
                ),
            )
        })?;
    if let (Some(def), Some(_)) = (&function.def, function.parameters.first()) {
        return Err(malformed(
            def,
            "an entry point function takes no parameters",
        ));
    }

    let mut shader = Shader::new(entry.stage, entry.name.clone());
    shader.workgroup_size = modes.workgroup_size;
    shader.mesh = modes.mesh;
    let function = &*inline::inline_calls(module, function)?;
    let cfg = Cfg::build(&mut shader, function)?;

    // The SPIR-V ids translated are module-level definitions and results
    // of the function: sizing the maps for them all spares their regrowth.
    let module_ids = module.types_global_values.len();
    let function_ids = function
        .blocks
        .iter()
        .map(|b| b.instructions.len())
        .sum::<usize>();
    // Most SPIR-V instructions become one IR instruction and value.
    shader.insts.reserve(function_ids);
    shader.values.reserve(function_ids);
    let mut t = Translator::new(info, shader, cfg, module_ids, module_ids + function_ids);
    // The interface comes first so that the globals keep its order.
    for &id in &entry.interface {
        t.global(entry.inst, id)?;
    }
    t.translate_function(function)?;
    t.finish_ssa()?;
    Ok(t.shader)
}

/// The state of one translation.
pub(super) struct Translator<'m> {
    info: ModuleInfo<'m>,
    shader: Shader,
    cfg: Cfg,
    /// SPIR-V type ids already translated (without matrix layout overrides).
    types: FxHashMap<u32, TypeId>,
    /// Type and constant ids being translated, to catch self-reference.
    in_progress: FxHashSet<u32>,
    /// The IR value of each SPIR-V id translated so far.
    values: FxHashMap<u32, Value>,
    /// The all-zero value of each type, for OpConstantNull.
    zeros: FxHashMap<TypeId, Value>,
    globals: FxHashMap<u32, GlobalVar>,
    var_addrs: FxHashMap<GlobalVar, Value>,
    /// How many instructions the prologue holds so far.
    prologue_len: usize,
    ssa: ssa::Ssa,
}

impl<'m> Translator<'m> {
    /// A translator sized for at most `types` type ids and `ids` ids in all.
    fn new(info: ModuleInfo<'m>, shader: Shader, cfg: Cfg, types: usize, ids: usize) -> Self {
        Translator {
            info,
            shader,
            cfg,
            types: FxHashMap::with_capacity_and_hasher(types, Default::default()),
            in_progress: FxHashSet::default(),
            values: FxHashMap::with_capacity_and_hasher(ids, Default::default()),
            zeros: FxHashMap::default(),
            globals: FxHashMap::default(),
            var_addrs: FxHashMap::default(),
            prologue_len: 0,
            ssa: ssa::Ssa::default(),
        }
    }

    /// Appends `op` to the prologue (see the module docs).
    fn emit_in_prologue(&mut self, op: Op, ty: TypeId, spirv_id: Option<u32>) -> Value {
        let entry = self.shader.entry_block();
        let (inst, value) = self.shader.append(entry, op, Some(ty), spirv_id);
        let insts = &mut self.shader.blocks[entry].insts;
        insts.pop();
        insts.insert(self.prologue_len, inst);
        self.prologue_len += 1;
        value.expect("append gives a result value when given a result type")
    }

    /// The value of the operand `id` of `user`.
    fn value(&mut self, user: &Instruction, id: u32) -> Result<Value, FrontendError> {
        if let Some(&v) = self.values.get(&id) {
            return Ok(v);
        }
        let Some(def) = self.info.def(id) else {
            return Err(undefined_id(user, id));
        };
        match def.class.opcode {
            spirv::Op::Variable => {
                let gv = self.global(user, id)?;
                Ok(self.var_addr(gv))
            }
            op if op.is_constant() || op == spirv::Op::Undef => self.constant(def),
            _ => Err(malformed(user, format!("operand %{id} is not a value"))),
        }
    }

    /// Records that the SPIR-V result `id` of `inst` is `value`.
    fn define(&mut self, inst: &Instruction, id: u32, value: Value) -> Result<(), FrontendError> {
        if self.info.def(id).is_some() || self.values.insert(id, value).is_some() {
            return Err(malformed(inst, "the result id is defined twice"));
        }
        Ok(())
    }

    fn intern(&mut self, ty: ir::Type) -> TypeId {
        self.shader.intern_type(ty)
    }
}
