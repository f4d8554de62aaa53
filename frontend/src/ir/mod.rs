//! The project's SSA IR: what the frontend produces from SPIR-V and the
//! backend consumes. Entities live in cranelift-entity arenas and are named by
//! typed handles (`v3`, `block1`, `gv0`, `t5`).
//!
//! The IR keeps SPIR-V's logical shape (vectors, composites, typed pointers
//! with access chains) so that the backend sees which output, buffer or
//! built-in each access touches; function-local variables that are only
//! loaded and stored are already promoted to SSA values, with block
//! parameters in place of phis, and every function call is inlined.
//!
//! `Op` has one variant per operation family: `Unary` / `Binary` / `Cmp` /
//! `Convert` for the one- and two-operand arithmetic, `Math` for the rest
//! of GLSL.std.450 and the vector, matrix, bit-field and extended-result
//! instructions ([`MathOp`]), `Atomic` ([`AtomicOp`]), `Subgroup`
//! ([`SubgroupOp`]), and one variant each for memory, composite and
//! control-flow instructions. Each prints as one line (`math.Dot v1, v2`).

mod display;
mod families;
mod image;
mod inst;
mod types;

pub use families::{AtomicOp, GroupOperation, MathOp, ReduceOp, SubgroupOp};
pub use image::{ImageDim, ImageInst, ImageOp, ImageType};
pub use inst::{BinaryOp, BlockCall, CmpOp, ConvOp, InstData, Op, UnaryOp, ValueData, ValueDef};
pub use types::{
    BuiltIn, Interpolation, Scalar, StorageClass, StructMember, Type, TypeId, copyable,
};

use cranelift_entity::{PrimaryMap, entity_impl};

#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Value(u32);
entity_impl!(Value, "v");

#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Inst(u32);
entity_impl!(Inst, "inst");

#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Block(u32);
entity_impl!(Block, "block");

#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GlobalVar(u32);
entity_impl!(GlobalVar, "gv");

/// The shader stage of the entry point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    Task,
    Mesh,
    Compute,
}

impl Stage {
    pub fn name(self) -> &'static str {
        match self {
            Stage::Task => "task",
            Stage::Mesh => "mesh",
            Stage::Compute => "compute",
        }
    }
}

/// The primitive type a mesh shader emits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MeshTopology {
    Points,
    Lines,
    Triangles,
}

impl MeshTopology {
    pub fn vertices_per_primitive(self) -> u32 {
        match self {
            MeshTopology::Points => 1,
            MeshTopology::Lines => 2,
            MeshTopology::Triangles => 3,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            MeshTopology::Points => "points",
            MeshTopology::Lines => "lines",
            MeshTopology::Triangles => "triangles",
        }
    }
}

/// Mesh-stage execution modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MeshInfo {
    pub topology: MeshTopology,
    pub max_vertices: u32,
    pub max_primitives: u32,
}

/// A module-level variable (or a function-local one that could not be
/// promoted to SSA values).
#[derive(Clone, Debug, PartialEq)]
pub struct GlobalVarData {
    pub name: Option<String>,
    pub class: StorageClass,
    /// The pointee type (the variable's pointer type is `Pointer { class, ty }`).
    pub ty: TypeId,
    pub builtin: Option<BuiltIn>,
    pub location: Option<u32>,
    pub component: Option<u32>,
    pub per_primitive: bool,
    pub interpolation: Interpolation,
    pub descriptor_set: Option<u32>,
    pub binding: Option<u32>,
    /// A constant initializer (a value of the entry block).
    pub initializer: Option<Value>,
    pub spirv_id: u32,
}

/// Structured control flow as SPIR-V declares it on a header block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Merge {
    Selection {
        merge: Block,
    },
    Loop {
        merge: Block,
        continue_target: Block,
    },
}

#[derive(Clone, Debug, Default)]
pub struct BlockData {
    pub params: Vec<Value>,
    pub insts: Vec<Inst>,
    pub merge: Option<Merge>,
    pub spirv_label: Option<u32>,
}

