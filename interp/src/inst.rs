//! One instruction of one invocation: arithmetic, composites, memory and
//! control flow (subgroup operations are `subgroup.rs`'s).

use crate::arith::{self, EvalErr};
use crate::error::InterpError;
use crate::exec::{Lane, State, World, builtin, initial, scalar_count, var_ptr};
use crate::layout::{self, LayoutErr};
use crate::math;
use crate::value::{Loc, Mem, Ptr, Val, mask, scalar_of};
use spvsass_frontend::ir::{
    AtomicOp, BlockCall, ConvOp, Inst, Op, Scalar, Shader, StorageClass, Type, TypeId, Value,
};

type R<T> = Result<T, InterpError>;

/// The byte distance between buffers mapped for physical pointers: buffer
/// k (in binding order, from 1) starts at k × 4 GiB, as the simulator maps
/// them.
pub const BUFFER_STRIDE: u64 = 1 << 32;

pub(crate) struct Cx<'w, 'a> {
    pub world: &'w mut World<'a>,
    pub inst: Inst,
    pub inv: u32,
}

impl Cx<'_, '_> {
    fn err_eval(&self, e: EvalErr) -> InterpError {
        let at = self.world.at(self.inst, self.inv);
        match e {
            EvalErr::Undefined(what) => InterpError::Undefined { at, what },
            EvalErr::Unsupported(what) => InterpError::Unsupported { at, what },
        }
    }

    fn unsupported(&self, what: impl Into<String>) -> InterpError {
        InterpError::Unsupported {
            at: self.world.at(self.inst, self.inv),
            what: what.into(),
        }
    }

    fn malformed(&self, what: impl Into<String>) -> InterpError {
        InterpError::Malformed {
            at: self.world.at(self.inst, self.inv),
            what: what.into(),
        }
    }

    fn layout_err(&self, e: LayoutErr, space: &str) -> InterpError {
        match e {
            LayoutErr::OutOfBounds { offset, size, len } => InterpError::OutOfBounds {
                at: self.world.at(self.inst, self.inv),
                space: space.into(),
                offset,
                size,
                len,
            },
            LayoutErr::Unsupported(what) => self.unsupported(what),
        }
    }
}

fn ty_scalar(shader: &Shader, ty: TypeId) -> Scalar {
    scalar_of(&shader.types[ty]).unwrap_or(Scalar::U32)
}

