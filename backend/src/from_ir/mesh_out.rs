//! Mesh outputs: which output components a shader writes (the layout of
//! its output ISBE and SPH), and the lowering of stores to them and of
//! SetMeshOutputsEXT into ISBEWR (docs/HARDWARE.md, "ISBE").

use super::output_slots::{self, SlotError};
use super::places::{Place, Step, resolve};
use super::{Comp, Isel};
use crate::error::BackendError;
use crate::isa::{
    Dst, Instr, IntCmp, IsbeAccess, IsbeSize, Op, OpIMad, OpIsbeWr, OpLop3, OpShf, PredSrc, Src,
};
use crate::isbe_layout::{AttrLayout, addr, map};
use spvsass_frontend::ir::{BuiltIn, Op as IrOp, Shader, StorageClass, Type, TypeId, Value};

/// Where a store to an output goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OutputTarget {
    /// Attribute components (SPH addresses), one per stored component, of
    /// vertex (or, `per_primitive`, primitive) `elem`.
    Attr {
        elem: Step,
        addrs: Vec<u16>,
        per_primitive: bool,
    },
    /// Components of vertex (or primitive) `elem` chosen at run time:
    /// `choices[index]`, each choice one address per component (a
    /// ClipDistance or CullDistance element, or a user output's array
    /// element, matrix column or vector component, under a dynamic index).
    Select {
        elem: Step,
        choices: Vec<Vec<u16>>,
        index: Value,
        per_primitive: bool,
    },
    /// CullPrimitiveEXT of primitive `prim`: its VIEWPORT_MASK
    /// (docs/HARDWARE.md, "ISBE").
    Cull { prim: Step },
    /// Vertex indices `first..first + count` of primitive `prim`.
    Indices { prim: Step, first: u32, count: u32 },
}

fn unsupported(what: impl Into<String>, spirv_id: Option<u32>) -> BackendError {
    BackendError::Unsupported {
        what: what.into(),
        opcode: "OpStore".into(),
        spirv_id,
    }
}

fn const_step(s: Option<&Step>, what: &str, spirv_id: Option<u32>) -> Result<u32, BackendError> {
    match s {
        None => Ok(0),
        Some(Step::Const(c)) => Ok(*c),
        Some(Step::Dyn(_)) => Err(unsupported(
            format!("a dynamic {what} index into a mesh output"),
            spirv_id,
        )),
    }
}

