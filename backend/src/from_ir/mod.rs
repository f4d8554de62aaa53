//! Instruction selection: the IR of one shader into the machine IR. Values
//! become lists of 32-bit components (registers or constants), pointers
//! become places, mesh outputs become ISBE writes.

mod alu;
mod atomics;
mod bit_casts;
mod bits;
mod cas_loop;
mod composite;
mod compute;
mod control;
pub mod dce;
mod descriptors;
mod draw_ids;
mod float16;
mod float64;
mod float64_div;
mod geometric;
mod idiv;
mod image_grad;
mod image_ms;
mod images;
mod inner_loop;
mod intrinsics;
mod math;
mod matrix;
mod mem_atomics;
mod mem_copy;
mod mem_layout;
mod memory;
mod mesh_cull;
pub(crate) mod mesh_out;
mod mesh_out_load;
mod narrow_int;
mod output_slots;
mod pack;
mod phys_ptr;
pub mod places;
mod returns;
pub mod shared;
mod spine_switch;
mod subgroup_ops;
mod subgroup_scan;
mod subgroups;
pub mod task_out;
mod unreachable;
mod var_ptrs;
mod wide_div;
mod wide_int;
mod wide_math;

pub(crate) use descriptors::interface;
pub(crate) use output_slots::clip_distance_count;
pub(crate) use var_ptrs::lower as lower_var_ptrs;

use crate::abi;
use crate::compile::Lowered;
use crate::error::{BackendError, spirv_opcode};
use crate::insert_cull::{Culling, PartTwo};
use crate::intrinsics::Intrinsics;
use crate::isa::{
    Dst, Instr, IntCmp, Op, OpISetP, OpMov, PredCombine, PredSrc, RegFile, SpecialReg, Src,
};
use crate::isbe_layout::AttrLayout;
use crate::mir::{BlockId, MFunc, PReg, VReg};
use crate::special_regs::SpecialRegs;
use crate::target::Arch;
use cranelift_entity::packed_option::PackedOption;
use cranelift_entity::{EntitySet, SecondaryMap};
use places::{comp_count, resolve};
use rustc_hash::FxHashMap;
use spvsass_frontend::ir::{self, BuiltIn, InstData, Shader, Stage, StorageClass, Value};

/// One 32-bit component of a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Comp {
    /// A GPR.
    Reg(VReg),
    /// A boolean in a predicate register.
    Pred(PReg),
    Const(u32),
    Bool(bool),
}

impl Comp {
    /// The register holding the component, of either file (block
    /// parameters and arguments carry both).
    pub(crate) fn vreg(self) -> Option<VReg> {
        match self {
            Comp::Reg(r) => Some(r),
            Comp::Pred(p) => Some(p.vreg()),
            Comp::Const(_) | Comp::Bool(_) => None,
        }
    }
}

/// The machine block of each IR block, once created.
#[derive(Clone, Default)]
pub(crate) struct BlockMap(SecondaryMap<ir::Block, PackedOption<BlockId>>);

impl BlockMap {
    fn with_capacity(n: usize) -> BlockMap {
        BlockMap(SecondaryMap::with_capacity(n))
    }

    fn insert(&mut self, b: ir::Block, m: BlockId) {
        self.0[b] = m.into();
    }

    fn clear(&mut self) {
        self.0.clear();
    }

    /// The machine block of `b`; every IR block is given one before any
    /// is selected.
    fn at(&self, b: ir::Block) -> BlockId {
        self.0[b]
            .expand()
            .expect("every IR block has a machine block before selection")
    }
}

impl Extend<(ir::Block, BlockId)> for BlockMap {
    fn extend<I: IntoIterator<Item = (ir::Block, BlockId)>>(&mut self, pairs: I) {
        for (b, m) in pairs {
            self.insert(b, m);
        }
    }
}

/// The components of each IR value selected so far (pointers have none:
/// their uses resolve them to places).
#[derive(Clone, Default)]
pub(crate) struct ValueMap(SecondaryMap<Value, Option<Vec<Comp>>>);

impl ValueMap {
    fn with_capacity(n: usize) -> ValueMap {
        ValueMap(SecondaryMap::with_capacity(n))
    }

    fn insert(&mut self, v: Value, comps: Vec<Comp>) {
        self.0[v] = Some(comps);
    }

    fn get(&self, v: Value) -> Option<&Vec<Comp>> {
        self.0.get(v).and_then(Option::as_ref)
    }
}

