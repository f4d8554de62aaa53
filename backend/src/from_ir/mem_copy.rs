//! Whole-value copies in memory: OpCopyMemory, and the initial values of
//! Function and Private variables that live in local memory.
//!
//! A copy loads and stores at most `PIECE_WORDS` scalars at a time: a
//! large array is never held in registers at once, and an aligned piece is
//! one 128-bit load whose register group is stored as it is (a larger
//! piece would make register allocation shuffle the groups with MOVs).

use super::mem_layout::scalars;
use super::places::{Place, Step, resolve};
use super::{Isel, mem_layout::child};
use crate::error::BackendError;
use spvsass_frontend::ir::{self, InstData, Stage, StorageClass, Value};

/// Scalars copied per load/store pair: one 128-bit access.
const PIECE_WORDS: usize = 4;

impl Isel<'_> {
    /// OpCopyMemory between buffers, shared, local and private memory.
    pub(super) fn copy_memory(
        &mut self,
        dst: Value,
        src: Value,
        inst: &InstData,
    ) -> Result<(), BackendError> {
        let from = resolve(self.sh, src, inst.spirv_id)?;
        let to = resolve(self.sh, dst, inst.spirv_id)?;
        for place in [&from, &to] {
            // Built-ins, outputs, payloads and task/mesh shared memory have
            // their own accesses (mod.rs), not these.
            let class = self.sh.globals[place.var].class;
            let isbe_shared = class == StorageClass::Workgroup && self.sh.stage != Stage::Compute;
            if isbe_shared
                || matches!(
                    class,
                    StorageClass::Input | StorageClass::Output | StorageClass::TaskPayload
                )
            {
                return Err(self.mem_error(format!("copies of {class:?} memory"), inst));
            }
        }
        // The number of scalars of the copied type (both sides have it).
        let sh = self.sh;
        let mut ty = sh.globals[from.var].ty;
        for step in &from.path {
            let i = match step {
                Step::Const(i) => *i,
                Step::Dyn(_) => 0,
            };
            ty = child(sh, ty, i).map_or(ty, |c| c.ty);
        }
        let mut parts = Vec::new();
        if scalars(sh, ty, 0, &mut parts).is_none() {
            return Err(self.mem_error(format!("copies of {}", sh.type_name(ty)), inst));
        }
        let mut start = 0;
        while start < parts.len() {
            let range = start..(start + PIECE_WORDS).min(parts.len());
            let comps = self.load_range(&from, Some(range.clone()), inst)?;
            self.store_range(&to, &comps, Some(range.clone()), inst)?;
            start = range.end;
        }
        Ok(())
    }

    /// Stores the initial value of the variables in memory that `v`
    /// initializes, right after `v` is defined (in the entry block, before
    /// any access to them); a compute shader's shared variables then wait
    /// at a workgroup barrier.
    pub(super) fn store_initializers(&mut self, v: Value) -> Result<(), BackendError> {
        let Some(vars) = self.mem.initializers.get(&v).cloned() else {
            return Ok(());
        };
        let comps = self.value(v)?.clone();
        let mut shared = false;
        for var in vars {
            shared |= self.sh.globals[var].class == StorageClass::Workgroup;
            let decl = InstData {
                op: ir::Op::VarAddr(var),
                result: None,
                spirv_id: Some(self.sh.globals[var].spirv_id),
            };
            let place = Place {
                var,
                path: Vec::new(),
            };
            self.store_memory(&place, &comps, &decl)?;
        }
        // Every invocation of a compute workgroup stored the same value
        // into shared memory: none may touch it before all have (the
        // initial value is in the entry block, which every invocation
        // runs).
        if shared {
            self.barrier(true);
        }
        Ok(())
    }
}