/// One entry point, fully translated: its function (with every call inlined),
/// the variables it uses and its execution modes.
#[derive(Clone, Debug)]
pub struct Shader {
    pub stage: Stage,
    pub entry_name: String,
    /// LocalSize (or LocalSizeId resolved to constants).
    pub workgroup_size: [u32; 3],
    pub mesh: Option<MeshInfo>,
    pub types: PrimaryMap<TypeId, Type>,
    pub globals: PrimaryMap<GlobalVar, GlobalVarData>,
    pub values: PrimaryMap<Value, ValueData>,
    pub insts: PrimaryMap<Inst, InstData>,
    pub blocks: PrimaryMap<Block, BlockData>,
    /// Blocks in layout order; the first is the entry block.
    pub layout: Vec<Block>,
}

impl Shader {
    pub fn new(stage: Stage, entry_name: String) -> Self {
        Shader {
            stage,
            entry_name,
            workgroup_size: [1, 1, 1],
            mesh: None,
            types: PrimaryMap::new(),
            globals: PrimaryMap::new(),
            values: PrimaryMap::new(),
            insts: PrimaryMap::new(),
            blocks: PrimaryMap::new(),
            layout: Vec::new(),
        }
    }

    /// The workgroup's invocation count, saturating at `u32::MAX`: sizes
    /// whose product wraps in 32 bits (65536 x 65536 x 1 gives 0) must
    /// still exceed every limit, not slip under it.
    pub fn invocations(&self) -> u32 {
        self.workgroup_size
            .iter()
            .fold(1u32, |n, &s| n.saturating_mul(s))
    }

    pub fn entry_block(&self) -> Block {
        self.layout[0]
    }

    /// Interns a type: equal types share one handle.
    pub fn intern_type(&mut self, ty: Type) -> TypeId {
        if let Some((id, _)) = self.types.iter().find(|(_, t)| **t == ty) {
            return id;
        }
        self.types.push(ty)
    }

    pub fn value_type(&self, v: Value) -> &Type {
        &self.types[self.values[v].ty]
    }

    /// The instruction defining `v`, if it is an instruction result.
    pub fn def_inst(&self, v: Value) -> Option<&InstData> {
        match self.values[v].def {
            ValueDef::Inst(i) => Some(&self.insts[i]),
            ValueDef::Param(..) => None,
        }
    }

    /// The constant bits of `v` when it is a scalar constant.
    pub fn const_value(&self, v: Value) -> Option<u64> {
        match self.def_inst(v)?.op {
            Op::Const(bits) => Some(bits),
            _ => None,
        }
    }

    pub fn new_block(&mut self, spirv_label: Option<u32>) -> Block {
        let b = self.blocks.push(BlockData {
            spirv_label,
            ..Default::default()
        });
        self.layout.push(b);
        b
    }

    pub fn add_block_param(&mut self, block: Block, ty: TypeId) -> Value {
        let idx = self.blocks[block].params.len() as u32;
        let v = self.values.push(ValueData {
            ty,
            def: ValueDef::Param(block, idx),
        });
        self.blocks[block].params.push(v);
        v
    }

    /// Appends an instruction to `block`; `result_ty` gives it a result value.
    pub fn append(
        &mut self,
        block: Block,
        op: Op,
        result_ty: Option<TypeId>,
        spirv_id: Option<u32>,
    ) -> (Inst, Option<Value>) {
        let inst = self.insts.push(InstData {
            op,
            result: None,
            spirv_id,
        });
        let result = result_ty.map(|ty| {
            let v = self.values.push(ValueData {
                ty,
                def: ValueDef::Inst(inst),
            });
            self.insts[inst].result = Some(v);
            v
        });
        self.blocks[block].insts.push(inst);
        (inst, result)
    }

    /// The terminator of `block`, if it has one.
    pub fn terminator(&self, block: Block) -> Option<&Op> {
        let last = *self.blocks[block].insts.last()?;
        let op = &self.insts[last].op;
        op.is_terminator().then_some(op)
    }

    pub fn successors(&self, block: Block) -> Vec<Block> {
        self.terminator(block)
            .map(Op::successors)
            .unwrap_or_default()
    }
}
