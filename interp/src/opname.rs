//! The SPIR-V opcode an IR operation came from, for error messages.

use spvsass_frontend::ir::{BinaryOp, CmpOp, ConvOp, Op, UnaryOp};

/// The SPIR-V opcode (or GLSL.std.450 instruction) name of `op`.
pub fn opcode(op: &Op) -> &'static str {
    match op {
        Op::Const(_) => "OpConstant",
        Op::Undef => "OpUndef",
        Op::Unary(u, _) => unary(*u),
        Op::Binary(b, ..) => binary(*b),
        Op::Cmp(c, ..) => cmp(*c),
        Op::Convert(c, _) => conv(*c),
        Op::Select { .. } => "OpSelect",
        Op::CompositeConstruct(_) => "OpCompositeConstruct",
        Op::CompositeExtract { .. } => "OpCompositeExtract",
        Op::CompositeInsert { .. } => "OpCompositeInsert",
        Op::VectorShuffle { .. } => "OpVectorShuffle",
        Op::VarAddr(_) => "OpVariable",
        Op::AccessChain { .. } => "OpAccessChain",
        Op::PtrAccessChain { .. } => "OpPtrAccessChain",
        Op::ExtractDynamic { .. } => "OpVectorExtractDynamic",
        Op::InsertDynamic { .. } => "OpVectorInsertDynamic",
        Op::CopyLogical(_) => "OpCopyLogical",
        Op::Load { .. } => "OpLoad",
        Op::Store { .. } => "OpStore",
        Op::CopyMemory { .. } => "OpCopyMemory",
        Op::ArrayLength { .. } => "OpArrayLength",
        Op::Math(..) => "OpExtInst",
        Op::Atomic { .. } => "OpAtomic*",
        Op::Subgroup(..) => "OpGroupNonUniform*",
        Op::SetMeshOutputs { .. } => "OpSetMeshOutputsEXT",
        Op::ControlBarrier => "OpControlBarrier",
        Op::MemoryBarrier => "OpMemoryBarrier",
        Op::Jump(_) => "OpBranch",
        Op::Branch { .. } => "OpBranchConditional",
        Op::Switch { .. } => "OpSwitch",
        Op::Return => "OpReturn",
        Op::EmitMeshTasks { .. } => "OpEmitMeshTasksEXT",
        Op::Unreachable => "OpUnreachable",
        Op::SampledImage { .. } => "OpSampledImage",
        Op::ImageOf(_) => "OpImage",
        Op::Image(i) => i.opcode_name(),
        Op::ImageTexelPointer { .. } => "OpImageTexelPointer",
    }
}

fn unary(u: UnaryOp) -> &'static str {
    match u {
        UnaryOp::INeg => "OpSNegate",
        UnaryOp::FNeg => "OpFNegate",
        UnaryOp::Not => "OpNot",
        UnaryOp::LogicalNot => "OpLogicalNot",
        UnaryOp::BitCount => "OpBitCount",
        UnaryOp::BitReverse => "OpBitReverse",
        UnaryOp::FAbs => "FAbs",
        UnaryOp::FFloor => "Floor",
        UnaryOp::FCeil => "Ceil",
        UnaryOp::FTrunc => "Trunc",
        UnaryOp::FRound => "RoundEven",
        UnaryOp::FFract => "Fract",
        UnaryOp::FSqrt => "Sqrt",
        UnaryOp::FRsqrt => "InverseSqrt",
        UnaryOp::FExp2 => "Exp2",
        UnaryOp::FLog2 => "Log2",
        UnaryOp::FSin => "Sin",
        UnaryOp::FCos => "Cos",
    }
}

fn binary(b: BinaryOp) -> &'static str {
    match b {
        BinaryOp::IAdd => "OpIAdd",
        BinaryOp::ISub => "OpISub",
        BinaryOp::IMul => "OpIMul",
        BinaryOp::UDiv => "OpUDiv",
        BinaryOp::SDiv => "OpSDiv",
        BinaryOp::UMod => "OpUMod",
        BinaryOp::SRem => "OpSRem",
        BinaryOp::SMod => "OpSMod",
        BinaryOp::FAdd => "OpFAdd",
        BinaryOp::FSub => "OpFSub",
        BinaryOp::FMul => "OpFMul",
        BinaryOp::FDiv => "OpFDiv",
        BinaryOp::FRem => "OpFRem",
        BinaryOp::FMod => "OpFMod",
        BinaryOp::And => "OpBitwiseAnd",
        BinaryOp::Or => "OpBitwiseOr",
        BinaryOp::Xor => "OpBitwiseXor",
        BinaryOp::Shl => "OpShiftLeftLogical",
        BinaryOp::ShrLogical => "OpShiftRightLogical",
        BinaryOp::ShrArithmetic => "OpShiftRightArithmetic",
        BinaryOp::LogicalAnd => "OpLogicalAnd",
        BinaryOp::LogicalOr => "OpLogicalOr",
        BinaryOp::UMin => "UMin",
        BinaryOp::UMax => "UMax",
        BinaryOp::SMin => "SMin",
        BinaryOp::SMax => "SMax",
        BinaryOp::FMin => "FMin",
        BinaryOp::FMax => "FMax",
    }
}

fn cmp(c: CmpOp) -> &'static str {
    match c {
        CmpOp::IEq => "OpIEqual",
        CmpOp::INe => "OpINotEqual",
        CmpOp::ULt => "OpULessThan",
        CmpOp::ULe => "OpULessThanEqual",
        CmpOp::UGt => "OpUGreaterThan",
        CmpOp::UGe => "OpUGreaterThanEqual",
        CmpOp::SLt => "OpSLessThan",
        CmpOp::SLe => "OpSLessThanEqual",
        CmpOp::SGt => "OpSGreaterThan",
        CmpOp::SGe => "OpSGreaterThanEqual",
        CmpOp::FOrdEq => "OpFOrdEqual",
        CmpOp::FOrdNe => "OpFOrdNotEqual",
        CmpOp::FOrdLt => "OpFOrdLessThan",
        CmpOp::FOrdLe => "OpFOrdLessThanEqual",
        CmpOp::FOrdGt => "OpFOrdGreaterThan",
        CmpOp::FOrdGe => "OpFOrdGreaterThanEqual",
        CmpOp::FUnordEq => "OpFUnordEqual",
        CmpOp::FUnordNe => "OpFUnordNotEqual",
        CmpOp::FUnordLt => "OpFUnordLessThan",
        CmpOp::FUnordLe => "OpFUnordLessThanEqual",
        CmpOp::FUnordGt => "OpFUnordGreaterThan",
        CmpOp::FUnordGe => "OpFUnordGreaterThanEqual",
        CmpOp::LogicalEq => "OpLogicalEqual",
        CmpOp::LogicalNe => "OpLogicalNotEqual",
    }
}

fn conv(c: ConvOp) -> &'static str {
    match c {
        ConvOp::UToF => "OpConvertUToF",
        ConvOp::SToF => "OpConvertSToF",
        ConvOp::FToU => "OpConvertFToU",
        ConvOp::FToS => "OpConvertFToS",
        ConvOp::FToF => "OpFConvert",
        ConvOp::UConvert => "OpUConvert",
        ConvOp::SConvert => "OpSConvert",
        ConvOp::Bitcast => "OpBitcast",
        ConvOp::UToPtr => "OpConvertUToPtr",
        ConvOp::PtrToU => "OpConvertPtrToU",
    }
}