/// Classifies a store of `count` components to `place`.
pub fn classify(
    sh: &Shader,
    place: &Place,
    count: u32,
    spirv_id: Option<u32>,
) -> Result<OutputTarget, BackendError> {
    let var = &sh.globals[place.var];
    let elem = *place
        .path
        .first()
        .ok_or_else(|| unsupported("a store to a whole arrayed mesh output", spirv_id))?;
    match var.builtin {
        Some(
            BuiltIn::PrimitivePointIndices
            | BuiltIn::PrimitiveLineIndices
            | BuiltIn::PrimitiveTriangleIndices,
        ) => {
            let first = const_step(place.path.get(1), "vertex-index component", spirv_id)?;
            return Ok(OutputTarget::Indices {
                prim: elem,
                first,
                count,
            });
        }
        Some(b) => {
            return Err(unsupported(
                format!("the mesh output built-in {b:?}"),
                spirv_id,
            ));
        }
        None => {}
    }
    let mut per_primitive = var.per_primitive;
    let Type::Array { elem: elem_ty, .. } = &sh.types[var.ty] else {
        return Err(unsupported("a mesh output that is not an array", spirv_id));
    };
    let slot_error = |e: SlotError, what: &str| slot_error(e, what, spirv_id);
    let rest = place.path.get(1..).unwrap_or_default();
    let addrs = match &sh.types[*elem_ty] {
        Type::Struct { members, .. } => {
            let m = const_step(place.path.get(1), "member", spirv_id)? as usize;
            let member = members
                .get(m)
                .ok_or_else(|| unsupported("a member index out of range", spirv_id))?;
            let member_path = place.path.get(2..).unwrap_or_default();
            let base = match member.builtin {
                Some(BuiltIn::Position) => addr::POSITION,
                Some(BuiltIn::PointSize) => addr::POINT_SIZE,
                Some(BuiltIn::PrimitiveId) => addr::PRIMITIVE_ID,
                Some(BuiltIn::Layer) => addr::LAYER,
                Some(BuiltIn::ViewportIndex) => addr::VIEWPORT_INDEX,
                Some(BuiltIn::PrimitiveShadingRate) => addr::SHADING_RATE,
                Some(BuiltIn::CullPrimitive) => return Ok(OutputTarget::Cull { prim: elem }),
                Some(b @ (BuiltIn::ClipDistance | BuiltIn::CullDistance))
                    if matches!(member_path, [Step::Dyn(_)]) =>
                {
                    let [Step::Dyn(index)] = member_path else {
                        unreachable!("matched above")
                    };
                    let choices = output_slots::clip_cull_addrs(sh, members, m, &[])
                        .map_err(|e| slot_error(e, &format!("{b:?}")))?;
                    return Ok(OutputTarget::Select {
                        elem,
                        choices: choices.into_iter().map(|a| vec![a]).collect(),
                        index: *index,
                        per_primitive,
                    });
                }
                Some(b @ (BuiltIn::ClipDistance | BuiltIn::CullDistance)) => {
                    let addrs = output_slots::clip_cull_addrs(sh, members, m, member_path)
                        .map_err(|e| slot_error(e, &format!("{b:?}")))?;
                    return Ok(OutputTarget::Attr {
                        elem,
                        addrs: fit(addrs, count, spirv_id)?,
                        per_primitive,
                    });
                }
                Some(b) => {
                    return Err(unsupported(
                        format!("the mesh output built-in {b:?}"),
                        spirv_id,
                    ));
                }
                None => {
                    // A user output in an output block.
                    let block_loc = var.location.unwrap_or(0);
                    let loc = output_slots::member_location(sh, members, m, block_loc);
                    crate::limits::max_location(loc, var.spirv_id)?;
                    per_primitive |= member.per_primitive;
                    let at = UserPlace {
                        ty: member.ty,
                        loc,
                        comp: 0,
                        path: member_path,
                    };
                    return user_target(sh, at, elem, per_primitive, count, spirv_id, var.spirv_id);
                }
            };
            per_primitive |= member.per_primitive || is_per_primitive_builtin(member.builtin);
            let first = const_step(member_path.first(), "component", spirv_id)?;
            (0..count).map(|j| base + 4 * (first + j) as u16).collect()
        }
        _ => {
            let loc = var
                .location
                .ok_or_else(|| unsupported("an output without Location", spirv_id))?;
            crate::limits::max_location(loc, var.spirv_id)?;
            let at = UserPlace {
                ty: *elem_ty,
                loc,
                comp: var.component.unwrap_or(0),
                path: rest,
            };
            return user_target(sh, at, elem, per_primitive, count, spirv_id, var.spirv_id);
        }
    };
    Ok(OutputTarget::Attr {
        elem,
        addrs,
        per_primitive,
    })
}

fn slot_error(e: SlotError, what: &str, spirv_id: Option<u32>) -> BackendError {
    match e {
        SlotError::Dynamic => unsupported(
            format!("more than one dynamic array, column or component index into {what}"),
            spirv_id,
        ),
        SlotError::Shape(s) => BackendError::Invalid {
            what: format!("{what}: {s}"),
            spirv_id,
        },
    }
}

/// A user output of type `ty` at location `loc`, component `comp`, and
/// the path into it (array, column and component indices).
struct UserPlace<'p> {
    ty: TypeId,
    loc: u32,
    comp: u32,
    path: &'p [Step],
}