/// The result of instruction selection.
pub struct Selected {
    pub func: MFunc,
    /// Per-vertex output components, ascending (mesh shaders).
    pub vertex_attrs: Vec<u16>,
    /// Per-primitive output components, ascending (mesh shaders).
    pub primitive_attrs: Vec<u16>,
    /// The SPIR-V ids of output stores of an element other than the
    /// writing invocation's own (offsets computed, no SKEW).
    pub computed_offset_stores: Vec<Option<u32>>,
    /// Shared memory per workgroup and local memory per invocation, bytes.
    pub shared_bytes: u32,
    pub local_bytes: u32,
}

/// The convergence barriers instruction selection plans for structured
/// control flow (`control.rs`).
#[derive(Default)]
struct Barriers {
    /// The convergence barrier a selection header opens, and the merge
    /// block that closes it.
    bssy_at: SecondaryMap<ir::Block, Option<u8>>,
    bsync_at: SecondaryMap<ir::Block, Option<u8>>,
    /// Blocks that enter a loop: the barrier they open and the loop's merge.
    loop_bssy: SecondaryMap<ir::Block, Option<(u8, ir::Block)>>,
    /// The barrier of the divergent loops selection builds inside one IR
    /// instruction (`inner_loop.rs`): one above every planned barrier
    /// (the plan keeps the last one free for it).
    inner: u8,
}

/// Values instruction selection computes once per machine block and
/// reuses there.
#[derive(Default)]
struct BlockCache {
    /// Constants already moved into a register, per MIR block.
    const_regs: FxHashMap<(BlockId, u32), VReg>,
    /// Constant 64-bit register pairs, moved once per block (mem_atomics.rs).
    const_pairs: FxHashMap<(BlockId, u64), VReg>,
    /// Buffer base addresses loaded from descriptors, per machine block
    /// (`descriptors.rs`).
    descriptor_bases: FxHashMap<descriptors::BaseKey, VReg>,
    /// Element offsets computed in a MIR block: (block, element, layout
    /// block size) -> offset register.
    elem_offsets: FxHashMap<(BlockId, Comp, u32), Src>,
    /// gl_WorkGroupID of a mesh shader behind a task shader, per (MIR
    /// block, y/z wanted).
    workgroup_ids: FxHashMap<(BlockId, bool), Vec<Comp>>,
    /// The register pair holding the query block's address, per MIR
    /// block (`intrinsics.rs`).
    query_address: FxHashMap<BlockId, VReg>,
}

/// Where a mesh shader's outputs go in the output ISBE, and what its
/// stores found out about them (`mesh_out.rs`).
struct Outputs {
    /// Per-vertex outputs.
    vertex_layout: AttrLayout,
    /// Per-primitive outputs, after all per-vertex blocks
    /// (docs/HARDWARE.md, "ISBE").
    primitive_layout: AttrLayout,
    /// The SPIR-V ids of output stores of an element other than the
    /// writing invocation's own (offsets computed, no SKEW).
    computed_offset_stores: Vec<Option<u32>>,
    /// The mesh shader writes both CullPrimitiveEXT and ViewportIndex,
    /// which share VIEWPORT_MASK (`mesh_out::store_output`).
    cull_and_viewport: bool,
}

/// The logical subgroups of a workgroup wider than a warp and the early
/// returns inside their regions (`subgroups.rs`, `returns.rs`).
struct Wide<'a> {
    /// Logical subgroups of a workgroup over 32 invocations (1 otherwise)
    /// and the one being selected (`subgroups`).
    copies: u32,
    copy: u32,
    /// The lanes of the last logical subgroup that are invocations, when
    /// the workgroup size is not a multiple of 32 (`subgroups`).
    partial: Option<PredSrc>,
    /// The early returns' decisions (`lower_returns.rs`), in a wide
    /// workgroup.
    returns: Option<&'a crate::lower_returns::ReturnLowering>,
    /// Per logical subgroup, whether its invocation on each lane has
    /// returned (false until the lowering says it may have); empty when
    /// the copies keep no returned predicates (`returns`).
    returned: Vec<Comp>,
    /// While a region copy is selected, where copies keep returned
    /// predicates.
    region_exit: Option<returns::RegionExit<'a>>,
}

impl Default for Wide<'_> {
    fn default() -> Self {
        Wide {
            copies: 1,
            copy: 0,
            partial: None,
            returns: None,
            returned: Vec::new(),
            region_exit: None,
        }
    }
}

