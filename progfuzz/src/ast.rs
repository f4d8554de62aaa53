//! The generated programs: a small typed AST of GLSL compute, task and mesh
//! shaders that the generator builds, the printer writes and the reducer
//! shrinks.

/// Value types of variables and expressions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    U8,
    I8,
    U16,
    I16,
    U32,
    I32,
    U64,
    I64,
    F32,
    F64,
    Bool,
    /// uvec2
    UV2,
    /// ivec3
    IV3,
    /// vec4
    V4,
}

impl Ty {
    pub const ALL: [Ty; 14] = [
        Ty::U8,
        Ty::I8,
        Ty::U16,
        Ty::I16,
        Ty::U32,
        Ty::I32,
        Ty::U64,
        Ty::I64,
        Ty::F32,
        Ty::F64,
        Ty::Bool,
        Ty::UV2,
        Ty::IV3,
        Ty::V4,
    ];
    /// The scalar types: the integers, the floats and bool (the head of
    /// [`Ty::ALL`]).
    pub const SCALARS: &'static [Ty] = Ty::ALL.split_at(11).0;
    /// The scalar integer types, 8 to 64 bits (the head of [`Ty::ALL`]).
    pub const INTEGERS: &'static [Ty] = Ty::ALL.split_at(8).0;

    /// Scalar integer types.
    pub fn is_int(self) -> bool {
        matches!(
            self,
            Ty::U8 | Ty::I8 | Ty::U16 | Ty::I16 | Ty::U32 | Ty::I32 | Ty::U64 | Ty::I64
        )
    }

    pub fn is_float(self) -> bool {
        matches!(self, Ty::F32 | Ty::F64)
    }

    pub fn is_signed(self) -> bool {
        matches!(self, Ty::I8 | Ty::I16 | Ty::I32 | Ty::I64 | Ty::IV3)
    }

    /// Bits of a scalar integer or float (vector: of a component).
    pub fn width(self) -> u32 {
        match self {
            Ty::U8 | Ty::I8 => 8,
            Ty::U16 | Ty::I16 => 16,
            Ty::U32 | Ty::I32 | Ty::F32 | Ty::Bool | Ty::UV2 | Ty::IV3 | Ty::V4 => 32,
            Ty::U64 | Ty::I64 | Ty::F64 => 64,
        }
    }

    /// Components of a vector (1 for scalars).
    pub fn lanes(self) -> u32 {
        match self {
            Ty::UV2 => 2,
            Ty::IV3 => 3,
            Ty::V4 => 4,
            Ty::U8
            | Ty::I8
            | Ty::U16
            | Ty::I16
            | Ty::U32
            | Ty::I32
            | Ty::U64
            | Ty::I64
            | Ty::F32
            | Ty::F64
            | Ty::Bool => 1,
        }
    }

    /// The component type of a vector.
    pub fn elem(self) -> Ty {
        match self {
            Ty::UV2 => Ty::U32,
            Ty::IV3 => Ty::I32,
            Ty::V4 => Ty::F32,
            other => other,
        }
    }