/// Executes `inst` for `lane` (invocation `inv`) and advances it.
pub(crate) fn exec(world: &mut World<'_>, lane: &mut Lane, inv: u32, inst: Inst) -> R<()> {
    let shader = world.shader;
    let data = &shader.insts[inst];
    let mut cx = Cx { world, inst, inv };
    let get = |v: Value| lane.vals[v.index()].clone();
    let vty = |v: Value| shader.values[v].ty;
    let result_ty = data.result.map(|r| shader.values[r].ty);
    let value: Option<Val> = match &data.op {
        Op::SampledImage { .. } | Op::ImageOf(_) | Op::Image(_) | Op::ImageTexelPointer { .. } => {
            return Err(cx.unsupported(
                "images, samplers and texel buffers (the interpreter has no texture unit)",
            ));
        }
        Op::Const(b) => Some(Val::S(*b)),
        Op::Undef => Some(layout::zero(shader, result_ty.unwrap_or(vty_any(shader)))),
        Op::Unary(op, a) => {
            let s = ty_scalar(shader, vty(*a));
            Some(map1(&get(*a), &mut |x| arith::unary(*op, s, x)).map_err(|e| cx.err_eval(e))?)
        }
        Op::Binary(op, a, b) => {
            let s = ty_scalar(shader, vty(*a));
            Some(
                map2(&get(*a), &get(*b), &mut |x, y| arith::binary(*op, s, x, y))
                    .map_err(|e| cx.err_eval(e))?,
            )
        }
        Op::Cmp(op, a, b) => {
            let s = ty_scalar(shader, vty(*a));
            Some(
                map2(&get(*a), &get(*b), &mut |x, y| {
                    Ok(u64::from(arith::cmp(*op, s, x, y)))
                })
                .map_err(|e| cx.err_eval(e))?,
            )
        }
        Op::Convert(op, a) => Some(convert(&mut cx, *op, *a, &get(*a), result_ty)?),
        Op::Select {
            cond,
            if_true,
            if_false,
        } => {
            let (c, t, f) = (get(*cond), get(*if_true), get(*if_false));
            Some(match (&c, &t, &f) {
                (Val::C(cs), Val::C(ts), Val::C(fs)) => Val::C(
                    cs.iter()
                        .zip(ts.iter().zip(fs))
                        .map(|(c, (t, f))| if c.bits() != 0 { t.clone() } else { f.clone() })
                        .collect(),
                ),
                _ => {
                    if c.bits() != 0 {
                        t
                    } else {
                        f
                    }
                }
            })
        }
        Op::CompositeConstruct(parts) => {
            let is_vector = matches!(
                result_ty.map(|t| &shader.types[t]),
                Some(Type::Vector { .. })
            );
            let mut out = Vec::new();
            for p in parts {
                match get(*p) {
                    Val::C(c) if is_vector => out.extend(c),
                    other => out.push(other),
                }
            }
            Some(Val::C(out))
        }
        Op::CompositeExtract { composite, indices } => {
            let mut v = get(*composite);
            for &i in indices {
                v = match v {
                    Val::C(mut c) if (i as usize) < c.len() => c.swap_remove(i as usize),
                    _ => return Err(cx.malformed(format!("extract index {i}"))),
                };
            }
            Some(v)
        }
        Op::CompositeInsert {
            object,
            composite,
            indices,
        } => {
            let mut v = get(*composite);
            let slot = path_mut(&mut v, indices.iter().map(|&i| u64::from(i)))
                .map_err(|(index, len)| cx.index_err(index, len))?;
            *slot = get(*object);
            Some(v)
        }
        Op::VectorShuffle { a, b, components } => {
            let (a, b) = (get(*a), get(*b));
            let (pa, pb) = (a.parts(), b.parts());
            Some(Val::C(
                components
                    .iter()
                    .map(|&c| {
                        let c = c as usize;
                        if c < pa.len() {
                            pa[c].clone()
                        } else {
                            pb.get(c - pa.len()).cloned().unwrap_or(Val::S(0))
                        }
                    })
                    .collect(),
            ))
        }
        Op::ExtractDynamic { vector, index } => {
            let v = get(*vector);
            let i = get(*index).bits();
            match v.parts().get(i as usize) {
                Some(e) => Some(e.clone()),
                None => return Err(cx.index_err(i, v.parts().len() as u64)),
            }
        }
        Op::InsertDynamic {
            vector,
            component,
            index,
        } => {
            let mut v = get(*vector);
            let i = get(*index).bits();
            let slot = path_mut(&mut v, [i]).map_err(|(index, len)| cx.index_err(index, len))?;
            *slot = get(*component);
            Some(v)
        }
        Op::CopyLogical(a) => Some(get(*a)),
        Op::VarAddr(gv) => Some(Val::P(var_ptr(cx.world, *gv))),
        Op::AccessChain { base, indices } => {
            let Val::P(p) = get(*base) else {
                return Err(cx.malformed("access chain on a non-pointer"));
            };
            let idx: Vec<u64> = indices
                .iter()
                .map(|i| index_value(shader, &lane.vals, *i))
                .collect();
            Some(Val::P(chain(&cx, p, &idx)?))
        }
        Op::PtrAccessChain {
            base,
            element,
            indices,
        } => {
            let Val::P(mut p) = get(*base) else {
                return Err(cx.malformed("access chain on a non-pointer"));
            };
            let e = index_value(shader, &lane.vals, *element) as i64;
            let stride = match &shader.types[vty(*base)] {
                Type::Pointer {
                    array_stride: Some(s),
                    ..
                } => u64::from(*s),
                _ => layout::size_of(shader, p.ty),
            };
            match &mut p.loc {
                Loc::Bytes(off) => *off = off.wrapping_add((e as u64).wrapping_mul(stride)),
                Loc::Path(_) => return Err(cx.unsupported("OpPtrAccessChain on a variable")),
            }
            let idx: Vec<u64> = indices
                .iter()
                .map(|i| index_value(shader, &lane.vals, *i))
                .collect();
            Some(Val::P(chain(&cx, p, &idx)?))
        }
        Op::Load { ptr } => {
            let Val::P(p) = get(*ptr) else {
                return Err(cx.malformed("load through a non-pointer"));
            };
            Some(load(&mut cx, lane, &p)?)
        }
        Op::Store { ptr, value } => {
            let Val::P(p) = get(*ptr) else {
                return Err(cx.malformed("store through a non-pointer"));
            };
            store(&mut cx, lane, &p, get(*value))?;
            None
        }
        Op::CopyMemory { dst, src } => {
            let (Val::P(d), Val::P(s)) = (get(*dst), get(*src)) else {
                return Err(cx.malformed("copy through a non-pointer"));
            };
            let v = load(&mut cx, lane, &s)?;
            store(&mut cx, lane, &d, v)?;
            None
        }
        Op::ArrayLength { ptr, member } => {
            let Val::P(p) = get(*ptr) else {
                return Err(cx.malformed("OpArrayLength of a non-pointer"));
            };
            Some(Val::S(array_length(&cx, &p, *member)?))
        }
        Op::Math(op, args) => {
            let vals: Vec<Val> = args.iter().map(|a| get(*a)).collect();
            let tys: Vec<TypeId> = args.iter().map(|a| vty(*a)).collect();
            Some(math::math(shader, *op, &vals, &tys).map_err(|e| cx.err_eval(e))?)
        }
        Op::Atomic { op, ptr, args } => {
            let Val::P(p) = get(*ptr) else {
                return Err(cx.malformed("atomic through a non-pointer"));
            };
            let vals: Vec<u64> = args.iter().map(|a| get(*a).bits()).collect();
            let old = load(&mut cx, lane, &p)?.bits();
            let s = ty_scalar(shader, p.ty);
            if let Some(new) = atomic(*op, s, old, &vals).map_err(|e| cx.err_eval(e))? {
                store(&mut cx, lane, &p, Val::S(new))?;
            }
            Some(Val::S(old))
        }
        Op::Subgroup(..) => return Err(cx.malformed("a subgroup op run for one invocation")),
        Op::SetMeshOutputs {
            vertex_count,
            primitive_count,
        } => {
            let counts = (get(*vertex_count).bits(), get(*primitive_count).bits());
            crate::draw::set_mesh_outputs(cx.world, inst, inv, counts)?;
            None
        }
        Op::EmitMeshTasks { x, y, z } => {
            let counts = [get(*x).bits(), get(*y).bits(), get(*z).bits()];
            crate::draw::emit_mesh_tasks(cx.world, inst, inv, counts)?;
            lane.state = State::Done;
            return Ok(());
        }
        Op::ControlBarrier => {
            lane.state = State::Barrier(inst);
            None
        }
        Op::MemoryBarrier => None,
        Op::Jump(call) => {
            jump(shader, lane, call);
            return Ok(());
        }
        Op::Branch {
            cond,
            then_dest,
            else_dest,
        } => {
            let call = if get(*cond).bits() != 0 {
                then_dest
            } else {
                else_dest
            };
            jump(shader, lane, call);
            return Ok(());
        }
        Op::Switch {
            selector,
            default,
            cases,
        } => {
            let s = get(*selector).bits();
            let call = cases
                .iter()
                .find(|(c, _)| *c == s)
                .map_or(default, |(_, call)| call);
            jump(shader, lane, call);
            return Ok(());
        }
        Op::Return => {
            lane.state = State::Done;
            return Ok(());
        }
        Op::Unreachable => {
            return Err(InterpError::Unreachable {
                at: cx.world.at(inst, inv),
            });
        }
    };
    if let (Some(r), Some(v)) = (data.result, value) {
        lane.vals[r.index()] = v;
    }
    lane.idx += 1;
    Ok(())
}