pub(crate) struct Isel<'a> {
    sh: &'a Shader,
    /// What the lowerings before selection attached to `sh`.
    intrinsics: &'a Intrinsics,
    target: Arch,
    f: MFunc,
    /// The MIR block of each IR block.
    blocks: BlockMap,
    vals: ValueMap,
    /// The MIR block instructions are appended to.
    cur: BlockId,
    /// Special registers, read once at the top of the entry block
    /// (shared with the culling pass, `insert_cull.rs`).
    special: SpecialRegs,
    /// IR values known to equal the lane id (the invocation index of a
    /// workgroup that fits one warp).
    lane_ids: EntitySet<Value>,
    /// A task shader launches this mesh shader (the workgroup index is
    /// then read without SKEW).
    /// Uniform buffers of set 0 below binding 16 live in constant banks
    /// (`BackendOptions::bank_uniforms`).
    bank_uniforms: bool,
    /// Warp reductions may use REDUX where the architecture has it
    /// (`BackendOptions::redux`).
    redux: bool,
    task_present: bool,
    /// The register holding the workgroup index, once read.
    workgroup_index: Option<VReg>,
    /// Shared and local variable placement.
    mem: memory::MemPlan,
    /// Workgroup variables of a task/mesh shader in the output ISBE.
    shared: shared::SharedLayout,
    /// Divergent values, branches and loops (crate::uniformity).
    divergence: crate::uniformity::Divergence,
    /// Blocks an atomic's loop split off a block, to be laid out right
    /// after it (atomics.rs).
    split_off: FxHashMap<BlockId, Vec<BlockId>>,
    /// Output placement of a mesh shader.
    out: Outputs,
    /// Convergence barriers of structured control flow (`control.rs`).
    barriers: Barriers,
    /// Values computed once per machine block and reused there.
    cache: BlockCache,
    /// Logical subgroups and early returns (`subgroups.rs`, `returns.rs`).
    wide: Wide<'a>,
    /// In-shader culling (`mesh_cull`), when compiled in: the decisions
    /// made before selection (`lower_cull.rs`) and which part is being
    /// selected.
    cull_lowering: Option<&'a crate::lower_cull::CullLowering>,
    cull: Option<mesh_cull::CullState>,
    /// The instruction being selected, for errors raised where no
    /// `InstData` is at hand.
    at: Option<&'a InstData>,
    /// The first predicate `src_of` was asked to read as a word, with the
    /// instruction being selected: `Selection::finish` fails with it.
    pred_as_word: Option<Option<&'a InstData>>,
}

/// Instruction selection in the steps `compile::select` runs:
/// [`Selection::part_one`] selects the shader (with in-shader culling, its
/// first selection, whose OpReturn branches to the block the culling pass
/// fills, [`Selection::culling`]); [`Selection::part_two`] selects it a
/// second time after the culling code, when that defers attributes; and
/// [`Selection::finish`] checks and tidies the function. Part two
/// continues part one's selection state (the values read once at the
/// entry, the plans), so each step numbers its blocks and registers after
/// the previous one's.
pub(crate) struct Selection<'a> {
    isel: Isel<'a>,
    vertex_attrs: Vec<u16>,
    primitive_attrs: Vec<u16>,
}

