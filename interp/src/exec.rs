//! The workgroup scheduler: every invocation is a position (block,
//! instruction) and its values; a subgroup runs by executing, one
//! instruction at a time, the invocations at the earliest position
//! (`order.rs`) together, until each has finished or waits at a barrier;
//! the subgroups of a workgroup run in order, and the barrier releases
//! when every invocation waits at it. Within an instruction, invocations
//! act in invocation order, which fixes the order of atomics.

use crate::error::{At, InterpError};
use crate::layout;
use crate::opname::opcode;
use crate::value::{Loc, Mem, Ptr, Val};
use crate::{Inputs, Options};
use cranelift_entity::{EntityRef, SecondaryMap};
use spvsass_frontend::ir::{Block, BuiltIn, GlobalVar, Inst, Op, Shader, StorageClass, Type};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum State {
    Running,
    Barrier(Inst),
    Done,
}

pub(crate) struct Lane {
    pub block: Block,
    pub idx: usize,
    pub state: State,
    pub vals: Vec<Val>,
    /// Function and Private variables (by global index).
    pub vars: Vec<Option<Val>>,
}

/// What is shared by the workgroup and the dispatch.
pub(crate) struct World<'a> {
    pub shader: &'a Shader,
    pub options: &'a Options,
    pub buffers: &'a mut Inputs,
    pub ranks: &'a SecondaryMap<Block, u32>,
    pub groups: [u32; 3],
    pub workgroup: [u32; 3],
    /// Workgroup, Output and TaskPayload variables (by global index).
    pub shared: Vec<Option<Val>>,
    /// What a task or mesh workgroup declared (`draw.rs`).
    pub io: crate::draw::StageIo,
}

impl World<'_> {
    pub fn at(&self, inst: Inst, invocation: u32) -> At {
        let data = &self.shader.insts[inst];
        At {
            opcode: opcode(&data.op),
            spirv_id: data.spirv_id,
            invocation,
            workgroup: self.workgroup,
        }
    }
}

/// Runs one workgroup to the end.
pub(crate) fn run_workgroup(world: &mut World<'_>) -> Result<(), InterpError> {
    let shader = world.shader;
    let n = shader.invocations();
    let nvals = shader.values.len();
    let nglob = shader.globals.len();
    world.shared = vec![None; nglob];
    world.io.reset();
    if let Some(payload) = &world.io.payload_in {
        for (gv, g) in shader.globals.iter() {
            if g.class == StorageClass::TaskPayload {
                world.shared[gv.index()] = Some(payload.clone());
            }
        }
    }
    let entry = shader.entry_block();
    let mut lanes: Vec<Lane> = (0..n)
        .map(|_| Lane {
            block: entry,
            idx: 0,
            state: State::Running,
            vals: vec![Val::S(0); nvals],
            vars: vec![None; nglob],
        })
        .collect();
    let sg = world.options.subgroup_size as usize;
    let mut steps = 0u64;
    loop {
        for start in (0..lanes.len()).step_by(sg) {
            let end = (start + sg).min(lanes.len());
            run_subgroup(world, &mut lanes, start, end, &mut steps)?;
        }
        let waiting: Vec<Inst> = lanes
            .iter()
            .filter_map(|l| match l.state {
                State::Barrier(i) => Some(i),
                State::Running | State::Done => None,
            })
            .collect();
        if waiting.is_empty() {
            return Ok(());
        }
        let finished = lanes.iter().filter(|l| l.state == State::Done).count() as u32;
        if finished > 0 || waiting.iter().any(|i| *i != waiting[0]) {
            return Err(InterpError::BarrierDivergence {
                workgroup: world.workgroup,
                waiting: waiting.len() as u32,
                finished,
            });
        }
        for l in &mut lanes {
            l.state = State::Running;
        }
    }
}

fn run_subgroup(
    world: &mut World<'_>,
    lanes: &mut [Lane],
    start: usize,
    end: usize,
    steps: &mut u64,
) -> Result<(), InterpError> {
    let shader = world.shader;
    let mut active = Vec::with_capacity(end - start);
    loop {
        let key = |l: &Lane| (world.ranks[l.block], l.idx);
        let best = lanes[start..end]
            .iter()
            .filter(|l| l.state == State::Running)
            .map(key)
            .min();
        let Some(best) = best else { return Ok(()) };
        active.clear();
        active.extend(
            (start..end).filter(|&i| lanes[i].state == State::Running && key(&lanes[i]) == best),
        );
        *steps += 1;
        if *steps > world.options.max_steps {
            return Err(InterpError::StepLimit {
                workgroup: world.workgroup,
                limit: world.options.max_steps,
            });
        }
        let l0 = &lanes[active[0]];
        let Some(&inst) = shader.blocks[l0.block].insts.get(l0.idx) else {
            return Err(InterpError::Malformed {
                at: At {
                    opcode: "OpLabel",
                    spirv_id: shader.blocks[l0.block].spirv_label,
                    invocation: active[0] as u32,
                    workgroup: world.workgroup,
                },
                what: "a block without a terminator".into(),
            });
        };
        if let Op::Subgroup(op, args) = &shader.insts[inst].op {
            crate::subgroup::exec(world, lanes, start, end, &active, inst, *op, args)?;
            for &i in &active {
                lanes[i].idx += 1;
            }
            continue;
        }
        for &i in &active {
            crate::inst::exec(world, &mut lanes[i], i as u32, inst)?;
        }
    }
}

