//! Loads of mesh outputs: a mesh shader may read back what any of its
//! invocations wrote to a per-vertex or per-primitive output (Vulkan allows
//! reading Output variables; GLSL_EXT_mesh_shader relies on it). The value
//! is in the output ISBE, at the address the store used (mesh_out.rs), and
//! is read with `ISBERD.O.ATTR.32`: SKEW for the invocation's own element,
//! a constant or computed offset otherwise (the hardware reads its output
//! ISBE the same way for shared memory, docs/HARDWARE.md, "ISBE").
//!
//! Vertex indices are read as the bytes of the MAP region the store wrote
//! (`ISBERD.O`, 8 bits, zero-extended), CullPrimitiveEXT as "VIEWPORT_MASK
//! is 0" (the mask its store writes).
//!
//! A component no store in the shader writes has no slot in the layout: its
//! value is undefined (never written), and the load yields 0.

use super::mesh_out::{OutputTarget, classify};
use super::places::{Place, Step, comp_count};
use super::{Comp, Isel};
use crate::error::BackendError;
use crate::isa::{IntCmp, IsbeAccess, IsbeSize, Src};
use crate::isbe_layout::{addr, map};
use spvsass_frontend::ir::Value;

impl Isel<'_> {
    /// Lowers a load of `result` from an output place of a mesh shader.
    pub(super) fn load_output(
        &mut self,
        place: &Place,
        result: Value,
        spirv_id: Option<u32>,
    ) -> Result<Vec<Comp>, BackendError> {
        let unsupported = |what: &str| BackendError::Unsupported {
            what: what.into(),
            opcode: "OpLoad".into(),
            spirv_id,
        };
        let ty = self.sh.values[result].ty;
        let n = comp_count(self.sh, ty)
            .ok_or_else(|| unsupported("a mesh output load of this type"))?;
        // Booleans: only CullPrimitiveEXT (Vulkan allows no others in the
        // output interface).
        let boolean = super::task_out::has_bool(self.sh, ty);
        // classify() names the store it was written for; this is a load.
        let target = classify(self.sh, place, n, spirv_id).map_err(|e| match e {
            BackendError::Unsupported { what, spirv_id, .. } => BackendError::Unsupported {
                what,
                opcode: "OpLoad".into(),
                spirv_id,
            },
            other => other,
        })?;
        match target {
            OutputTarget::Cull { .. } if !boolean => Err(BackendError::Invalid {
                what: "a non-boolean load of CullPrimitiveEXT".into(),
                spirv_id,
            }),
            OutputTarget::Attr { .. }
            | OutputTarget::Select { .. }
            | OutputTarget::Indices { .. }
                if boolean =>
            {
                Err(unsupported("a boolean load from this mesh output"))
            }
            OutputTarget::Attr {
                elem,
                addrs,
                per_primitive,
            } => self.load_attr(elem, &addrs, per_primitive, spirv_id),
            OutputTarget::Select {
                elem,
                choices,
                index,
                per_primitive,
            } => {
                // Every choice read, the one at `index` kept: the layout
                // addresses stay constants, as in the store.
                let index = self.value_comp(index)?;
                let index = self.src_of(index);
                let mut out: Vec<Comp> = Vec::new();
                for (k, addrs) in choices.iter().enumerate() {
                    let read = self.load_attr(elem, addrs, per_primitive, spirv_id)?;
                    if k == 0 {
                        out = read;
                        continue;
                    }
                    let is_k = self.int_cmp(IntCmp::Eq, false, index, Src::imm(k as u32));
                    for (o, c) in out.iter_mut().zip(read) {
                        let (c, prev) = (self.src_of(c), self.src_of(*o));
                        *o = self.select(is_k, c, prev);
                    }
                }
                Ok(out)
            }
            OutputTarget::Cull { prim } => {
                // The store wrote VIEWPORT_MASK 0 for a culled primitive.
                let mask = self.load_attr(prim, &[addr::VIEWPORT_MASK], true, spirv_id)?;
                let mask = self.src_of(mask[0]);
                Ok(vec![self.int_cmp(IntCmp::Eq, false, mask, Src::ZERO)])
            }
            OutputTarget::Indices { prim, first, count } => {
                let (base, prim, vpp) = self.index_place(prim, first, count, spirv_id)?;
                Ok((first..first + count)
                    .map(|k| {
                        let imm = map::index_offset(prim, vpp, k);
                        let r = self.isbe_read_as(
                            base,
                            imm,
                            true,
                            false,
                            IsbeAccess::Map,
                            IsbeSize::U8,
                        );
                        Comp::Reg(r)
                    })
                    .collect())
            }
        }
    }

    /// Reads attribute components `addrs` of vertex (or primitive) `elem`.
    pub(super) fn load_attr(
        &mut self,
        elem: Step,
        addrs: &[u16],
        per_primitive: bool,
        spirv_id: Option<u32>,
    ) -> Result<Vec<Comp>, BackendError> {
        let layout = self.elem_layout(per_primitive);
        let (base, elem_off, skew) = self.elem_place(elem, &layout)?;
        let mut out = Vec::with_capacity(addrs.len());
        for &a in addrs {
            if layout.skew_base(a).is_none() {
                out.push(Comp::Const(0));
                continue;
            }
            let imm = self.elem_imm(&layout, elem_off, skew, a, per_primitive, spirv_id)?;
            out.push(Comp::Reg(self.isbe_read(base, imm, true, skew)));
        }
        Ok(out)
    }
}