impl<'a> Selection<'a> {
    /// Selects the shader the lowerings before selection left
    /// (`compile::lower`): the whole of it, or part one when culling is
    /// compiled in.
    pub(crate) fn part_one(
        lowered: &'a Lowered,
        target: Arch,
        task_present: bool,
        bank_uniforms: bool,
        redux: bool,
    ) -> Result<Selection<'a>, BackendError> {
        let sh: &Shader = &lowered.shader;
        let written = if sh.stage == Stage::Mesh {
            mesh_out::written_outputs(sh)?
        } else {
            mesh_out::WrittenOutputs::default()
        };
        let max_vertices = sh.mesh.map_or(0, |m| m.max_vertices);
        let max_primitives = sh.mesh.map_or(0, |m| m.max_primitives);
        let vertex_layout = AttrLayout::new(0, written.vertex.clone(), max_vertices);
        let primitive_layout = AttrLayout::new(
            vertex_layout.size(),
            written.primitive.clone(),
            max_primitives,
        );
        let shared_after = match sh.stage {
            Stage::Task => task_out::payload_bytes(sh) + crate::isbe_layout::task::PAYLOAD,
            _ => primitive_layout.base + primitive_layout.size(),
        };
        // The logical-subgroup plan's refusal is reported here, after the
        // outputs' (`compile::Lowered::wide`).
        let wide = lowered.wide.as_ref().map_err(BackendError::clone)?.as_ref();
        let divergence = match wide {
            Some(w) => crate::uniformity::Divergence::analyse_assuming(sh, &w.plan.voted),
            None => crate::uniformity::Divergence::analyse(sh),
        };
        let mut isel = Isel {
            shared: shared::SharedLayout::new(sh, shared_after),
            divergence,
            split_off: FxHashMap::default(),
            sh,
            intrinsics: &lowered.intrinsics,
            target,
            f: MFunc::default(),
            // Sized for every block and value up front: growing them
            // rehashed each several times per compile.
            blocks: BlockMap::with_capacity(sh.blocks.len()),
            vals: ValueMap::with_capacity(sh.values.len()),
            cur: BlockId::ENTRY,
            special: SpecialRegs::default(),
            lane_ids: EntitySet::new(),
            task_present,
            bank_uniforms,
            redux,
            workgroup_index: None,
            mem: memory::MemPlan::new(sh)?,
            out: Outputs {
                vertex_layout,
                primitive_layout,
                computed_offset_stores: Vec::new(),
                cull_and_viewport: written.cull && written.viewport_index.is_some(),
            },
            barriers: Barriers::default(),
            cache: BlockCache::default(),
            wide: Wide::default(),
            cull_lowering: None,
            cull: None,
            at: None,
            pred_as_word: None,
        };
        // The culling lowering's refusal is reported here, after those of
        // the plans above, as when selection made the decisions itself.
        isel.cull_lowering = lowered.cull.as_ref().map_err(BackendError::clone)?.as_ref();
        isel.plan_barriers(wide.map(|w| &w.returns))?;
        if let Some(w) = wide {
            isel.wide.copies = w.plan.copies;
            isel.wide.returns = Some(&w.returns);
            isel.select_wide(&w.plan, written.cull)?;
        } else {
            for &b in &sh.layout {
                let mb = isel.f.new_block();
                isel.blocks.insert(b, mb);
            }
            isel.reserve_culling();
            isel.cur = isel.blocks.at(sh.entry_block());
            if written.cull {
                isel.init_viewport_masks();
            }
            isel.init_shared()?;
            isel.prologue_intrinsics()?;
            // The entry block goes on where the prologue ends (after the
            // statistics guard's join: from_ir/intrinsics.rs).
            isel.blocks.insert(sh.entry_block(), isel.cur);
            for &b in &sh.layout {
                isel.block(b)?;
            }
        }
        Ok(Selection {
            isel,
            vertex_attrs: written.vertex,
            primitive_attrs: written.primitive,
        })
    }

    /// The culling pass's input, after part one when culling is compiled
    /// in.
    pub(crate) fn culling(&mut self) -> Option<Culling<'_>> {
        let isel = &mut self.isel;
        let (Some(mesh_cull::CullState::PartOne { culling }), Some(lowering)) =
            (isel.cull, isel.cull_lowering)
        else {
            return None;
        };
        Some(Culling {
            func: &mut isel.f,
            special: &mut isel.special,
            entry: culling,
            plan: lowering.plan,
            vertex_layout: &isel.out.vertex_layout,
            primitive_layout: &isel.out.primitive_layout,
            arch: isel.target,
        })
    }

    /// The function selected so far (tests of the culling pass).
    #[cfg(test)]
    pub(crate) fn func(&self) -> &MFunc {
        &self.isel.f
    }

    /// Selects part two from where the culling code ended.
    pub(crate) fn part_two(&mut self, start: PartTwo) -> Result<(), BackendError> {
        self.isel.select_part_two(start)
    }

    /// Reports a predicate read as a word, places the blocks split off
    /// others, cuts unreachable blocks, splits critical edges and removes
    /// dead code: the function as the passes after selection take it.
    pub(crate) fn finish(self) -> Result<Selected, BackendError> {
        let mut isel = self.isel;
        if let Some(at) = isel.pred_as_word {
            return Err(BackendError::PredicateAsWord {
                opcode: at.map_or_else(|| "shader setup".into(), |i| spirv_opcode(&i.op)),
                spirv_id: at.and_then(|i| i.spirv_id),
            });
        }
        atomics::place_split_blocks(&mut isel.f, &isel.split_off);
        unreachable::cut_unreachable(&mut isel.f);
        control::split_critical_edges(&mut isel.f);
        dce::eliminate_dead_code(&mut isel.f);
        Ok(Selected {
            func: isel.f,
            vertex_attrs: self.vertex_attrs,
            primitive_attrs: self.primitive_attrs,
            computed_offset_stores: isel.out.computed_offset_stores,
            shared_bytes: isel.mem.shared_bytes,
            // One copy of the local variables per logical subgroup.
            local_bytes: match isel.wide.copies {
                1 => isel.mem.local_bytes,
                k => isel.mem.local_copy_bytes() * k,
            },
        })
    }
}

impl<'a> Isel<'a> {
    fn emit(&mut self, i: Instr) {
        self.f.blocks[self.cur].instrs.push(i);
    }

