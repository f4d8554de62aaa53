//! Backend errors: each names what failed and where in the SPIR-V module.

use crate::program::ProgramEncodeError;
use spvsass_frontend::ir::{BinaryOp, CmpOp, ConvOp, Op, UnaryOp};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BackendError {
    #[error("{what} is not supported yet by the backend ({opcode}{})", id_text(*.spirv_id))]
    Unsupported {
        what: String,
        opcode: String,
        spirv_id: Option<u32>,
    },
    #[error("{what}{}", id_text(*.spirv_id))]
    Invalid { what: String, spirv_id: Option<u32> },
    /// Instruction selection put a boolean (a predicate register) where a
    /// 32-bit word is wanted: a compiler bug, reported instead of reading
    /// the predicate as RZ.
    #[error(
        "internal error: a boolean (predicate) value was selected as a 32-bit operand ({opcode}{})",
        id_text(*.spirv_id)
    )]
    PredicateAsWord {
        opcode: String,
        spirv_id: Option<u32>,
    },
    #[error("{what} = {value} exceeds the limit of {limit} ({property}, H100)")]
    Limit {
        what: String,
        value: u32,
        limit: u32,
        property: &'static str,
    },
    #[error("register allocation failed: {0}")]
    RegAlloc(String),
    #[error(
        "register pressure needs {slots} spill slots, more than local-memory offsets reach ({max_bytes} bytes)"
    )]
    SpillFrameTooLarge { slots: usize, max_bytes: u32 },
    #[error("structured control flow nests deeper than the {0} convergence barriers")]
    TooDeep(u8),
    /// A pass left the machine IR malformed: a compiler bug, reported
    /// instead of compiling on (checked in debug builds).
    #[error("internal error: the machine IR after {pass} is malformed: {error}")]
    Verify {
        pass: &'static str,
        error: crate::verify::VerifyError,
    },
    #[error("encoding failed: {0}")]
    Encode(#[from] ProgramEncodeError),
}

fn id_text(id: Option<u32>) -> String {
    id.map(|i| format!(", result %{i}")).unwrap_or_default()
}