impl Cx<'_, '_> {
    fn index_err(&self, index: u64, len: u64) -> InterpError {
        InterpError::IndexOutOfRange {
            at: self.world.at(self.inst, self.inv),
            index,
            len,
        }
    }
}

/// Some type handle, for results without one (never read).
fn vty_any(shader: &Shader) -> TypeId {
    shader
        .types
        .keys()
        .next()
        .unwrap_or_else(|| TypeId::from_u32(0))
}

use cranelift_entity::EntityRef;

/// An index operand as a signed 64-bit number (access chains take signed
/// or unsigned indices of any width).
fn index_value(shader: &Shader, vals: &[Val], v: Value) -> u64 {
    let bits = vals[v.index()].bits();
    match scalar_of(&shader.types[shader.values[v].ty]) {
        Some(Scalar::Int {
            bits: w,
            signed: true,
        }) => crate::value::sext(bits, w) as u64,
        _ => bits,
    }
}

/// Moves `lane` to the start of `call`'s block; the parameters are
/// written after every argument is read (a parallel copy).
fn jump(shader: &Shader, lane: &mut Lane, call: &BlockCall) {
    let args: Vec<Val> = call
        .args
        .iter()
        .map(|a| lane.vals[a.index()].clone())
        .collect();
    for (p, a) in shader.blocks[call.block].params.iter().zip(args) {
        lane.vals[p.index()] = a;
    }
    lane.block = call.block;
    lane.idx = 0;
}