    fn block(&mut self, b: ir::Block) -> Result<(), BackendError> {
        self.cur = self.blocks.at(b);
        let sh = self.sh;
        let data = &sh.blocks[b];
        let mut params = Vec::new();
        for &p in &data.params {
            let comps = self.new_regs_for(p)?;
            params.extend(comps.iter().filter_map(|c| c.vreg()));
            self.vals.insert(p, comps);
        }
        self.f.blocks[self.cur].params = params;
        if let Some(bar) = self.barriers.bsync_at[b] {
            self.emit(Instr::new(Op::Bsync(crate::isa::OpBsync { bar })));
        }
        for &inst in &data.insts {
            self.inst(b, inst)?;
        }
        Ok(())
    }

    /// Fresh registers for a block parameter, by its type.
    fn new_regs_for(&mut self, v: Value) -> Result<Vec<Comp>, BackendError> {
        let ty = self.sh.values[v].ty;
        let n = comp_count(self.sh, ty).ok_or_else(|| BackendError::Unsupported {
            what: format!("a block parameter of type {}", self.sh.type_name(ty)),
            opcode: "OpPhi".into(),
            spirv_id: None,
        })?;
        // A composite holding bools (a struct, an array of bvec) keeps each
        // bool component in a predicate, as its other values do.
        let mut bools = Vec::with_capacity(n as usize);
        places::bool_comps(self.sh, ty, &mut bools).ok_or_else(|| BackendError::Unsupported {
            what: format!("a block parameter of type {}", self.sh.type_name(ty)),
            opcode: "OpPhi".into(),
            spirv_id: None,
        })?;
        Ok(bools
            .into_iter()
            .map(|is_bool| {
                if is_bool {
                    Comp::Pred(self.f.new_pred())
                } else {
                    Comp::Reg(self.f.new_vreg(RegFile::Gpr))
                }
            })
            .collect())
    }

    fn value(&self, v: Value) -> Result<&Vec<Comp>, BackendError> {
        self.vals.get(v).ok_or_else(|| BackendError::Invalid {
            what: format!("value {v} used before it is defined (or it is a pointer)"),
            spirv_id: None,
        })
    }

    /// The single component of a scalar value.
    fn value_comp(&self, v: Value) -> Result<Comp, BackendError> {
        let comps = self.value(v)?;
        match comps.as_slice() {
            [c] => Ok(*c),
            _ => Err(BackendError::Invalid {
                what: format!("value {v} is not a scalar"),
                spirv_id: None,
            }),
        }
    }

    fn is_lane_id(&self, v: Value) -> bool {
        self.lane_ids.contains(v)
    }

    fn special_reg(&mut self, sr: SpecialReg) -> VReg {
        self.special.read(&mut self.f, sr)
    }

    /// A source operand for a component: registers as they are, constants as
    /// immediates (RZ for zero). Predicates are not GPR sources: one asked
    /// for here is a selection bug, which `Selection::finish` reports
    /// (`BackendError::PredicateAsWord`) instead of compiling RZ.
    fn src_of(&mut self, c: Comp) -> Src {
        match c {
            Comp::Reg(r) => r.src(),
            Comp::Const(0) | Comp::Bool(false) => Src::ZERO,
            Comp::Const(v) => Src::imm(v),
            Comp::Bool(true) => Src::imm(1),
            Comp::Pred(_) => {
                self.pred_as_word.get_or_insert(self.at);
                Src::ZERO
            }
        }
    }

    /// A register (or RZ) holding the component: constants are moved into
    /// a fresh register.
    fn reg_or_zero(&mut self, c: Comp) -> Src {
        match c {
            Comp::Const(0) => Src::ZERO,
            Comp::Const(v) => self.const_reg(v).src(),
            other => self.src_of(other),
        }
    }

    /// A register holding constant `v`, moved once per block.
    fn const_reg(&mut self, v: u32) -> VReg {
        if let Some(&r) = self.cache.const_regs.get(&(self.cur, v)) {
            return r;
        }
        let r = self.f.new_vreg(RegFile::Gpr);
        self.emit(Instr::new(Op::Mov(OpMov {
            dst: r.dst(),
            src: Src::imm(v),
        })));
        self.cache.const_regs.insert((self.cur, v), r);
        r
    }

    /// A virtual register holding the component (for block arguments).
    fn materialize(&mut self, c: Comp) -> VReg {
        match c {
            Comp::Reg(r) => r,
            Comp::Pred(p) => p.vreg(),
            Comp::Const(v) => self.const_reg(v),
            Comp::Bool(b) => {
                // 0 == 0 is true, 0 != 0 is false.
                let p = self.f.new_vreg(RegFile::Pred);
                let cmp = if b { IntCmp::Eq } else { IntCmp::Ne };
                self.emit(Instr::new(Op::ISetP(OpISetP {
                    dst: p.dst(),
                    cmp,
                    signed: false,
                    combine: PredCombine::And,
                    srcs: [Src::ZERO, Src::ZERO],
                    accum: PredSrc::TRUE,
                })));
                p
            }
        }
    }