/// The target of an access of `count` components to a user output of
/// variable `var_id`: fixed addresses, or under one dynamic index the
/// choices it selects from.
fn user_target(
    sh: &Shader,
    at: UserPlace,
    elem: Step,
    per_primitive: bool,
    count: u32,
    spirv_id: Option<u32>,
    var_id: u32,
) -> Result<OutputTarget, BackendError> {
    let UserPlace {
        ty,
        loc,
        comp,
        path,
    } = at;
    let checked = |addrs: Vec<u16>| {
        check_locations(&addrs, var_id)?;
        fit(addrs, count, spirv_id)
    };
    match output_slots::user_addrs(sh, ty, loc, comp, path) {
        Ok(addrs) => Ok(OutputTarget::Attr {
            elem,
            addrs: checked(addrs)?,
            per_primitive,
        }),
        Err(SlotError::Dynamic) => {
            let (index, choices) = output_slots::user_addr_choices(sh, ty, loc, comp, path)
                .map_err(|e| slot_error(e, "a user output", spirv_id))?;
            Ok(OutputTarget::Select {
                elem,
                choices: choices.into_iter().map(checked).collect::<Result<_, _>>()?,
                index,
                per_primitive,
            })
        }
        Err(e) => Err(slot_error(e, "a user output", spirv_id)),
    }
}

/// The addresses of a store of `count` components: as many as the place
/// has.
fn fit(addrs: Vec<u16>, count: u32, spirv_id: Option<u32>) -> Result<Vec<u16>, BackendError> {
    if addrs.len() != count as usize {
        return Err(BackendError::Invalid {
            what: format!(
                "a store of {count} components to an output of {}",
                addrs.len()
            ),
            spirv_id,
        });
    }
    Ok(addrs)
}

/// Every location an output covers is within the limit (a matrix or array
/// can run past the last location from a valid first one).
fn check_locations(addrs: &[u16], spirv_id: u32) -> Result<(), BackendError> {
    match addrs.iter().max() {
        Some(&a) if a >= addr::GENERIC_END => {
            crate::limits::max_location(u32::from(a - addr::GENERIC) / 16, spirv_id)
        }
        _ => Ok(()),
    }
}

fn is_per_primitive_builtin(b: Option<BuiltIn>) -> bool {
    matches!(
        b,
        Some(
            BuiltIn::PrimitiveId
                | BuiltIn::Layer
                | BuiltIn::ViewportIndex
                | BuiltIn::PrimitiveShadingRate
                | BuiltIn::CullPrimitive
        )
    )
}

/// The output components a mesh shader writes: per-vertex and
/// per-primitive SPH addresses, ascending. CullPrimitiveEXT adds
/// VIEWPORT_MASK to the per-primitive ones.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WrittenOutputs {
    pub vertex: Vec<u16>,
    pub primitive: Vec<u16>,
    /// Whether the shader stores CullPrimitiveEXT.
    pub cull: bool,
    /// A ViewportIndex store, if any: `Some(its SPIR-V id, when known)`.
    pub viewport_index: Option<Option<u32>>,
}

/// The components a shader writes, from all its stores.
pub fn written_outputs(sh: &Shader) -> Result<WrittenOutputs, BackendError> {
    let mut w = WrittenOutputs::default();
    for (_, inst) in sh.insts.iter() {
        let IrOp::Store { ptr, value } = inst.op else {
            continue;
        };
        let place = resolve(sh, ptr, inst.spirv_id)?;
        if sh.globals[place.var].class != StorageClass::Output {
            continue;
        }
        let count = super::places::comp_count(sh, sh.values[value].ty).unwrap_or(1);
        match classify(sh, &place, count, inst.spirv_id)? {
            OutputTarget::Attr {
                addrs,
                per_primitive,
                ..
            } => {
                if addrs.contains(&addr::VIEWPORT_INDEX) {
                    w.viewport_index = Some(inst.spirv_id);
                }
                if per_primitive {
                    w.primitive.extend(addrs)
                } else {
                    w.vertex.extend(addrs)
                }
            }
            OutputTarget::Select {
                choices,
                per_primitive,
                ..
            } => {
                let list = if per_primitive {
                    &mut w.primitive
                } else {
                    &mut w.vertex
                };
                list.extend(choices.into_iter().flatten());
            }
            OutputTarget::Cull { .. } => {
                w.cull = true;
                w.primitive.push(addr::VIEWPORT_MASK);
            }
            OutputTarget::Indices { .. } => {}
        }
    }
    for list in [&mut w.vertex, &mut w.primitive] {
        list.sort_unstable();
        list.dedup();
    }
    Ok(w)
}

