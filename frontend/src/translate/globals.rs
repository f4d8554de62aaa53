//! Variables → [`GlobalVarData`]: module-level OpVariables, and the
//! function-local ones that cannot be promoted to SSA values (class
//! Function). A use of a variable reads its address from one `Op::VarAddr`
//! in the prologue.

use super::Translator;
use super::builtins::{builtin, storage_class};
use super::operands::{Operands, malformed, result_id, result_type, undefined_id, unsupported};
use crate::FrontendError;
use crate::ir::{GlobalVar, GlobalVarData, Op, StorageClass, Type, TypeId, Value};
use rspirv::dr::{Instruction, Operand};

impl Translator<'_> {
    /// The global for the module-level OpVariable `id`, an operand of `user`.
    pub(super) fn global(
        &mut self,
        user: &Instruction,
        id: u32,
    ) -> Result<GlobalVar, FrontendError> {
        if let Some(&gv) = self.globals.get(&id) {
            return Ok(gv);
        }
        let def = match self.info.def(id) {
            Some(def) if def.class.opcode == spirv::Op::Variable => def,
            Some(_) => return Err(malformed(user, format!("%{id} is not a variable"))),
            None => return Err(undefined_id(user, id)),
        };
        let data = self.variable(def)?;
        if data.class == StorageClass::Function {
            return Err(malformed(
                def,
                "a module-level variable cannot have class Function",
            ));
        }
        let gv = self.shader.globals.push(data);
        self.globals.insert(id, gv);
        Ok(gv)
    }

    /// The global standing for an OpVariable of class Function that stays
    /// in memory.
    pub(super) fn local_global(&mut self, inst: &Instruction) -> Result<GlobalVar, FrontendError> {
        let data = self.variable(inst)?;
        let id = data.spirv_id;
        let gv = self.shader.globals.push(data);
        self.globals.insert(id, gv);
        Ok(gv)
    }

    /// The address of `gv`, emitted in the prologue on first use.
    pub(super) fn var_addr(&mut self, gv: GlobalVar) -> Value {
        if let Some(&v) = self.var_addrs.get(&gv) {
            return v;
        }
        let data = &self.shader.globals[gv];
        let (class, pointee, spirv_id) = (data.class, data.ty, data.spirv_id);
        let ptr_ty = self.intern(Type::Pointer {
            class,
            pointee,
            array_stride: None,
        });
        let v = self.emit_in_prologue(Op::VarAddr(gv), ptr_ty, Some(spirv_id));
        self.var_addrs.insert(gv, v);
        v
    }

    /// The storage class and pointee type of an OpVariable.
    pub(super) fn variable_type(
        &mut self,
        inst: &Instruction,
    ) -> Result<(StorageClass, TypeId), FrontendError> {
        let ptr_ty = self.ty(inst, result_type(inst)?)?;
        let Type::Pointer { class, pointee, .. } = self.shader.types[ptr_ty] else {
            return Err(malformed(inst, "the result type is not a pointer"));
        };
        match inst.operands.first() {
            Some(Operand::StorageClass(c)) if storage_class(*c) == Some(class) => {
                Ok((class, pointee))
            }
            // A BufferBlock storage buffer (types.rs).
            Some(Operand::StorageClass(spirv::StorageClass::Uniform))
                if class == StorageClass::StorageBuffer =>
            {
                Ok((class, pointee))
            }
            Some(Operand::StorageClass(_)) => Err(malformed(
                inst,
                "the storage class differs from the pointer type's",
            )),
            _ => Err(malformed(inst, "missing storage class")),
        }
    }

    fn variable(&mut self, inst: &Instruction) -> Result<GlobalVarData, FrontendError> {
        let id = result_id(inst)?;
        let (class, ty) = self.variable_type(inst)?;
        let mut ops = Operands::new(inst);
        ops.any("storage class")?;
        // An initializer naming the variable itself (or a variable whose
        // initializer leads back to it) would recurse without end.
        if !self.in_progress.insert(id) {
            return Err(malformed(
                inst,
                "the variable's initializer contains itself",
            ));
        }
        let initializer = match ops.optional_id() {
            Some(init) => self.value(inst, init).map(Some),
            None => Ok(None),
        };
        self.in_progress.remove(&id);
        let initializer = initializer?;
        let d = self.info.decorations.id(id).clone();
        let builtin = match d.builtin {
            None => None,
            Some(b) => {
                Some(builtin(b).ok_or_else(|| unsupported(inst, format!("the built-in {b:?}")))?)
            }
        };
        Ok(GlobalVarData {
            name: self.info.name(id).map(str::to_string),
            class,
            ty,
            builtin,
            location: d.location,
            component: d.component,
            per_primitive: d.per_primitive,
            interpolation: d.interpolation,
            descriptor_set: d.descriptor_set,
            binding: d.binding,
            initializer,
            spirv_id: id,
        })
    }
}