    /// A register (or RZ) holding `base + imm`. A constant `base` (an index
    /// that folded) is added here, since the ALU op would fold back into
    /// an immediate, which no register-only operand can take.
    fn add_imm(&mut self, base: Src, imm: u32) -> Src {
        if let Some(k) = const_src(base) {
            return self.reg_or_zero(Comp::Const(k.wrapping_add(imm)));
        }
        if imm == 0 {
            return base;
        }
        let r = self.alu(Op::IAdd3(crate::isa::OpIAdd3 {
            dst: Dst::None,
            srcs: [base, Src::imm(imm), Src::ZERO],
        }));
        self.src_of(r)
    }

    fn unsupported(&self, what: impl Into<String>, inst: &InstData) -> BackendError {
        BackendError::Unsupported {
            what: what.into(),
            opcode: spirv_opcode(&inst.op),
            spirv_id: inst.spirv_id,
        }
    }

    fn inst(&mut self, b: ir::Block, id: ir::Inst) -> Result<(), BackendError> {
        use ir::Op as I;
        let inst: &'a InstData = &self.sh.insts[id];
        self.at = Some(inst);
        if self.cull.is_some() && self.cull_inst(id, inst)? {
            return Ok(());
        }
        // What the lowerings before selection attached to the instruction
        // goes first, and is skipped with it.
        let intrinsics = self.intrinsics;
        self.intrinsics_at(&intrinsics.before[id])?;
        let result = inst.result;
        let comps: Vec<Comp> = match &inst.op {
            I::Const(bits) => {
                let ty = &self.sh.types[self.sh.values[result.expect("constants have results")].ty];
                match ty {
                    ir::Type::Scalar(ir::Scalar::Bool) => vec![Comp::Bool(*bits != 0)],
                    ir::Type::Scalar(s) if s.size() <= 4 => vec![Comp::Const(*bits as u32)],
                    // Low word first (wide_int.rs).
                    ir::Type::Scalar(
                        ir::Scalar::Int { bits: 64, .. } | ir::Scalar::Float { bits: 64 },
                    ) => {
                        vec![Comp::Const(*bits as u32), Comp::Const((*bits >> 32) as u32)]
                    }
                    _ => return Err(self.unsupported("constants of this type", inst)),
                }
            }
            I::Undef => {
                let ty = self.sh.values[result.expect("undef has a result")].ty;
                let n = comp_count(self.sh, ty).unwrap_or(1);
                vec![Comp::Const(0); n as usize]
            }
            I::AccessChain { base, indices } if self.physical_pointee(*base).is_some() => {
                self.physical_chain(*base, None, indices, inst)?
            }
            I::PtrAccessChain {
                base,
                element,
                indices,
            } => self.physical_chain(*base, Some(*element), indices, inst)?,
            // Pointers have no components: their uses resolve them to places.
            I::VarAddr(_) | I::AccessChain { .. } => return Ok(()),
            I::Load { ptr } if self.physical_pointee(*ptr).is_some() => {
                self.load_physical(*ptr, inst)?
            }
            I::Store { ptr, value } if self.physical_pointee(*ptr).is_some() => {
                return self.store_physical(*ptr, *value, inst);
            }
            I::Load { ptr } if images::is_handle_load(self.sh, *ptr) => {
                self.load_handle(*ptr, inst)?
            }
            I::Load { ptr } => self.load(*ptr, inst)?,
            I::SampledImage { image, sampler } => self.combine_handles(*image, *sampler)?,
            I::ImageOf(a) => self.comps_of(*a)?,
            I::Image(i) => self.image_inst(i, inst)?,
            I::Store { ptr, value } => {
                let place = resolve(self.sh, *ptr, inst.spirv_id)?;
                let comps = self.value(*value)?.clone();
                match self.sh.globals[place.var].class {
                    StorageClass::Output if self.sh.stage == Stage::Mesh => {
                        self.store_output(&place, &comps, inst.spirv_id)?
                    }
                    StorageClass::TaskPayload => {
                        self.store_payload(&place, &comps, inst.spirv_id)?
                    }
                    StorageClass::Workgroup if self.sh.stage != Stage::Compute => {
                        self.store_shared(&place, &comps, inst)?
                    }
                    StorageClass::Input | StorageClass::Output => {
                        let class = self.sh.globals[place.var].class;
                        return Err(self.unsupported(format!("stores to {class:?} memory"), inst));
                    }
                    _ => self.store_memory(&place, &comps, inst)?,
                }
                return Ok(());
            }
            I::CopyMemory { dst, src } => return self.copy_memory(*dst, *src, inst),
            I::SetMeshOutputs {
                primitive_count, ..
            } => {
                let c = self.value_comp(*primitive_count)?;
                self.set_mesh_outputs(c);
                return Ok(());
            }
            // One warp runs the whole workgroup: a barrier needs no
            // instruction (docs/HARDWARE.md, "Workgroups").
            I::ControlBarrier | I::MemoryBarrier
                if (self.sh.invocations() <= 32 || self.wide.copies > 1)
                    && self.sh.stage != Stage::Compute =>
            {
                return Ok(());
            }
            I::EmitMeshTasks { x, y, z } => {
                let (x, y, z) = (
                    self.value_comp(*x)?,
                    self.value_comp(*y)?,
                    self.value_comp(*z)?,
                );
                self.emit_mesh_tasks(x, y, z);
                return Ok(());
            }
            I::Return | I::Unreachable
                if self.wide.returns.is_some_and(|r| r.to_merge.contains(id)) =>
            {
                return self.region_return();
            }
            // A task workgroup that returns launches no mesh workgroups:
            // it writes a zero count (the output ISBE is not cleared on
            // the hardware).
            I::Return if self.sh.stage == Stage::Task => {
                let zero = Comp::Const(0);
                self.emit_mesh_tasks(zero, zero, zero);
                return Ok(());
            }
            I::ControlBarrier | I::MemoryBarrier if self.sh.stage == Stage::Compute => {
                self.barrier(matches!(inst.op, I::ControlBarrier));
                return Ok(());
            }
            I::Jump(_) | I::Branch { .. } | I::Switch { .. } | I::Return | I::Unreachable => {
                return self.terminator(b, inst);
            }
            I::ImageTexelPointer { .. } => return Ok(()),
            I::Atomic { op, ptr, args } if images::texel_pointer(self.sh, *ptr).is_some() => {
                self.image_atomic(*op, *ptr, args, inst)?
            }
            I::Atomic { op, ptr, args } if self.isbe_atomic(*ptr, inst.spirv_id)? => {
                self.atomic(*op, *ptr, args, inst)?
            }
            I::Atomic { op, ptr, args } => self.memory_atomic(*op, *ptr, args, inst)?,
            I::Subgroup(op, args) => self.subgroup_op(*op, args, inst)?,
            I::ExtractDynamic { vector, .. } | I::InsertDynamic { vector, .. }
                if self.wide_int(*vector) =>
            {
                return Err(self.unsupported("a dynamic index into a 64-bit vector", inst));
            }
            I::ExtractDynamic { vector, index } => self.extract_dynamic(*vector, *index, inst)?,
            I::InsertDynamic {
                vector,
                component,
                index,
            } => self.insert_dynamic(*vector, *component, *index, inst)?,
            I::CopyLogical(a) => self.copy_logical(*a)?,
            I::ArrayLength { ptr, member } => self.array_length(*ptr, *member, inst)?,
            I::Convert(ir::ConvOp::Bitcast, a) if var_ptrs::is_logical_pointer(self.sh, *a) => {
                self.pointer_address(*a, inst)?
            }
            _ => self.alu_inst(inst)?,
        };
        if let Some(r) = result {
            self.vals.insert(r, comps);
            // Here rather than in `block`: a wide workgroup selects its
            // spine instructions once per logical subgroup, each with its
            // own copy of the variables.
            self.store_initializers(r)?;
        }
        Ok(())
    }