impl Isel<'_> {
    /// Writes `data` (a register or zero) to the output ISBE at `base + imm`
    /// where `base` is a register (or RZ). Before SM86 the immediate must
    /// be folded into the register.
    pub(super) fn isbe_write(&mut self, mut w: OpIsbeWr, guard: PredSrc) {
        (w.addr, w.imm) = self.isbe_address(w.addr, w.imm);
        let guard = self.logical_guard(guard);
        self.emit(Instr::guarded(guard, Op::IsbeWr(w)));
    }

    /// Lowers a store of `comps` to an output place.
    pub(super) fn store_output(
        &mut self,
        place: &Place,
        comps: &[Comp],
        spirv_id: Option<u32>,
    ) -> Result<(), BackendError> {
        match classify(self.sh, place, comps.len() as u32, spirv_id)? {
            OutputTarget::Cull { prim } => {
                // Direct write of the mask: culled -> 0, kept -> 1 (viewport
                // 0). Every primitive's mask was set to 1 at the top of the
                // shader (`init_viewport_masks`), so primitives the shader
                // never culls stay visible and conditional stores need no
                // shadow copy.
                let [c] = comps else {
                    return Err(BackendError::Invalid {
                        what: "a CullPrimitiveEXT store of more than one component".into(),
                        spirv_id,
                    });
                };
                // A kept primitive's mask names its viewport: 1 (viewport
                // 0), or with ViewportIndex written too, 1 << the index
                // the primitive holds (`viewport_bit`).
                let kept = if self.out.cull_and_viewport {
                    let vi = self.load_attr(prim, &[addr::VIEWPORT_INDEX], true, spirv_id)?[0];
                    self.viewport_bit(vi)
                } else {
                    Comp::Const(1)
                };
                let mask = match *c {
                    Comp::Bool(true) => Comp::Const(0),
                    Comp::Bool(false) => kept,
                    other => {
                        let kept = self.src_of(kept);
                        self.select(other, Src::ZERO, kept)
                    }
                };
                self.store_attr(
                    prim,
                    &[addr::VIEWPORT_MASK],
                    &[mask],
                    true,
                    spirv_id,
                    PredSrc::TRUE,
                )?;
            }
            OutputTarget::Attr {
                elem,
                addrs,
                per_primitive,
            } => {
                self.store_attr(elem, &addrs, comps, per_primitive, spirv_id, PredSrc::TRUE)?;
                let viewport = addrs.iter().position(|&a| a == addr::VIEWPORT_INDEX);
                if let (true, Some(k)) = (self.out.cull_and_viewport, viewport) {
                    // The primitive keeps its culled state (mask 0) or
                    // moves its mask to the new viewport.
                    let mask = self.load_attr(elem, &[addr::VIEWPORT_MASK], true, spirv_id)?[0];
                    let mask = self.src_of(mask);
                    let culled = self.int_cmp(IntCmp::Eq, false, mask, Src::ZERO);
                    let kept = self.viewport_bit(comps[k]);
                    let kept = self.src_of(kept);
                    let mask = self.select(culled, Src::ZERO, kept);
                    self.store_attr(
                        elem,
                        &[addr::VIEWPORT_MASK],
                        &[mask],
                        true,
                        spirv_id,
                        PredSrc::TRUE,
                    )?;
                }
            }
            OutputTarget::Select {
                elem,
                choices,
                index,
                per_primitive,
            } => {
                // One store per element, each guarded by index == k, so
                // the words' places in the layout stay constants.
                let index = self.value_comp(index)?;
                let index = self.src_of(index);
                for (k, a) in choices.into_iter().enumerate() {
                    let guard = match self.int_cmp(IntCmp::Eq, false, index, Src::imm(k as u32)) {
                        Comp::Pred(p) => p.pred(),
                        Comp::Bool(true) => PredSrc::TRUE,
                        _ => continue,
                    };
                    self.store_attr(elem, &a, comps, per_primitive, spirv_id, guard)?;
                }
            }
            OutputTarget::Indices { prim, first, count } => {
                let (base, prim, vpp) = self.index_place(prim, first, count, spirv_id)?;
                for (j, &c) in comps.iter().enumerate() {
                    let data = self.reg_or_zero(c);
                    let imm = map::index_offset(prim, vpp, first + j as u32);
                    let w = OpIsbeWr {
                        addr: base,
                        imm,
                        data,
                        access: IsbeAccess::Map,
                        size: IsbeSize::U8,
                        skew: false,
                    };
                    self.isbe_write(w, PredSrc::TRUE);
                }
            }
        }
        Ok(())
    }

    /// Where the vertex indices `first..first + count` of primitive `prim`
    /// lie in the MAP region, for stores and loads alike: `(base register,
    /// constant primitive, vertices per primitive)`; the byte of index k
    /// is `map::index_offset(primitive, vpp, k)` from the base.
    pub(super) fn index_place(
        &mut self,
        prim: Step,
        first: u32,
        count: u32,
        spirv_id: Option<u32>,
    ) -> Result<(Src, u32, u32), BackendError> {
        let mesh = self.sh.mesh.ok_or_else(|| BackendError::Invalid {
            what: "primitive indices accessed by a shader that is not a mesh shader".into(),
            spirv_id,
        })?;
        let vpp = mesh.topology.vertices_per_primitive();
        if first + count > vpp {
            return Err(BackendError::Invalid {
                what: "a primitive index component out of range".into(),
                spirv_id,
            });
        }
        // The primitive's base: a constant, or computed once.
        Ok(match prim {
            Step::Const(p) if p >= mesh.max_primitives => {
                return Err(BackendError::Invalid {
                    what: format!(
                        "primitive {p} accessed, but the shader declares at most {}",
                        mesh.max_primitives
                    ),
                    spirv_id,
                });
            }
            Step::Const(p) => (Src::ZERO, p, vpp),
            Step::Dyn(v) => {
                let p = self.value_comp(v)?;
                let p = self.src_of(p);
                let base = if vpp == 1 {
                    p
                } else {
                    self.imad(p, Src::imm(vpp), Src::ZERO)
                };
                (base, 0, vpp)
            }
        })
    }

    /// Stores attribute components of vertex (or primitive) `elem`.
    fn store_attr(
        &mut self,
        elem: Step,
        addrs: &[u16],
        comps: &[Comp],
        per_primitive: bool,
        spirv_id: Option<u32>,
        guard: PredSrc,
    ) -> Result<(), BackendError> {
        let layout = self.elem_layout(per_primitive);
        let (base, vertex_off, skew) = self.elem_place(elem, &layout)?;
        if vertex_off.is_none() && !skew {
            self.out.computed_offset_stores.push(spirv_id);
        }
        for (&a, &c) in addrs.iter().zip(comps) {
            let data = self.reg_or_zero(c);
            let imm = self.elem_imm(&layout, vertex_off, skew, a, per_primitive, spirv_id)?;
            let w = OpIsbeWr {
                addr: base,
                imm,
                data,
                access: IsbeAccess::Attr,
                size: IsbeSize::B32,
                skew,
            };
            self.isbe_write(w, guard);
        }
        Ok(())
    }

    /// The layout of vertex or primitive attributes.
    pub(super) fn elem_layout(&self, per_primitive: bool) -> AttrLayout {
        if per_primitive {
            self.out.primitive_layout.clone()
        } else {
            self.out.vertex_layout.clone()
        }
    }

    /// Where vertex (or primitive) `elem` lies, for stores and loads
    /// alike: `(base register, constant element, SKEW)`. The invocation
    /// whose index it is accesses with SKEW from the lane-independent base
    /// (in a one-invocation workgroup vertex 0 is lane 0's, as in the XDC
    /// listing); a constant element has a fixed offset; any other element
    /// gets its offset computed once.
    pub(super) fn elem_place(
        &mut self,
        elem: Step,
        layout: &AttrLayout,
    ) -> Result<(Src, Option<u32>, bool), BackendError> {
        Ok(match elem {
            // Logical subgroup i's own vertex is in layout block i.
            Step::Dyn(v)
                if self.is_lane_id(v)
                    && self.wide.copy * crate::isbe_layout::BLOCK_ELEMS < layout.max_elems =>
            {
                (Src::ZERO, None, true)
            }
            Step::Const(0) if self.sh.invocations() == 1 => (Src::ZERO, None, true),
            Step::Const(k) => (Src::ZERO, Some(k), false),
            Step::Dyn(v) => {
                let elem = self.value_comp(v)?;
                (self.elem_offset(elem, layout), None, false)
            }
        })
    }

    /// The immediate offset of component `a` of an element placed by
    /// `elem_place`. A SKEW access of logical subgroup i adds block i; a
    /// computed offset already holds the element's block.
    pub(super) fn elem_imm(
        &self,
        layout: &AttrLayout,
        vertex_off: Option<u32>,
        skew: bool,
        a: u16,
        per_primitive: bool,
        spirv_id: Option<u32>,
    ) -> Result<u32, BackendError> {
        Ok(match vertex_off {
            Some(k) => self.check_elem(layout, k, a, per_primitive, spirv_id)?,
            None if skew => layout.skew_base(a).unwrap_or(0) + self.wide.copy * layout.block_size(),
            None => layout.skew_base(a).unwrap_or(0),
        })
    }

    fn check_elem(
        &self,
        layout: &AttrLayout,
        k: u32,
        a: u16,
        per_primitive: bool,
        spirv_id: Option<u32>,
    ) -> Result<u32, BackendError> {
        let what = if per_primitive { "primitive" } else { "vertex" };
        if k >= layout.max_elems {
            return Err(BackendError::Invalid {
                what: format!(
                    "{what} {k} written, but the shader declares at most {} ({what} outputs)",
                    layout.max_elems
                ),
                spirv_id,
            });
        }
        Ok(layout.offset(k, a).unwrap_or(0))
    }

    /// `(v / 32) * block_size + (v % 32) * 4`: the element-dependent part
    /// of a non-SKEW attribute offset (vertex or primitive `v`).
    fn elem_offset(&mut self, v: Comp, layout: &AttrLayout) -> Src {
        // Stores of one element in one block share the computation.
        let key = (self.cur, v, layout.block_size());
        if let Some(&off) = self.cache.elem_offsets.get(&key) {
            return off;
        }
        let off = self.compute_elem_offset(v, layout);
        self.cache.elem_offsets.insert(key, off);
        off
    }

    fn compute_elem_offset(&mut self, v: Comp, layout: &AttrLayout) -> Src {
        let v = self.src_of(v);
        let block = self.alu(Op::Shf(OpShf {
            dst: Dst::None,
            srcs: [v, Src::imm(5), Src::ZERO],
            right: true,
            wrap: false,
            high: false,
        }));
        let lane = self.alu(Op::Lop3(OpLop3 {
            dst: Dst::None,
            srcs: [v, Src::imm(31), Src::ZERO],
            lut: OpLop3::A & OpLop3::B,
        }));
        let block = self.src_of(block);
        let lane = self.src_of(lane);
        let part = self.imad(block, Src::imm(layout.block_size()), Src::ZERO);
        self.imad(lane, Src::imm(4), part)
    }

    fn imad(&mut self, a: Src, b: Src, c: Src) -> Src {
        let r = self.alu(Op::IMad(OpIMad {
            dst: Dst::None,
            srcs: [a, b, c],
            signed: false,
        }));
        self.src_of(r)
    }

    /// SetMeshOutputsEXT: the primitive count goes to MAP 0x3, written by
    /// one lane. A one-invocation workgroup has only lane 0, so it needs no
    /// guard. (Its statistics are an intrinsic, `lower_statistics.rs`.)
    pub(super) fn set_mesh_outputs(&mut self, primitive_count: Comp) {
        let data = self.reg_or_zero(primitive_count);
        let guard = self.lane0_guard();
        self.isbe_write(
            OpIsbeWr {
                addr: Src::ZERO,
                imm: map::PRIMITIVE_COUNT_WRITE_OFFSET,
                data,
                access: IsbeAccess::Map,
                size: IsbeSize::B32,
                skew: false,
            },
            guard,
        );
    }
}

