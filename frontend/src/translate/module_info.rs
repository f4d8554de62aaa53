//! Indexes over the module-level sections: what defines each id, the debug
//! names, the extended instruction sets and the decorations.

use super::decorations::Decorations;
use super::operands::{Operands, malformed, result_id};
use super::spec::{ConstType, SpecValue, override_bits, scalar_value};
use crate::FrontendError;
use rspirv::dr::{self, Instruction, Operand};
use rustc_hash::FxHashMap;

pub(super) struct ModuleInfo<'m> {
    pub module: &'m dr::Module,
    /// Types, constants, global variables and module-level OpUndef.
    defs: FxHashMap<u32, &'m Instruction>,
    names: FxHashMap<u32, &'m str>,
    ext_inst_sets: FxHashMap<u32, &'m str>,
    pub decorations: Decorations,
    /// The overridden specialization constants: result id → bits.
    spec_overrides: FxHashMap<u32, u64>,
}

impl<'m> ModuleInfo<'m> {
    pub(super) fn new(
        module: &'m dr::Module,
        spec_values: &[(u32, SpecValue)],
    ) -> Result<Self, FrontendError> {
        let mut defs = FxHashMap::with_capacity_and_hasher(
            module.types_global_values.len(),
            Default::default(),
        );
        for inst in &module.types_global_values {
            // OpLine / OpNoLine also live in this section, without an id.
            if let Some(id) = inst.result_id
                && defs.insert(id, inst).is_some()
            {
                return Err(malformed(inst, "the result id is defined twice"));
            }
        }
        let mut names =
            FxHashMap::with_capacity_and_hasher(module.debug_names.len(), Default::default());
        for inst in &module.debug_names {
            if inst.class.opcode == spirv::Op::Name {
                let mut ops = Operands::new(inst);
                let target = ops.id("target")?;
                // glslang names anonymous blocks "".
                let name = ops.string("name")?;
                if !name.is_empty() {
                    names.insert(target, name);
                }
            }
        }
        let mut ext_inst_sets = FxHashMap::default();
        for inst in &module.ext_inst_imports {
            let set = match inst.operands.first() {
                Some(Operand::LiteralString(s)) => s.as_str(),
                _ => return Err(malformed(inst, "missing instruction-set name")),
            };
            ext_inst_sets.insert(result_id(inst)?, set);
        }
        let mut info = ModuleInfo {
            module,
            defs,
            names,
            ext_inst_sets,
            decorations: Decorations::collect(module)?,
            spec_overrides: FxHashMap::default(),
        };
        info.spec_overrides = info.resolve_overrides(spec_values)?;
        Ok(info)
    }

    /// Maps each (SpecId, value) onto the constants decorated with it
    /// (glslang decorates two with the SpecId of local_size_x_id: the
    /// LocalSizeId operand and the WorkgroupSize component).
    fn resolve_overrides(
        &self,
        spec_values: &[(u32, SpecValue)],
    ) -> Result<FxHashMap<u32, u64>, FrontendError> {
        let mut by_spec_id: FxHashMap<u32, Vec<u32>> = FxHashMap::default();
        for (id, spec) in self.decorations.spec_ids() {
            by_spec_id.entry(spec).or_default().push(id);
        }
        let mut overrides = FxHashMap::default();
        for &(spec_id, value) in spec_values {
            let targets: Vec<&Instruction> = by_spec_id
                .get(&spec_id)
                .into_iter()
                .flatten()
                .filter_map(|&id| self.def(id))
                .filter(|def| {
                    matches!(
                        def.class.opcode,
                        spirv::Op::SpecConstant
                            | spirv::Op::SpecConstantTrue
                            | spirv::Op::SpecConstantFalse
                    )
                })
                .collect();
            if targets.is_empty() {
                return Err(FrontendError::Specialization {
                    spec_id,
                    what: "no specialization constant has this SpecId".into(),
                });
            }
            for def in targets {
                let ty = def
                    .result_type
                    .and_then(|t| ConstType::of(self, t))
                    .ok_or_else(|| malformed(def, "the type is not a scalar"))?;
                overrides.insert(result_id(def)?, override_bits(spec_id, ty, value)?);
            }
        }
        Ok(overrides)
    }

    /// The user's value for the specialization constant `id`, as bits.
    pub(super) fn spec_override(&self, id: u32) -> Option<u64> {
        self.spec_overrides.get(&id).copied()
    }

    /// The module-level instruction defining `id`, if any.
    pub(super) fn def(&self, id: u32) -> Option<&'m Instruction> {
        self.defs.get(&id).copied()
    }

    pub(super) fn name(&self, id: u32) -> Option<&'m str> {
        self.names.get(&id).copied()
    }

    pub(super) fn ext_inst_set(&self, id: u32) -> Option<&'m str> {
        self.ext_inst_sets.get(&id).copied()
    }

    /// The value of an integer constant, specialization constants
    /// included, for array lengths and LocalSizeId operands.
    pub(super) fn int_constant(&self, id: u32) -> Option<u64> {
        match scalar_value(self, id)? {
            (ConstType::Int { .. }, v) => Some(v),
            _ => None,
        }
    }

    /// A 32-bit-or-less unsigned value of an integer constant.
    pub(super) fn u32_constant(&self, id: u32) -> Option<u32> {
        self.int_constant(id).and_then(|v| u32::try_from(v).ok())
    }
}
