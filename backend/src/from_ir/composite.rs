//! Composite operations beyond the constant-index ones of alu.rs:
//! OpVectorExtractDynamic and OpVectorInsertDynamic (a component chosen by
//! a run-time index) and OpCopyLogical.
//!
//! A vector lives in registers, one per component, so a run-time index
//! cannot address it: extraction is a chain of compares and SELs (one per
//! component after the first), insertion one compare and SEL per
//! component. A constant index picks the component directly. SPIR-V leaves
//! an out-of-range index undefined; the chain then gives component 0
//! (extract) or leaves the vector unchanged (insert).

use super::{Comp, Isel};
use crate::error::BackendError;
use crate::isa::IntCmp;
use spvsass_frontend::ir::{InstData, Value};

impl Isel<'_> {
    /// The components of `vector` or an error naming a boolean vector
    /// (predicates have no SEL).
    fn numeric_comps(&self, vector: Value, inst: &InstData) -> Result<Vec<Comp>, BackendError> {
        let comps = self.value(vector)?.clone();
        if comps
            .iter()
            .any(|c| matches!(c, Comp::Pred(_) | Comp::Bool(_)))
        {
            return Err(self.unsupported("a dynamic index into a boolean vector", inst));
        }
        Ok(comps)
    }

    pub(super) fn extract_dynamic(
        &mut self,
        vector: Value,
        index: Value,
        inst: &InstData,
    ) -> Result<Vec<Comp>, BackendError> {
        let comps = self.numeric_comps(vector, inst)?;
        let index = self.value_comp(index)?;
        if let Comp::Const(k) = index {
            return Ok(vec![
                comps.get(k as usize).copied().unwrap_or(Comp::Const(0)),
            ]);
        }
        let idx = self.src_of(index);
        let Some((&first, rest)) = comps.split_first() else {
            return Err(self.unsupported("an empty vector", inst));
        };
        let mut acc = first;
        for (k, &c) in rest.iter().enumerate() {
            let k = self.src_of(Comp::Const(k as u32 + 1));
            let hit = self.int_cmp(IntCmp::Eq, false, idx, k);
            let (c, prev) = (self.src_of(c), self.src_of(acc));
            acc = self.select(hit, c, prev);
        }
        Ok(vec![acc])
    }

    pub(super) fn insert_dynamic(
        &mut self,
        vector: Value,
        component: Value,
        index: Value,
        inst: &InstData,
    ) -> Result<Vec<Comp>, BackendError> {
        let mut comps = self.numeric_comps(vector, inst)?;
        let new = self.value_comp(component)?;
        let index = self.value_comp(index)?;
        if let Comp::Const(k) = index {
            if let Some(slot) = comps.get_mut(k as usize) {
                *slot = new;
            }
            return Ok(comps);
        }
        let idx = self.src_of(index);
        for (k, slot) in comps.iter_mut().enumerate() {
            let k = self.src_of(Comp::Const(k as u32));
            let hit = self.int_cmp(IntCmp::Eq, false, idx, k);
            let (n, old) = (self.src_of(new), self.src_of(*slot));
            *slot = self.select(hit, n, old);
        }
        Ok(comps)
    }

    /// OpCopyLogical: the two types differ only in layout decorations,
    /// which registers do not have, so the components are the same.
    pub(super) fn copy_logical(&self, operand: Value) -> Result<Vec<Comp>, BackendError> {
        Ok(self.value(operand)?.clone())
    }
}