    fn load(&mut self, ptr: Value, inst: &InstData) -> Result<Vec<Comp>, BackendError> {
        let place = resolve(self.sh, ptr, inst.spirv_id)?;
        let var = &self.sh.globals[place.var];
        if var.class == StorageClass::TaskPayload {
            let result = inst.result.ok_or_else(|| BackendError::Invalid {
                what: "a load without a result".into(),
                spirv_id: inst.spirv_id,
            })?;
            return self.load_payload(&place, result, inst.spirv_id);
        }
        if var.class == StorageClass::Workgroup && self.sh.stage != Stage::Compute {
            let result = inst.result.ok_or_else(|| BackendError::Invalid {
                what: "a load without a result".into(),
                spirv_id: inst.spirv_id,
            })?;
            return self.load_shared(&place, result, inst);
        }
        match var.class {
            StorageClass::Input => {}
            StorageClass::Output => {
                let result = inst.result.ok_or_else(|| BackendError::Invalid {
                    what: "a load without a result".into(),
                    spirv_id: inst.spirv_id,
                })?;
                return self.load_output(&place, result, inst.spirv_id);
            }
            _ => return self.load_memory(&place, inst),
        }
        let one_warp = self.sh.stage != Stage::Compute && self.sh.invocations() <= 32;
        let [_, y, z] = self.sh.workgroup_size;
        let logical = match var.builtin {
            Some(b) => self.subgroup_builtin(b)?,
            None => None,
        };
        // Only .x read: the y/z split of the workgroup index is not needed.
        let want_yz = !matches!(place.path.as_slice(), [places::Step::Const(0)]);
        let comps = match var.builtin {
            _ if logical.is_some() => logical.unwrap_or_default(),
            Some(BuiltIn::LocalInvocationIndex | BuiltIn::SubgroupLocalInvocationId)
                if one_warp =>
            {
                vec![Comp::Reg(self.special_reg(SpecialReg::LaneId))]
            }
            Some(BuiltIn::LocalInvocationId) if one_warp && y == 1 && z == 1 => {
                vec![
                    Comp::Reg(self.special_reg(SpecialReg::LaneId)),
                    Comp::Const(0),
                    Comp::Const(0),
                ]
            }
            Some(BuiltIn::SubgroupSize) => vec![Comp::Const(32)],
            // A workgroup on one warp is one subgroup (the logical
            // subgroups of a wider one are `subgroup_builtin`'s).
            Some(BuiltIn::SubgroupId) if one_warp => vec![Comp::Const(0)],
            Some(BuiltIn::NumSubgroups) if one_warp => vec![Comp::Const(1)],
            // The hardware gives task and mesh workgroups only a linear
            // index (docs/HARDWARE.md, "ISBE"); draw_ids.rs splits it by
            // the grid.
            Some(BuiltIn::WorkgroupId) if self.sh.stage != Stage::Compute => {
                self.draw_workgroup_id(want_yz)
            }
            Some(BuiltIn::NumWorkgroups) if self.sh.stage != Stage::Compute => {
                self.draw_num_workgroups()
            }
            Some(BuiltIn::GlobalInvocationId) if self.sh.stage != Stage::Compute => {
                self.draw_global_id(want_yz)?
            }
            Some(BuiltIn::LocalInvocationId) if self.sh.stage != Stage::Compute => {
                self.draw_local_id()?
            }
            // One direct draw per launch: the driver writes its index
            // (0 for vkCmdDrawMeshTasksEXT) into the root table.
            Some(BuiltIn::DrawIndex) if self.sh.stage != Stage::Compute => {
                vec![self.root_word(abi::DRAW_INDEX)]
            }
            Some(BuiltIn::WorkgroupSize) => self.sh.workgroup_size.map(Comp::Const).to_vec(),
            // The draw writes the view it is rendering into the root
            // table before each view's launch (docs/ABI.md), as NVK's
            // per-view draw loop writes its root descriptor.
            Some(BuiltIn::ViewIndex) if self.sh.stage != Stage::Compute => {
                vec![self.root_word(abi::VIEW_INDEX)]
            }
            Some(b) if self.sh.stage == Stage::Compute => self.compute_builtin(b, inst)?,
            Some(b) => {
                return Err(self.unsupported(
                    format!(
                        "the input built-in {b:?} in a {} shader",
                        self.sh.stage.name()
                    ),
                    inst,
                ));
            }
            None => return Err(self.unsupported("loads from user inputs", inst)),
        };
        let comps = match place.path.as_slice() {
            [] => comps,
            [places::Step::Const(i)] if (*i as usize) < comps.len() => vec![comps[*i as usize]],
            _ => return Err(self.unsupported("a dynamic index into an input built-in", inst)),
        };
        // In a wide workgroup, logical subgroup i's own index is lane + 32i
        // (`subgroups`; stores place it with SKEW in layout block i).
        let own_index = self.wide.copies > 1
            && match (var.builtin, place.path.as_slice()) {
                (Some(BuiltIn::LocalInvocationIndex), []) => true,
                (Some(BuiltIn::LocalInvocationId), [places::Step::Const(0)]) => y == 1 && z == 1,
                _ => false,
            };
        if let (Some(r), [Comp::Reg(lane)]) = (inst.result, comps.as_slice())
            && (own_index || self.special.get(SpecialReg::LaneId) == Some(*lane))
        {
            self.lane_ids.insert(r);
        }
        Ok(comps)
    }
}

/// The value of a source that is a plain constant (RZ or an immediate
/// without modifiers).
fn const_src(s: Src) -> Option<u32> {
    match s.src {
        crate::isa::SrcRef::Zero if !s.neg && !s.abs => Some(0),
        crate::isa::SrcRef::Imm(k) if !s.neg && !s.abs => Some(k),
        _ => None,
    }
}