fn map1(a: &Val, f: &mut dyn FnMut(u64) -> arith::R) -> Result<Val, EvalErr> {
    Ok(match a {
        Val::C(c) => Val::C(c.iter().map(|e| map1(e, f)).collect::<Result<_, _>>()?),
        Val::S(x) => Val::S(f(*x)?),
        Val::P(p) => Val::P(p.clone()),
    })
}

fn map2(a: &Val, b: &Val, f: &mut dyn FnMut(u64, u64) -> arith::R) -> Result<Val, EvalErr> {
    Ok(match (a, b) {
        (Val::C(x), Val::C(y)) => Val::C(
            x.iter()
                .zip(y)
                .map(|(p, q)| map2(p, q, f))
                .collect::<Result<_, _>>()?,
        ),
        (Val::C(x), Val::S(_)) => {
            Val::C(x.iter().map(|p| map2(p, b, f)).collect::<Result<_, _>>()?)
        }
        (Val::S(_), Val::C(y)) => {
            Val::C(y.iter().map(|q| map2(a, q, f)).collect::<Result<_, _>>()?)
        }
        (Val::S(x), Val::S(y)) => Val::S(f(*x, *y)?),
        (Val::P(_), _) | (_, Val::P(_)) => Val::S(0),
    })
}

/// The element of `v` at `path`, or the failing (index, length).
fn path_mut(v: &mut Val, path: impl IntoIterator<Item = u64>) -> Result<&mut Val, (u64, u64)> {
    let mut cur = v;
    for i in path {
        cur = match cur {
            Val::C(c) => {
                let len = c.len() as u64;
                c.get_mut(i as usize).ok_or((i, len))?
            }
            Val::S(_) | Val::P(_) => return Err((i, 0)),
        };
    }
    Ok(cur)
}

fn path_get(v: &Val, path: &[u32]) -> Result<Val, (u64, u64)> {
    let mut cur = v;
    for &i in path {
        cur = match cur {
            Val::C(c) => c.get(i as usize).ok_or((u64::from(i), c.len() as u64))?,
            Val::S(_) | Val::P(_) => return Err((u64::from(i), 0)),
        };
    }
    Ok(cur.clone())
}