impl Isel<'_> {
    /// The VIEWPORT_MASK of a kept primitive in viewport `vi`: `1 << vi`
    /// (indices taken modulo 16, the viewports there are), so that
    /// CullPrimitiveEXT and ViewportIndex can share the word (culled is 0).
    fn viewport_bit(&mut self, vi: Comp) -> Comp {
        if let Comp::Const(v) = vi {
            return Comp::Const(1 << (v & 15));
        }
        let v = self.src_of(vi);
        let v = self.alu(Op::Lop3(OpLop3 {
            dst: Dst::None,
            srcs: [v, Src::imm(15), Src::ZERO],
            lut: OpLop3::A & OpLop3::B,
        }));
        let v = self.src_of(v);
        let one = self.const_reg(1).src();
        self.alu(Op::Shf(OpShf {
            dst: Dst::None,
            srcs: [one, v, Src::ZERO],
            right: false,
            wrap: false,
            high: false,
        }))
    }

    /// Sets every primitive's VIEWPORT_MASK to 1 (kept, viewport 0) at the
    /// top of a shader that writes CullPrimitiveEXT, so that a primitive
    /// never culled stays visible (the API's default) whatever path the
    /// shader takes; the cull stores then overwrite the mask directly. A
    /// 32-wide workgroup covers each block of 32 primitives with one SKEW
    /// write per lane; a narrower one writes primitives lane, lane + n, ...
    /// at computed offsets, guarded against the end of the layout.
    pub(super) fn init_viewport_masks(&mut self) {
        let layout = self.out.primitive_layout.clone();
        let Some(base) = layout.skew_base(addr::VIEWPORT_MASK) else {
            return;
        };
        let one = self.const_reg(1).src();
        // The lanes of the warp (a wider workgroup runs on 32 lanes).
        let n = self.sh.invocations().min(crate::isbe_layout::BLOCK_ELEMS);
        let blocks = layout.max_elems.div_ceil(crate::isbe_layout::BLOCK_ELEMS);
        if n == crate::isbe_layout::BLOCK_ELEMS {
            for b in 0..blocks {
                let w = OpIsbeWr {
                    addr: Src::ZERO,
                    imm: base + b * layout.block_size(),
                    data: one,
                    access: IsbeAccess::Attr,
                    size: IsbeSize::B32,
                    skew: true,
                };
                self.isbe_write(w, PredSrc::TRUE);
            }
            return;
        }
        let lane = Comp::Reg(self.special_reg(crate::isa::SpecialReg::LaneId));
        for k in 0..layout.max_elems.div_ceil(n) {
            let p = if k == 0 {
                lane
            } else {
                let lane_src = self.src_of(lane);
                self.alu(Op::IAdd3(crate::isa::OpIAdd3 {
                    dst: Dst::None,
                    srcs: [lane_src, Src::imm(k * n), Src::ZERO],
                }))
            };
            // Only the last round can pass the end of the layout.
            let guard = if (k + 1) * n <= layout.max_elems {
                PredSrc::TRUE
            } else {
                let p_src = self.src_of(p);
                let inside = self.alu(Op::ISetP(crate::isa::OpISetP {
                    dst: Dst::None,
                    cmp: crate::isa::IntCmp::Lt,
                    signed: false,
                    combine: crate::isa::PredCombine::And,
                    srcs: [p_src, Src::imm(layout.max_elems)],
                    accum: PredSrc::TRUE,
                }));
                match inside {
                    Comp::Pred(r) => r.pred(),
                    _ => PredSrc::TRUE,
                }
            };
            let off = self.elem_offset(p, &layout);
            let w = OpIsbeWr {
                addr: off,
                imm: base,
                data: one,
                access: IsbeAccess::Attr,
                size: IsbeSize::B32,
                skew: false,
            };
            self.isbe_write(w, guard);
        }
    }
}