    pub fn glsl(self) -> &'static str {
        match self {
            Ty::U8 => "uint8_t",
            Ty::I8 => "int8_t",
            Ty::U16 => "uint16_t",
            Ty::I16 => "int16_t",
            Ty::U32 => "uint",
            Ty::I32 => "int",
            Ty::U64 => "uint64_t",
            Ty::I64 => "int64_t",
            Ty::F32 => "float",
            Ty::F64 => "double",
            Ty::Bool => "bool",
            Ty::UV2 => "uvec2",
            Ty::IV3 => "ivec3",
            Ty::V4 => "vec4",
        }
    }

    /// A short name for helper functions.
    pub fn tag(self) -> &'static str {
        match self {
            Ty::U8 => "u8",
            Ty::I8 => "i8",
            Ty::U16 => "u16",
            Ty::I16 => "i16",
            Ty::U32 => "u32",
            Ty::I32 => "i32",
            Ty::U64 => "u64",
            Ty::I64 => "i64",
            Ty::F32 => "f32",
            Ty::F64 => "f64",
            Ty::Bool => "b",
            Ty::UV2 => "uv2",
            Ty::IV3 => "iv3",
            Ty::V4 => "v4",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    BitNot,
    Abs,
    Not,
    Floor,
    Ceil,
    Trunc,
    Fract,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    And,
    Or,
    Xor,
    Shl,
    Shr,
    Min,
    Max,
    LAnd,
    LOr,
    LXor,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOp {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// A variable of the enclosing function.
    Var(u32),
    /// A loop counter (uint).
    Counter(u32),
    /// The literal's bits (floats: of the f64 value).
    Lit(Ty, u64),
    Un(UnOp, Ty, Box<Expr>),
    /// The type is the operands' (and result's).
    Bin(BinOp, Ty, Box<Expr>, Box<Expr>),
    /// The operands' type; the result is bool.
    Cmp(CmpOp, Ty, Box<Expr>, Box<Expr>),
    /// To, from.
    Conv(Ty, Ty, Box<Expr>),
    Select(Ty, Box<Expr>, Box<Expr>, Box<Expr>),
    /// An element of a uint array of the function (the index is clamped).
    Arr(u32, Box<Expr>),
    /// Component of a vector.
    Comp(Ty, Box<Expr>, u8),
    /// A vector of one scalar.
    Splat(Ty, Box<Expr>),
    /// A call of helper function n.
    Call(u32, Vec<Expr>),
    /// gl_LocalInvocationIndex.
    Lid,
    /// Input word `inp[gid * 8 + n]` (main only).
    Input(u32),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomOp {
    Add,
    Or,
    Xor,
    And,
    Min,
    Max,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SgOp {
    Add,
    Min,
    Max,
    And,
    Or,
    Xor,
    InclusiveAdd,
    ExclusiveAdd,
    BroadcastFirst,
    /// subgroupBallot(e != 0).x
    Ballot,
    /// subgroupElect()
    Elect,
    /// subgroupAll(e != 0)
    All,
    /// subgroupAny(e != 0)
    Any,
    /// subgroupShuffleXor(e, mask): full subgroups only.
    ShuffleXor(u32),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    Assign(u32, Expr),
    ArrStore(u32, Expr, Expr),
    If(Expr, Vec<Stmt>, Vec<Stmt>),
    /// `for (uint iN = 0u; iN < n; iN++)`.
    Loop(u32, u32, Vec<Stmt>),
    /// `if (cond) break;`
    Break(Expr),
    /// `if (cond) continue;`
    Continue(Expr),
    /// Selector (uint), cases (label, body, falls through), default.
    Switch(Expr, Vec<(u32, Vec<Stmt>, bool)>, Vec<Stmt>),
    /// `if (cond) return value;` (helper functions only).
    Return(Expr, Expr),
    /// An atomic on the shared counter buffer; the result is not used.
    Atomic(AtomOp, Expr, Expr),
    /// Through workgroup shared memory, between barriers: every invocation
    /// writes its slot, then reads the slot `rot` further (main, top level).
    Shared(u32, Expr, u32),
    /// A uint variable gets a subgroup operation of a uint expression.
    Subgroup(u32, SgOp, Expr),
}

/// A function: main (index u32::MAX) or a helper.
#[derive(Clone, Debug, PartialEq)]
pub struct Func {
    /// Parameter types (the first variables).
    pub params: Vec<Ty>,
    /// Every variable's type, parameters first.
    pub vars: Vec<Ty>,
    /// Initial values of the non-parameter variables.
    pub inits: Vec<Expr>,
    /// How many `uint aN[8]` arrays it has.
    pub arrays: u32,
    pub body: Vec<Stmt>,
    /// Helpers: the return type and the final return value.
    pub ret: Option<(Ty, Expr)>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    pub size: [u32; 3],
    pub groups: u32,
    pub helpers: Vec<Func>,
    pub main: Func,
    pub stage: Stage,
}

/// What kind of shader a program is.
#[derive(Clone, Debug, PartialEq)]
pub enum Stage {
    Compute,
    Mesh(MeshShape),
    /// A task shader and the mesh shader it launches.
    Task(TaskShape),
}

/// A mesh shader's output declaration and what it writes: after main's
/// body, invocation i writes vertices i, i + N, ... below the vertex count
/// (vertex k goes to slot (k + rot) % count) and likewise primitives, from
/// its variables' words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MeshShape {
    pub topology: Topology,
    pub max_vertices: u32,
    pub max_primitives: u32,
    pub vertices: u32,
    pub primitives: u32,
    /// Odd workgroups declare one vertex and one primitive fewer (a count
    /// that depends on gl_WorkGroupID, uniform in the workgroup).
    pub fewer_in_odd_groups: bool,
    /// SetMeshOutputsEXT after the body instead of before it.
    pub counts_late: bool,
    pub rot: u32,
    /// Launched by a task shader: inputs mixed with its payload, outputs
    /// to binding 3.
    pub behind_task: Option<u32>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Topology {
    Points,
    Lines,
    Triangles,
}

/// A task shader: it writes one payload word per invocation and emits
/// `emit` mesh workgroups (one fewer in odd task workgroups when
/// `fewer_in_odd_groups`).
#[derive(Clone, Debug, PartialEq)]
pub struct TaskShape {
    pub emit: u32,
    pub fewer_in_odd_groups: bool,
    pub mesh: Box<Program>,
}

impl Program {
    pub fn invocations(&self) -> u32 {
        self.size.iter().product()
    }

    /// Output words each invocation writes.
    pub fn out_words(&self) -> u32 {
        self.main.vars.iter().map(|t| words_of(*t)).sum::<u32>() + 8 * self.main.arrays
    }
}

/// 32-bit words a value of `t` takes in the output.
pub fn words_of(t: Ty) -> u32 {
    match t {
        Ty::U64 | Ty::I64 | Ty::F64 => 2,
        other => other.lanes(),
    }
}