/// One access chain: byte offsets in laid-out memory, a path elsewhere.
fn chain(cx: &Cx<'_, '_>, mut p: Ptr, idx: &[u64]) -> R<Ptr> {
    let shader = cx.world.shader;
    for &i in idx {
        match &mut p.loc {
            Loc::Bytes(off) => {
                // Runtime-array indices may be anything; bounds are checked
                // at the access.
                let (delta, elem) =
                    layout::step(shader, p.ty, i).map_err(|e| cx.layout_err(e, "laid-out"))?;
                *off = off.wrapping_add(delta);
                p.ty = elem;
            }
            Loc::Path(path) => {
                let elem = layout::elem_type(shader, p.ty, i)
                    .ok_or_else(|| cx.malformed("access chain into a scalar"))?;
                let len = match &shader.types[p.ty] {
                    Type::Vector { len, .. } => u64::from(*len),
                    Type::Matrix { columns, .. } => u64::from(*columns),
                    Type::Array { len, .. } => u64::from(len.unwrap_or(u32::MAX)),
                    Type::Struct { members, .. } => members.len() as u64,
                    Type::Void
                    | Type::Scalar(_)
                    | Type::Pointer { .. }
                    | Type::Image(_)
                    | Type::Sampler
                    | Type::SampledImage { .. } => 0,
                };
                if i >= len {
                    return Err(cx.index_err(i, len));
                }
                path.push(i as u32);
                p.ty = elem;
            }
        }
    }
    Ok(p)
}

fn space_name(mem: Mem) -> String {
    match mem {
        Mem::Buffer(b) => format!("storage buffer {b}"),
        Mem::Uniform(b) => format!("uniform buffer {b}"),
        Mem::Push => "push constant".into(),
        Mem::Var(gv) => format!("variable {gv}"),
    }
}

fn var_slot<'l>(
    cx: &'l mut Cx<'_, '_>,
    lane: &'l mut Lane,
    gv: spvsass_frontend::ir::GlobalVar,
) -> R<&'l mut Val> {
    let shader = cx.world.shader;
    let class = shader.globals[gv].class;
    let count = scalar_count(shader, shader.globals[gv].ty);
    if count > cx.world.options.max_variable_scalars {
        return Err(cx.unsupported(format!(
            "a variable of {count} scalars (the bound is {})",
            cx.world.options.max_variable_scalars
        )));
    }
    let init = initial(cx.world, gv);
    let slot = match class {
        StorageClass::Workgroup | StorageClass::Output | StorageClass::TaskPayload => {
            &mut cx.world.shared[gv.index()]
        }
        StorageClass::Function | StorageClass::Private => &mut lane.vars[gv.index()],
        StorageClass::Input
        | StorageClass::StorageBuffer
        | StorageClass::Uniform
        | StorageClass::PushConstant
        | StorageClass::PhysicalStorageBuffer => {
            return Err(cx.unsupported(format!("{class:?} variables")));
        }
        StorageClass::UniformConstant | StorageClass::Image => {
            return Err(cx.unsupported(
                "images, samplers and texel buffers (the interpreter has no texture unit)",
            ));
        }
    };
    Ok(slot.get_or_insert(init))
}

fn load(cx: &mut Cx<'_, '_>, lane: &mut Lane, p: &Ptr) -> R<Val> {
    let shader = cx.world.shader;
    match (&p.loc, p.mem) {
        (Loc::Bytes(off), mem) => {
            let bytes: &[u8] = match mem {
                Mem::Buffer(b) => match cx.world.buffers.buffers.get(&b) {
                    Some(v) => v,
                    None => {
                        return Err(InterpError::Unbound {
                            at: cx.world.at(cx.inst, cx.inv),
                            binding: b,
                        });
                    }
                },
                Mem::Uniform(b) => match cx.world.buffers.uniforms.get(&b) {
                    Some(v) => v,
                    None => {
                        return Err(InterpError::UnboundUniform {
                            at: cx.world.at(cx.inst, cx.inv),
                            binding: b,
                        });
                    }
                },
                Mem::Push => &cx.world.buffers.push_constants,
                Mem::Var(_) => return Err(cx.malformed("a variable at a byte offset")),
            };
            layout::load(shader, bytes, *off, p.ty).map_err(|e| cx.layout_err(e, &space_name(mem)))
        }
        (Loc::Path(path), Mem::Var(gv)) => {
            if shader.globals[gv].class == StorageClass::Input {
                let b = shader.globals[gv]
                    .builtin
                    .ok_or_else(|| cx.unsupported("inputs other than built-ins"))?;
                let v = builtin(cx.world, b, cx.inv)
                    .ok_or_else(|| cx.unsupported(format!("built-in {b:?}")))?;
                return path_get(&v, path).map_err(|(i, l)| cx.index_err(i, l));
            }
            let slot = var_slot(cx, lane, gv)?;
            let v = path_get(slot, path);
            v.map_err(|(i, l)| cx.index_err(i, l))
        }
        (Loc::Path(_), Mem::Buffer(_) | Mem::Uniform(_) | Mem::Push) => {
            Err(cx.malformed("a buffer addressed by a path"))
        }
    }
}