/// The value of a built-in input for invocation `inv`.
pub(crate) fn builtin(world: &World<'_>, b: BuiltIn, inv: u32) -> Option<Val> {
    let [sx, sy, sz] = world.shader.workgroup_size;
    let local = [inv % sx, inv / sx % sy, inv / (sx * sy) % sz];
    let sg = world.options.subgroup_size;
    let lane = inv % sg;
    let v3 = |v: [u32; 3]| Val::C(v.iter().map(|&x| Val::S(u64::from(x))).collect());
    let mask4 = |f: &dyn Fn(u32) -> bool| {
        Val::C(
            (0..4)
                .map(|w| {
                    let mut word = 0u64;
                    for bit in 0..32 {
                        let i = w * 32 + bit;
                        if i < sg && f(i) {
                            word |= 1 << bit;
                        }
                    }
                    Val::S(word)
                })
                .collect(),
        )
    };
    let n = world.shader.invocations();
    Some(match b {
        BuiltIn::LocalInvocationId => v3(local),
        BuiltIn::LocalInvocationIndex => Val::S(u64::from(inv)),
        BuiltIn::GlobalInvocationId => v3([
            world.workgroup[0].wrapping_mul(sx).wrapping_add(local[0]),
            world.workgroup[1].wrapping_mul(sy).wrapping_add(local[1]),
            world.workgroup[2].wrapping_mul(sz).wrapping_add(local[2]),
        ]),
        BuiltIn::WorkgroupId => v3(world.workgroup),
        BuiltIn::NumWorkgroups => v3(world.groups),
        BuiltIn::WorkgroupSize => v3(world.shader.workgroup_size),
        BuiltIn::SubgroupLocalInvocationId => Val::S(u64::from(lane)),
        BuiltIn::SubgroupSize => Val::S(u64::from(sg)),
        BuiltIn::SubgroupId => Val::S(u64::from(inv / sg)),
        BuiltIn::NumSubgroups => Val::S(u64::from(n.div_ceil(sg))),
        BuiltIn::SubgroupEqMask => mask4(&|i| i == lane),
        BuiltIn::SubgroupGeMask => mask4(&|i| i >= lane),
        BuiltIn::SubgroupGtMask => mask4(&|i| i > lane),
        BuiltIn::SubgroupLeMask => mask4(&|i| i <= lane),
        BuiltIn::SubgroupLtMask => mask4(&|i| i < lane),
        BuiltIn::ViewIndex | BuiltIn::DrawIndex => Val::S(0),
        BuiltIn::Position
        | BuiltIn::PointSize
        | BuiltIn::ClipDistance
        | BuiltIn::CullDistance
        | BuiltIn::PrimitiveId
        | BuiltIn::Layer
        | BuiltIn::ViewportIndex
        | BuiltIn::CullPrimitive
        | BuiltIn::PrimitiveShadingRate
        | BuiltIn::PrimitivePointIndices
        | BuiltIn::PrimitiveLineIndices
        | BuiltIn::PrimitiveTriangleIndices => return None,
    })
}

/// The pointer `OpVariable` gives for global `gv`.
pub(crate) fn var_ptr(world: &World<'_>, gv: GlobalVar) -> Ptr {
    let g = &world.shader.globals[gv];
    let (mem, loc) = match g.class {
        StorageClass::StorageBuffer | StorageClass::PhysicalStorageBuffer => {
            (Mem::Buffer(g.binding.unwrap_or(0)), Loc::Bytes(0))
        }
        StorageClass::Uniform => (Mem::Uniform(g.binding.unwrap_or(0)), Loc::Bytes(0)),
        StorageClass::PushConstant => (Mem::Push, Loc::Bytes(0)),
        StorageClass::Function
        | StorageClass::Private
        | StorageClass::Workgroup
        | StorageClass::Input
        | StorageClass::Output
        | StorageClass::TaskPayload
        | StorageClass::UniformConstant
        | StorageClass::Image => (Mem::Var(gv), Loc::Path(Vec::new())),
    };
    Ptr {
        mem,
        class: g.class,
        ty: g.ty,
        loc,
    }
}

/// The number of scalars in a value of type `ty` (a memory bound for
/// variables), saturating.
pub(crate) fn scalar_count(shader: &Shader, ty: spvsass_frontend::ir::TypeId) -> u64 {
    match &shader.types[ty] {
        Type::Void
        | Type::Scalar(_)
        | Type::Pointer { .. }
        | Type::Image(_)
        | Type::Sampler
        | Type::SampledImage { .. } => 1,
        Type::Vector { len, .. } => u64::from(*len),
        Type::Matrix {
            column, columns, ..
        } => scalar_count(shader, *column).saturating_mul(u64::from(*columns)),
        Type::Array { elem, len, .. } => {
            scalar_count(shader, *elem).saturating_mul(u64::from(len.unwrap_or(0)))
        }
        Type::Struct { members, .. } => members
            .iter()
            .map(|m| scalar_count(shader, m.ty))
            .fold(0u64, u64::saturating_add),
    }
}

/// The initial value of a variable: its constant initializer, else zero.
pub(crate) fn initial(world: &World<'_>, gv: GlobalVar) -> Val {
    let shader = world.shader;
    let g = &shader.globals[gv];
    g.initializer
        .and_then(|v| const_eval(shader, v))
        .unwrap_or_else(|| layout::zero(shader, g.ty))
}

/// The value of a constant expression (constants, composites of them,
/// undef as zero).
pub(crate) fn const_eval(shader: &Shader, v: spvsass_frontend::ir::Value) -> Option<Val> {
    let inst = shader.def_inst(v)?;
    match &inst.op {
        Op::Const(b) => Some(Val::S(*b)),
        Op::Undef => Some(layout::zero(shader, shader.values[v].ty)),
        Op::CompositeConstruct(parts) => Some(Val::C(
            parts
                .iter()
                .map(|p| const_eval(shader, *p))
                .collect::<Option<_>>()?,
        )),
        _ => None,
    }
}
