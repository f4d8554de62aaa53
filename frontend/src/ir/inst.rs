//! Instructions of the IR: one `Op` variant per operation, operands are SSA
//! values. Terminators carry their successors with block arguments (the IR's
//! phis), which is also what regalloc2 wants later.

use super::families::{AtomicOp, MathOp, SubgroupOp};
use super::types::TypeId;
use super::{Block, GlobalVar, Value};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    INeg,
    FNeg,
    Not,
    LogicalNot,
    BitCount,
    BitReverse,
    FAbs,
    FFloor,
    FCeil,
    FTrunc,
    FRound,
    FFract,
    FSqrt,
    FRsqrt,
    FExp2,
    FLog2,
    FSin,
    FCos,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    IAdd,
    ISub,
    IMul,
    UDiv,
    SDiv,
    UMod,
    SRem,
    SMod,
    FAdd,
    FSub,
    FMul,
    FDiv,
    FRem,
    FMod,
    And,
    Or,
    Xor,
    Shl,
    ShrLogical,
    ShrArithmetic,
    LogicalAnd,
    LogicalOr,
    UMin,
    UMax,
    SMin,
    SMax,
    FMin,
    FMax,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    IEq,
    INe,
    ULt,
    ULe,
    UGt,
    UGe,
    SLt,
    SLe,
    SGt,
    SGe,
    /// Ordered float comparisons (false when either side is NaN).
    FOrdEq,
    FOrdNe,
    FOrdLt,
    FOrdLe,
    FOrdGt,
    FOrdGe,
    /// Unordered float comparisons (true when either side is NaN).
    FUnordEq,
    FUnordNe,
    FUnordLt,
    FUnordLe,
    FUnordGt,
    FUnordGe,
    LogicalEq,
    LogicalNe,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ConvOp {
    /// Unsigned integer to float.
    UToF,
    SToF,
    FToU,
    FToS,
    FToF,
    /// Integer width change, zero- or sign-extending by the source signedness.
    UConvert,
    SConvert,
    Bitcast,
    /// OpConvertUToPtr: an integer address to a PhysicalStorageBuffer pointer.
    UToPtr,
    /// OpConvertPtrToU: a PhysicalStorageBuffer pointer to its address.
    PtrToU,
}

/// A jump target with the values passed to the target block's parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockCall {
    pub block: Block,
    pub args: Vec<Value>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    /// A scalar constant: the raw bits, zero-extended to 64.
    Const(u64),
    Undef,
    Unary(UnaryOp, Value),
    Binary(BinaryOp, Value, Value),
    Cmp(CmpOp, Value, Value),
    Convert(ConvOp, Value),
    Select {
        cond: Value,
        if_true: Value,
        if_false: Value,
    },
    CompositeConstruct(Vec<Value>),
    CompositeExtract {
        composite: Value,
        indices: Vec<u32>,
    },
    CompositeInsert {
        object: Value,
        composite: Value,
        indices: Vec<u32>,
    },
    VectorShuffle {
        a: Value,
        b: Value,
        components: Vec<u32>,
    },
    /// The address of a module-level or function-local variable.
    VarAddr(GlobalVar),
    /// OpAccessChain / OpInBoundsAccessChain.
    AccessChain {
        base: Value,
        indices: Vec<Value>,
    },
    /// OpPtrAccessChain: `base` points into an array; `element` steps
    /// over whole elements of it, then `indices` walk into the element.
    PtrAccessChain {
        base: Value,
        element: Value,
        indices: Vec<Value>,
    },
    /// OpVectorExtractDynamic.
    ExtractDynamic {
        vector: Value,
        index: Value,
    },
    /// OpVectorInsertDynamic.
    InsertDynamic {
        vector: Value,
        component: Value,
        index: Value,
    },
    /// OpCopyLogical: the same value, as a type that differs from the
    /// operand's only in its layout decorations.
    CopyLogical(Value),
    /// Alignment memory operands are checked and dropped: the IR's
    /// pointers carry their type, from which the backend knows the layout.
    Load {
        ptr: Value,
    },
    Store {
        ptr: Value,
        value: Value,
    },
    /// OpCopyMemory: `*dst = *src`, of pointee types that `copyable`
    /// accepts: one type, or (a fused OpLoad/OpStore of a large array,
    /// `translate/fuse_copy.rs`) arrays of one element type whose strides
    /// differ.
    CopyMemory {
        dst: Value,
        src: Value,
    },
    /// OpArrayLength: the element count of the runtime array that is
    /// member `member` of the struct `ptr` points to.
    ArrayLength {
        ptr: Value,
        member: u32,
    },
    Math(MathOp, Vec<Value>),
    Atomic {
        op: AtomicOp,
        ptr: Value,
        args: Vec<Value>,
    },
    /// Subgroup scope only; the op is convergent: it must not be moved
    /// into or out of control flow.
    Subgroup(SubgroupOp, Vec<Value>),
    SetMeshOutputs {
        vertex_count: Value,
        primitive_count: Value,
    },
    ControlBarrier,
    MemoryBarrier,
    /// OpSampledImage: the image handle's texture bits with the sampler
    /// handle's sampler bits (docs/ABI.md, "Descriptor sets").
    SampledImage {
        image: Value,
        sampler: Value,
    },
    /// OpImage: the image of a sampled image (the same handle).
    ImageOf(Value),
    /// The image instructions (`image.rs`).
    Image(Box<super::image::ImageInst>),
    /// OpImageTexelPointer: the texel at `coord` (and `sample`) of the
    /// storage image variable `image` points to, for atomics.
    ImageTexelPointer {
        image: Value,
        coord: Value,
        sample: Value,
    },
    // Terminators.
    Jump(BlockCall),
    Branch {
        cond: Value,
        then_dest: BlockCall,
        else_dest: BlockCall,
    },
    /// OpSwitch: the case whose literal equals `selector` (compared as the
    /// selector's width, zero-extended here), else `default`.
    Switch {
        selector: Value,
        default: BlockCall,
        cases: Vec<(u64, BlockCall)>,
    },
    Return,
    /// EmitMeshTasksEXT: ends the task shader.
    EmitMeshTasks {
        x: Value,
        y: Value,
        z: Value,
    },
    /// OpUnreachable / OpKill-like ends with no successor.
    Unreachable,
}

