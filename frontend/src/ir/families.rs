//! The operation families that take a variable number of operands:
//! [`MathOp`] (GLSL.std.450 and the SPIR-V arithmetic without a one- or
//! two-operand form), [`AtomicOp`] and [`SubgroupOp`]. Each names the
//! operation; the operands are in the `Op` that carries it.

/// Arithmetic beyond `UnaryOp` / `BinaryOp` / `CmpOp`: the rest of
/// GLSL.std.450 plus the SPIR-V instructions on vectors and matrices, bit
/// fields and extended results. Operands are in SPIR-V order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MathOp {
    // GLSL.std.450, one operand unless noted.
    SAbs,
    FSign,
    SSign,
    Radians,
    Degrees,
    Tan,
    Asin,
    Acos,
    Atan,
    Sinh,
    Cosh,
    Tanh,
    Asinh,
    Acosh,
    Atanh,
    /// Two operands: y, x.
    Atan2,
    /// Two operands.
    Pow,
    Exp,
    Log,
    Determinant,
    MatrixInverse,
    /// A struct {fraction, whole part}.
    ModfStruct,
    /// A struct {significand, exponent}.
    FrexpStruct,
    /// Two operands: x, exponent.
    Ldexp,
    /// Three operands: x, min, max.
    FClamp,
    UClamp,
    SClamp,
    /// FClamp that returns the non-NaN operand of min/max.
    NClamp,
    /// Three operands: x, y, a.
    FMix,
    /// Two operands: edge, x.
    Step,
    /// Three operands: edge0, edge1, x.
    SmoothStep,
    /// Three operands: a * b + c, fused.
    Fma,
    PackSnorm4x8,
    PackUnorm4x8,
    PackSnorm2x16,
    PackUnorm2x16,
    PackHalf2x16,
    PackDouble2x32,
    UnpackSnorm2x16,
    UnpackUnorm2x16,
    UnpackHalf2x16,
    UnpackSnorm4x8,
    UnpackUnorm4x8,
    UnpackDouble2x32,
    Length,
    /// Two operands.
    Distance,
    /// Two operands.
    Cross,
    Normalize,
    /// Three operands: N, I, Nref.
    FaceForward,
    /// Two operands: I, N.
    Reflect,
    /// Three operands: I, N, eta.
    Refract,
    FindILsb,
    FindSMsb,
    FindUMsb,
    /// NaN-aware minimum and maximum (two operands): the non-NaN operand.
    NMin,
    NMax,
    // SPIR-V core.
    /// Two operands.
    Dot,
    IsNan,
    IsInf,
    QuantizeToF16,
    /// OpAny / OpAll over a boolean vector.
    Any,
    All,
    /// Four operands: base, insert, offset, count.
    BitFieldInsert,
    /// Three operands: base, offset, count.
    BitFieldSExtract,
    BitFieldUExtract,
    /// Two operands; a struct {low result, carry / borrow / high half}.
    IAddCarry,
    ISubBorrow,
    UMulExtended,
    SMulExtended,
    Transpose,
    /// Two operands: column vector, row vector.
    OuterProduct,
    /// Two operands, in SPIR-V order (matrix first except VectorTimesMatrix).
    MatrixTimesScalar,
    MatrixTimesVector,
    VectorTimesMatrix,
    MatrixTimesMatrix,
}

impl MathOp {
    /// How many operands the op takes.
    pub fn arity(self) -> usize {
        use MathOp::*;
        match self {
            BitFieldInsert => 4,
            FClamp | UClamp | SClamp | NClamp | FMix | SmoothStep | Fma | FaceForward | Refract
            | BitFieldSExtract | BitFieldUExtract => 3,
            Atan2 | Pow | Ldexp | Step | Distance | Cross | Reflect | NMin | NMax | Dot
            | IAddCarry | ISubBorrow | UMulExtended | SMulExtended | OuterProduct
            | MatrixTimesScalar | MatrixTimesVector | VectorTimesMatrix | MatrixTimesMatrix => 2,
            _ => 1,
        }
    }
}

/// An atomic read-modify-write (or load, or store) on the memory a pointer
/// names. Operands after the pointer: `Store`, `Exchange` and the
/// arithmetic ones take the value; `CompareExchange` takes the value then
/// the comparator; `Load`, `IIncrement` and `IDecrement` take none. Every
/// op but `Store` returns the memory's previous value (`Load`: its value).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomicOp {
    Load,
    Store,
    Exchange,
    CompareExchange,
    IIncrement,
    IDecrement,
    IAdd,
    ISub,
    SMin,
    UMin,
    SMax,
    UMax,
    And,
    Or,
    Xor,
    FAdd,
    FMin,
    FMax,
}

impl AtomicOp {
    /// How many operands follow the pointer.
    pub fn value_operands(self) -> usize {
        match self {
            AtomicOp::Load | AtomicOp::IIncrement | AtomicOp::IDecrement => 0,
            AtomicOp::CompareExchange => 2,
            _ => 1,
        }
    }
}

/// How a subgroup arithmetic op combines the invocations' values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GroupOperation {
    Reduce,
    InclusiveScan,
    ExclusiveScan,
    /// A reduction within clusters; the cluster size is the last operand.
    ClusteredReduce,
}

/// The combining operation of a subgroup reduction or scan.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReduceOp {
    IAdd,
    FAdd,
    IMul,
    FMul,
    SMin,
    UMin,
    FMin,
    SMax,
    UMax,
    FMax,
    And,
    Or,
    Xor,
    LogicalAnd,
    LogicalOr,
    LogicalXor,
}

/// OpGroupNonUniform* with subgroup scope. Operands are in SPIR-V order
/// after the scope (and after the group operation, which the op carries).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SubgroupOp {
    /// No operands.
    Elect,
    All,
    Any,
    AllEqual,
    /// A `u32x4` mask of the invocations whose predicate is true.
    Ballot,
    InverseBallot,
    /// Operands: ballot, invocation index.
    BallotBitExtract,
    BallotBitCount(GroupOperation),
    BallotFindLsb,
    BallotFindMsb,
    /// Operands: value, invocation id.
    Broadcast,
    BroadcastFirst,
    /// Operands: value, invocation id / mask / delta.
    Shuffle,
    ShuffleXor,
    ShuffleUp,
    ShuffleDown,
    Arithmetic(ReduceOp, GroupOperation),
    /// Operands: value, index within the quad.
    QuadBroadcast,
    /// Operands: value, direction (0 horizontal, 1 vertical, 2 diagonal).
    QuadSwap,
}

impl SubgroupOp {
    /// How many operands the op takes.
    pub fn arity(self) -> usize {
        use SubgroupOp::*;
        match self {
            Elect => 0,
            BallotBitExtract | Broadcast | Shuffle | ShuffleXor | ShuffleUp | ShuffleDown
            | QuadBroadcast | QuadSwap => 2,
            Arithmetic(_, GroupOperation::ClusteredReduce) => 2,
            _ => 1,
        }
    }
}