fn store(cx: &mut Cx<'_, '_>, lane: &mut Lane, p: &Ptr, v: Val) -> R<()> {
    let shader = cx.world.shader;
    match (&p.loc, p.mem) {
        (Loc::Bytes(off), Mem::Buffer(b)) => {
            let Some(bytes) = cx.world.buffers.buffers.get_mut(&b) else {
                return Err(InterpError::Unbound {
                    at: cx.world.at(cx.inst, cx.inv),
                    binding: b,
                });
            };
            let r = layout::store(shader, bytes, *off, p.ty, &v);
            r.map_err(|e| cx.layout_err(e, &space_name(p.mem)))
        }
        (Loc::Bytes(_), Mem::Uniform(_) | Mem::Push | Mem::Var(_)) => {
            Err(cx.malformed("a store to read-only memory"))
        }
        (Loc::Path(path), Mem::Var(gv)) => {
            let slot = var_slot(cx, lane, gv)?;
            let r = path_mut(slot, path.iter().map(|&i| u64::from(i))).map(|s| *s = v);
            r.map_err(|(i, l)| cx.index_err(i, l))
        }
        (Loc::Path(_), Mem::Buffer(_) | Mem::Uniform(_) | Mem::Push) => {
            Err(cx.malformed("a buffer addressed by a path"))
        }
    }
}

fn array_length(cx: &Cx<'_, '_>, p: &Ptr, member: u32) -> R<u64> {
    let shader = cx.world.shader;
    let (Loc::Bytes(off), Mem::Buffer(b)) = (&p.loc, p.mem) else {
        return Err(cx.malformed("OpArrayLength outside a storage buffer"));
    };
    let len = cx
        .world
        .buffers
        .buffers
        .get(&b)
        .map_or(0, |v| v.len() as u64);
    let Type::Struct { members, .. } = &shader.types[p.ty] else {
        return Err(cx.malformed("OpArrayLength of a non-struct"));
    };
    let m = members
        .get(member as usize)
        .ok_or_else(|| cx.malformed("OpArrayLength member"))?;
    let Type::Array { elem, stride, .. } = &shader.types[m.ty] else {
        return Err(cx.malformed("OpArrayLength of a non-array"));
    };
    let stride = layout::array_stride(shader, *elem, *stride).max(1);
    let start = off + u64::from(m.offset.unwrap_or(0));
    Ok(len.saturating_sub(start) / stride)
}

/// The new value an atomic stores (`None`: none, a load).
fn atomic(op: AtomicOp, s: Scalar, old: u64, args: &[u64]) -> Result<Option<u64>, EvalErr> {
    use spvsass_frontend::ir::BinaryOp as B;
    let bits = match s {
        Scalar::Int { bits, .. } | Scalar::Float { bits } => bits,
        Scalar::Bool => 32,
    };
    let m = mask(bits);
    let arg = args.first().copied().unwrap_or(0);
    let bin = |b: B| arith::binary(b, s, old, arg);
    Ok(Some(match op {
        AtomicOp::Load => return Ok(None),
        AtomicOp::Store | AtomicOp::Exchange => arg,
        AtomicOp::CompareExchange => {
            if old == args.get(1).copied().unwrap_or(0) {
                arg
            } else {
                return Ok(None);
            }
        }
        AtomicOp::IIncrement => old.wrapping_add(1) & m,
        AtomicOp::IDecrement => old.wrapping_sub(1) & m,
        AtomicOp::IAdd => bin(B::IAdd)?,
        AtomicOp::ISub => bin(B::ISub)?,
        AtomicOp::SMin => bin(B::SMin)?,
        AtomicOp::UMin => bin(B::UMin)?,
        AtomicOp::SMax => bin(B::SMax)?,
        AtomicOp::UMax => bin(B::UMax)?,
        AtomicOp::And => bin(B::And)?,
        AtomicOp::Or => bin(B::Or)?,
        AtomicOp::Xor => bin(B::Xor)?,
        AtomicOp::FAdd => bin(B::FAdd)?,
        AtomicOp::FMin => bin(B::FMin)?,
        AtomicOp::FMax => bin(B::FMax)?,
    }))
}