impl Op {
    pub fn is_terminator(&self) -> bool {
        matches!(
            self,
            Op::Jump(_)
                | Op::Branch { .. }
                | Op::Switch { .. }
                | Op::Return
                | Op::EmitMeshTasks { .. }
                | Op::Unreachable
        )
    }

    /// Calls `f` on every value operand, in a fixed order.
    pub fn for_each_arg(&self, mut f: impl FnMut(Value)) {
        match self {
            Op::Const(_) | Op::Undef | Op::VarAddr(_) | Op::Return | Op::Unreachable => {}
            Op::ControlBarrier | Op::MemoryBarrier => {}
            Op::Unary(_, a) | Op::Convert(_, a) => f(*a),
            Op::Binary(_, a, b) | Op::Cmp(_, a, b) => {
                f(*a);
                f(*b)
            }
            Op::Select {
                cond,
                if_true,
                if_false,
            } => {
                f(*cond);
                f(*if_true);
                f(*if_false)
            }
            Op::CompositeConstruct(vals) => vals.iter().copied().for_each(f),
            Op::CompositeExtract { composite, .. } => f(*composite),
            Op::CompositeInsert {
                object, composite, ..
            } => {
                f(*object);
                f(*composite)
            }
            Op::VectorShuffle { a, b, .. } => {
                f(*a);
                f(*b)
            }
            Op::AccessChain { base, indices } => {
                f(*base);
                indices.iter().copied().for_each(f)
            }
            Op::Load { ptr } => f(*ptr),
            Op::PtrAccessChain {
                base,
                element,
                indices,
            } => {
                f(*base);
                f(*element);
                indices.iter().copied().for_each(f)
            }
            Op::ExtractDynamic { vector, index } => {
                f(*vector);
                f(*index)
            }
            Op::InsertDynamic {
                vector,
                component,
                index,
            } => {
                f(*vector);
                f(*component);
                f(*index)
            }
            Op::CopyLogical(a) | Op::ImageOf(a) => f(*a),
            Op::SampledImage { image, sampler } => {
                f(*image);
                f(*sampler)
            }
            Op::Image(i) => i.args().for_each(f),
            Op::ImageTexelPointer {
                image,
                coord,
                sample,
            } => {
                f(*image);
                f(*coord);
                f(*sample)
            }
            Op::CopyMemory { dst, src } => {
                f(*dst);
                f(*src)
            }
            Op::ArrayLength { ptr, .. } => f(*ptr),
            Op::Math(_, args) | Op::Subgroup(_, args) => args.iter().copied().for_each(f),
            Op::Atomic { ptr, args, .. } => {
                f(*ptr);
                args.iter().copied().for_each(f)
            }
            Op::Switch {
                selector,
                default,
                cases,
            } => {
                f(*selector);
                default.args.iter().copied().for_each(&mut f);
                for (_, call) in cases {
                    call.args.iter().copied().for_each(&mut f);
                }
            }
            Op::Store { ptr, value } => {
                f(*ptr);
                f(*value)
            }
            Op::SetMeshOutputs {
                vertex_count,
                primitive_count,
            } => {
                f(*vertex_count);
                f(*primitive_count)
            }
            Op::Jump(call) => call.args.iter().copied().for_each(f),
            Op::Branch {
                cond,
                then_dest,
                else_dest,
            } => {
                f(*cond);
                then_dest.args.iter().copied().for_each(&mut f);
                else_dest.args.iter().copied().for_each(f)
            }
            Op::EmitMeshTasks { x, y, z } => {
                f(*x);
                f(*y);
                f(*z)
            }
        }
    }