/// The SPIR-V opcode an IR op came from, for messages.
pub fn spirv_opcode(op: &Op) -> String {
    match op {
        Op::Binary(b, ..) => match b {
            BinaryOp::Shl => "OpShiftLeftLogical".into(),
            BinaryOp::ShrLogical => "OpShiftRightLogical".into(),
            BinaryOp::ShrArithmetic => "OpShiftRightArithmetic".into(),
            BinaryOp::And => "OpBitwiseAnd".into(),
            BinaryOp::Or => "OpBitwiseOr".into(),
            BinaryOp::Xor => "OpBitwiseXor".into(),
            BinaryOp::UMin
            | BinaryOp::UMax
            | BinaryOp::SMin
            | BinaryOp::SMax
            | BinaryOp::FMin
            | BinaryOp::FMax => {
                format!("GLSL.std.450 {b:?}")
            }
            other => format!("Op{other:?}"),
        },
        Op::Unary(u, _) => match u {
            UnaryOp::INeg => "OpSNegate".into(),
            UnaryOp::FNeg => "OpFNegate".into(),
            UnaryOp::Not => "OpNot".into(),
            UnaryOp::LogicalNot => "OpLogicalNot".into(),
            UnaryOp::BitCount => "OpBitCount".into(),
            UnaryOp::BitReverse => "OpBitReverse".into(),
            UnaryOp::FAbs => "GLSL.std.450 FAbs".into(),
            UnaryOp::FFloor => "GLSL.std.450 Floor".into(),
            UnaryOp::FCeil => "GLSL.std.450 Ceil".into(),
            UnaryOp::FTrunc => "GLSL.std.450 Trunc".into(),
            UnaryOp::FRound => "GLSL.std.450 RoundEven".into(),
            UnaryOp::FFract => "GLSL.std.450 Fract".into(),
            UnaryOp::FSqrt => "GLSL.std.450 Sqrt".into(),
            UnaryOp::FRsqrt => "GLSL.std.450 InverseSqrt".into(),
            UnaryOp::FExp2 => "GLSL.std.450 Exp2".into(),
            UnaryOp::FLog2 => "GLSL.std.450 Log2".into(),
            UnaryOp::FSin => "GLSL.std.450 Sin".into(),
            UnaryOp::FCos => "GLSL.std.450 Cos".into(),
        },
        Op::Cmp(c, ..) => match c {
            CmpOp::IEq => "OpIEqual".into(),
            CmpOp::INe => "OpINotEqual".into(),
            CmpOp::LogicalEq => "OpLogicalEqual".into(),
            CmpOp::LogicalNe => "OpLogicalNotEqual".into(),
            other => format!("Op{other:?}"),
        },
        Op::Convert(c, _) => match c {
            ConvOp::UToF => "OpConvertUToF".into(),
            ConvOp::SToF => "OpConvertSToF".into(),
            ConvOp::FToU => "OpConvertFToU".into(),
            ConvOp::FToS => "OpConvertFToS".into(),
            ConvOp::FToF => "OpFConvert".into(),
            ConvOp::UConvert => "OpUConvert".into(),
            ConvOp::SConvert => "OpSConvert".into(),
            ConvOp::Bitcast => "OpBitcast".into(),
            ConvOp::UToPtr => "OpConvertUToPtr".into(),
            ConvOp::PtrToU => "OpConvertPtrToU".into(),
        },
        Op::Const(_) => "OpConstant".into(),
        Op::Undef => "OpUndef".into(),
        Op::Select { .. } => "OpSelect".into(),
        Op::CompositeConstruct(_) => "OpCompositeConstruct".into(),
        Op::CompositeExtract { .. } => "OpCompositeExtract".into(),
        Op::CompositeInsert { .. } => "OpCompositeInsert".into(),
        Op::VectorShuffle { .. } => "OpVectorShuffle".into(),
        Op::VarAddr(_) => "OpVariable".into(),
        Op::AccessChain { .. } => "OpAccessChain".into(),
        Op::Load { .. } => "OpLoad".into(),
        Op::Store { .. } => "OpStore".into(),
        Op::SetMeshOutputs { .. } => "OpSetMeshOutputsEXT".into(),
        Op::ControlBarrier => "OpControlBarrier".into(),
        Op::MemoryBarrier => "OpMemoryBarrier".into(),
        Op::Jump(_) => "OpBranch".into(),
        Op::Branch { .. } => "OpBranchConditional".into(),
        Op::Return => "OpReturn".into(),
        Op::EmitMeshTasks { .. } => "OpEmitMeshTasksEXT".into(),
        Op::Unreachable => "OpUnreachable".into(),
        Op::PtrAccessChain { .. } => "OpPtrAccessChain".into(),
        Op::ExtractDynamic { .. } => "OpVectorExtractDynamic".into(),
        Op::InsertDynamic { .. } => "OpVectorInsertDynamic".into(),
        Op::CopyLogical(_) => "OpCopyLogical".into(),
        Op::CopyMemory { .. } => "OpCopyMemory".into(),
        Op::ArrayLength { .. } => "OpArrayLength".into(),
        Op::Math(m, _) => format!("{m:?}"),
        Op::Atomic { op, .. } => format!("OpAtomic{op:?}"),
        Op::Subgroup(s, _) => format!("OpGroupNonUniform {s:?}"),
        Op::Switch { .. } => "OpSwitch".into(),
        Op::SampledImage { .. } => "OpSampledImage".into(),
        Op::ImageOf(_) => "OpImage".into(),
        Op::Image(i) => i.opcode_name().into(),
        Op::ImageTexelPointer { .. } => "OpImageTexelPointer".into(),
    }
}