/// Conversions, including bitcasts between shapes and pointer casts.
fn convert(cx: &mut Cx<'_, '_>, op: ConvOp, a: Value, v: &Val, result: Option<TypeId>) -> R<Val> {
    let shader = cx.world.shader;
    let from_ty = shader.values[a].ty;
    let Some(to_ty) = result else {
        return Err(cx.malformed("a conversion without a result"));
    };
    match op {
        ConvOp::UToPtr => {
            let addr = v.bits();
            let Type::Pointer { class, pointee, .. } = &shader.types[to_ty] else {
                return Err(cx.malformed("OpConvertUToPtr to a non-pointer"));
            };
            let k = addr / BUFFER_STRIDE;
            let binding = k
                .checked_sub(1)
                .and_then(|i| cx.world.buffers.buffers.keys().nth(i as usize).copied())
                .ok_or_else(|| cx.unsupported(format!("address {addr:#x} maps no buffer")))?;
            return Ok(Val::P(Ptr {
                mem: Mem::Buffer(binding),
                class: *class,
                ty: *pointee,
                loc: Loc::Bytes(addr % BUFFER_STRIDE),
            }));
        }
        ConvOp::PtrToU => {
            let Val::P(Ptr {
                mem: Mem::Buffer(b),
                loc: Loc::Bytes(off),
                ..
            }) = v
            else {
                return Err(cx.unsupported("OpConvertPtrToU of a non-buffer pointer"));
            };
            let k = cx
                .world
                .buffers
                .buffers
                .keys()
                .position(|x| x == b)
                .unwrap_or(0) as u64
                + 1;
            return Ok(Val::S(k * BUFFER_STRIDE + off));
        }
        ConvOp::Bitcast => {
            if let (Val::P(_), Type::Pointer { .. }) = (v, &shader.types[to_ty]) {
                return Ok(v.clone());
            }
            return bitcast(cx, v, from_ty, to_ty);
        }
        ConvOp::UToF
        | ConvOp::SToF
        | ConvOp::FToU
        | ConvOp::FToS
        | ConvOp::FToF
        | ConvOp::UConvert
        | ConvOp::SConvert => {}
    }
    let from = ty_scalar(shader, from_ty);
    let to = ty_scalar(shader, to_ty);
    map1(v, &mut |x| arith::convert(op, from, to, x)).map_err(|e| cx.err_eval(e))
}

fn bitcast(cx: &Cx<'_, '_>, v: &Val, from: TypeId, to: TypeId) -> R<Val> {
    let shader = cx.world.shader;
    let width = |t: TypeId| -> Option<(u8, usize, bool)> {
        match &shader.types[t] {
            Type::Scalar(s) => Some(((s.size() * 8) as u8, 1, false)),
            Type::Vector { scalar, len } => {
                Some(((scalar.size() * 8) as u8, usize::from(*len), true))
            }
            _ => None,
        }
    };
    let (Some((fw, _, _)), Some((tw, tn, tvec))) = (width(from), width(to)) else {
        return Err(cx.unsupported("OpBitcast of a composite"));
    };
    let comps: Vec<u64> = match v {
        Val::C(c) => c.iter().map(Val::bits).collect(),
        Val::S(b) => vec![*b],
        Val::P(_) => return Err(cx.unsupported("OpBitcast of a pointer")),
    };
    let mut acc: u128 = 0;
    for (i, c) in comps.iter().enumerate() {
        acc |= u128::from(c & mask(fw)) << (i * usize::from(fw));
    }
    let out: Vec<Val> = (0..tn)
        .map(|i| Val::S(((acc >> (i * usize::from(tw))) as u64) & mask(tw)))
        .collect();
    Ok(if tvec {
        Val::C(out)
    } else {
        out.into_iter().next().unwrap_or(Val::S(0))
    })
}