    /// Calls `f` on every value operand, in the order of `for_each_arg`,
    /// letting it replace the operand (to rewrite uses of a value).
    pub fn for_each_arg_mut(&mut self, mut f: impl FnMut(&mut Value)) {
        match self {
            Op::Const(_) | Op::Undef | Op::VarAddr(_) | Op::Return | Op::Unreachable => {}
            Op::ControlBarrier | Op::MemoryBarrier => {}
            Op::Unary(_, a) | Op::Convert(_, a) => f(a),
            Op::Binary(_, a, b) | Op::Cmp(_, a, b) => {
                f(a);
                f(b)
            }
            Op::Select {
                cond,
                if_true,
                if_false,
            } => {
                f(cond);
                f(if_true);
                f(if_false)
            }
            Op::CompositeConstruct(vals) => vals.iter_mut().for_each(f),
            Op::CompositeExtract { composite, .. } => f(composite),
            Op::CompositeInsert {
                object, composite, ..
            } => {
                f(object);
                f(composite)
            }
            Op::VectorShuffle { a, b, .. } => {
                f(a);
                f(b)
            }
            Op::AccessChain { base, indices } => {
                f(base);
                indices.iter_mut().for_each(f)
            }
            Op::Load { ptr } => f(ptr),
            Op::PtrAccessChain {
                base,
                element,
                indices,
            } => {
                f(base);
                f(element);
                indices.iter_mut().for_each(f)
            }
            Op::ExtractDynamic { vector, index } => {
                f(vector);
                f(index)
            }
            Op::InsertDynamic {
                vector,
                component,
                index,
            } => {
                f(vector);
                f(component);
                f(index)
            }
            Op::CopyLogical(a) | Op::ImageOf(a) => f(a),
            Op::SampledImage { image, sampler } => {
                f(image);
                f(sampler)
            }
            Op::Image(i) => i.args_mut().for_each(f),
            Op::ImageTexelPointer {
                image,
                coord,
                sample,
            } => {
                f(image);
                f(coord);
                f(sample)
            }
            Op::CopyMemory { dst, src } => {
                f(dst);
                f(src)
            }
            Op::ArrayLength { ptr, .. } => f(ptr),
            Op::Math(_, args) | Op::Subgroup(_, args) => args.iter_mut().for_each(f),
            Op::Atomic { ptr, args, .. } => {
                f(ptr);
                args.iter_mut().for_each(f)
            }
            Op::Switch {
                selector,
                default,
                cases,
            } => {
                f(selector);
                default.args.iter_mut().for_each(&mut f);
                for (_, call) in cases {
                    call.args.iter_mut().for_each(&mut f);
                }
            }
            Op::Store { ptr, value } => {
                f(ptr);
                f(value)
            }
            Op::SetMeshOutputs {
                vertex_count,
                primitive_count,
            } => {
                f(vertex_count);
                f(primitive_count)
            }
            Op::Jump(call) => call.args.iter_mut().for_each(f),
            Op::Branch {
                cond,
                then_dest,
                else_dest,
            } => {
                f(cond);
                then_dest.args.iter_mut().for_each(&mut f);
                else_dest.args.iter_mut().for_each(f)
            }
            Op::EmitMeshTasks { x, y, z } => {
                f(x);
                f(y);
                f(z)
            }
        }
    }

    /// The successor blocks of a terminator, in order.
    pub fn successors(&self) -> Vec<Block> {
        match self {
            Op::Jump(call) => vec![call.block],
            Op::Branch {
                then_dest,
                else_dest,
                ..
            } => vec![then_dest.block, else_dest.block],
            Op::Switch { default, cases, .. } => std::iter::once(default.block)
                .chain(cases.iter().map(|(_, c)| c.block))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// The jumps of a terminator, to fill in or rewrite their arguments.
    pub fn block_calls_mut(&mut self) -> Vec<&mut BlockCall> {
        match self {
            Op::Jump(call) => vec![call],
            Op::Branch {
                then_dest,
                else_dest,
                ..
            } => vec![then_dest, else_dest],
            Op::Switch { default, cases, .. } => std::iter::once(default)
                .chain(cases.iter_mut().map(|(_, c)| c))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// The jumps of a terminator.
    pub fn block_calls(&self) -> Vec<&BlockCall> {
        match self {
            Op::Jump(call) => vec![call],
            Op::Branch {
                then_dest,
                else_dest,
                ..
            } => vec![then_dest, else_dest],
            Op::Switch { default, cases, .. } => std::iter::once(default)
                .chain(cases.iter().map(|(_, c)| c))
                .collect(),
            _ => Vec::new(),
        }
    }
}

/// One instruction: its op, its result (if any) and where it came from.
#[derive(Clone, Debug)]
pub struct InstData {
    pub op: Op,
    pub result: Option<Value>,
    /// The SPIR-V result id (or, for result-less instructions, the id of the
    /// nearest named operand) kept for error messages.
    pub spirv_id: Option<u32>,
}

/// How a value came to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueDef {
    Inst(super::Inst),
    /// The n-th parameter of a block.
    Param(Block, u32),
}

#[derive(Clone, Copy, Debug)]
pub struct ValueData {
    pub ty: TypeId,
    pub def: ValueDef,
}
