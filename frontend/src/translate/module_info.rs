//! Indexes over the module-level sections: what defines each id, the debug
//! names, the extended instruction sets and the decorations.

use super::decorations::Decorations;
use super::operands::{Operands, malformed, result_id};
use crate::FrontendError;
use rspirv::dr::{self, Instruction, Operand};
use std::collections::HashMap;

pub(super) struct ModuleInfo<'m> {
    pub module: &'m dr::Module,
    /// Types, constants, global variables and module-level OpUndef.
    defs: HashMap<u32, &'m Instruction>,
    names: HashMap<u32, &'m str>,
    ext_inst_sets: HashMap<u32, &'m str>,
    pub decorations: Decorations,
}

impl<'m> ModuleInfo<'m> {
    pub(super) fn new(module: &'m dr::Module) -> Result<Self, FrontendError> {
        let mut defs = HashMap::new();
        for inst in &module.types_global_values {
            // OpLine / OpNoLine also live in this section, without an id.
            if let Some(id) = inst.result_id
                && defs.insert(id, inst).is_some()
            {
                return Err(malformed(inst, "the result id is defined twice"));
            }
        }
        let mut names = HashMap::new();
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
        let mut ext_inst_sets = HashMap::new();
        for inst in &module.ext_inst_imports {
            let set = match inst.operands.first() {
                Some(Operand::LiteralString(s)) => s.as_str(),
                _ => return Err(malformed(inst, "missing instruction-set name")),
            };
            ext_inst_sets.insert(result_id(inst)?, set);
        }
        Ok(ModuleInfo {
            module,
            defs,
            names,
            ext_inst_sets,
            decorations: Decorations::collect(module)?,
        })
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

    /// The value of an integer constant (OpConstant, or OpSpecConstant with
    /// its default), for array lengths and LocalSizeId operands.
    pub(super) fn int_constant(&self, id: u32) -> Option<u64> {
        let inst = self.def(id)?;
        if !matches!(
            inst.class.opcode,
            spirv::Op::Constant | spirv::Op::SpecConstant
        ) {
            return None;
        }
        let ty = self.def(inst.result_type?)?;
        if ty.class.opcode != spirv::Op::TypeInt {
            return None;
        }
        match inst.operands.first()? {
            Operand::LiteralBit32(v) => Some(u64::from(*v)),
            Operand::LiteralBit64(v) => Some(*v),
            _ => None,
        }
    }

    /// A 32-bit-or-less unsigned value of an integer constant.
    pub(super) fn u32_constant(&self, id: u32) -> Option<u32> {
        self.int_constant(id).and_then(|v| u32::try_from(v).ok())
    }
}
